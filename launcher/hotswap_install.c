/* `mirage hotswap install`: fetch, verify, extract into a temp dir, check completeness, rename into
 * place. */
#include "hotswap_install.h"

#include "fetch_dl.h"
#include "msg.h"
#include "progress.h"

#include "atomic_file.h"
#include "human_size.h"
#include "name_rule.h"
#include "printable.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum download_kind download_kind(const char *source)
{
	const char *p = source;
	if (!isalpha((unsigned char)*p))
		return DOWNLOAD_PATH;
	while (isalnum((unsigned char)*p) || *p == '+' || *p == '-' || *p == '.')
		p++;
	if (strncmp(p, "://", 3))
		return DOWNLOAD_PATH;
	if (!strncasecmp(source, "http://", 7) || !strncasecmp(source, "https://", 8) ||
	    !strncasecmp(source, "file://", 7))
		return DOWNLOAD_URL;
	return DOWNLOAD_BAD_SCHEME;
}

int hotswap_name_check(const char *name, struct diag *err)
{
	return name_rule_check("tree", name, "tree names are lowercase", err);
}

char *hotswap_name_from_source(const char *source)
{
	static const char *const suffixes[] = {".tar.gz",  ".tgz",  ".tar.xz", ".txz",
	                                       ".tar.bz2", ".tbz2", ".tbz",    ".tar.zst",
	                                       ".tzst",    ".tar",  ".zip",    NULL};
	const char *start = source, *end;
	size_t len;

	/* For a URL only the last path segment counts: not the host, no query, no fragment. */
	if (download_kind(source) != DOWNLOAD_PATH) {
		start = strstr(source, "://") + 3;
		start += strcspn(start, "/?#");
		if (*start != '/')
			return NULL;
	}
	end = start + strcspn(start, download_kind(source) != DOWNLOAD_PATH ? "?#" : "");
	while (end > start && end[-1] == '/')
		end--;
	for (const char *p = start; p < end; p++)
		if (*p == '/')
			start = p + 1;
	len = (size_t)(end - start);
	for (size_t i = 0; suffixes[i]; i++) {
		size_t sl = strlen(suffixes[i]);
		if (len > sl && !strncasecmp(end - sl, suffixes[i], sl)) {
			len -= sl;
			break;
		}
	}
	if (!len)
		return NULL;
	return str_lower(xstrndup(start, len));
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	/* A directory the owner may not write (an archive's 0555) must still go. */
	if (flag == FTW_DP)
		chmod(path, 0700);
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

int hotswap_remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (S_ISDIR(st.st_mode))
		chmod(path, 0700);
	/* FTW_PHYS: a symlink inside the tree is removed, never followed. */
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

void hotswap_installed_release(struct hotswap_installed *inst)
{
	free(inst->name);
	free(inst->root);
	memset(inst, 0, sizeof(*inst));
}

/* Set by the handlers below; the download and the extraction poll it and stop. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static const int caught_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NCAUGHT (sizeof(caught_signals) / sizeof(caught_signals[0]))

static void catch_signals(struct sigaction *old)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: blocking reads return EINTR */
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	for (size_t i = 0; i < NCAUGHT; i++) {
		sigaction(caught_signals[i], &sa, &old[i]);
		/* A signal ignored by whoever started us (nohup, a background job) stays ignored.
		 */
		if (old[i].sa_handler == SIG_IGN)
			sigaction(caught_signals[i], &old[i], NULL);
	}
}

/*
 * Puts the old handlers back.  If a signal stopped the install, the message
 * is printed and the process dies of that signal, as the user asked, now
 * that nothing is left behind.
 */
