/* Parses and checks a launch file (launch_file.h has the format). */
#include "launch_file.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read_whole.h"
#include "str_fmt.h"

static const struct {
	const char *name;
	size_t size;
	int is_signed;
	int is_float;
} scalar_table[LAUNCH_SCALAR_COUNT] = {
    [LAUNCH_I8] = {"i8", 1, 1, 0},   [LAUNCH_I16] = {"i16", 2, 1, 0},
    [LAUNCH_I32] = {"i32", 4, 1, 0}, [LAUNCH_I64] = {"i64", 8, 1, 0},
    [LAUNCH_U8] = {"u8", 1, 0, 0},   [LAUNCH_U16] = {"u16", 2, 0, 0},
    [LAUNCH_U32] = {"u32", 4, 0, 0}, [LAUNCH_U64] = {"u64", 8, 0, 0},
    [LAUNCH_F16] = {"f16", 2, 1, 1}, [LAUNCH_F32] = {"f32", 4, 1, 1},
    [LAUNCH_F64] = {"f64", 8, 1, 1}, [LAUNCH_HEX] = {"hex", 0, 0, 0},
};

const char *launch_scalar_name(enum launch_scalar t)
{
	return t < LAUNCH_SCALAR_COUNT ? scalar_table[t].name : "?";
}

/* One parse in progress: the file name for messages, its directory for relative paths. */
struct parser {
	const char *path;
	char *dir; /* NULL when the launch file's path has no directory part */
	char **err;
};

__attribute__((format(printf, 3, 4))) static int fail(struct parser *p, const char *field,
                                                      const char *fmt, ...)
{
	va_list ap;
	char *what;
	va_start(ap, fmt);
	what = str_vfmt(fmt, ap);
	va_end(ap);
	if (p->err) {
		if (asprintf(p->err, "%s: %s%s%s", p->path, field ? field : "", field ? ": " : "",
		             what ? what : "out of memory") < 0)
			*p->err = NULL;
	}
	free(what);
	return -EINVAL;
}

static int oom(struct parser *p)
{
	fail(p, NULL, "out of memory");
	return -ENOMEM;
}

static char *resolve(const struct parser *p, const char *rel)
{
	char *out;
	if (rel[0] == '/' || !p->dir)
		return strdup(rel);
	if (asprintf(&out, "%s%s%s", p->dir, strcmp(p->dir, "/") ? "/" : "", rel) < 0)
		return NULL;
	return out;
}

/* A field name like "buffers.out.size" or "args[2]", built in a fixed buffer: names are
 * bounded (LAUNCH_MAX_NAME), so it never truncates. */
struct field {
	char s[LAUNCH_MAX_NAME + 64];
};

__attribute__((format(printf, 2, 3))) static const char *fieldf(struct field *f, const char *fmt,
                                                                ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->s, sizeof f->s, fmt, ap);
	va_end(ap);
	return f->s;
}

static const char *json_kind(const cJSON *j)
{
	if (cJSON_IsObject(j))
		return "an object";
	if (cJSON_IsArray(j))
		return "an array";
	if (cJSON_IsString(j))
		return "a string";
	if (cJSON_IsNumber(j))
		return "a number";
	if (cJSON_IsBool(j))
		return "a boolean";
	return "null";
}

/* Every key of obj must be in allowed (NULL-terminated) and appear once. */
static int check_keys(struct parser *p, const cJSON *obj, const char *where,
                      const char *const *allowed)
{
	const cJSON *k, *k2;
	struct field f;
	cJSON_ArrayForEach(k, obj)
	{
		int known = 0;
		for (const char *const *a = allowed; *a; a++)
			known |= strcmp(*a, k->string) == 0;
		if (!known) {
			char list[256] = "";
			for (const char *const *a = allowed; *a; a++) {
				strncat(list, *a, sizeof list - strlen(list) - 1);
				if (a[1])
					strncat(list, ", ", sizeof list - strlen(list) - 1);
			}
			return fail(p, where ? where : NULL, "unknown field '%.64s' (expected %s)",
			            k->string, list);
		}
		for (k2 = obj->child; k2 != k; k2 = k2->next) {
			if (strcmp(k2->string, k->string) == 0)
				return fail(
				    p, where ? fieldf(&f, "%s.%s", where, k->string) : k->string,
				    "given twice");
		}
	}
	return 0;
}

