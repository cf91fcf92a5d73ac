/* Kernarg bytes: explicit arguments from the launch file, the hidden block from the grid. */
#include "kernarg.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static void put(uint8_t *kernarg, uint32_t size, uint32_t off, uint64_t v, uint32_t bytes)
{
	for (uint32_t i = 0; i < bytes && off + i < size; i++)
		kernarg[off + i] = (uint8_t)(v >> (8 * i));
}

static int hidden_value(const struct co_kernel *k, const struct co_arg *a,
                        const struct launch_file *lf, uint64_t *v)
{
	static const char *const dims = "xyz";
	const char *kind = a->value_kind;
	(void)k;
	*v = 0;
	for (int d = 0; d < 3; d++) {
		char name[40];
		snprintf(name, sizeof(name), "hidden_block_count_%c", dims[d]);
		if (!strcmp(kind, name)) {
			*v = lf->grid[d] /
			     lf->workgroup[d]; /* full workgroups, as HIP counts them */
			return 0;
		}
		snprintf(name, sizeof(name), "hidden_group_size_%c", dims[d]);
		if (!strcmp(kind, name)) {
			*v = lf->workgroup[d];
			return 0;
		}
		snprintf(name, sizeof(name), "hidden_remainder_%c", dims[d]);
		if (!strcmp(kind, name)) {
			*v = lf->grid[d] % lf->workgroup[d];
			return 0;
		}
	}
	if (!strcmp(kind, "hidden_grid_dims")) {
		*v = lf->grid[2] > 1 ? 3 : lf->grid[1] > 1 ? 2 : 1;
		return 0;
	}
	if (!strcmp(kind, "hidden_dynamic_lds_size")) {
		*v = lf->dynamic_lds;
		return 0;
	}
	/* global offsets (HIP launches with none), printf, hostcall, heap, queues: zero */
	return 0;
}

int kernarg_build(const struct co_kernel *k, const struct launch_file *lf, uint8_t *const *bufs,
                  uint8_t *kernarg, char *msg, size_t size)
{
	size_t next = 0;

	for (size_t i = 0; i < k->nargs; i++) {
		const struct co_arg *a = &k->args[i];
		if (a->offset > k->kernarg_size || a->size > k->kernarg_size - a->offset) {
			snprintf(msg, size,
			         "kernel %s: metadata argument %zu lies outside the %u-byte "
			         "kernarg segment",
			         k->name, i, k->kernarg_size);
			return -1;
		}
		if (a->hidden) {
			uint64_t v;
			hidden_value(k, a, lf, &v);
			put(kernarg, k->kernarg_size, a->offset, v, a->size < 8 ? a->size : 8);
			continue;
		}
		if (next >= lf->nargs) {
			snprintf(msg, size,
			         "args: kernel %s takes more arguments than the %zu given "
			         "(argument %zu%s%s%s is missing)",
			         k->name, lf->nargs, next, a->name ? " '" : "",
			         a->name ? a->name : "", a->name ? "'" : "");
			return -2;
		}
		{
			const struct launch_arg *la = &lf->args[next];
			bool is_ptr = a->value_kind && !strcmp(a->value_kind, "global_buffer");
			if (la->kind == LAUNCH_ARG_BUFFER) {
				if (a->size != 8 || !is_ptr) {
					snprintf(msg, size,
					         "args[%zu]: kernel argument %s%s%sis a %u-byte "
					         "%s, not a buffer",
					         next, a->name ? "'" : "", a->name ? a->name : "",
					         a->name ? "' " : "", a->size,
					         a->value_kind ? a->value_kind : "value");
					return -2;
				}
				put(kernarg, k->kernarg_size, a->offset,
				    (uint64_t)(uintptr_t)(bufs[la->buffer] + la->offset), 8);
			} else {
				if (is_ptr) {
					snprintf(
					    msg, size,
					    "args[%zu]: kernel argument %s%s%sis a buffer, the "
					    "launch gives a %zu-byte value (name a buffer: "
					    "{\"buffer\": NAME})",
					    next, a->name ? "'" : "", a->name ? a->name : "",
					    a->name ? "' " : "", la->size);
					return -2;
				}
				if (la->size != a->size) {
					snprintf(
					    msg, size,
					    "args[%zu]: kernel argument %s%s%sis %u bytes, the "
					    "launch gives %zu",
					    next, a->name ? "'" : "", a->name ? a->name : "",
					    a->name ? "' " : "", a->size, la->size);
					return -2;
				}
				memcpy(kernarg + a->offset, la->value, la->size);
			}
		}
		next++;
	}
	if (next != lf->nargs) {
		snprintf(msg, size, "args: kernel %s takes %zu arguments, the launch gives %zu",
		         k->name, next, lf->nargs);
		return -2;
	}
	return 0;
}