static void restore_signals(const struct sigaction *old, bool failed, const struct diag *err)
{
	int sig = interrupted;
	for (size_t i = 0; i < NCAUGHT; i++)
		sigaction(caught_signals[i], &old[i], NULL);
	if (sig && failed) {
		error("%s", err->msg.buf);
		msg_finish();
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

/* The module's transfer callback, feeding the meter that lives here in the launcher. */
static void on_progress(void *meter, uint64_t done, uint64_t total)
{
	progress_update(meter, progress_clock_ms(), done, total);
}

/*
 * "the tree in 'SRC' is incomplete" with discovery's flavour line and broken
 * parts, named relative to the tree: their paths lie in the temp directory,
 * which is gone by the time the message is read.  top comes from the archive,
 * so it is shown escaped.
 */
static int incomplete(const struct hotswap_tree *tree, const char *source, const char *top,
                      struct diag *err)
{
	if (!tree->found) {
		char *shown_top = top ? printable_text(top) : NULL;
		diag_set(err,
		         "'%s' is not a HotSwap tree: it has no " HOTSWAP_INTERCEPT_PATH
		         "%s%s%s; nothing was installed",
		         source, top ? " (inside its top directory '" : "",
		         shown_top ? shown_top : "", top ? "/')" : "");
		free(shown_top);
	} else {
		diag_set(err, "the HotSwap tree in '%s' is incomplete; nothing was installed",
		         source);
		hotswap_format_parts(tree, false, &err->msg);
	}
	diag_hint(err, "install an archive of a complete tree: " HOTSWAP_INTERCEPT_PATH
	               " plus " HOTSWAP_REWRITE_PATH " and " HOTSWAP_INTERCEPT_CORE_PATH
	               " (native), or the patched ROCr and COMGR (reference)");
	return -1;
}

static int already_installed(const char *name, const char *path, struct diag *err)
{
	diag_set(err, "a HotSwap tree named '%s' is already installed at '%s'", name, path);
	diag_hint(err,
	          "remove it first with `mirage hotswap remove %s`, or pick another name with "
	          "--name",
	          name);
	return -1;
}

/* A local archive over the size limit, found by its size or while it is copied. */
static int too_big(const char *shown, uint64_t max_bytes, struct diag *err)
{
	char words[HUMAN_SIZE_LEN];
	diag_set(err, "cannot install '%s': it is larger than the limit of %s", shown,
	         human_size_format(max_bytes, words));
	diag_hint(err, FETCH_RAISE_SIZE_HINT);
	return -1;
}

/*
 * Opens a local source once, before any work: it must be a readable regular
 * file no bigger than max_bytes.  From here on the install reads this
 * descriptor only, never the path, so the file cannot be swapped under it.
 * Returns the descriptor, or -1 with err set.
 */
static int open_local(const char *source, const char *shown, uint64_t max_bytes, struct diag *err)
{
	struct stat st;
	/* O_NONBLOCK: a FIFO planted at the path cannot hang the open (it is refused below). */
	int fd = open(source, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0 || fstat(fd, &st) < 0) {
		diag_set(err, "cannot read '%s': %s", shown, strerror(errno));
		diag_hint(err, "give a tree archive (.tar.gz, .tar.xz, .zip, ...) or an "
		               "http://, https:// or file:// URL");
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		diag_set(err, "'%s' is a directory; mirage installs tree archives", shown);
		diag_hint(err,
		          "use it in place with `export " HOTSWAP_ENV_HOME "=%s`, or pack it: "
		          "tar -czf tree.tar.gz -C %s .",
		          shown, shown);
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		diag_set(err, "cannot read '%s': not a regular file", shown);
		goto fail;
	}
	if ((uint64_t)st.st_size > max_bytes) {
		too_big(shown, max_bytes, err);
		goto fail;
	}
	return fd;
fail:
	if (fd >= 0)
		close(fd);
	return -1;
}

/*
 * A file in dir that only this process can reach: O_TMPFILE, else a name
 * unlinked at once (dir is our own 0700 temp directory).  The archive is
 * hashed and unpacked from it, so nobody can change it between the two.
 */
static int private_file(const char *dir, struct diag *err)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		char *path = xstrfmt("%s/archive", dir);
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			unlink(path);
		free(path);
	}
	if (fd < 0)
		diag_set(err, "cannot create a temporary file in '%s': %s", dir, strerror(errno));
	return fd;
}

/* The hint for a write to the data directory that failed: where to make room. */
static void no_room_hint(int e, struct diag *err)
{
	if (e == ENOSPC || e == EDQUOT || e == EFBIG)
		diag_hint(err, "free some space in the data directory (see `mirage paths`), or set "
		               "MIRAGE_DATA elsewhere");
}

/*
 * Copies the local archive into the private file: the copy is what gets
 * hashed and unpacked.  A file that grows past max_bytes while it is read is
 * refused like one that was too big to begin with.
 */
static int copy_local(int from, int to, const char *shown, const char *dir, uint64_t max_bytes,
                      struct diag *err)
{
	char buf[65536];
	uint64_t copied = 0;

	for (;;) {
		ssize_t n = read(from, buf, sizeof(buf));
		if (interrupted)
			return diag_set(err, "%s", FETCH_INTERRUPTED);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return diag_set(err, "cannot read '%s': %s", shown, strerror(errno));
		if (!n)
			return 0;
		if ((uint64_t)n > max_bytes - copied)
			return too_big(shown, max_bytes, err);
		copied += (uint64_t)n;
		for (ssize_t off = 0, w; off < n; off += w) {
			w = write(to, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR) {
				w = 0;
				continue;
			}
			if (w < 0) {
				int e = errno;
				diag_set(err, "cannot copy '%s' into '%s': %s", shown, dir,
				         strerror(e));
				no_room_hint(e, err);
				return -1;
			}
		}
	}
}

