/* Resolution of mirage's config, data and cache directories. */
#include "config_paths.h"

#include "cache_root.h"
#include "hotswap_contract.h"
#include "strbuf.h"
#include "xdg_dir.h"

#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>

static const char *nonempty_env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

static const char *home_dir(void)
{
	const char *home = nonempty_env("HOME");
	if (!home) {
		struct passwd *pw = getpwuid(getuid());
		home = pw && pw->pw_dir ? pw->pw_dir : "/";
	}
	return home;
}

static char *resolve(const char *own, const char *xdg, const char *fallback, const char *leaf)
{
	const char *v;
	if ((v = nonempty_env(own)))
		return xstrdup(v);
	if ((v = xdg_base_dir(xdg)))
		return xstrfmt("%s/%s", v, leaf);
	return xstrfmt("%s/%s/%s", home_dir(), fallback, leaf);
}

char *mirage_config_dir(void)
{
	return resolve(MIRAGE_ENV_CONFIG, "XDG_CONFIG_HOME", ".config", "mirage");
}

/* Which of resolve()'s three sources decides: own, xdg or "HOME". */
static const char *source_of(const char *own, const char *xdg)
{
	return nonempty_env(own) ? own : xdg_base_dir(xdg) ? xdg : "HOME";
}

const char *mirage_config_dir_source(void)
{
	return source_of(MIRAGE_ENV_CONFIG, "XDG_CONFIG_HOME");
}

char *mirage_profiles_dir(void)
{
	char *config = mirage_config_dir();
	char *dir = xstrfmt("%s/profiles", config);
	free(config);
	return dir;
}

char *mirage_data_dir(void)
{
	return resolve(MIRAGE_ENV_DATA, "XDG_DATA_HOME", ".local/share", "mirage");
}

const char *mirage_data_dir_source(void)
{
	return source_of(MIRAGE_ENV_DATA, "XDG_DATA_HOME");
}

char *mirage_cache_dir(void)
{
	return resolve(MIRAGE_ENV_CACHE, "XDG_CACHE_HOME", ".cache", "mirage");
}

char *mirage_translation_cache_dir(void)
{
	/* The intercept's own default, by the same function: it does not know MIRAGE_CACHE. */
	return translation_cache_default_root();
}
