/* Internal model and helpers shared by the files of libhotswap_rewrite (never installed). */
#ifndef HS_INTERNAL_H
#define HS_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gelf.h>
#include <libelf.h>

#include "hash_index.h"
#include "hotswap/rewrite.h"
#include "hs_attr.h"
#include "elf_view.h"
#include "kd.h"
#include "kernels.h"
#include "le_bytes.h"
#include "note.h"

struct gfx_info;

#ifndef EM_AMDGPU
#define EM_AMDGPU 224
#endif
#ifndef ELFOSABI_AMDGPU_HSA
#define ELFOSABI_AMDGPU_HSA 64
#endif
#define HS_NT_PROVENANCE      0x48535750u /* "HSWP": our provenance note */
#define HS_PROVENANCE_VERSION 1u
#define HS_PROV_DESC_SIZE     32u
#define HS_POOL_ALIGN         4096u
/* .hotswap.text's sh_addralign: its stubs and entries start on 256-byte boundaries, so tools
 * that read the section's alignment (and relink it) keep them there, whatever the pool holds
 * (docs/rewriter.md). */
#define HS_POOL_SECTION_ALIGN 256u
#define HS_POOL_SECTION       ".hotswap.text"
#define HS_PROV_SECTION       ".note.hotswap"

/* ELF64 file entry sizes. */
#define EHDR_SIZE 64u
#define PHDR_SIZE 56u
#define SHDR_SIZE 64u
#define SYM_SIZE  24u

/* ---- errors and logging (error.c, log.c) ---- */

/* Records msg as the calling thread's last error and returns status. */
HS_INTERNAL enum hs_status hs_fail(enum hs_status status, const char *fmt, ...) HS_PRINTF(2, 3);
/* hs_fail with the reason code the report carries (hs_fail picks one from the status). */
HS_INTERNAL enum hs_status hs_fail_why(enum hs_status status, enum hs_reason reason,
                                       const char *fmt, ...) HS_PRINTF(3, 4);
/* The reason of the calling thread's last failure (HS_REASON_NONE after hs_clear_error). */
HS_INTERNAL enum hs_reason hs_last_reason(void);
HS_INTERNAL void hs_clear_error(void);
HS_INTERNAL void hs_log(enum hs_log_level level, const char *fmt, ...) HS_PRINTF(2, 3);

/* ---- hash index (common/hash_index.h) ---- */

/* hash_index_insert in the rewriter's error convention. */
static inline enum hs_status hs_index_insert(struct hash_index *t, uint64_t hash, size_t idx)
{
	return hash_index_insert(t, hash, idx) ? hs_fail(HS_OUT_OF_RESOURCES, "out of memory")
	                                       : HS_OK;
}

/* ---- string tables by content (strtab_index.c) ---- */

struct hs_strtab_index {
	const uint8_t *tab; /* the table, not owned */
	size_t *off;        /* offset of each distinct string */
	size_t n;
	struct hash_index index; /* into off[] */
};
/*
 * Indexes the whole strings of tab[0..size): those starting at 0 or after a
 * NUL and ending with a NUL inside the table.  Free it even on failure.
 */
HS_INTERNAL enum hs_status hs_strtab_index_build(struct hs_strtab_index *s, const uint8_t *tab,
                                                 size_t size);
/* The lowest offset of a whole string equal to name, or HASH_INDEX_NONE. */
HS_INTERNAL size_t hs_strtab_index_find(const struct hs_strtab_index *s, const char *name);
HS_INTERNAL void hs_strtab_index_free(struct hs_strtab_index *s);

/* ---- ISA / target ids (isa.c) ---- */

enum hs_feature {
	HS_FEAT_DEFAULT = 0, /* not given */
	HS_FEAT_ON,
	HS_FEAT_OFF,
};
enum hs_stepping {
	HS_STEP_DEFAULT = 0, /* not given: the caller applies the source/target default */
	HS_STEP_A0,
	HS_STEP_B0,
};
struct hs_isa {
	const struct gfx_info *gfx;
	enum hs_feature sramecc, xnack;
	enum hs_stepping stepping;
};
/* Parses a target id into *isa; returns 0, or -1 with a reason in err. */
HS_INTERNAL int hs_isa_parse(const char *s, struct hs_isa *isa, char *err, size_t err_size);
/* The ISA an ELF header states (e_flags and EI_ABIVERSION); -1 if the mach is unknown. */
HS_INTERNAL int hs_isa_from_elf(uint32_t e_flags, uint8_t abi_version, struct hs_isa *isa);
/* hs_isa_from_elf, failing with the one message for an unknown processor. */
HS_INTERNAL enum hs_status hs_isa_read_elf(uint32_t e_flags, uint8_t abi_version,
                                           struct hs_isa *isa);
