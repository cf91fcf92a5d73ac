/* A launch file from a kernel's metadata (emulate_init.h); the rule is docs/emulate.md's. */
#include "emulate_init.h"

#include "msg.h"
#include "output.h"
#include "rewriter_input.h"

#include "atomic_file.h"
#include "strbuf.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Workgroups in x of the grid a new launch file runs. */
#define INIT_WORKGROUPS 4
/* A workgroup's work-items in x when the kernel requires no size. */
#define INIT_WORKGROUP 64
/* Bytes per work-item of a buffer whose element type is not one of OpenCL C's or HIP's. */
#define INIT_UNKNOWN_ELEMENT 16
/* A by-value argument larger than this is not a kernel's (planted metadata, say): refused. */
#define INIT_BY_VALUE_MAX 4096

struct scalar_type {
	const char *name;
	unsigned size;
	const char *key; /* the launch file's typed scalar */
	bool is_float;
};

/* OpenCL C's and HIP's scalar types as .type_name spells them. */
static const struct scalar_type scalar_types[] = {
    {"char", 1, "i8", false},    {"uchar", 1, "u8", false},   {"unsigned char", 1, "u8", false},
    {"short", 2, "i16", false},  {"ushort", 2, "u16", false}, {"unsigned short", 2, "u16", false},
    {"int", 4, "i32", false},    {"uint", 4, "u32", false},   {"unsigned int", 4, "u32", false},
    {"long", 8, "i64", false},   {"ulong", 8, "u64", false},  {"unsigned long", 8, "u64", false},
    {"size_t", 8, "u64", false}, {"half", 2, "f16", true},    {"_Float16", 2, "f16", true},
    {"float", 4, "f32", true},   {"double", 8, "f64", true},  {"bool", 1, "u8", false},
};

/* The scalar type of "const float4 *" (with *lanes 4), or NULL. */
static const struct scalar_type *element_type(const char *type_name, unsigned *lanes)
{
	char buf[128], *p = buf, *end;
	size_t n;

	*lanes = 1;
	if (!type_name || strlen(type_name) >= sizeof(buf))
		return NULL;
	snprintf(buf, sizeof(buf), "%s", type_name);
	/* Qualifiers and the pointer: "const float*", "float* restrict", "__global int *". */
	for (char *star = strchr(buf, '*'); star; star = strchr(buf, '*'))
		*star = '\0';
	for (;;) {
		static const char *const quals[] = {"const ",   "volatile ",   "__global ",
		                                    "global ",  "__constant ", "constant ",
		                                    "restrict "};
		bool stripped = false;
		while (*p == ' ')
			p++;
		for (size_t i = 0; i < sizeof(quals) / sizeof(quals[0]); i++)
			if (!strncmp(p, quals[i], strlen(quals[i]))) {
				p += strlen(quals[i]);
				stripped = true;
			}
		if (!stripped)
			break;
	}
	for (end = p + strlen(p); end > p && end[-1] == ' ';)
		*--end = '\0';
	/* A vector: float2, float3 (laid out as four), float4, ... float16. */
	n = strcspn(p, "0123456789");
	if (p[n]) {
		char *digits_end;
		unsigned long v = strtoul(p + n, &digits_end, 10);
		if (*digits_end || (v != 2 && v != 3 && v != 4 && v != 8 && v != 16))
			return NULL;
		*lanes = v == 3 ? 4 : (unsigned)v;
		p[n] = '\0';
	}
	for (size_t i = 0; i < sizeof(scalar_types) / sizeof(scalar_types[0]); i++)
		if (!strcmp(p, scalar_types[i].name))
			return &scalar_types[i];
	return NULL;
}

static const char *str_field(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num_field(const cJSON *o, const char *name, double def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	return cJSON_IsNumber(v) ? v->valuedouble : def;
}

/* The kernel's metadata record: kernel, or the only one; NULL said (with the names). */
static const cJSON *find_kernel(const cJSON *kernels, const char *co, const char *kernel)
{
	const cJSON *k, *found = NULL;
	struct strbuf names = STRBUF_INIT;
	int n = 0;

	cJSON_ArrayForEach(k, kernels)
	{
		const char *name = str_field(k, ".name");
		if (!name)
			continue;
		strbuf_addf(&names, "%s%s", n++ ? ", " : "", name);
		if (kernel ? !strcmp(name, kernel) : n == 1)
			found = k;
	}
	if (!n)
		error("'%s' has no kernel in its metadata", co);
	else if (kernel && !found)
		error("'%s' has no kernel '%s'; its kernels: %s", co, kernel, names.buf);
	else if (!kernel && n > 1) {
		error("'%s' has %d kernels: %s", co, n, names.buf);
		hint("say which with --kernel");
		found = NULL;
	}
	strbuf_release(&names);
	return n ? found : NULL;
}

/* "dir/vector_add.launch.json" -> "vector_add.launch": what outputs are named after, beside
 * the launch file (its paths are relative to its own directory). */
static void output_stem(const char *out, char *stem, size_t size)
{
	const char *base = strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
	size_t n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".json"))
		n -= 5;
	snprintf(stem, size, "%.*s", (int)n, base);
}

