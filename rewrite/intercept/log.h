/* The intercept's one logging path: "hotswap: " lines on stderr, errno preserved. */
#ifndef HOTSWAP_INTERCEPT_LOG_H
#define HOTSWAP_INTERCEPT_LOG_H

/* Warnings always print; info lines only when HSA_HOTSWAP_VERBOSE is truthy (read once). */
void hsi_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void hsi_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A line without the "hotswap: " prefix (the cache debug lines carry their own). */
void hsi_raw(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
