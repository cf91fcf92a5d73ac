/* Reading profile files defensively: file type, size cap, and the text checks. */
#include "profile_file.h"

#include "utf8.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_MIB (PROFILE_FILE_MAX >> 20)

static const char *file_type(mode_t mode)
{
	return S_ISDIR(mode)    ? "directory"
	       : S_ISFIFO(mode) ? "FIFO"
	       : S_ISCHR(mode)  ? "character device"
	       : S_ISBLK(mode)  ? "block device"
	       : S_ISSOCK(mode) ? "socket"
	                        : "special file";
}

/* Fills err with "cannot read <what>: <why>" and returns -1. */
static int cannot_read(struct diag *err, const char *what, const char *why)
{
	return diag_set(err, "cannot read %s: %s", what, why);
}

int profile_read_file(const char *path, const char *kind, struct strbuf *out, struct diag *err)
{
	/* O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), saved = 0;
	size_t start = out->len;
	struct strbuf what = STRBUF_INIT;
	struct stat st;

	strbuf_addf(&what, "%s%s'%s'", kind ? kind : "", kind ? " " : "", path);
	if (fd < 0 || fstat(fd, &st) < 0) {
		saved = errno;
		cannot_read(err, what.buf, strerror(saved));
	} else if (!S_ISREG(st.st_mode)) {
		saved = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		diag_set(err, "cannot read %s: it is a %s, not a regular file", what.buf,
		         file_type(st.st_mode));
		diag_hint(err, "a profile is a regular file of text");
	} else if (st.st_size > (off_t)PROFILE_FILE_MAX ||
	           strbuf_read_fd_max(out, fd, PROFILE_FILE_MAX) < 0) {
		/* Too big by its size, or it grew past the cap while we read. */
		saved = st.st_size > (off_t)PROFILE_FILE_MAX ? EFBIG : errno;
		if (saved == EFBIG) {
			diag_set(err,
			         "cannot read %s: it is larger than the %u MiB a profile may have",
			         what.buf, MAX_MIB);
			diag_hint(err, "a profile is a few lines of text; is this the right file?");
		} else {
			cannot_read(err, what.buf, strerror(saved));
		}
	}
	if (fd >= 0)
		close(fd);
	strbuf_release(&what);
	if (saved) {
		strbuf_setlen(out, start);
		errno = saved;
		return -1;
	}
	return 0;
}

int profile_read_stream(int fd, const char *origin, struct strbuf *out, struct diag *err)
{
	size_t start = out->len;
	if (strbuf_read_fd_max(out, fd, PROFILE_FILE_MAX) == 0)
		return 0;
	if (errno == EFBIG) {
		diag_set(err, "%s: more than the %u MiB a profile may have", origin, MAX_MIB);
		diag_hint(err, "a profile is a few lines of JSON; is this the right input?");
	} else {
		diag_set(err, "cannot read '%s': %s", origin, strerror(errno));
	}
	strbuf_setlen(out, start);
	return -1;
}

int profile_text_check(const char *text, size_t len, const char *origin, struct diag *err)
{
	const char *nul = memchr(text, '\0', len);
	size_t bad = utf8_invalid_at(text, nul ? (size_t)(nul - text) : len);
	size_t line = 1, column;
	const char *line_start = text;

	/* The first problem: an invalid sequence before the NUL, else the NUL itself. */
	if (!nul && bad == len)
		return 0;
	for (const char *c = text; c < text + bad; c++)
		if (*c == '\n') {
			line++;
			line_start = c + 1;
		}
	column = (size_t)(text + bad - line_start) + 1;
	if (nul && text + bad == nul)
		diag_set(err, "%s:%zu: NUL byte at column %zu", origin, line, column);
	else
		diag_set(err, "%s:%zu: invalid UTF-8 at column %zu (byte 0x%02x)", origin, line,
		         column, (unsigned char)text[bad]);
	diag_hint(err, "a profile is UTF-8 text without NUL bytes: fix or rewrite the file");
	return -1;
}