/* One explicit argument into the launch file; 0, or -1 said. */
static int add_arg(cJSON *buffers, cJSON *args, const cJSON *a, size_t i, uint64_t items,
                   const char *stem, const char *kernel, struct strbuf *summary)
{
	const char *kind = str_field(a, ".value_kind"), *type = str_field(a, ".type_name");
	const char *arg_name = str_field(a, ".name");
	unsigned size = (unsigned)num_field(a, ".size", 0), lanes;
	const struct scalar_type *st = element_type(type, &lanes);
	char name[64], init[32], output[PATH_MAX + 80];
	cJSON *o;

	snprintf(name, sizeof(name), "arg%zu", i);
	if (kind && !strcmp(kind, "global_buffer")) {
		const char *access = str_field(a, ".access");
		bool input = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, ".is_const")) ||
		             (access && !strcmp(access, "read_only"));
		uint64_t bytes = items * (st ? st->size * lanes : INIT_UNKNOWN_ELEMENT);
		o = cJSON_AddObjectToObject(buffers, name);
		cJSON_AddNumberToObject(o, "size", (double)bytes);
		if (input) {
			snprintf(init, sizeof(init), "random:%zu", i + 1);
			cJSON_AddStringToObject(o, "init", init);
		} else {
			snprintf(output, sizeof(output), "%s.%s.bin", stem, name);
			cJSON_AddStringToObject(o, "init", "zero");
			cJSON_AddStringToObject(o, "output", output);
		}
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "buffer", name);
		cJSON_AddItemToArray(args, o);
		strbuf_addf(summary, "  %-6s buffer of %llu bytes, %s%s%s (%s%s%s: %s)\n", name,
		            (unsigned long long)bytes, input ? init : "zero",
		            input ? "" : ", written to ", input ? "" : output,
		            arg_name ? arg_name : "", arg_name ? " " : "", type ? type : "no type",
		            input ? "const, an input"
		            : st
		                ? "an output"
		                : "an output; its element type is not known: 16 bytes a work-item");
		return 0;
	}
	if (kind && !strcmp(kind, "by_value")) {
		if (size == 0 || size > INIT_BY_VALUE_MAX) {
			error(
			    "kernel '%s': argument %zu is %u bytes by value, which no launch file "
			    "gives (at most %u)",
			    kernel, i, size, INIT_BY_VALUE_MAX);
			return -1;
		}
		o = cJSON_CreateObject();
		cJSON_AddItemToArray(args, o);
		if (st && lanes == 1 && st->size == size && !st->is_float) {
			/* The usual bound argument: the work-item count, as far as the type holds.
			 */
			bool is_signed = st->key[0] == 'i';
			uint64_t max = size == 8 ? (is_signed ? INT64_MAX : UINT64_MAX)
			                         : (UINT64_C(1) << (8 * size - is_signed)) - 1;
			uint64_t v = items < max ? items : max;
			cJSON_AddNumberToObject(o, st->key, (double)v);
			strbuf_addf(summary, "  %-6s %s %llu (%s%s%s: the work-item count)\n", name,
			            st->key, (unsigned long long)v, arg_name ? arg_name : "",
			            arg_name ? " " : "", type);
		} else if (st && lanes == 1 && st->size == size) {
			cJSON_AddNumberToObject(o, st->key, 1.0);
			strbuf_addf(summary, "  %-6s %s 1.0 (%s%s%s)\n", name, st->key,
			            arg_name ? arg_name : "", arg_name ? " " : "", type);
		} else {
			struct strbuf hex = STRBUF_INIT;
			for (unsigned b = 0; b < size; b++)
				strbuf_addstr(&hex, "00");
			cJSON_AddStringToObject(o, "hex", hex.buf);
			strbuf_addf(summary, "  %-6s %u zero bytes (%s)\n", name, size,
			            type ? type : "no type");
			strbuf_release(&hex);
		}
		return 0;
	}
	error("kernel '%s': argument %zu is a %s, which a launch file cannot give", kernel, i,
	      kind ? kind : "value of no .value_kind");
	hint("docs/emulate.md lists what a launch file can pass");
	return -1;
}

