/* Reading, creating, replacing, deleting and listing profile files. */
#include "profile_store.h"

#include "atomic_file.h"
#include "config_paths.h"
#include "hotswap_contract.h"
#include "profile_ini.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *profile_path(const char *name)
{
	char *dir = mirage_profiles_dir();
	char *path = xstrfmt("%s/%s.ini", dir, name);
	free(dir);
	return path;
}

char *profile_lookup_name(const char *name, struct diag *err)
{
	char *lower = str_lower(xstrdup(name));
	if (profile_name_check(lower, err) < 0) {
		/* Report the name as the user typed it. */
		struct diag again = DIAG_INIT;
		profile_name_check(name, &again);
		if (again.msg.len)
			diag_set(err, "%s", again.msg.buf);
		diag_release(&again);
		free(lower);
		return NULL;
	}
	return lower;
}

/* The one "not found" message of load, exists and delete. */
static int not_found(const char *name, struct diag *err, bool suggest_create)
{
	char *dir = mirage_profiles_dir();
	diag_set(err, "profile '%s' not found in '%s'", name, dir);
	if (suggest_create)
		diag_hint(err,
		          "'mirage profile list' shows the profiles; 'mirage profile create %s "
		          "--emulator hotswap' makes one",
		          name);
	else
		diag_hint(err, "'mirage profile list' shows the profiles");
	free(dir);
	return -1;
}

int profile_load(const char *name, struct profile *p, struct diag *err)
{
	char *path = profile_path(name);
	struct strbuf text = STRBUF_INIT;
	int ret = -1;

	profile_init(p, name);
	if (strbuf_read_file(&text, path) < 0) {
		if (errno == ENOENT)
			not_found(name, err, true);
		else
			diag_set(err, "cannot read profile '%s': %s", path, strerror(errno));
		goto out;
	}
	ret = profile_parse_ini(p, text.buf, path, name, err);
out:
	strbuf_release(&text);
	free(path);
	return ret;
}

int profile_load_typed(const char *typed, struct profile *p, struct diag *err)
{
	char *name = profile_lookup_name(typed, err);
	int ret;
	if (!name) {
		profile_init(p, "");
		return PROFILE_BAD_NAME;
	}
	ret = profile_load(name, p, err);
	free(name);
	return ret;
}

int profile_exists(const char *name, struct diag *err)
{
	char *path = profile_path(name);
	int ret = 0;
	if (access(path, F_OK) < 0)
		ret = errno == ENOENT
		          ? not_found(name, err, false)
		          : diag_set(err, "cannot check profile '%s': %s", path, strerror(errno));
	free(path);
	return ret;
}

static int write_profile(const struct profile *p, enum atomic_write_mode how, struct diag *err)
{
	char *dir = mirage_profiles_dir();
	char *path = profile_path(p->name);
	struct strbuf text = STRBUF_INIT;
	int ret = -1;

	if (mkdir_parents(dir, 0700) < 0) {
		diag_set(err, "cannot create the profile directory '%s': %s", dir, strerror(errno));
		diag_hint(err, "set " MIRAGE_ENV_CONFIG " to a writable directory");
		goto out;
	}
	profile_format_ini(p, &text);
	if (atomic_write_file(path, text.buf, text.len, 0644, how) < 0) {
		if (errno == EEXIST) {
			diag_set(err, "profile '%s' already exists at '%s'", p->name, path);
			diag_hint(
			    err,
			    "delete it first ('mirage profile delete %s') or choose another name",
			    p->name);
		} else {
			diag_set(err, "cannot write profile '%s': %s", path, strerror(errno));
		}
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&text);
	free(path);
	free(dir);
	return ret;
}

int profile_create(const struct profile *p, struct diag *err)
{
	return write_profile(p, ATOMIC_EXCLUSIVE, err);
}

int profile_save(const struct profile *p, struct diag *err)
{
	return write_profile(p, ATOMIC_REPLACE, err);
}

int profile_delete(const char *name, struct diag *err)
{
	char *path = profile_path(name);
	int ret = 0;
	if (unlink(path) < 0) {
		if (errno == ENOENT)
			not_found(name, err, false);
		else
			diag_set(err, "cannot delete profile '%s': %s", path, strerror(errno));
		ret = -1;
	}
	free(path);
	return ret;
}

int profile_list(struct strvec *names, struct diag *err)
{
	char *dir = mirage_profiles_dir();
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t first = names->nr;

	if (!d) {
		int ret = 0;
		if (errno != ENOENT)
			ret =
			    diag_set(err, "cannot list profiles in '%s': %s", dir, strerror(errno));
		free(dir);
		return ret; /* no directory yet: no profiles */
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		struct diag ignore = DIAG_INIT;
		/* Only <valid-name>.ini: temp files from atomic writes and strays are not profiles.
		 */
		if (len > 4 && !strcmp(e->d_name + len - 4, ".ini")) {
			char *stem = xstrndup(e->d_name, len - 4);
			if (profile_name_check(stem, &ignore) == 0)
				strvec_push_nodup(names, stem);
			else
				free(stem);
		}
		diag_release(&ignore);
	}
	closedir(d);
	free(dir);
	strvec_sort(names, first);
	return 0;
}