/* A JSON number that is an integer in [lo, hi] (hi at most 2^53, where doubles stay exact). */
static int get_uint(struct parser *p, const cJSON *j, const char *field, uint64_t lo, uint64_t hi,
                    uint64_t *out)
{
	double d;
	if (!cJSON_IsNumber(j))
		goto bad;
	d = j->valuedouble;
	if (!(d >= (double)lo && d <= (double)hi) || floor(d) != d)
		goto bad;
	*out = (uint64_t)d;
	return 0;
bad:
	if (lo == 1 && hi > LAUNCH_MAX_WORKGROUP)
		return fail(p, field, "expected a positive integer up to %llu",
		            (unsigned long long)hi);
	return fail(p, field, "expected an integer from %llu to %llu", (unsigned long long)lo,
	            (unsigned long long)hi);
}

static int get_string(struct parser *p, const cJSON *obj, const char *key, const char *field,
                      const char **out)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!j)
		return fail(p, field, "missing");
	if (!cJSON_IsString(j) || !j->valuestring[0])
		return fail(p, field, "expected a non-empty string, got %s",
		            cJSON_IsString(j) ? "an empty string" : json_kind(j));
	if (strlen(j->valuestring) > 4096)
		return fail(p, field, "longer than 4096 bytes");
	*out = j->valuestring;
	return 0;
}

static int get_dims(struct parser *p, const cJSON *root, const char *key, uint64_t max,
                    uint32_t dims[3])
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(root, key), *e;
	int n = 0, rc;
	struct field f;
	if (!j)
		return fail(p, key, "missing");
	if (!cJSON_IsArray(j) || cJSON_GetArraySize(j) < 1 || cJSON_GetArraySize(j) > 3)
		return fail(p, key, "expected an array of 1 to 3 work-item counts");
	dims[0] = dims[1] = dims[2] = 1;
	cJSON_ArrayForEach(e, j)
	{
		uint64_t v;
		if ((rc = get_uint(p, e, fieldf(&f, "%s[%d]", key, n), 1, max, &v)))
			return rc;
		dims[n++] = (uint32_t)v;
	}
	return 0;
}

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
			return fail(p, field, "'%.64s': expected fill:BYTE with BYTE from 0 to 255",
			            s);
		b->init = LAUNCH_INIT_FILL;
		b->fill_byte = (uint8_t)v;
		return 0;
	}
	if (strncmp(s, "random:", 7) == 0) {
		unsigned long long v;
		errno = 0;
		v = strtoull(s + 7, &end, 0);
		if (s[7] < '0' || s[7] > '9' || *end || errno)
			return fail(p, field,
			            "'%.64s': expected random:SEED with SEED an integer from 0 to "
			            "2^64-1",
			            s);
		b->init = LAUNCH_INIT_RANDOM;
		b->seed = v;
		return 0;
	}
	if (strncmp(s, "file:", 5) == 0) {
		if (!s[5])
			return fail(p, field, "'file:' needs a path");
		b->init = LAUNCH_INIT_FILE;
		b->init_path = resolve(p, s + 5);
		return b->init_path ? 0 : oom(p);
	}
	return fail(p, field, "'%.64s': expected zero, fill:BYTE, random:SEED or file:PATH", s);
}

