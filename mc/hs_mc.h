/*
 * Internal interface between libhotswap_rewrite and libhotswap_mc, the only
 * object that links libLLVM.  libhotswap_rewrite dlopen()s libhotswap_mc.so
 * from its own directory the first time it needs to decode or assemble, so a
 * caller that never needs MC (the launcher's run/doctor/profile paths, an
 * intercept doing only entry trampolines on fresh objects) never loads LLVM.
 * Not a public ABI: both objects are built and shipped together, and the
 * version field below must match exactly.
 */
#ifndef HOTSWAP_MC_H
#define HOTSWAP_MC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hotswap_contract.h"

#define HS_MC_API_VERSION  1
#define HS_MC_LIBRARY_NAME HOTSWAP_MC_LIB
#define HS_MC_ENTRY_SYMBOL HOTSWAP_MC_SYMBOL

struct hs_mc_disasm; /* one decoder for one cpu; use from one thread at a time */

struct hs_mc_api {
	uint32_t version; /* HS_MC_API_VERSION */

	/* Creates a decoder for amdgcn-amd-amdhsa and cpu ("gfx1250"); NULL on failure. */
	struct hs_mc_disasm *(*disasm_create)(const char *cpu);
	void (*disasm_destroy)(struct hs_mc_disasm *dis);
	/*
	 * Decodes one instruction at bytes[0..size), located at vaddr.  Writes its
	 * text in LLVM's syntax without leading blanks ("s_get_pc_i64 s[8:9]") to
	 * text and returns its size in bytes, or 0 when the bytes do not decode
	 * (also when the instruction would run past size, and for the invalid
	 * encodings LLVM 22 crashes on, which libhotswap_mc screens out).  A
	 * 32-bit literal that an inline constant could also encode prints as
	 * lit(0x..), any other as a bare 0x...
	 */
	size_t (*decode)(struct hs_mc_disasm *dis, const uint8_t *bytes, size_t size,
	                 uint64_t vaddr, char *text, size_t text_size);
	/*
	 * Assembles source (AMDGPU assembly, one instruction per line) for cpu
	 * through LLVM's assembler (module inline asm emitted by an AMDGPU
	 * TargetMachine) and returns the bytes of its .text section in a buffer
	 * the caller frees with free().  Returns 0, or -1 with a message in err.
	 * Instructions and labels only: directives are refused.  lit(0x0)
	 * forces the 32-bit literal form of a small value.  Each call builds its
	 * own LLVM context and target machine (about 7 ms): assemble a template
	 * once rather than per kernel.
	 */
	int (*assemble)(const char *cpu, const char *source, uint8_t **out, size_t *out_size,
	                char *err, size_t err_size);
};

/*
 * False for the families LLVM 22 has no disassembler for: gfx6 and gfx7 (its AMDGPU
 * disassembler aborts the whole process with "disassembly not yet supported for
 * subtarget"), so disasm_create refuses them and callers can say why.  family is the gfx
 * table's ("gfx7"); NULL is unknown.
 */
static inline int hs_mc_family_disassembles(const char *family)
{
	return family && strcmp(family, "gfx6") && strcmp(family, "gfx7");
}

/* The one exported symbol of libhotswap_mc.so. */
typedef const struct hs_mc_api *(*hs_mc_get_api_fn)(void);

#endif
