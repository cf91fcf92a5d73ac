/* libarchive extraction of a tree archive: a read-only scan first, then a checked write pass. */
#include "extract.h"

#include "hotswap_contract.h"
#include "human_size.h"
#include "path_set.h"
#include "printable.h"
#include "strvec.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int extract_check_path(const char *path, struct strbuf *out, const char **why)
{
	const char *p = path;

	strbuf_reset(out);
	if (!*path) {
		*why = "has an empty name";
		return -1;
	}
	if (path[0] == '/') {
		*why = "is an absolute path";
		return -1;
	}
	while (*p) {
		size_t len = strcspn(p, "/");
		if (len == 2 && !strncmp(p, "..", 2)) {
			*why = "has a '..' component";
			return -1;
		}
		if (len && !(len == 1 && *p == '.')) {
			if (out->len)
				strbuf_addch(out, '/');
			strbuf_add(out, p, len);
		}
		p += len;
		while (*p == '/')
			p++;
	}
	return 0;
}

int extract_check_symlink(const char *entry, const char *target, const char **why)
{
	size_t depth = 0, ups = 0;
	bool named = false;
	const char *p = target;

	if (!*target) {
		*why = "is a symlink with an empty target";
		return -1;
	}
	if (target[0] == '/') {
		*why = "is a symlink to an absolute path, outside the tree";
		return -1;
	}
	for (const char *c = entry; *c; c++)
		depth += *c == '/';
	while (*p) {
		size_t len = strcspn(p, "/");
		if (len == 2 && !strncmp(p, "..", 2)) {
			/*
			 * '..' after a name cannot be judged from the text alone
			 * (the name may itself be a symlink), so only a leading run
			 * of '..' is accepted, and it must stay inside the tree.
			 */
			if (named) {
				*why = "is a symlink with '..' after a name in its target";
				return -1;
			}
			ups++;
		} else if (len && !(len == 1 && *p == '.')) {
			named = true;
		}
		p += len;
		while (*p == '/')
			p++;
	}
	if (ups > depth) {
		*why = "is a symlink that points outside the tree";
		return -1;
	}
	return 0;
}

/* Each pass reads the one descriptor from its start; nothing is ever opened by name. */
static struct archive *open_reader(int fd, const char *origin, struct diag *err)
{
	struct archive *a = archive_read_new();