static int parse_buffers(struct parser *p, const cJSON *root, struct launch_file *lf)
{
	static const char *const keys[] = {"size", "init", "output", NULL};
	const cJSON *bufs = cJSON_GetObjectItemCaseSensitive(root, "buffers"), *b;
	uint64_t total = 0;
	struct field f;
	int rc, n;
	if (!bufs)
		return fail(p, "buffers", "missing");
	if (!cJSON_IsObject(bufs))
		return fail(p, "buffers", "expected an object of named buffers, got %s",
		            json_kind(bufs));
	n = cJSON_GetArraySize(bufs);
	if (n > LAUNCH_MAX_BUFFERS)
		return fail(p, "buffers", "%d buffers, at most %d are allowed", n,
		            LAUNCH_MAX_BUFFERS);
	lf->buffers = calloc(n ? (size_t)n : 1, sizeof *lf->buffers);
	if (!lf->buffers)
		return oom(p);
	cJSON_ArrayForEach(b, bufs)
	{
		struct launch_buffer *lb = &lf->buffers[lf->nbuffers];
		const cJSON *size, *init, *output;
		char where[LAUNCH_MAX_NAME + 16];
		if (!valid_name(b->string))
			return fail(p, "buffers",
			            "'%.64s': a buffer name is 1 to %d letters, digits, '_', '-' "
			            "or '.'",
			            b->string, LAUNCH_MAX_NAME);
		if (launch_find_buffer(lf, b->string) >= 0)
			return fail(p, fieldf(&f, "buffers.%s", b->string), "given twice");
		snprintf(where, sizeof where, "buffers.%s", b->string);
		if (!cJSON_IsObject(b))
			return fail(p, where, "expected an object with size and init, got %s",
			            json_kind(b));
		if ((rc = check_keys(p, b, where, keys)))
			return rc;
		if (!(lb->name = strdup(b->string)))
			return oom(p);
		lf->nbuffers++;
		size = cJSON_GetObjectItemCaseSensitive(b, "size");
		if (!size)
			return fail(p, fieldf(&f, "%s.size", where), "missing");
		if ((rc = get_uint(p, size, fieldf(&f, "%s.size", where), 1,
		                   LAUNCH_MAX_BUFFER_BYTES, &lb->size)))
			return rc;
		total += lb->size;
		if (total > LAUNCH_MAX_TOTAL_BYTES)
			return fail(p, fieldf(&f, "%s.size", where),
			            "the buffers need more than %llu bytes together",
			            (unsigned long long)LAUNCH_MAX_TOTAL_BYTES);
		init = cJSON_GetObjectItemCaseSensitive(b, "init");
		if (!init)
			return fail(p, fieldf(&f, "%s.init", where), "missing");
		if (!cJSON_IsString(init))
			return fail(p, fieldf(&f, "%s.init", where),
			            "expected zero, fill:BYTE, random:SEED or file:PATH, got %s",
			            json_kind(init));
		if ((rc = parse_init(p, fieldf(&f, "%s.init", where), init->valuestring, lb)))
			return rc;
		output = cJSON_GetObjectItemCaseSensitive(b, "output");
		if (output) {
			if (!cJSON_IsString(output) || !output->valuestring[0])
				return fail(p, fieldf(&f, "%s.output", where),
				            "expected a file path");
			if (!(lb->output = strdup(output->valuestring)) ||
			    !(lb->output_path = resolve(p, output->valuestring)))
				return oom(p);
			for (size_t i = 0; i + 1 < lf->nbuffers; i++) {
				if (lf->buffers[i].output_path &&
				    strcmp(lf->buffers[i].output_path, lb->output_path) == 0)
					return fail(p, fieldf(&f, "%s.output", where),
					            "'%.64s' is also the output of buffer '%s'",
					            lb->output, lf->buffers[i].name);
			}
		}
	}
	return 0;
}

/* An integer scalar from a JSON number (exact up to 2^53) or a decimal/0x string. */
static int parse_int_value(struct parser *p, const char *field, const cJSON *v,
                           enum launch_scalar t, uint8_t *bytes)
{
	size_t size = scalar_table[t].size;
	int is_signed = scalar_table[t].is_signed;
	uint64_t bits;
	int64_t smin = is_signed ? -(int64_t)((UINT64_C(1) << (size * 8 - 1)) - 1) - 1 : 0;
	uint64_t umax = size == 8 ? (is_signed ? (uint64_t)INT64_MAX : UINT64_MAX)
	                          : (UINT64_C(1) << (size * 8 - is_signed)) - 1;
	const char *range = "";
	char rbuf[96];
	snprintf(rbuf, sizeof rbuf, "an integer from %lld to %llu", (long long)smin,
	         (unsigned long long)umax);
	range = rbuf;
	if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;
		if (floor(d) != d || fabs(d) > 9007199254740992.0)
			return fail(p, field,
			            "expected %s (write integers beyond 2^53 as a string)", range);
		if (d < (double)smin || d > (double)umax)
			return fail(p, field, "expected %s", range);
		bits = d < 0 ? (uint64_t)(int64_t)d : (uint64_t)d;
	} else if (cJSON_IsString(v)) {
		const char *s = v->valuestring;
		char *end;
		int neg = s[0] == '-';
		unsigned long long mag;
		errno = 0;
		mag = strtoull(s + neg, &end, 0);
		if (!s[neg] || s[neg] < '0' || s[neg] > '9' || *end || errno)
			return fail(p, field, "'%.64s': expected %s", s, range);
		if (neg) {
			if (!is_signed || mag > (uint64_t)(-(smin + 1)) + 1)
				return fail(p, field, "'%.64s': expected %s", s, range);
			bits = (uint64_t)0 - mag;
		} else {
			if (mag > umax)
				return fail(p, field, "'%.64s': expected %s", s, range);
			bits = mag;
		}
	} else {
		return fail(p, field, "expected %s, got %s", range, json_kind(v));
	}
	for (size_t i = 0; i < size; i++)
		bytes[i] = (uint8_t)(bits >> (8 * i));
	return 0;
}

