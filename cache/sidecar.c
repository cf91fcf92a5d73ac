/* The cache's sidecars, read and written without a JSON library (sidecar.h says why). */
#include "sidecar.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	const char *p, *start, *end;
	char *pool; /* where the next decoded string goes */
	char *why;
	size_t why_size;
};

__attribute__((format(printf, 2, 3))) static int fail(struct parser *ps, const char *fmt, ...)
{
	int n = snprintf(ps->why, ps->why_size, "at byte %td: ", ps->p - ps->start);
	va_list ap;

	if (n >= 0 && (size_t)n < ps->why_size) {
		va_start(ap, fmt);
		vsnprintf(ps->why + n, ps->why_size - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end &&
	       (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static int hex4(struct parser *ps, unsigned *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++, ps->p++) {
		char c = ps->p < ps->end ? *ps->p : '\0';
		unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
		             : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
		             : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
		                                    : 16u;
		if (d == 16)
			return fail(ps, "\\u wants four hex digits");
		*out = *out << 4 | d;
	}
	return 0;
}

/* The code point of a \u escape (ps->p past the 'u'), a surrogate pair joined. */
static int unicode_escape(struct parser *ps, unsigned *cp)
{
	unsigned lo;

	if (hex4(ps, cp) < 0)
		return -1;
	if (*cp >= 0xDC00 && *cp <= 0xDFFF)
		return fail(ps, "a low surrogate without its high one");
	if (*cp < 0xD800 || *cp > 0xDBFF)
		return *cp ? 0 : fail(ps, "\\u0000 (a NUL) in a string");
	if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u')
		return fail(ps, "a high surrogate without its low one");
	ps->p += 2;
	if (hex4(ps, &lo) < 0)
		return -1;
	if (lo < 0xDC00 || lo > 0xDFFF)
		return fail(ps, "a high surrogate without its low one");
	*cp = 0x10000 + ((*cp - 0xD800) << 10) + (lo - 0xDC00);
	return 0;
}

static char *put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xC0 | cp >> 6);
		*o++ = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xE0 | cp >> 12);
		*o++ = (char)(0x80 | (cp >> 6 & 0x3F));
		*o++ = (char)(0x80 | (cp & 0x3F));
	} else {
		*o++ = (char)(0xF0 | cp >> 18);
		*o++ = (char)(0x80 | (cp >> 12 & 0x3F));
		*o++ = (char)(0x80 | (cp >> 6 & 0x3F));
		*o++ = (char)(0x80 | (cp & 0x3F));
	}
	return o;
}

/* A string (ps->p at its quote), decoded into the pool; never longer than its text. */
static int string(struct parser *ps, const char **out)
{
	char *o = ps->pool;

	ps->p++;
	*out = o;
	for (;;) {
		unsigned char c;
		if (ps->p >= ps->end)
			return fail(ps, "the text ends inside a string");
		c = (unsigned char)*ps->p;
		if (c == '"')
			break;
		if (c < 0x20)
			return fail(ps, "a control character (0x%02x) inside a string", c);
		ps->p++;
		if (c != '\\') {
			*o++ = (char)c;
			continue;
		}
		c = ps->p < ps->end ? (unsigned char)*ps->p++ : '\0';
		switch (c) {
		case '"':
		case '\\':
		case '/':
			*o++ = (char)c;
			break;
		case 'b':
			*o++ = '\b';
			break;
		case 'f':
			*o++ = '\f';
			break;
		case 'n':
			*o++ = '\n';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'u': {
			unsigned cp;
			if (unicode_escape(ps, &cp) < 0)
				return -1;
			o = put_utf8(o, cp);
			break;
		}
		default:
			ps->p--;
			return fail(ps, "an unknown escape in a string");
		}
	}
	ps->p++;
	*o++ = '\0';
	ps->pool = o;
	return 0;
}

static bool digit(const struct parser *ps)
{
	return ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9';
}

/* A number as JSON writes it; f->is_uint when it is a plain integer that fits. */
static int number(struct parser *ps, struct sidecar_field *f)
{
	bool neg = *ps->p == '-', plain = true, fits = true;
	uint64_t v = 0;

	if (neg)
		ps->p++;
	if (!digit(ps))
		return fail(ps, "a number wants a digit");
	if (*ps->p == '0' && ps->p + 1 < ps->end && ps->p[1] >= '0' && ps->p[1] <= '9')
		return fail(ps, "a number with a leading zero");
	for (; digit(ps); ps->p++) {
		unsigned d = (unsigned)(*ps->p - '0');
		fits = fits && v <= (UINT64_MAX - d) / 10;
		v = v * 10 + d;
	}
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++, plain = false;
		if (!digit(ps))
			return fail(ps, "a fraction wants a digit");
		while (digit(ps))
			ps->p++;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		ps->p++, plain = false;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (!digit(ps))
			return fail(ps, "an exponent wants a digit");
		while (digit(ps))
			ps->p++;
	}
	f->is_uint = plain && fits && !neg;
	f->uint = f->is_uint ? v : 0;
	return 0;
}

static int value(struct parser *ps, struct sidecar_field *f)
{
	static const char *const literals[] = {"true", "false", "null"};
	char c = *ps->p;

	if (c == '"')
		return string(ps, &f->str);
	if (c == '-' || (c >= '0' && c <= '9'))
		return number(ps, f);
	if (c == '{' || c == '[')
		return fail(ps, "a nested %s (a sidecar's values are strings and numbers)",
		            c == '{' ? "object" : "array");
	for (size_t i = 0; i < sizeof(literals) / sizeof(literals[0]); i++) {
		size_t n = strlen(literals[i]);
		if ((size_t)(ps->end - ps->p) >= n && !memcmp(ps->p, literals[i], n)) {
			ps->p += n;
			return 0;
		}
	}
	return fail(ps, "not a JSON value");
}

