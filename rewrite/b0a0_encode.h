/*
 * The gfx1250 B0->A0 pass's instruction bytes (a leaf: bytes and the decoder's rows): which
 * raw encodings are B0-only sites, the in-place replacements, the split of a DS two-address
 * form, the ADDTID address sequence, the s_branch encoder that decides reach and the far
 * jump.  Which instruction replaces which is the rows' meaning (isa/gfx1250.def's MEM, TYPE
 * and OPER), every opcode a row's; every encoding is pinned against llvm-mc-22
 * (docs/rewriter.md, "The B0->A0 pass").
 */
#ifndef HS_B0A0_ENCODE_H
#define HS_B0A0_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hs_attr.h"

/* What a raw instruction is to the pass. */
enum hs_b0a0_site {
	HS_SITE_NONE = 0,
	HS_SITE_CLUSTER_LOAD,  /* cluster_load_* / _async_to_lds_* with a VGPR address: in place */
	HS_SITE_CLUSTER_SADDR, /* the same with an SGPR base: left alone */
	HS_SITE_ISFIRST,       /* s_barrier_signal_isfirst <imm>: in place */
	HS_SITE_ISFIRST_REG,   /* s_barrier_signal_isfirst m0 / an SGPR: left alone */
	HS_SITE_DS2,           /* a DS two-address form: grows (required) */
	HS_SITE_ADDTID,        /* ds_{load,store}_addtid_b32: grows (required) */
};

/*
 * Classifies the size-byte instruction at p, of format (enum isa_format) and opcode field
 * opcode, by the decoder's row for it: a cluster load (ISA_M_CLUSTER), isfirst, a DS
 * two-address form (ISA_S_2ADDR) or an ADDTID access (ISA_M_ADDTID).
 */
HS_INTERNAL enum hs_b0a0_site hs_b0a0_classify(const uint8_t *p, size_t size, unsigned format,
                                               unsigned opcode);
/* Rewrites an in-place site (CLUSTER_LOAD, ISFIRST) at p in place (4 bytes of dword0). */
HS_INTERNAL void hs_b0a0_in_place(uint8_t dw0[4], enum hs_b0a0_site kind);

/* s_nop 0, what fills the rest of a patched site (4 bytes). */
HS_INTERNAL void hs_nop_encode(uint8_t out[4]);

/* s_branch at pc to target: false when target is misaligned or beyond simm16 reach. */
HS_INTERNAL bool hs_sbranch_encode(uint64_t pc, uint64_t target, uint8_t out[4]);

/*
 * The far jump at pc to target through the SGPR pair s[pair:pair+1]: s_get_pc_i64 (which
 * gives the address of the next instruction, pc + 4), s_add_nc_u64 of target - (pc + 4),
 * s_set_pc_i64.  s_add_nc_u64 leaves SCC alone (LLVM's S_ADD_U64 is an SOP2_64 outside
 * the Defs = [SCC] scope), so the jump keeps every register but the pair.  16 bytes when
 * the delta is in [0, 2^31), where zero and sign extension of a 32-bit literal agree
 * (llvm-mc-22 picks a 64-bit literal for anything else); else 20 bytes (a 64-bit literal).
 * Returns the size written, 0 when that size exceeds room.  Not s_add_pc_i64: LLVM uses it
 * for gfx1251 only (FeatureUseAddPC64Inst), code for gfx1250 A0 must not depend on it.
 */
#define HS_FAR_JUMP_MIN 16u
#define HS_FAR_JUMP_MAX 20u
HS_INTERNAL size_t hs_far_jump_size(uint64_t pc, uint64_t target);
/*
 * A far jump split for a site too short for it: the site holds s_get_pc_i64 at pc and
 * s_branch to a gateway in a NOP sled; the gateway (written here) is the s_add_nc_u64 of
 * target - (pc + 4) and s_set_pc_i64: 12 or 16 bytes by the same literal rule.  Returns
 * the gateway's size, 0 when it exceeds room.
 */
#define HS_FAR_GATE_MAX 16u
HS_INTERNAL size_t hs_far_gate_size(uint64_t pc, uint64_t target);
HS_INTERNAL size_t hs_far_gate_encode(uint64_t pc, uint64_t target, unsigned pair, size_t room,
                                      uint8_t *out);
/* The s_get_pc_i64 s[pair:pair+1] that begins a far jump (4 bytes). */
HS_INTERNAL void hs_get_pc_encode(unsigned pair, uint8_t out[4]);
HS_INTERNAL size_t hs_far_jump_encode(uint64_t pc, uint64_t target, unsigned pair, size_t room,
                                      uint8_t *out);

/* Why a DS2 split is refused (0: it is not). */
enum hs_ds2_refusal {
	HS_DS2_OK = 0,
	HS_DS2_OFFSET,  /* a half's byte offset exceeds the 16-bit single-address field */
	HS_DS2_CYCLIC,  /* each half writes a register the other reads (an exchange) */
	HS_DS2_UNKNOWN, /* not a DS two-address opcode */
};
/* The split of a DS2 site: two 8-byte ops and s_wait_dscnt 0; at most this many bytes. */
#define HS_DS2_SPLIT_SIZE 20u
HS_INTERNAL enum hs_ds2_refusal hs_ds2_split(const uint8_t site[8], uint8_t out[HS_DS2_SPLIT_SIZE]);

/* The ADDTID sequence (mbcnt lo/hi, lshl, add m0, and 0xfffff, ds op): this many bytes. */
#define HS_ADDTID_SIZE 40u
/* True for ds_store_addtid_b32 (it needs a scratch VGPR); site is 8 bytes. */
HS_INTERNAL bool hs_addtid_is_store(const uint8_t site[8]);
/* The sequence for site; scratch is the store's temporary VGPR (ignored for a load). */
HS_INTERNAL void hs_addtid_encode(const uint8_t site[8], unsigned scratch,
                                  uint8_t out[HS_ADDTID_SIZE]);

#endif