/* IEEE binary16 nearest to d (round to nearest, ties to even), straight from the double so
 * there is no double rounding through float. */
static uint16_t f64_to_f16(double d)
{
	uint64_t b;
	memcpy(&b, &d, 8);
	uint16_t sign = (uint16_t)((b >> 48) & 0x8000);
	int exp = (int)((b >> 52) & 0x7ff);
	uint64_t man = b & ((UINT64_C(1) << 52) - 1);
	if (exp == 0x7ff)
		return sign | 0x7c00 | (man ? 0x200 : 0);
	if (exp == 0 && man == 0)
		return sign;
	/* value = 1.man * 2^e; keep 11 significant bits for a normal half, fewer for a denormal
	 * (exp == 0 doubles are far below the smallest half denormal and fall out as zero). */
	int e = exp - 1023;
	uint64_t sig = man | (UINT64_C(1) << 52);
	int shift = e >= -14 ? 42 : 42 + (-14 - e); /* low bits of sig rounded away */
	if (shift > 63)
		return sign;
	uint64_t kept = sig >> shift, rest = sig & ((UINT64_C(1) << shift) - 1);
	uint64_t half = UINT64_C(1) << (shift - 1);
	if (rest > half || (rest == half && (kept & 1)))
		kept++;
	if (e < -14) /* a denormal; rounding up to 0x400 is the smallest normal, as encoded */
		return sign | (uint16_t)kept;
	int biased = e + 15;
	if (kept >> 11) { /* rounding carried into a new bit */
		kept >>= 1;
		biased++;
	}
	if (biased >= 31)
		return sign | 0x7c00;
	return sign | (uint16_t)(biased << 10) | (uint16_t)(kept & 0x3ff);
}