/* "amdgcn-amd-amdhsa--gfx1250[:sramecc±][:xnack±]" into buf; false if it does not fit. */
HS_INTERNAL bool hs_isa_format(const struct hs_isa *isa, char *buf, size_t size);
HS_INTERNAL bool hs_isa_is_gfx125x(const struct hs_isa *isa);
HS_INTERNAL bool hs_isa_is_gfx1250(const struct hs_isa *isa);
HS_INTERNAL const char *hs_stepping_name(enum hs_stepping s);

/* ---- ELF model (codeobj/elf_view.h; reader.c) ---- */

/* cob_elf_header_check in the rewriter's error convention (HS_INVALID_ARGUMENT, message set). */
HS_INTERNAL enum hs_status hs_elf_check_header(const uint8_t *b, size_t size);
/* cob_elf_open in the rewriter's error convention: the status its failure maps to, message set. */
HS_INTERNAL enum hs_status hs_elf_open(struct cob_elf *e, const void *in, size_t size);

/* ---- note records (codeobj/note.h reads them; note_write.c writes a header) ---- */

/* The size of an "AMDGPU" record with a descsz-byte desc, padded to align (4 or 8). */
HS_INTERNAL uint64_t hs_note_record_size(uint32_t descsz, uint64_t align);
/*
 * Writes the header and the "AMDGPU" owner of a record into r, which the
 * caller zero-filled to hs_note_record_size bytes; returns where the desc goes.
 */
HS_INTERNAL size_t hs_note_put_header(uint8_t *r, uint32_t type, uint32_t descsz, uint64_t align);

/* ---- kernels (codeobj/kernels.h) ---- */

/* The kernels by descriptor address are codeobj's (struct cob_kernels, joined to the metadata
 * by hs_meta_join_kernels). */
/* cob_kernels_find in the rewriter's error convention (reader.c). */
HS_INTERNAL enum hs_status hs_kernels_find(const struct cob_elf *e, struct cob_kernels *ks);

/* ---- metadata (metadata.c) ---- */

struct hs_meta; /* the parsed NT_AMDGPU_METADATA note */

/* Reads the metadata note if there is one (*m = NULL when none). */
HS_INTERNAL enum hs_status hs_meta_read(const struct cob_elf *e, struct hs_meta **m);
HS_INTERNAL void hs_meta_free(struct hs_meta *m);
HS_INTERNAL size_t hs_meta_kernel_count(const struct hs_meta *m);
/* Sets each kernel's meta to the metadata kernel whose .symbol is <name>.kd (-1: none;
 * codeobj's cob_kernels_join). */
HS_INTERNAL enum hs_status hs_meta_join_kernels(const struct hs_meta *m, struct cob_kernels *ks);
HS_INTERNAL const char *hs_meta_kernel_name(const struct hs_meta *m, int k, char *buf, size_t size);
/* Reads an unsigned key of kernel k; false when missing or not an unsigned integer. */
HS_INTERNAL bool hs_meta_get_uint(const struct hs_meta *m, int k, const char *key, uint64_t *v);
/* The msgpack value (a const msgpack_object *) of key in kernel k, NULL when missing. */
HS_INTERNAL const void *hs_meta_get_value(const struct hs_meta *m, int k, const char *key);
/* A string key of kernel k: its bytes and length (not NUL-terminated). */
enum hs_meta_str {
	HS_META_STR_OK = 0,
	HS_META_STR_MISSING,
	HS_META_STR_NOT_STR
};
HS_INTERNAL enum hs_meta_str hs_meta_get_str(const struct hs_meta *m, int k, const char *key,
                                             const char **str, size_t *len);
