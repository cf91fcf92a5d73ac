/* The translator build's identity, "mirage-translate-<GNU build-id hex>" (build_id.c). */
#ifndef MIRAGE_TRANSLATE_BUILD_ID_H
#define MIRAGE_TRANSLATE_BUILD_ID_H

const char *translate_build_id(void);

#endif
