/*
 * Compares the output buffers of two runs of one launch file (two references, or `mirage
 * emulate` and a reference): kernel_compare LAUNCH.json CHECK.json DIR_A DIR_B, where each
 * DIR holds the outputs by file name.  CHECK.json gives every output buffer an element type
 * and a tolerance: {"out": {"type": "f32", "ulp": 3}}; integers compare bit-exact, floats
 * bit-exact or within "ulp" units in the last place, and any NaN equals any NaN.  Exit 0
 * equal, 1 different (the first differences are printed), 2 bad input.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch_file.h"

enum elem {
	E_U8,
	E_U16,
	E_U32,
	E_U64,
	E_F16,
	E_F32,
	E_F64
};
static const struct {
	const char *name;
	size_t size;
	int is_float;
} elems[] = {
    [E_U8] = {"u8", 1, 0},   [E_U16] = {"u16", 2, 0}, [E_U32] = {"u32", 4, 0},
    [E_U64] = {"u64", 8, 0}, [E_F16] = {"f16", 2, 1}, [E_F32] = {"f32", 4, 1},
    [E_F64] = {"f64", 8, 1},
};
#define MAX_REPORTED 8

static uint64_t load(const uint8_t *p, size_t size)
{
	uint64_t v = 0;
	for (size_t i = 0; i < size; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static int is_nan(uint64_t bits, enum elem e)
{
	switch (e) {
	case E_F16:
		return (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff);
	case E_F32:
		return (bits & 0x7f800000) == 0x7f800000 && (bits & 0x7fffff);
	case E_F64:
		return (bits & 0x7ff0000000000000) == 0x7ff0000000000000 &&
		       (bits & 0xfffffffffffff);
	default:
		return 0;
	}
}

/* The float's position on a line where neighbouring floats differ by one: sign-magnitude
 * folded onto the integers, -0 just below +0 (1 ULP apart). */
static int64_t ordinal(uint64_t bits, enum elem e)
{
	unsigned width = (unsigned)elems[e].size * 8;
	uint64_t sign = UINT64_C(1) << (width - 1), mag = bits & (sign - 1);
	return (bits & sign) ? -(int64_t)mag - 1 : (int64_t)mag;
}

static double as_double(uint64_t bits, enum elem e)
{
	if (e == E_F64) {
		double d;
		memcpy(&d, &bits, 8);
		return d;
	}
	if (e == E_F32) {
		float f;
		uint32_t b = (uint32_t)bits;
		memcpy(&f, &b, 4);
		return f;
	}
	int ex = (int)(bits >> 10 & 0x1f);
	double m = (double)(bits & 0x3ff);
	double v = ex == 0    ? ldexp(m, -24)
	           : ex == 31 ? (m ? NAN : INFINITY)
	                      : ldexp(m + 1024, ex - 25);
	return (bits & 0x8000) ? -v : v;
}

static uint8_t *read_output(const char *dir, const char *output, size_t want, const char *buf)
{
	const char *base = strrchr(output, '/');
	char *path;
	size_t size;
	uint8_t *data;
	if (asprintf(&path, "%s/%s", dir, base ? base + 1 : output) < 0)
		return NULL;
	data = launch_read_regular(path, want, &size);
	if (!data)
		fprintf(stderr, "kernel_compare: buffers.%s: cannot read '%s': %s\n", buf, path,
		        errno == EFBIG ? "larger than the buffer" : strerror(errno));
	else if (size != want) {
		fprintf(stderr, "kernel_compare: buffers.%s: '%s' has %zu bytes, the buffer %zu\n",
		        buf, path, size, want);
		free(data);
		data = NULL;
	}
	free(path);
	return data;
}

/* Returns the number of differing elements (printing the first few). */
static size_t compare(const char *buf, const uint8_t *a, const uint8_t *b, size_t bytes,
                      enum elem e, uint64_t ulp, const char *dir_a, const char *dir_b)
{
	size_t n = bytes / elems[e].size, bad = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t x = load(a + i * elems[e].size, elems[e].size);
		uint64_t y = load(b + i * elems[e].size, elems[e].size);
		uint64_t dist = 0;
		if (x == y)
			continue;
		if (elems[e].is_float) {
			if (is_nan(x, e) && is_nan(y, e))
				continue;
			if (!is_nan(x, e) && !is_nan(y, e)) {
				int64_t ox = ordinal(x, e), oy = ordinal(y, e);
				dist = ox > oy ? (uint64_t)(ox - oy) : (uint64_t)(oy - ox);
				if (dist <= ulp)
					continue;
			}
		}
		if (bad++ < MAX_REPORTED) {
			fprintf(stderr, "kernel_compare: buffers.%s[%zu] (%s): %s 0x%0*" PRIx64,
			        buf, i, elems[e].name, dir_a, (int)elems[e].size * 2, x);
			if (elems[e].is_float)
				fprintf(stderr, " (%.9g)", as_double(x, e));
			fprintf(stderr, ", %s 0x%0*" PRIx64, dir_b, (int)elems[e].size * 2, y);
			if (elems[e].is_float) {
				fprintf(stderr, " (%.9g)", as_double(y, e));
				if (dist)
					fprintf(stderr,
					        ", %" PRIu64 " ULP apart, %" PRIu64 " allowed",
					        dist, ulp);
			}
			fputc('\n', stderr);
		}
	}
	return bad;
}

