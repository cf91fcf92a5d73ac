/*
 * A reader of what the translator, the CPU runner and the tools need from an AMDGPU code
 * object (libmirage_codeobj): the .text bytes, the function symbols, each kernel's 64-byte
 * descriptor (<kernel>.kd, read by field name through kd.h) and the fields of its
 * NT_AMDGPU_METADATA entry (.args, segment sizes, .cluster_dims).  It reads through the pieces
 * the rewriter's loader is made of: the object opened and validated by elf_view.h, every
 * metadata record merged as the rewriter and the loader merge them (meta_read.h), each
 * descriptor found by address and joined to its metadata kernel by .symbol (kernels.h).
 */
#ifndef MIRAGE_CODE_OBJECT_H
#define MIRAGE_CODE_OBJECT_H

#include <stddef.h>
#include <stdint.h>

#include "kd.h"

struct co_arg {
	char *name;       /* .name, or NULL */
	char *value_kind; /* .value_kind ("global_buffer", "by_value", "hidden_block_count_x") */
	uint32_t offset, size;
	int hidden; /* value_kind starts with "hidden_" */
};

struct co_kernel {
	char *name;                     /* .name */
	char *symbol;                   /* .symbol ("<name>.kd") */
	uint64_t entry;                 /* address of the code (the function symbol's value) */
	uint64_t size;                  /* the function symbol's size */
	uint8_t kd[KD_SIZE];            /* the kernel descriptor's bytes */
	struct kd desc;                 /* ... decoded (kd.h) */
	const struct kd_layout *layout; /* its RSRC fields: the object's family */
	uint32_t kernarg_size;          /* .kernarg_segment_size */
	uint32_t group_fixed;           /* .group_segment_fixed_size */
	uint32_t private_fixed;         /* .private_segment_fixed_size */
	uint32_t wavefront_size;        /* .wavefront_size */
	int has_cluster_dims;           /* .cluster_dims present and not [0|1, 1, 1] */
	uint32_t max_flat_wg;           /* .max_flat_workgroup_size, 0 when absent */
	uint32_t reqd_wg[3];            /* .reqd_workgroup_size, zeros when absent */
	uint32_t vgpr_count;            /* .vgpr_count (architected VGPRs) */
	uint32_t agpr_count;            /* .agpr_count (0 when absent) */
	struct co_arg *args;
	size_t nargs;
};

struct co_func {
	char *name;
	uint64_t addr, size;
};

struct code_object {
	char *path;
	char *mcpu;         /* from e_flags: "gfx1250", or NULL when unknown */
	uint32_t mach;      /* EF_AMDGPU_MACH */
	uint8_t *text;      /* .text bytes, then (zero gap) the rewriter's pool when present */
	uint64_t text_addr; /* .text sh_addr */
	uint64_t text_size; /* up to the end of the pool when present */
	/* The rewriter's .hotswap.text pool (trampolines, entry stubs), as offsets from
	 * text_addr; pool_start == pool_end when the object has none. */
	uint64_t pool_start, pool_end;
	/* The loaded image: every PT_LOAD segment at its address, bytes past a segment's file
	 * size zero, from the lowest segment address (image_addr) to the highest end; what a
	 * kernel reads of its own object (.rodata tables through s_get_pc_i64) comes from here.
	 * NULL and 0 when the object has no PT_LOAD. */
	uint8_t *image;
	uint64_t image_addr, image_size;
	struct co_kernel *kernels;
	size_t nkernels;
	struct co_func *funcs; /* every STT_FUNC symbol inside .text, by address */
	size_t nfuncs;
};

/*
 * Reads the code object at path.  Returns 0 and *out, or a negative errno with *err the
 * message naming the file and what is wrong (caller frees).  Never prints.
 */
int co_load(const char *path, struct code_object **out, char **err);
/* The same for size bytes in memory (copied); name stands for the path in messages. */
int co_load_memory(const void *bytes, size_t size, const char *name, struct code_object **out,
                   char **err);
void co_free(struct code_object *co);

/* The descriptor field called name (LLVM's name, kd.h) of kernel k; 0 when its family has none. */
static inline uint32_t co_kd(const struct co_kernel *k, const char *name)
{
	return kd_get(&k->desc, k->layout, name);
}

/* The static LDS kernel k needs: the larger of its descriptor's and its metadata's. */
static inline uint32_t co_kernel_lds(const struct co_kernel *k)
{
	return k->desc.group_segment_fixed_size > k->group_fixed ? k->desc.group_segment_fixed_size
	                                                         : k->group_fixed;
}

/* The kernel called name (its .name, or its .symbol), or NULL. */
const struct co_kernel *co_find_kernel(const struct code_object *co, const char *name);

#endif
