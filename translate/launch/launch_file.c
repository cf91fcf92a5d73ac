/* Parses and checks a launch file (launch_file.h has the format): the top level and the
 * buffers; the arguments are launch_args.c's. */
#include "launch_file.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launch_parser.h"
#include "read_whole.h"

static int valid_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > LAUNCH_MAX_NAME)
		return 0;
	for (; *s; s++) {
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' || *s == '.'))
			return 0;
	}
	return 1;
}

/* "zero", "fill:BYTE", "random:SEED", "file:PATH". */
static int parse_init(struct parser *p, const char *field, const char *s, struct launch_buffer *b)
{
	char *end;
	if (strcmp(s, "zero") == 0) {
		b->init = LAUNCH_INIT_ZERO;
		return 0;
	}
	if (strncmp(s, "fill:", 5) == 0) {
		unsigned long v;
		errno = 0;
		v = strtoul(s + 5, &end, 0);
		if (s[5] < '0' || s[5] > '9' || *end || errno || v > 255)
			return lp_fail(p, field,
			               "'%.64s': expected fill:BYTE with BYTE from 0 to 255", s);
		b->init = LAUNCH_INIT_FILL;
		b->fill_byte = (uint8_t)v;
		return 0;
	}
	if (strncmp(s, "random:", 7) == 0) {
		unsigned long long v;
		errno = 0;
		v = strtoull(s + 7, &end, 0);
		if (s[7] < '0' || s[7] > '9' || *end || errno)
			return lp_fail(
			    p, field,
			    "'%.64s': expected random:SEED with SEED an integer from 0 to "
			    "2^64-1",
			    s);
		b->init = LAUNCH_INIT_RANDOM;
		b->seed = v;
		return 0;
	}
	if (strncmp(s, "file:", 5) == 0) {
		if (!s[5])
			return lp_fail(p, field, "'file:' needs a path");
		b->init = LAUNCH_INIT_FILE;
		b->init_path = lp_resolve(p, s + 5);
		return b->init_path ? 0 : lp_oom(p);
	}
	return lp_fail(p, field, "'%.64s': expected zero, fill:BYTE, random:SEED or file:PATH", s);
}

static int parse_buffers(struct parser *p, const cJSON *root, struct launch_file *lf)
{
	static const char *const keys[] = {"size", "init", "output", NULL};
	const cJSON *bufs = cJSON_GetObjectItemCaseSensitive(root, "buffers"), *b;
	uint64_t total = 0;
	struct field f;
	int rc, n;
	if (!bufs)
		return lp_fail(p, "buffers", "missing");
	if (!cJSON_IsObject(bufs))
		return lp_fail(p, "buffers", "expected an object of named buffers, got %s",
		               lp_json_kind(bufs));
	n = cJSON_GetArraySize(bufs);
	if (n > LAUNCH_MAX_BUFFERS)
		return lp_fail(p, "buffers", "%d buffers, at most %d are allowed", n,
		               LAUNCH_MAX_BUFFERS);
	lf->buffers = calloc(n ? (size_t)n : 1, sizeof *lf->buffers);
	if (!lf->buffers)
		return lp_oom(p);
	cJSON_ArrayForEach(b, bufs)
	{
		struct launch_buffer *lb = &lf->buffers[lf->nbuffers];
		const cJSON *size, *init, *output;
		char where[LAUNCH_MAX_NAME + 16];
		if (!valid_name(b->string))
			return lp_fail(
			    p, "buffers",
			    "'%.64s': a buffer name is 1 to %d letters, digits, '_', '-' "
			    "or '.'",
			    b->string, LAUNCH_MAX_NAME);
		if (launch_find_buffer(lf, b->string) >= 0)
			return lp_fail(p, lp_fieldf(&f, "buffers.%s", b->string), "given twice");
		snprintf(where, sizeof where, "buffers.%s", b->string);
		if (!cJSON_IsObject(b))
			return lp_fail(p, where, "expected an object with size and init, got %s",
			               lp_json_kind(b));
		if ((rc = lp_check_keys(p, b, where, keys)))
			return rc;
		if (!(lb->name = strdup(b->string)))
			return lp_oom(p);
		lf->nbuffers++;
		size = cJSON_GetObjectItemCaseSensitive(b, "size");
		if (!size)
			return lp_fail(p, lp_fieldf(&f, "%s.size", where), "missing");
		if ((rc = lp_get_uint(p, size, lp_fieldf(&f, "%s.size", where), 1,
		                      LAUNCH_MAX_BUFFER_BYTES, &lb->size)))
			return rc;
		total += lb->size;
		if (total > LAUNCH_MAX_TOTAL_BYTES)
			return lp_fail(p, lp_fieldf(&f, "%s.size", where),
			               "the buffers need more than %llu bytes together",
			               (unsigned long long)LAUNCH_MAX_TOTAL_BYTES);
		init = cJSON_GetObjectItemCaseSensitive(b, "init");
		if (!init)
			return lp_fail(p, lp_fieldf(&f, "%s.init", where), "missing");
		if (!cJSON_IsString(init))
			return lp_fail(p, lp_fieldf(&f, "%s.init", where),
			               "expected zero, fill:BYTE, random:SEED or file:PATH, got %s",
			               lp_json_kind(init));
		if ((rc = parse_init(p, lp_fieldf(&f, "%s.init", where), init->valuestring, lb)))
			return rc;
		output = cJSON_GetObjectItemCaseSensitive(b, "output");
		if (output) {
			if (!cJSON_IsString(output) || !output->valuestring[0])
				return lp_fail(p, lp_fieldf(&f, "%s.output", where),
				               "expected a file path");
			if (!(lb->output = strdup(output->valuestring)) ||
			    !(lb->output_path = lp_resolve(p, output->valuestring)))
				return lp_oom(p);
			for (size_t i = 0; i + 1 < lf->nbuffers; i++) {
				if (lf->buffers[i].output_path &&
				    strcmp(lf->buffers[i].output_path, lb->output_path) == 0)
					return lp_fail(p, lp_fieldf(&f, "%s.output", where),
					               "'%.64s' is also the output of buffer '%s'",
					               lb->output, lf->buffers[i].name);
			}
		}
	}
	return 0;
}