static int field(struct parser *ps, struct sidecar *s)
{
	struct sidecar_field *f;

	if (ps->p >= ps->end || *ps->p != '"')
		return fail(ps, "a field name (a string) expected");
	if (s->n == SIDECAR_MAX_FIELDS)
		return fail(ps, "more than %d fields", SIDECAR_MAX_FIELDS);
	f = &s->field[s->n];
	*f = (struct sidecar_field){0};
	if (string(ps, &f->name) < 0)
		return -1;
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->field[i].name, f->name))
			return fail(ps, "field '%s' appears twice", f->name);
	skip_space(ps);
	if (ps->p >= ps->end || *ps->p != ':')
		return fail(ps, "':' expected after field '%s'", f->name);
	ps->p++;
	skip_space(ps);
	if (ps->p >= ps->end)
		return fail(ps, "the text ends before the value of '%s'", f->name);
	if (value(ps, f) < 0)
		return -1;
	s->n++;
	return 0;
}

int sidecar_parse(struct sidecar *s, const char *text, size_t len, char *why, size_t why_size)
{
	struct parser ps = {text, text, text + len, NULL, why, why_size};

	*s = (struct sidecar){0};
	/* Decoded strings are never longer than their text, so the text's size suffices. */
	if (!(s->pool = ps.pool = malloc(len + 1))) {
		snprintf(why, why_size, "out of memory");
		return -1;
	}
	skip_space(&ps);
	if (ps.p >= ps.end || *ps.p != '{')
		return fail(&ps, "a JSON object expected");
	ps.p++;
	skip_space(&ps);
	if (ps.p < ps.end && *ps.p == '}') {
		ps.p++;
	} else {
		for (;;) {
			if (field(&ps, s) < 0)
				return -1;
			skip_space(&ps);
			if (ps.p < ps.end && *ps.p == ',') {
				ps.p++;
				skip_space(&ps);
				continue;
			}
			if (ps.p < ps.end && *ps.p == '}') {
				ps.p++;
				break;
			}
			return fail(&ps, "',' or '}' expected");
		}
	}
	skip_space(&ps);
	if (ps.p != ps.end)
		return fail(&ps, "text after the object");
	return 0;
}

static const struct sidecar_field *lookup(const struct sidecar *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->field[i].name, name))
			return &s->field[i];
	return NULL;
}

const char *sidecar_str(const struct sidecar *s, const char *name)
{
	const struct sidecar_field *f = lookup(s, name);
	return f ? f->str : NULL;
}

bool sidecar_uint(const struct sidecar *s, const char *name, uint64_t *out)
{
	const struct sidecar_field *f = lookup(s, name);
	if (!f || !f->is_uint)
		return false;
	*out = f->uint;
	return true;
}

void sidecar_free(struct sidecar *s)
{
	free(s->pool);
	*s = (struct sidecar){0};
}

/* s as a JSON string's body into o (when not NULL); its length either way. */
static size_t escaped(char *o, const char *s)
{
	size_t n = 0;

	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		char tmp[8];
		const char *rep = NULL;
		switch (*c) {
		case '"':
			rep = "\\\"";
			break;
		case '\\':
			rep = "\\\\";
			break;
		case '\b':
			rep = "\\b";
			break;
		case '\f':
			rep = "\\f";
			break;
		case '\n':
			rep = "\\n";
			break;
		case '\r':
			rep = "\\r";
			break;
		case '\t':
			rep = "\\t";
			break;
		default:
			if (*c < 0x20) {
				snprintf(tmp, sizeof(tmp), "\\u%04x", *c);
				rep = tmp;
			}
		}
		if (!rep) {
			if (o)
				o[n] = (char)*c;
			n++;
			continue;
		}
		if (o)
			memcpy(o + n, rep, strlen(rep));
		n += strlen(rep);
	}
	return n;
}

/* The text into o (when not NULL); its length either way. */
static size_t layout(char *o, const struct sidecar_item *items, size_t n)
{
	size_t len = 0;

#define EMIT(src, k)                                                                               \
	do {                                                                                       \
		if (o)                                                                             \
			memcpy(o + len, (src), (k));                                               \
		len += (k);                                                                        \
	} while (0)
	EMIT("{\n", 2);
	for (size_t i = 0; i < n; i++) {
		char num[24];
		EMIT("\t\"", 2);
		len += escaped(o ? o + len : NULL, items[i].name);
		EMIT("\":\t", 3);
		if (items[i].str) {
			EMIT("\"", 1);
			len += escaped(o ? o + len : NULL, items[i].str);
			EMIT("\"", 1);
		} else {
			int k =
			    snprintf(num, sizeof(num), "%llu", (unsigned long long)items[i].uint);
			EMIT(num, (size_t)k);
		}
		if (i + 1 < n)
			EMIT(",", 1);
		EMIT("\n", 1);
	}
	EMIT("}", 1);
#undef EMIT
	return len;
}

char *sidecar_format(const struct sidecar_item *items, size_t n)
{
	size_t len = layout(NULL, items, n);
	char *text = malloc(len + 1);

	if (!text)
		return NULL;
	layout(text, items, n);
	text[len] = '\0';
	return text;
}
