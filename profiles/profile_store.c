/* Reading, creating, replacing, deleting and listing profile files. */
#include "profile_store.h"

#include "atomic_file.h"
#include "config_paths.h"
#include "hotswap_contract.h"
#include "profile_file.h"
#include "profile_ini.h"
#include "suggest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A temp file this old is a killed writer's (a live one takes milliseconds). */
#define STALE_TEMP_SECONDS (10 * 60)

char *profile_path(const char *name)
{
	char *dir = mirage_profiles_dir();
	char *path = xstrfmt("%s/%s.ini", dir, name);
	free(dir);
	return path;
}

char *profile_lookup_name(const char *name, struct diag *err)
{
	/* The rule of create, so that a name that cannot be created is never found either. */
	if (profile_name_check(name, err) < 0)
		return NULL;
	return xstrdup(name);
}

/* The one "not found" message of load, exists and delete. */
static int not_found(const char *name, struct diag *err, bool suggest_create)
{
	char *dir = mirage_profiles_dir();
	struct strvec names = STRVEC_INIT;
	struct diag ignored = DIAG_INIT;
	struct suggestion s = SUGGESTION_INIT;

	diag_set(err, "profile '%s' not found in '%s'", name, dir);
	/* A slip of an existing name is far likelier than a wish for a new profile. */
	if (profile_list(&names, &ignored) == 0)
		for (size_t i = 0; i < names.nr; i++)
			suggest_add(&s, name, names.v[i]);
	if (suggest_best(&s))
		diag_hint(err, "did you mean '%s'? 'mirage profile list' shows the profiles",
		          suggest_best(&s));
	else if (suggest_create)
		diag_hint(err,
		          "'mirage profile list' shows the profiles; 'mirage profile create %s "
		          "--emulator hotswap' makes one",
		          name);
	else
		diag_hint(err, "'mirage profile list' shows the profiles");
	strvec_clear(&names);
	diag_release(&ignored);
	free(dir);
	return -1;
}

int profile_load(const char *name, struct profile *p, struct diag *err)
{
	char *path = profile_path(name);
	struct strbuf text = STRBUF_INIT;
	int ret = -1;

	profile_init(p, name);
	if (profile_read_file(path, "profile", &text, err) < 0) {
		if (errno == ENOENT)
			not_found(name, err, true);
		else if (errno == EINVAL || errno == EFBIG) /* not a profile mirage wrote */
			diag_hint(err, "'mirage profile delete %s -f' removes it", name);
		goto out;
	}
	ret = profile_parse_ini(p, text.buf, text.len, path, name, err);
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
	/* What a killed writer left (harmless to readers, but it piles up) goes first. */
	atomic_sweep_temps(dir, ".ini", STALE_TEMP_SECONDS);
	profile_format_ini(p, &text);
	/* 0666: the umask decides, so a private umask gives private profiles. */
	if (atomic_write_file(path, text.buf, text.len, 0666, how) < 0) {
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

int profile_delete_held(const char *name, struct diag *err)
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

int profile_delete(const char *name, struct diag *err)
{
	struct profile_lock lock = PROFILE_LOCK_INIT;
	int ret;
	/* Under the lock, so an edit between its load and its save never brings the file back. */
	if (profile_lock_store(&lock, PROFILE_LOCK_WAIT_MS, err) < 0)
		return -1;
	ret = profile_delete_held(name, err);
	profile_unlock_store(&lock);
	return ret;
}

/* Opens (creating) the lock file in dir, refusing a planted symlink or special file. */
static int open_lock_file(const char *dir, const char *path, struct diag *err)
{
	struct stat st;
	int fd;

	/* O_NONBLOCK: a FIFO planted there must not block the open. */
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	if (fd < 0 && errno == ENOENT) {
		/* No profiles directory yet: make it, as the first write would. */
		if (mkdir_parents(dir, 0700) < 0)
			return -2; /* nothing can be stored there, so there is nothing to lock */
		fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	}
	if (fd < 0) {
		if (errno == ELOOP || errno == EISDIR) {
			diag_set(err, "cannot lock the profiles: '%s' is a %s", path,
			         errno == ELOOP ? "symbolic link" : "directory");
			diag_hint(err, "remove '%s'; mirage makes it again", path);
		} else {
			diag_set(err, "cannot lock the profiles: '%s': %s", path, strerror(errno));
			diag_hint(err, "set MIRAGE_CONFIG to a writable directory");
		}
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		diag_set(err, "cannot lock the profiles: '%s' is not a regular file", path);
		diag_hint(err, "remove '%s'; mirage makes it again", path);
		return -1;
	}
	return fd;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int profile_lock_store(struct profile_lock *lock, unsigned wait_ms, struct diag *err)
{
	char *dir = mirage_profiles_dir();
	char *path = xstrfmt("%s/.lock", dir);
	long long deadline = now_ms() + wait_ms;
	long step_ms = 1;
	int fd = open_lock_file(dir, path, err), ret = 0;

	lock->fd = -1;
	if (fd < 0) {
		ret = fd == -2 ? 0 : -1;
		goto out;
	}
	/* flock: released by the kernel when the holder exits, so a killed mirage leaves none. */
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		struct timespec pause;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK) {
			ret = diag_set(err, "cannot lock the profiles: '%s': %s", path,
			               strerror(errno));
			break;
		}
		if (now_ms() >= deadline) {
			ret = diag_set(
			    err, "the profiles are busy: another process has held '%s' for %g s",
			    path, wait_ms / 1000.0);
			diag_hint(err, "let the other 'mirage profile' command finish (a stopped "
			               "one holds the lock until it exits), then try again");
			break;
		}
		pause.tv_sec = 0;
		pause.tv_nsec = step_ms * 1000000;
		nanosleep(&pause, NULL);
		step_ms = step_ms < 32 ? step_ms * 2 : step_ms;
	}
	if (ret < 0)
		close(fd);
	else
		lock->fd = fd;
out:
	free(path);
	free(dir);
	return ret;
}

void profile_unlock_store(struct profile_lock *lock)
{
	if (lock->fd >= 0)
		close(lock->fd); /* closing the last descriptor releases the flock */
	lock->fd = -1;
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