/* Line and column of the byte at off, for a JSON syntax error. */
static void line_col(const char *text, size_t off, unsigned *line, unsigned *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			++*line;
			*col = 1;
		} else {
			++*col;
		}
	}
}

int launch_file_parse(const char *text, size_t len, const char *path, struct launch_file **out,
                      char **err)
{
	static const char *const keys[] = {"code_object", "kernel", "grid",        "workgroup",
	                                   "buffers",     "args",   "dynamic_lds", NULL};
	struct parser p = {.path = path, .err = err};
	struct launch_file *lf = NULL;
	const char *end = NULL, *s;
	cJSON *root = NULL;
	const char *slash = strrchr(path, '/');
	int rc;

	*out = NULL;
	if (err)
		*err = NULL;
	if (slash && !(p.dir = strndup(path, slash == path ? 1 : (size_t)(slash - path))))
		return lp_oom(&p);
	if (!(lf = calloc(1, sizeof *lf)) || !(lf->path = strdup(path))) {
		rc = lp_oom(&p);
		goto done;
	}
	if (len >= 4 && !memcmp(text, "\177ELF", 4)) {
		rc = lp_fail(
		    &p, NULL,
		    "an ELF file (a code object?), not a launch file: write a launch file "
		    "that names it in \"code_object\" with the kernel, grid, buffers and args");
		goto done;
	}
	root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (!root) {
		unsigned line, col;
		size_t off = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
		line_col(text, off, &line, &col);
		rc = lp_fail(&p, NULL, "line %u, column %u: not valid JSON", line, col);
		goto done;
	}
	if (end && (size_t)(end - text) < len) {
		/* Trailing non-space bytes after the object: a second document or junk. */
		for (const char *c = end; c < text + len; c++) {
			if (*c != ' ' && *c != '\n' && *c != '\t' && *c != '\r') {
				unsigned line, col;
				line_col(text, (size_t)(c - text), &line, &col);
				rc = lp_fail(&p, NULL,
				             "line %u, column %u: text after the JSON object", line,
				             col);
				goto done;
			}
		}
	}
	if (!cJSON_IsObject(root)) {
		rc = lp_fail(&p, NULL, "expected a JSON object, got %s", lp_json_kind(root));
		goto done;
	}
	if ((rc = lp_check_keys(&p, root, NULL, keys)))
		goto done;
	if ((rc = lp_get_string(&p, root, "code_object", "code_object", &s)))
		goto done;
	if (!(lf->code_object = lp_resolve(&p, s))) {
		rc = lp_oom(&p);
		goto done;
	}
	if ((rc = lp_get_string(&p, root, "kernel", "kernel", &s)))
		goto done;
	if (!(lf->kernel = strdup(s))) {
		rc = lp_oom(&p);
		goto done;
	}
	if ((rc = lp_get_dims(&p, root, "grid", UINT32_MAX, lf->grid)) ||
	    (rc = lp_get_dims(&p, root, "workgroup", LAUNCH_MAX_WORKGROUP, lf->workgroup)))
		goto done;
	if (launch_workgroup_items(lf) > LAUNCH_MAX_WORKGROUP) {
		rc = lp_fail(&p, "workgroup", "%u work-items, at most %d are allowed",
		             launch_workgroup_items(lf), LAUNCH_MAX_WORKGROUP);
		goto done;
	}
	if (launch_grid_items(lf) > LAUNCH_MAX_WORKITEMS) {
		rc = lp_fail(&p, "grid", "%llu work-items, at most %llu are allowed",
		             (unsigned long long)launch_grid_items(lf),
		             (unsigned long long)LAUNCH_MAX_WORKITEMS);
		goto done;
	}
	const cJSON *lds = cJSON_GetObjectItemCaseSensitive(root, "dynamic_lds");
	if (lds) {
		uint64_t v;
		if ((rc = lp_get_uint(&p, lds, "dynamic_lds", 0, LAUNCH_MAX_DYNAMIC_LDS, &v)))
			goto done;
		lf->dynamic_lds = (uint32_t)v;
	}
	if ((rc = parse_buffers(&p, root, lf)) || (rc = lp_parse_args(&p, root, lf)))
		goto done;
	*out = lf;
	lf = NULL;
	rc = 0;
done:
	cJSON_Delete(root);
	launch_file_free(lf);
	free(p.dir);
	return rc;
}