/*
 * A linked object carries one metadata record per input; they are read merged as the HSA
 * runtime's reader (comgr) merges them: kernels numbered across the records.  Records
 * that comgr would leave out (another amdhsa.version) are left out and counted.
 */
HS_INTERNAL size_t hs_meta_note_count(const struct hs_meta *m);
HS_INTERNAL size_t hs_meta_left_out(const struct hs_meta *m);
/* HS_OK when kernel (its index meta into m) has a metadata entry; else the error that says
 * so and what follows ("its SGPR count is unknown"), and why when a note was left out. */
HS_INTERNAL enum hs_status hs_meta_need_entry(const struct hs_meta *m, const char *kernel, int meta,
                                              const char *consequence);
/* Location of record i (file offset and size, and its section index; sec may be NULL). */
HS_INTERNAL void hs_meta_location(const struct hs_meta *m, size_t i, uint64_t *rec_off,
                                  uint64_t *rec_size, size_t *sec);
struct hs_meta_update;
/* True when one of the updates sets a key of a kernel in record i. */
HS_INTERNAL bool hs_meta_note_updated(const struct hs_meta *m, size_t i,
                                      const struct hs_meta_update *u, size_t n);
/*
 * Encodes record i whole (header + name + desc) into a new buffer, padded as its section
 * pads (cob_note_align), with each update's key set to its value.
 */
struct hs_meta_update {
	int kernel; /* metadata kernel index */
	const char *key;
	uint64_t value;  /* an unsigned key's new value */
	const char *str; /* or, when set, a string key's new value (static storage) */
	/*
	 * Or, when carry is set: the key takes the value obj (a msgpack value of another
	 * metadata, hs_meta_get_value, which must outlive the encoding), added when the kernel
	 * lacks it; obj NULL removes the key.  The translation route carries the source's .args.
	 */
	bool carry;
	const void *obj;
};
HS_INTERNAL enum hs_status hs_meta_encode_record(const struct hs_meta *m, size_t i,
                                                 const struct hs_meta_update *u, size_t n,
                                                 uint8_t **rec, size_t *rec_size);
/* The metadata as a cJSON tree (for hs_inspect); NULL on failure. */
struct cJSON;
HS_INTERNAL struct cJSON *hs_meta_to_json(const struct hs_meta *m);

/* ---- provenance (provenance.c; written by the patch writer) ---- */

enum hs_target_state {
	HS_STATE_NEUTRAL = 0,
	HS_STATE_A0 = 1,
	HS_STATE_B0 = 2,
};
/* "A0", "B0", "neutral", or "unknown" for a value no rewrite writes. */
HS_INTERNAL const char *hs_state_name(uint32_t state);
#define HS_XFORM_ENTRY_TRAMPOLINES (1u << 0)
#define HS_XFORM_B0A0              (1u << 1)
#define HS_XFORM_TRANSLATE         (1u << 2) /* made by the translator (the translation note) */

/*
 * The translation note (type HS_NT_TRANSLATION, owner "AMDGPU", beside the provenance note):
 * desc = u32 version, then three NUL-terminated strings (source ISA, target ISA, translator
 * build id), zero-padded to 4.
 */
#define HS_NT_TRANSLATION      0x48535754u /* "HSWT" */
#define HS_TRANSLATION_VERSION 1u
struct hs_translation_prov {
	char source[128], target[128], build[256];
};
/*
 * The translation note of e, if any: *t filled, *found true.  A malformed one is
 * HS_INVALID_ARGUMENT, like a malformed provenance note.
 */
HS_INTERNAL enum hs_status hs_translation_read(const struct cob_elf *e,
                                               struct hs_translation_prov *t, bool *found);
/* The whole 4-aligned record of a translation note, malloc()ed into *rec. */
HS_INTERNAL enum hs_status hs_translation_record(const char *source, const char *target,
                                                 const char *build, uint8_t **rec, size_t *size);

struct hs_provenance {
	uint32_t version;
	uint32_t transforms;
	uint32_t state;
	uint64_t pool_vaddr, pool_size;
};
/* Reads every provenance note; n receives their count (array owned by caller, free()). */
HS_INTERNAL enum hs_status hs_provenance_read(const struct cob_elf *e, struct hs_provenance **p,
                                              size_t *n);

#endif
