/* The stand-in plugin's interface, as a real plugin's header would give it. */
#ifndef MIRAGE_TEST_PLUGIN_FIXTURE_H
#define MIRAGE_TEST_PLUGIN_FIXTURE_H

#include <stdint.h>

#define FX_PLUGIN_VERSION 7
#define FX_PLUGIN_MAGIC   0x51a7

struct fx_plugin_api {
	uint32_t version; /* FX_PLUGIN_VERSION */
	int magic;
};

typedef const struct fx_plugin_api *(*fx_plugin_get_api_fn)(void);

#endif
