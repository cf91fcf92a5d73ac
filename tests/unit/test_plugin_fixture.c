/* A stand-in plugin for test_plugin.c: one table of version 7, and an entry point with none. */
#include <stddef.h>
#include <stdint.h>

#include "test_plugin_fixture.h"

#define FX_API __attribute__((visibility("default")))

static const struct fx_plugin_api api = {.version = FX_PLUGIN_VERSION, .magic = FX_PLUGIN_MAGIC};

FX_API const struct fx_plugin_api *fx_plugin_get_api(void)
{
	return &api;
}

FX_API const struct fx_plugin_api *fx_plugin_get_nothing(void)
{
	return NULL;
}