static int parse_float_value(struct parser *p, const char *field, const cJSON *v,
                             enum launch_scalar t, uint8_t *bytes)
{
	double d;
	if (cJSON_IsNumber(v)) {
		d = v->valuedouble;
	} else if (cJSON_IsString(v)) {
		const char *s = v->valuestring;
		if (strcmp(s, "nan") == 0)
			d = NAN;
		else if (strcmp(s, "inf") == 0)
			d = INFINITY;
		else if (strcmp(s, "-inf") == 0)
			d = -INFINITY;
		else
			return fail(
			    p, field,
			    "'%.64s': expected a number, \"nan\", \"inf\" or \"-inf\" (exact "
			    "bits: {\"hex\": ...})",
			    s);
	} else {
		return fail(p, field, "expected a number, got %s", json_kind(v));
	}
	if (t == LAUNCH_F64) {
		memcpy(bytes, &d, 8);
	} else if (t == LAUNCH_F32) {
		float f = (float)d;
		if (isinf(f) && !isinf(d))
			return fail(p, field, "%g is out of range for f32", d);
		memcpy(bytes, &f, 4);
	} else {
		uint16_t h = f64_to_f16(d);
		if ((h & 0x7fff) == 0x7c00 && !isinf(d))
			return fail(p, field, "%g is out of range for f16", d);
		bytes[0] = (uint8_t)h;
		bytes[1] = (uint8_t)(h >> 8);
	}
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int parse_value_arg(struct parser *p, const char *field, const cJSON *a,
                           struct launch_arg *la)
{
	const cJSON *v = a->child;
	enum launch_scalar t;
	struct field f;
	const char *vf;
	if (cJSON_GetArraySize(a) != 1)
		return fail(p, field,
		            "expected {\"buffer\": NAME}, one typed scalar like {\"u32\": 1} or "
		            "{\"hex\": \"...\"}");
	for (t = 0; t < LAUNCH_SCALAR_COUNT; t++) {
		if (strcmp(scalar_table[t].name, v->string) == 0)
			break;
	}
	if (t == LAUNCH_SCALAR_COUNT)
		return fail(p, field,
		            "unknown type '%.64s' (expected buffer, i8, i16, i32, i64, u8, u16, "
		            "u32, u64, f16, f32, f64 or hex)",
		            v->string);
	vf = fieldf(&f, "%s.%s", field, v->string);
	la->kind = LAUNCH_ARG_VALUE;
	la->type = t;
	if (t == LAUNCH_HEX) {
		const char *s = cJSON_IsString(v) ? v->valuestring : NULL;
		size_t n = s ? strlen(s) : 0;
		if (!s || n == 0 || n % 2)
			return fail(p, vf, "expected a string of hex digit pairs, one per byte");
		if (n / 2 > LAUNCH_MAX_HEX_BYTES)
			return fail(p, vf, "%zu bytes, at most %d are allowed", n / 2,
			            LAUNCH_MAX_HEX_BYTES);
		la->size = n / 2;
		if (!(la->value = malloc(la->size)))
			return oom(p);
		for (size_t i = 0; i < la->size; i++) {
			int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
			if (hi < 0 || lo < 0)
				return fail(p, vf, "'%c%c' at character %zu is not a hex byte",
				            s[2 * i], s[2 * i + 1], 2 * i + 1);
			la->value[i] = (uint8_t)(hi << 4 | lo);
		}
		return 0;
	}
	la->size = scalar_table[t].size;
	if (!(la->value = calloc(1, 8)))
		return oom(p);
	if (scalar_table[t].is_float)
		return parse_float_value(p, vf, v, t, la->value);
	return parse_int_value(p, vf, v, t, la->value);
}

static int parse_args(struct parser *p, const cJSON *root, struct launch_file *lf)
{
	static const char *const buffer_keys[] = {"buffer", "offset", NULL};
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(root, "args"), *a;
	struct field f, g;
	int n, rc;
	if (!args)
		return fail(p, "args", "missing");
	if (!cJSON_IsArray(args))
		return fail(p, "args", "expected an array in the kernel's argument order, got %s",
		            json_kind(args));
	n = cJSON_GetArraySize(args);
	if (n > LAUNCH_MAX_ARGS)
		return fail(p, "args", "%d arguments, at most %d are allowed", n, LAUNCH_MAX_ARGS);
	lf->args = calloc(n ? (size_t)n : 1, sizeof *lf->args);
	if (!lf->args)
		return oom(p);
	cJSON_ArrayForEach(a, args)
	{
		struct launch_arg *la = &lf->args[lf->nargs];
		const char *field = fieldf(&f, "args[%zu]", lf->nargs);
		const cJSON *name;
		lf->nargs++;
		if (!cJSON_IsObject(a) || !a->child)
			return fail(p, field,
			            "expected {\"buffer\": NAME}, a typed scalar like {\"u32\": 1} "
			            "or {\"hex\": \"...\"}, got %s",
			            cJSON_IsObject(a) ? "an empty object" : json_kind(a));
		name = cJSON_GetObjectItemCaseSensitive(a, "buffer");
		if (!name) {
			if ((rc = parse_value_arg(p, field, a, la)))
				return rc;
			continue;
		}
		if ((rc = check_keys(p, a, field, buffer_keys)))
			return rc;
		if (!cJSON_IsString(name))
			return fail(p, fieldf(&g, "%s.buffer", field),
			            "expected a buffer name, got %s", json_kind(name));
		long idx = launch_find_buffer(lf, name->valuestring);
		if (idx < 0)
			return fail(p, fieldf(&g, "%s.buffer", field),
			            "no buffer named '%.64s' in buffers", name->valuestring);
		la->kind = LAUNCH_ARG_BUFFER;
		la->buffer = (size_t)idx;
		const cJSON *off = cJSON_GetObjectItemCaseSensitive(a, "offset");
		if (off && (rc = get_uint(p, off, fieldf(&g, "%s.offset", field), 0,
		                          lf->buffers[idx].size - 1, &la->offset)))
			return rc;
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
		return oom(&p);
	if (!(lf = calloc(1, sizeof *lf)) || !(lf->path = strdup(path))) {
		rc = oom(&p);
		goto done;
	}
	if (len >= 4 && !memcmp(text, "\177ELF", 4)) {
		rc = fail(
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
		rc = fail(&p, NULL, "line %u, column %u: not valid JSON", line, col);
		goto done;
	}
	if (end && (size_t)(end - text) < len) {
		/* Trailing non-space bytes after the object: a second document or junk. */
		for (const char *c = end; c < text + len; c++) {
			if (*c != ' ' && *c != '\n' && *c != '\t' && *c != '\r') {
				unsigned line, col;
				line_col(text, (size_t)(c - text), &line, &col);
				rc =
				    fail(&p, NULL, "line %u, column %u: text after the JSON object",
				         line, col);
				goto done;
			}
		}
	}
	if (!cJSON_IsObject(root)) {
		rc = fail(&p, NULL, "expected a JSON object, got %s", json_kind(root));
		goto done;
	}
	if ((rc = check_keys(&p, root, NULL, keys)))
		goto done;
	if ((rc = get_string(&p, root, "code_object", "code_object", &s)))
		goto done;
	if (!(lf->code_object = resolve(&p, s))) {
		rc = oom(&p);
		goto done;
	}
	if ((rc = get_string(&p, root, "kernel", "kernel", &s)))
		goto done;
	if (!(lf->kernel = strdup(s))) {
		rc = oom(&p);
		goto done;
	}
	if ((rc = get_dims(&p, root, "grid", UINT32_MAX, lf->grid)) ||
	    (rc = get_dims(&p, root, "workgroup", LAUNCH_MAX_WORKGROUP, lf->workgroup)))
		goto done;
	if (launch_workgroup_items(lf) > LAUNCH_MAX_WORKGROUP) {
		rc = fail(&p, "workgroup", "%u work-items, at most %d are allowed",
		          launch_workgroup_items(lf), LAUNCH_MAX_WORKGROUP);
		goto done;
	}
	if (launch_grid_items(lf) > LAUNCH_MAX_WORKITEMS) {
		rc = fail(&p, "grid", "%llu work-items, at most %llu are allowed",
		          (unsigned long long)launch_grid_items(lf),
		          (unsigned long long)LAUNCH_MAX_WORKITEMS);
		goto done;
	}
	const cJSON *lds = cJSON_GetObjectItemCaseSensitive(root, "dynamic_lds");
	if (lds) {
		uint64_t v;
		if ((rc = get_uint(&p, lds, "dynamic_lds", 0, LAUNCH_MAX_DYNAMIC_LDS, &v)))
			goto done;
		lf->dynamic_lds = (uint32_t)v;
	}
	if ((rc = parse_buffers(&p, root, lf)) || (rc = parse_args(&p, root, lf)))
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
			fail(&p, NULL, "larger than %u bytes: not a launch file",
			     LAUNCH_FILE_MAX_BYTES);
		else
			fail(&p, NULL, "cannot read: %s", read_failure(e));
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
	fieldf(&f, "buffers.%s.init", b->name);
	data = launch_read_regular(b->init_path, b->size, &size);
	if (!data) {
		int e = errno;
		if (e == EFBIG)
			fail(&p, f.s, "'%s' is larger than the buffer (%llu bytes)", b->init_path,
			     (unsigned long long)b->size);
		else
			fail(&p, f.s, "cannot read '%s': %s", b->init_path, read_failure(e));
		return e == EFBIG ? -EINVAL : -e;
	}
	if (size != b->size) {
		free(data);
		return fail(&p, f.s, "'%s' has %zu bytes, the buffer %llu", b->init_path, size,
		            (unsigned long long)b->size);
	}
	memcpy(mem, data, size);
	free(data);
	return 0;
}