/*
 * Makes the staged tree durable before the rename publishes it, so a crash
 * never leaves a complete-looking but torn tree in place.  One syncfs() of
 * the filesystem it lies on instead of an fsync() per file: it writes every
 * file's data and every directory entry of the tree (and whatever else is
 * dirty there) in one journal commit, where N fsyncs cost N commits (~70 s
 * for 100,000 entries on ext4).  Linux reports writeback errors from
 * syncfs() since 5.8; on older kernels a failure goes unseen, as it would
 * with close().  Returns 0, or -1 with err set.
 */
static int flush_staged(const char *staged, struct diag *err)
{
	int fd = open(staged, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = fd < 0 ? -1 : syncfs(fd);
	int e = errno;
	if (fd >= 0)
		close(fd);
	if (ret < 0) {
		diag_set(err, "cannot write the extracted tree in '%s' to disk: %s", staged,
		         strerror(e));
		no_room_hint(e, err);
	}
	return ret;
}

/* Moves the staged tree into place unless the name is taken (also against a racing install). */
static int publish(const char *staged, const char *final, const char *name, struct diag *err)
{
	if (flush_staged(staged, err) < 0)
		return -1;
	if (renameat2(AT_FDCWD, staged, AT_FDCWD, final, RENAME_NOREPLACE) < 0) {
		struct stat st;
		if (errno == EEXIST || errno == ENOTEMPTY)
			return already_installed(name, final, err);
		/* Filesystems without RENAME_NOREPLACE: check, then rename (a narrow race). */
		if (errno != EINVAL && errno != ENOSYS) {
			diag_set(err, "cannot move the tree into '%s': %s", final, strerror(errno));
			return -1;
		}
		if (!lstat(final, &st))
			return already_installed(name, final, err);
		if (rename(staged, final) < 0) {
			diag_set(err, "cannot move the tree into '%s': %s", final, strerror(errno));
			return -1;
		}
	}
	fsync_parent_dir(final);
	return 0;
}

/*
 * Removes temp and trash directories a killed install or remove (SIGKILL, a
 * crash, a power cut) left behind; a day old, so no running install loses its own.
 */
static void sweep_stale(const char *dir)
{
	time_t cutoff = time(NULL) - 24 * 3600;
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;
		char *path;
		if (strncmp(de->d_name, ".tmp-", 5) && strncmp(de->d_name, ".rm-", 4))
			continue;
		path = xstrfmt("%s/%s", dir, de->d_name);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode) && st.st_mtime < cutoff)
			hotswap_remove_tree(path);
		free(path);
	}
	closedir(d);
}

int hotswap_install(const struct hotswap_install_opts *opts, struct hotswap_installed *out,
                    struct diag *err)
{
	struct sigaction old[NCAUGHT];
	struct hotswap_tree tree = HOTSWAP_TREE_INIT;
	struct extract_result ex = {0};
	struct progress meter;
	bool is_url = download_kind(opts->source) == DOWNLOAD_URL;
	uint64_t max_bytes = opts->max_bytes ? opts->max_bytes : DOWNLOAD_DEFAULT_MAX_BYTES;
	/* How every message names the source: a URL's userinfo redacted, escapes escaped. */
	char *shown = printable_text(opts->source);
	char *dir = hotswap_trees_dir();
	char *tmp = NULL, *staged = NULL, *name = NULL, *final = NULL;
	const struct fetch_api *fetch;
	int local_fd = -1, archive_fd = -1;
	struct stat st;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	catch_signals(old);
	if (!is_url && (local_fd = open_local(opts->source, shown, max_bytes, err)) < 0)
		goto cleanup;
	if (opts->name) {
		final = xstrfmt("%s/%s", dir, opts->name);
		if (!lstat(final, &st)) {
			already_installed(opts->name, final, err);
			goto cleanup;
		}
	}
	/* Only now, with the command line and the destination checked, is the heavy part needed. */
	fetch = fetch_dl_load(opts->self_exe, err);
	if (!fetch)
		goto cleanup;
	if (mkdir_parents(dir, 0755) < 0) {
		diag_set(err, "cannot create '%s': %s", dir, strerror(errno));
		diag_hint(err, "set " MIRAGE_ENV_DATA " to a writable directory");
		goto cleanup;
	}
	sweep_stale(dir);
	/* A dot name: discovery and `hotswap list` skip it while it is being filled. */
	tmp = xstrfmt("%s/.tmp-XXXXXX", dir);
	if (!mkdtemp(tmp)) {
		diag_set(err, "cannot create a temporary directory in '%s': %s", dir,
		         strerror(errno));
		free(tmp);
		tmp = NULL;
		goto cleanup;
	}