int main(int argc, char **argv)
{
	struct launch_file *lf = NULL;
	cJSON *check = NULL;
	char *err = NULL, *text = NULL;
	size_t size, total_bad = 0, compared = 0;
	int rc = 2;
	if (argc != 5) {
		fprintf(stderr, "usage: kernel_compare LAUNCH.json CHECK.json DIR_A DIR_B\n");
		return 2;
	}
	if (launch_file_load(argv[1], &lf, &err)) {
		fprintf(stderr, "kernel_compare: %s\n", err);
		goto done;
	}
	if (!(text = launch_read_regular(argv[2], 1 << 20, &size)) ||
	    !(check = cJSON_ParseWithLength(text, size)) || !cJSON_IsObject(check)) {
		fprintf(stderr, "kernel_compare: %s: cannot read a JSON object\n", argv[2]);
		goto done;
	}
	const cJSON *c;
	cJSON_ArrayForEach(c, check)
	{
		long idx = launch_find_buffer(lf, c->string);
		if (idx < 0 || !lf->buffers[idx].output) {
			fprintf(stderr, "kernel_compare: %s: %s: not an output buffer of %s\n",
			        argv[2], c->string, argv[1]);
			goto done;
		}
	}
	for (size_t i = 0; i < lf->nbuffers; i++) {
		const struct launch_buffer *b = &lf->buffers[i];
		const cJSON *spec = cJSON_GetObjectItemCaseSensitive(check, b->name), *t, *u;
		uint64_t ulp = 0;
		enum elem e;
		if (!b->output)
			continue;
		if (!spec || !cJSON_IsString(t = cJSON_GetObjectItemCaseSensitive(spec, "type"))) {
			fprintf(stderr,
			        "kernel_compare: %s: %s.type: missing (every output buffer "
			        "needs an element type)\n",
			        argv[2], b->name);
			goto done;
		}
		for (e = 0; e <= E_F64; e++) {
			if (strcmp(elems[e].name, t->valuestring) == 0)
				break;
		}
		if (e > E_F64 || b->size % elems[e].size) {
			fprintf(stderr,
			        "kernel_compare: %s: %s.type: '%s' is not one of u8 u16 u32 "
			        "u64 f16 f32 f64 or does not divide the buffer\n",
			        argv[2], b->name, t->valuestring);
			goto done;
		}
		if ((u = cJSON_GetObjectItemCaseSensitive(spec, "ulp"))) {
			if (!cJSON_IsNumber(u) || u->valuedouble < 0 || u->valuedouble > 1e6 ||
			    !elems[e].is_float) {
				fprintf(stderr,
				        "kernel_compare: %s: %s.ulp: a float buffer's "
				        "tolerance from 0 to 1000000\n",
				        argv[2], b->name);
				goto done;
			}
			ulp = (uint64_t)u->valuedouble;
		}
		uint8_t *x = read_output(argv[3], b->output, b->size, b->name);
		uint8_t *y = x ? read_output(argv[4], b->output, b->size, b->name) : NULL;
		if (!x || !y) {
			free(x);
			goto done;
		}
		size_t bad = compare(b->name, x, y, b->size, e, ulp, argv[3], argv[4]);
		if (bad)
			fprintf(stderr, "kernel_compare: buffers.%s: %zu of %zu elements differ\n",
			        b->name, bad, b->size / elems[e].size);
		total_bad += bad;
		compared++;
		free(x);
		free(y);
	}
	rc = total_bad ? 1 : 0;
	if (!total_bad)
		printf("kernel_compare: %zu output buffer(s) of %s agree\n", compared, lf->kernel);
done:
	cJSON_Delete(check);
	free(text);
	free(err);
	launch_file_free(lf);
	return rc;
}