	if (!a || lseek(fd, 0, SEEK_SET) < 0) {
		archive_read_free(a);
		diag_set(err, "cannot read '%s': libarchive failed to initialise", origin);
		return NULL;
	}
	/* Only what trees ship in: no format or filter that may run an external program. */
	archive_read_support_filter_none(a);
	archive_read_support_filter_gzip(a);
	archive_read_support_filter_bzip2(a);
	archive_read_support_filter_xz(a);
	archive_read_support_filter_lzma(a);
	archive_read_support_filter_zstd(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_gnutar(a);
	archive_read_support_format_zip(a);
	if (archive_read_open_fd(a, fd, 65536) != ARCHIVE_OK) {
		diag_set(err, "cannot read '%s': %s", origin, archive_error_string(a));
		diag_hint(err, "mirage installs trees packed as .tar, .tar.gz, .tar.xz, .tar.bz2, "
		               ".tar.zst or .zip");
		archive_read_free(a);
		return NULL;
	}
	return a;
}

static const char *type_problem(struct archive_entry *e)
{
	switch (archive_entry_filetype(e)) {
	case AE_IFREG:
	case AE_IFDIR:
	case AE_IFLNK:
		return NULL;
	case AE_IFCHR:
	case AE_IFBLK:
		return "is a device node";
	case AE_IFIFO:
		return "is a FIFO";
	case AE_IFSOCK:
		return "is a socket";
	default:
		/* A hardlink may carry no type of its own; anything else is unknown. */
		return archive_entry_hardlink(e) ? NULL : "has an unknown file type";
	}
}

/*
 * How messages name an entry: its first 200 bytes, control characters
 * escaped, since an archive may name an entry "\e]0;...\a" to retitle or
 * repaint the user's terminal.  Valid until the next call.
 */
static const char *entry_shown(const char *name)
{
	static struct strbuf shown = STRBUF_INIT;
	char *cut = xstrndup(name, 200);
	strbuf_reset(&shown);
	strbuf_add_printable(&shown, cut);
	free(cut);
	return shown.buf;
}

static int refuse(struct diag *err, const char *origin, const char *entry, const char *why)
{
	diag_set(err, "refusing to extract '%s': entry '%s' %s", origin,
	         entry ? entry_shown(entry) : "?", why);
	/* Trees staged on a build machine often link to its LLVM: pack the files instead. */
	if (strstr(why, "link"))
		diag_hint(err, "nothing was installed; if you packed this tree yourself, use "
		               "`tar --dereference` so links leading out of it become files");
	else
		diag_hint(err, "the archive is unsafe or damaged; nothing was installed");
	return -1;
}

/*
 * What one pass has used of extract_opts' caps.  The scan charges the sizes
 * the headers declare, the write pass the bytes it actually writes: a header
 * may lie or give no size, and then only counting the data stops a bomb.
 */
struct budget {
	uint64_t max_entries, max_bytes;
	uint64_t entries, bytes;
};

static void budget_init(struct budget *b, const struct extract_opts *opts)
{
	b->max_entries = opts->max_entries ? opts->max_entries : EXTRACT_DEFAULT_MAX_ENTRIES;
	b->max_bytes = opts->max_bytes ? opts->max_bytes : EXTRACT_DEFAULT_MAX_BYTES;
	b->entries = 0;
	b->bytes = 0;
}

static int over_limit(struct diag *err, bool bytes)
{
	diag_hint(err,
	          "nothing was installed; HotSwap trees are at most a few hundred MB in a few "
	          "thousand files, so this is not one or is an archive bomb; if you trust it, %s",
	          bytes ? "raise the limit with --" FETCH_SIZE_FLAG " SIZE (e.g. 8G)"
	                : "unpack it yourself and use it in place with `export " HOTSWAP_ENV_HOME
	                  "=DIR`");
	return -1;
}

/* Charges n bytes of entry name: declared by its header (the scan), or written (the write pass). */
static int charge_bytes(struct budget *b, uint64_t n, bool declared, const char *origin,
                        const char *name, struct diag *err)
{
	char words[HUMAN_SIZE_LEN];
	if (n <= b->max_bytes - b->bytes) {
		b->bytes += n;
		return 0;
	}
	diag_set(err, "refusing to extract '%s': %s more data than the limit of %s (at entry '%s')",
	         origin, declared ? "its headers declare" : "it unpacks to",
	         human_size_format(b->max_bytes, words), entry_shown(name));
	return over_limit(err, true);
}

/*
 * What both passes check on every entry (the write pass never trusts the
 * scan): cancellation, the entry cap, a decodable name, a safe path,
 * normalised into norm, and an allowed type.  Returns 0, or -1 with err
 * filled in.
 */
static int check_entry(struct archive_entry *e, const char *origin,
                       const volatile sig_atomic_t *cancel, struct budget *b, struct strbuf *norm,
                       struct diag *err)
{
	const char *name = archive_entry_pathname(e);
	const char *why;
	if (cancel && *cancel)
		return diag_set(err, "%s", FETCH_INTERRUPTED);
	if (++b->entries > b->max_entries) {
		diag_set(err,
		         "refusing to extract '%s': it has more entries than the limit of %" PRIu64,
		         origin, b->max_entries);
		return over_limit(err, false);
	}
	if (!name)
		return refuse(err, origin, "?", "has a name mirage cannot decode");
	if (extract_check_path(name, norm, &why) < 0 || (why = type_problem(e)))
		return refuse(err, origin, name, why);
	return 0;
}

static int read_failed(struct archive *a, const char *origin, struct diag *err)
{
	diag_set(err, "cannot read '%s': %s", origin, archive_error_string(a));
	diag_hint(err, "the file is damaged or not an archive; download it again");
	return -1;
}

/*
 * Pass one reads headers only: it refuses unsafe names and types before
 * anything is written and decides whether a single top-level directory
 * wraps everything (then *top is set) and is not part of the tree itself.
 */
static int scan(int fd, const struct extract_opts *opts, char **top, struct diag *err)
{
	const char *origin = opts->origin;
	const volatile sig_atomic_t *cancel = opts->cancel;
	struct strbuf norm = STRBUF_INIT;
	struct archive_entry *e;
	struct archive *a = NULL;
	struct budget budget;
	char *first = NULL;
	bool strip = true, any = false;
	int r, ret = -1;

	*top = NULL;
	budget_init(&budget, opts);
	a = open_reader(fd, origin, err);
	if (!a)
		goto cleanup;
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		la_int64_t size = archive_entry_size_is_set(e) ? archive_entry_size(e) : 0;
		size_t comp;
		if (check_entry(e, origin, cancel, &budget, &norm, err) < 0)
			goto cleanup;
		/* Before the next header makes libarchive skip (and so decompress) this data. */
		if (size > 0 && charge_bytes(&budget, (uint64_t)size, true, origin,
		                             archive_entry_pathname(e), err) < 0)
			goto cleanup;
		if (!norm.len)
			continue;
		comp = strcspn(norm.buf, "/");
		if (!first)
			first = xstrndup(norm.buf, comp);
		else if (strlen(first) != comp || strncmp(first, norm.buf, comp))
			strip = false;
		if (!norm.buf[comp] && archive_entry_filetype(e) != AE_IFDIR)
			strip = false;
		if (opts->anchor && !strcmp(norm.buf, opts->anchor))
			strip = false;
		any = true;
	}
	if (r != ARCHIVE_EOF) {
		read_failed(a, origin, err);
		goto cleanup;
	}
	if (!any) {
		diag_set(err, "'%s' is an empty archive", origin);
		diag_hint(err, "a HotSwap tree archive holds " HOTSWAP_INTERCEPT_PATH
		               " and its companions");
		goto cleanup;
	}
	if (strip) {
		*top = first;
		first = NULL;
	}
	ret = 0;
cleanup:
	free(first);
	strbuf_release(&norm);
	if (a)
		archive_read_free(a);
	return ret;
}

