/* The explicit arguments of a launch file ("args"): scalar types, values and their ranges. */
#include "launch_parser.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
			return lp_fail(p, field,
			               "expected %s (write integers beyond 2^53 as a string)",
			               range);
		if (d < (double)smin || d > (double)umax)
			return lp_fail(p, field, "expected %s", range);
		bits = d < 0 ? (uint64_t)(int64_t)d : (uint64_t)d;
	} else if (cJSON_IsString(v)) {
		const char *s = v->valuestring;
		char *end;
		int neg = s[0] == '-';
		unsigned long long mag;
		errno = 0;
		mag = strtoull(s + neg, &end, 0);
		if (!s[neg] || s[neg] < '0' || s[neg] > '9' || *end || errno)
			return lp_fail(p, field, "'%.64s': expected %s", s, range);
		if (neg) {
			if (!is_signed || mag > (uint64_t)(-(smin + 1)) + 1)
				return lp_fail(p, field, "'%.64s': expected %s", s, range);
			bits = (uint64_t)0 - mag;
		} else {
			if (mag > umax)
				return lp_fail(p, field, "'%.64s': expected %s", s, range);
			bits = mag;
		}
	} else {
		return lp_fail(p, field, "expected %s, got %s", range, lp_json_kind(v));
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
			return lp_fail(
			    p, field,
			    "'%.64s': expected a number, \"nan\", \"inf\" or \"-inf\" (exact "
			    "bits: {\"hex\": ...})",
			    s);
	} else {
		return lp_fail(p, field, "expected a number, got %s", lp_json_kind(v));
	}
	if (t == LAUNCH_F64) {
		memcpy(bytes, &d, 8);
	} else if (t == LAUNCH_F32) {
		float f = (float)d;
		if (isinf(f) && !isinf(d))
			return lp_fail(p, field, "%g is out of range for f32", d);
		memcpy(bytes, &f, 4);
	} else {
		uint16_t h = f64_to_f16(d);
		if ((h & 0x7fff) == 0x7c00 && !isinf(d))
			return lp_fail(p, field, "%g is out of range for f16", d);
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
		return lp_fail(p, field,
		               "expected {\"buffer\": NAME}, one typed scalar like {\"u32\": 1} or "
		               "{\"hex\": \"...\"}");
	for (t = 0; t < LAUNCH_SCALAR_COUNT; t++) {
		if (strcmp(scalar_table[t].name, v->string) == 0)
			break;
	}
	if (t == LAUNCH_SCALAR_COUNT)
		return lp_fail(p, field,
		               "unknown type '%.64s' (expected buffer, i8, i16, i32, i64, u8, u16, "
		               "u32, u64, f16, f32, f64 or hex)",
		               v->string);
	vf = lp_fieldf(&f, "%s.%s", field, v->string);
	la->kind = LAUNCH_ARG_VALUE;
	la->type = t;
	if (t == LAUNCH_HEX) {
		const char *s = cJSON_IsString(v) ? v->valuestring : NULL;
		size_t n = s ? strlen(s) : 0;
		if (!s || n == 0 || n % 2)
			return lp_fail(p, vf, "expected a string of hex digit pairs, one per byte");
		if (n / 2 > LAUNCH_MAX_HEX_BYTES)
			return lp_fail(p, vf, "%zu bytes, at most %d are allowed", n / 2,
			               LAUNCH_MAX_HEX_BYTES);
		la->size = n / 2;
		if (!(la->value = malloc(la->size)))
			return lp_oom(p);
		for (size_t i = 0; i < la->size; i++) {
			int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
			if (hi < 0 || lo < 0)
				return lp_fail(p, vf, "'%c%c' at character %zu is not a hex byte",
				               s[2 * i], s[2 * i + 1], 2 * i + 1);
			la->value[i] = (uint8_t)(hi << 4 | lo);
		}
		return 0;
	}
	la->size = scalar_table[t].size;
	if (!(la->value = calloc(1, 8)))
		return lp_oom(p);
	if (scalar_table[t].is_float)
		return parse_float_value(p, vf, v, t, la->value);
	return parse_int_value(p, vf, v, t, la->value);
}

int lp_parse_args(struct parser *p, const cJSON *root, struct launch_file *lf)
{
	static const char *const buffer_keys[] = {"buffer", "offset", NULL};
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(root, "args"), *a;
	struct field f, g;
	int n, rc;
	if (!args)
		return lp_fail(p, "args", "missing");
	if (!cJSON_IsArray(args))
		return lp_fail(p, "args",
		               "expected an array in the kernel's argument order, got %s",
		               lp_json_kind(args));
	n = cJSON_GetArraySize(args);
	if (n > LAUNCH_MAX_ARGS)
		return lp_fail(p, "args", "%d arguments, at most %d are allowed", n,
		               LAUNCH_MAX_ARGS);
	lf->args = calloc(n ? (size_t)n : 1, sizeof *lf->args);
	if (!lf->args)
		return lp_oom(p);
	cJSON_ArrayForEach(a, args)
	{
		struct launch_arg *la = &lf->args[lf->nargs];
		const char *field = lp_fieldf(&f, "args[%zu]", lf->nargs);
		const cJSON *name;
		lf->nargs++;
		if (!cJSON_IsObject(a) || !a->child)
			return lp_fail(
			    p, field,
			    "expected {\"buffer\": NAME}, a typed scalar like {\"u32\": 1} "
			    "or {\"hex\": \"...\"}, got %s",
			    cJSON_IsObject(a) ? "an empty object" : lp_json_kind(a));
		name = cJSON_GetObjectItemCaseSensitive(a, "buffer");
		if (!name) {
			if ((rc = parse_value_arg(p, field, a, la)))
				return rc;
			continue;
		}
		if ((rc = lp_check_keys(p, a, field, buffer_keys)))
			return rc;
		if (!cJSON_IsString(name))
			return lp_fail(p, lp_fieldf(&g, "%s.buffer", field),
			               "expected a buffer name, got %s", lp_json_kind(name));
		long idx = launch_find_buffer(lf, name->valuestring);
		if (idx < 0)
			return lp_fail(p, lp_fieldf(&g, "%s.buffer", field),
			               "no buffer named '%.64s' in buffers", name->valuestring);
		la->kind = LAUNCH_ARG_BUFFER;
		la->buffer = (size_t)idx;
		const cJSON *off = cJSON_GetObjectItemCaseSensitive(a, "offset");
		if (off && (rc = lp_get_uint(p, off, lp_fieldf(&g, "%s.offset", field), 0,
		                             lf->buffers[idx].size - 1, &la->offset)))
			return rc;
	}
	return 0;
}