	/*
	 * The archive, downloaded or copied, lands in a file only this process
	 * can reach; the hash and both extraction passes read that one file.
	 */
	archive_fd = private_file(tmp, err);
	if (archive_fd < 0)
		goto cleanup;
	if (is_url) {
		progress_init(&meter, opts->progress, NULL, progress_clock_ms());
		if (fetch->download_to_fd(opts->source, archive_fd,
		                          &(struct download_opts){.progress = on_progress,
		                                                  .progress_arg = &meter,
		                                                  .cancel = &interrupted,
		                                                  .max_bytes = max_bytes,
		                                                  .timeout_s = opts->timeout_s,
		                                                  .dest = dir},
		                          err) < 0) {
			progress_abort(&meter);
			goto cleanup;
		}
		progress_finish(&meter, progress_clock_ms());
	} else {
		if (copy_local(local_fd, archive_fd, shown, dir, max_bytes, err) < 0)
			goto cleanup;
		close(local_fd);
		local_fd = -1;
	}

	if (fetch->sha256_fd_hex(archive_fd, shown, out->sha256, err) < 0)
		goto cleanup;
	if (opts->sha256 && strcmp(opts->sha256, out->sha256)) {
		diag_set(err,
		         "checksum mismatch for '%s': expected sha256 %s, got %s; nothing was "
		         "installed",
		         shown, opts->sha256, out->sha256);
		diag_hint(err, "the file is damaged or not the one you meant: fetch it again, or "
		               "check the digest you were given");
		goto cleanup;
	}

	staged = xstrfmt("%s/tree", tmp);
	if (mkdir(staged, 0755) < 0) {
		diag_set(err, "cannot create '%s': %s", staged, strerror(errno));
		goto cleanup;
	}
	if (fetch->extract_archive_fd(archive_fd, staged,
	                              &(struct extract_opts){.origin = shown,
	                                                     .anchor = HOTSWAP_INTERCEPT_PATH,
	                                                     .cancel = &interrupted,
	                                                     .max_bytes = max_bytes},
	                              &ex, err) < 0)
		goto cleanup;
	/* Unlinked, so closing it frees it: the flush before publishing never writes it out. */
	close(archive_fd);
	archive_fd = -1;
	if (hotswap_check_root(staged, &tree) < 0) {
		incomplete(&tree, shown, ex.top_dir, err);
		goto cleanup;
	}

	if (opts->name) {
		name = xstrdup(opts->name);
	} else {
		struct diag why = DIAG_INIT;
		name = ex.top_dir ? xstrdup(ex.top_dir) : hotswap_name_from_source(opts->source);
		if (name)
			str_lower(name);
		if (!name || hotswap_name_check(name, &why) < 0) {
			diag_set(err, "cannot name the tree from '%s': %s", shown,
			         name ? why.msg.buf : "it has no file name");
			diag_hint(err, "pass --name NAME (letters, digits and . _ + -)");
			diag_release(&why);
			goto cleanup;
		}
		diag_release(&why);
		free(final);
		final = xstrfmt("%s/%s", dir, name);
	}
	if (publish(staged, final, name, err) < 0)
		goto cleanup;

	/*
	 * The rename moved the very directory checked above, so its flavour
	 * stands; only the root needs naming again, canonically, at its new place.
	 */
	out->name = name;
	name = NULL;
	out->root = realpath(final, NULL);
	if (!out->root)
		out->root = xstrdup(final);
	out->flavour = tree.flavour;
	ret = 0;
cleanup:
	/*
	 * The one message for a signal, whichever step it stopped (the module's
	 * own words for a cancel are only a placeholder) or whatever else it made
	 * fail: a hint about that other failure would mislead.
	 */
	if (interrupted && ret < 0) {
		diag_set(err, "installing '%s' interrupted; nothing was installed", shown);
		strbuf_reset(&err->hint);
	}
	if (local_fd >= 0)
		close(local_fd);
	if (archive_fd >= 0)
		close(archive_fd);
	if (tmp && hotswap_remove_tree(tmp) < 0)
		warning("cannot remove the temporary directory '%s': %s", tmp, strerror(errno));
	hotswap_tree_release(&tree);
	free(ex.top_dir);
	free(final);
	free(name);
	free(staged);
	free(shown);
	free(tmp);
	free(dir);
	restore_signals(old, ret < 0, err);
	return ret;
}