int emulate_init(const struct cmd_ctx *ctx, const char *co, const char *kernel, const char *out)
{
	struct rewriter_dl rw = REWRITER_DL_INIT;
	struct strbuf bytes = STRBUF_INIT, summary = STRBUF_INIT;
	char *json = NULL, *text = NULL, *abs = NULL, stem[PATH_MAX], out_buf[PATH_MAX];
	cJSON *meta_doc = NULL, *launch = NULL, *grid, *wg, *buffers, *args;
	const cJSON *k, *reqd, *arg;
	uint32_t wgs[3] = {INIT_WORKGROUP, 1, 1};
	uint64_t items;
	size_t i = 0;
	int ret = EXIT_ERROR;

	if (is_std_stream(co)) {
		ret =
		    usage_error("--init: give the code object's file, which the launch file names "
		                "(not '-')");
		goto out;
	}
	if (read_input(co, &bytes) < 0 || load_rewriter(ctx, &rw) < 0)
		goto out;
	if (rw.inspect(bytes.buf, bytes.len, 0, NULL, &json) != HS_OK) {
		error("'%s' is not a code object mirage can read: %s", co, rw.last_error());
		goto out;
	}
	meta_doc = cJSON_Parse(json);
	k = find_kernel(
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(meta_doc, "metadata"),
	                                     "amdhsa.kernels"),
	    co, kernel);
	if (!k)
		goto out;
	kernel = str_field(k, ".name");
	if (!out) {
		snprintf(out_buf, sizeof(out_buf), "%s.launch.json", kernel);
		out = out_buf;
	}
	output_stem(out, stem, sizeof(stem));
	/* The workgroup the kernel requires, else INIT_WORKGROUP (within its maximum). */
	reqd = cJSON_GetObjectItemCaseSensitive(k, ".reqd_workgroup_size");
	if (cJSON_GetArraySize(reqd) == 3 && cJSON_IsNumber(cJSON_GetArrayItem(reqd, 0)) &&
	    cJSON_IsNumber(cJSON_GetArrayItem(reqd, 1)) &&
	    cJSON_IsNumber(cJSON_GetArrayItem(reqd, 2))) {
		for (int d = 0; d < 3; d++) {
			double v = cJSON_GetArrayItem(reqd, d)->valuedouble;
			wgs[d] = v >= 1 && v <= 1024 ? (uint32_t)v : 1;
		}
	} else if (num_field(k, ".max_flat_workgroup_size", 0) > 0 &&
	           num_field(k, ".max_flat_workgroup_size", 0) < INIT_WORKGROUP) {
		wgs[0] = (uint32_t)num_field(k, ".max_flat_workgroup_size", 0);
	}
	if (!wgs[0] || !wgs[1] || !wgs[2])
		wgs[0] = wgs[1] = wgs[2] = 1;
	items = (uint64_t)INIT_WORKGROUPS * wgs[0] * wgs[1] * wgs[2];

	launch = cJSON_CreateObject();
	abs = realpath(co, NULL);
	cJSON_AddStringToObject(launch, "code_object", abs ? abs : co);
	cJSON_AddStringToObject(launch, "kernel", kernel);
	grid = cJSON_AddArrayToObject(launch, "grid");
	wg = cJSON_AddArrayToObject(launch, "workgroup");
	for (int d = 0; d < 3; d++) {
		cJSON_AddItemToArray(
		    grid, cJSON_CreateNumber((double)wgs[d] * (d ? 1 : INIT_WORKGROUPS)));
		cJSON_AddItemToArray(wg, cJSON_CreateNumber(wgs[d]));
	}
	buffers = cJSON_AddObjectToObject(launch, "buffers");
	args = cJSON_AddArrayToObject(launch, "args");
	cJSON_ArrayForEach(arg, cJSON_GetObjectItemCaseSensitive(k, ".args"))
	{
		const char *kind = str_field(arg, ".value_kind");
		if (kind && !strncmp(kind, "hidden_", 7))
			continue; /* mirage fills them as HIP would */
		if (add_arg(buffers, args, arg, i++, items, stem, kernel, &summary) < 0) {
			ret = EXIT_ERROR;
			goto out;
		}
	}
	cJSON_AddNumberToObject(launch, "dynamic_lds", 0);
	text = cJSON_Print(launch);
	if (!text || atomic_write_file(out, text, strlen(text), 0666, ATOMIC_EXCLUSIVE) < 0) {
		if (errno == EEXIST) {
			error("'%s' exists; a launch file is never overwritten", out);
			hint("remove it, or name another file with -o");
		} else {
			error_errno("cannot write '%s'", out);
		}
		goto out;
	}
	if (ctx->json) {
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "wrote", out);
		cJSON_AddItemToObject(doc, "launch", launch);
		launch = NULL;
		output_json(doc);
	} else {
		print_text("wrote %s: kernel %s, grid %llu x %u x %u, workgroup %u x %u x %u\n%s",
		           out, kernel, (unsigned long long)wgs[0] * INIT_WORKGROUPS, wgs[1],
		           wgs[2], wgs[0], wgs[1], wgs[2], summary.buf);
		print_text("edit it if the kernel needs other sizes or values (docs/emulate.md), "
		           "then: mirage emulate %s\n",
		           out);
	}
	ret = EXIT_OK;
out:
	free(abs);
	free(text);
	free(json);
	cJSON_Delete(meta_doc);
	cJSON_Delete(launch);
	strbuf_release(&summary);
	strbuf_release(&bytes);
	rewriter_dl_close(&rw);
	return ret;
}