/* Removes "top/" from a normalised path; false when the path is top itself. */
static bool strip_top(struct strbuf *norm, const char *top)
{
	size_t len = top ? strlen(top) : 0;
	if (!top)
		return norm->len > 0;
	if (norm->len <= len) /* the top directory's own entry */
		return false;
	memmove(norm->buf, norm->buf + len + 1, norm->len - len);
	strbuf_setlen(norm, norm->len - len - 1);
	return true;
}

/*
 * True when path lies below one of the symlinks already extracted: each of
 * its parent directories is looked up once, so an archive of N entries costs
 * O(N * depth), not O(N * symlinks).
 */
static bool under_symlink(const struct path_set *links, const char *path)
{
	for (const char *slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/'))
		if (path_set_has(links, path, (size_t)(slash - path)))
			return true;
	return false;
}

/*
 * A failed write below dest: the entry, libarchive's words and the errno,
 * and for a full disk or quota where to make room.
 */
static int write_failed(struct archive *out, const char *origin, const char *name, struct diag *err)
{
	int e = archive_errno(out);
	diag_set(err, "cannot extract '%s' from '%s': %s%s%s", entry_shown(name), origin,
	         archive_error_string(out), e > 0 ? ": " : "", e > 0 ? strerror(e) : "");
	if (e == ENOSPC || e == EDQUOT)
		diag_hint(err, "nothing was installed; free some space where HotSwap trees are "
		               "installed (`mirage paths` shows the data directory), or set "
		               "MIRAGE_DATA to a directory on a filesystem with more room");
	return -1;
}

static int copy_data(struct archive *in, struct archive *out, const char *origin, const char *name,
                     struct budget *b, struct diag *err)
{
	const void *buf;
	size_t size;
	la_int64_t offset;
	int r;

	while ((r = archive_read_data_block(in, &buf, &size, &offset)) == ARCHIVE_OK) {
		if (charge_bytes(b, size, false, origin, name, err) < 0)
			return -1;
		if (archive_write_data_block(out, buf, size, offset) < ARCHIVE_OK)
			return write_failed(out, origin, name, err);
	}
	if (r != ARCHIVE_EOF)
		return read_failed(in, origin, err);
	return 0;
}

/* Pass two: every entry is checked again, renamed below dest, and written. */
static int write_entries(int fd, const struct extract_opts *opts, const char *top,
                         struct extract_result *res, struct diag *err)
{
	const char *origin = opts->origin;
	struct strbuf norm = STRBUF_INIT, link = STRBUF_INIT, name_copy = STRBUF_INIT;
	struct path_set symlinks = PATH_SET_INIT, files = PATH_SET_INIT;
	struct archive *in = NULL, *out = NULL;
	struct archive_entry *e;
	struct budget budget;
	const char *why;
	int r, ret = -1;

	budget_init(&budget, opts);
	in = open_reader(fd, origin, err);
	out = archive_write_disk_new();
	if (!in || !out) {
		if (out)
			diag_set(err, "cannot read '%s': libarchive failed to initialise", origin);
		goto cleanup;
	}
	/* No ownership, ACLs or set-id bits from the archive; libarchive re-checks the on-disk
	 * paths. */
	archive_write_disk_set_options(out, ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_SECURE_SYMLINKS |
	                                        ARCHIVE_EXTRACT_SECURE_NODOTDOT |
	                                        ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS);
	while ((r = archive_read_next_header(in, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		const char *name = archive_entry_pathname(e);
		const char *hard = archive_entry_hardlink(e);
		unsigned filetype = archive_entry_filetype(e);
		mode_t perm = archive_entry_perm(e) & 0755;

		if (check_entry(e, origin, opts->cancel, &budget, &norm, err) < 0)
			goto cleanup;
		/* Messages use the archive's own name; set_pathname() below reuses its storage. */
		strbuf_reset(&name_copy);
		strbuf_addstr(&name_copy, name);
		name = name_copy.buf;
		if (!strip_top(&norm, top))
			continue;
		if (under_symlink(&symlinks, norm.buf)) {
			refuse(err, origin, name, "lies under a symlink in the archive");
			goto cleanup;
		}
		if (hard) {
			if (extract_check_path(hard, &link, &why) < 0 || !strip_top(&link, top)) {
				refuse(err, origin, name,
				       "is a hardlink to a path outside the tree");
				goto cleanup;
			}
			/* Only to a regular file extracted earlier: never to anything on the host.
			 */
			if (!path_set_has(&files, link.buf, link.len)) {
				refuse(
				    err, origin, name,
				    "is a hardlink to something that is not a file of the archive");
				goto cleanup;
			}
			archive_entry_set_hardlink(e, link.buf);
		} else if (filetype == AE_IFLNK) {
			const char *target = archive_entry_symlink(e);
			if (extract_check_symlink(norm.buf, target ? target : "", &why) < 0) {
				refuse(err, origin, name, why);
				goto cleanup;
			}
			path_set_add(&symlinks, norm.buf);
		} else if (filetype == AE_IFREG) {
			path_set_add(&files, norm.buf);
		}
		archive_entry_set_pathname(e, norm.buf);
		/* Keep the owner able to write and delete what it installed. */
		archive_entry_set_perm(e, perm | (filetype == AE_IFDIR ? 0700 : 0600));
		if (archive_write_header(out, e) < ARCHIVE_WARN) {
			write_failed(out, origin, name, err);
			goto cleanup;
		}
		if (!hard && filetype == AE_IFREG &&
		    copy_data(in, out, origin, name, &budget, err) < 0)
			goto cleanup;
		if (archive_write_finish_entry(out) < ARCHIVE_WARN) {
			write_failed(out, origin, name, err);
			goto cleanup;
		}
		res->entries++;
	}
	if (r != ARCHIVE_EOF) {
		read_failed(in, origin, err);
		goto cleanup;
	}
	if (archive_write_close(out) != ARCHIVE_OK) {
		diag_set(err, "cannot finish extracting '%s': %s", origin,
		         archive_error_string(out));
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (out)
		archive_write_free(out);
	if (in)
		archive_read_free(in);
	path_set_clear(&symlinks);
	path_set_clear(&files);
	strbuf_release(&name_copy);
	strbuf_release(&link);
	strbuf_release(&norm);
	return ret;
}

int extract_archive_fd(int fd, const char *dest, const struct extract_opts *opts,
                       struct extract_result *res, struct diag *err)
{
	const char *origin = opts->origin;
	int saved = -1, ret = -1;

	memset(res, 0, sizeof(*res));
	if (scan(fd, opts, &res->top_dir, err) < 0)
		goto cleanup;
	/*
	 * libarchive writes relative to the working directory, and only
	 * relative names get its ..-and-absolute checks; so extract from inside
	 * dest.
	 */
	saved = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (saved < 0) {
		diag_set(err, "cannot extract '%s': %s", origin, strerror(errno));
		goto cleanup;
	}
	if (chdir(dest) < 0) {
		diag_set(err, "cannot enter '%s': %s", dest, strerror(errno));
		goto cleanup;
	}
	ret = write_entries(fd, opts, res->top_dir, res, err);
	if (fchdir(saved) < 0 && !ret)
		ret = diag_set(err, "cannot return to the working directory: %s", strerror(errno));
cleanup:
	if (saved >= 0)
		close(saved);
	if (ret < 0) {
		free(res->top_dir);
		res->top_dir = NULL;
	}
	return ret;
}