void *launch_read_regular(const char *path, size_t max, size_t *size)
{
	struct stat st;
	void *buf;
	int fd, saved;
	/* O_NONBLOCK: opening a planted FIFO must not wait for a writer. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0)
		goto fail;
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		goto fail;
	}
	if ((uint64_t)st.st_size > max) {
		errno = EFBIG;
		goto fail;
	}
	buf = read_whole_fd(fd, size);
	if (buf && *size > max) {
		free(buf);
		buf = NULL;
		errno = EFBIG;
	}
	saved = errno;
	close(fd);
	errno = saved;
	return buf;
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return NULL;
}

/* The reason a launch_read_regular failed, as a message fragment. */
static const char *read_failure(int e)
{
	if (e == EINVAL)
		return "not a regular file";
	return strerror(e);
}

int launch_file_load(const char *path, struct launch_file **out, char **err)
{
	size_t size;
	char *text;
	int rc;
	*out = NULL;
	if (err)
		*err = NULL;
	text = launch_read_regular(path, LAUNCH_FILE_MAX_BYTES, &size);
	if (!text) {
		int e = errno;
		struct parser p = {.path = path, .err = err};
		if (e == EFBIG)
			lp_fail(&p, NULL, "larger than %u bytes: not a launch file",
			        LAUNCH_FILE_MAX_BYTES);
		else
			lp_fail(&p, NULL, "cannot read: %s", read_failure(e));
		return -e;
	}
	rc = launch_file_parse(text, size, path, out, err);
	free(text);
	return rc;
}

void launch_file_free(struct launch_file *lf)
{
	if (!lf)
		return;
	for (size_t i = 0; i < lf->nbuffers; i++) {
		free(lf->buffers[i].name);
		free(lf->buffers[i].init_path);
		free(lf->buffers[i].output);
		free(lf->buffers[i].output_path);
	}
	for (size_t i = 0; i < lf->nargs; i++)
		free(lf->args[i].value);
	free(lf->buffers);
	free(lf->args);
	free(lf->path);
	free(lf->code_object);
	free(lf->kernel);
	free(lf);
}

long launch_find_buffer(const struct launch_file *lf, const char *name)
{
	for (size_t i = 0; i < lf->nbuffers; i++) {
		if (lf->buffers[i].name && strcmp(lf->buffers[i].name, name) == 0)
			return (long)i;
	}
	return -1;
}

uint64_t launch_grid_items(const struct launch_file *lf)
{
	return (uint64_t)lf->grid[0] * lf->grid[1] * lf->grid[2];
}

uint32_t launch_workgroup_items(const struct launch_file *lf)
{
	return lf->workgroup[0] * lf->workgroup[1] * lf->workgroup[2];
}

void launch_random_fill(uint64_t seed, void *mem, size_t size)
{
	uint8_t *out = mem;
	uint64_t state = seed;
	for (size_t i = 0; i < size; i += 8) {
		uint64_t z = (state += UINT64_C(0x9e3779b97f4a7c15));
		z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
		z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
		z ^= z >> 31;
		for (size_t k = 0; k < 8 && i + k < size; k++)
			out[i + k] = (uint8_t)(z >> (8 * k));
	}
}

int launch_buffer_fill(const struct launch_file *lf, const struct launch_buffer *b, void *mem,
                       char **err)
{
	struct parser p = {.path = lf->path, .err = err};
	struct field f;
	size_t size;
	void *data;
	if (err)
		*err = NULL;
	switch (b->init) {
	case LAUNCH_INIT_ZERO:
		memset(mem, 0, b->size);
		return 0;
	case LAUNCH_INIT_FILL:
		memset(mem, b->fill_byte, b->size);
		return 0;
	case LAUNCH_INIT_RANDOM:
		launch_random_fill(b->seed, mem, b->size);
		return 0;
	case LAUNCH_INIT_FILE:
		break;
	}
	lp_fieldf(&f, "buffers.%s.init", b->name);
	data = launch_read_regular(b->init_path, b->size, &size);
	if (!data) {
		int e = errno;
		if (e == EFBIG)
			lp_fail(&p, f.s, "'%s' is larger than the buffer (%llu bytes)",
			        b->init_path, (unsigned long long)b->size);
		else
			lp_fail(&p, f.s, "cannot read '%s': %s", b->init_path, read_failure(e));
		return e == EFBIG ? -EINVAL : -e;
	}
	if (size != b->size) {
		free(data);
		return lp_fail(&p, f.s, "'%s' has %zu bytes, the buffer %llu", b->init_path, size,
		               (unsigned long long)b->size);
	}
	memcpy(mem, data, size);
	free(data);
	return 0;
}
