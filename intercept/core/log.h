/*
 * The intercept's one logging path: "hotswap: " lines on stderr, errno preserved, every
 * formatted argument escaped (stderr_line.h): object names and paths come from outside.
 */
#ifndef HOTSWAP_INTERCEPT_LOG_H
#define HOTSWAP_INTERCEPT_LOG_H

#include <hotswap/rewrite.h>

/* Warnings always print; info lines only when HSA_HOTSWAP_VERBOSE is truthy (read once). */
void hsi_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void hsi_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A line without the "hotswap: " prefix (the cache debug lines carry their own). */
void hsi_raw(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The rewriter's log callback while it runs in the intercept (hs_set_log_fn): the same lines
 * its default prints (warnings; info under HSA_HOTSWAP_VERBOSE), escaped like ours.
 */
void hsi_rewriter_log(enum hs_log_level level, const char *msg, void *ctx);

#endif
