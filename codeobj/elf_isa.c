/* An AMDGPU code object's ELF header: trusted or not, the ISA it states, its extent (elf_isa.h). */
#include "elf_isa.h"

#include <stdio.h>
#include <string.h>

#include "elf_header.h"
#include "str_fmt.h"

#ifndef ELFOSABI_AMDGPU_HSA
#define ELFOSABI_AMDGPU_HSA 64
#endif

/* e_flags feature fields, code object V4 and later. */
#define EF_XNACK_MASK_V4   0x300u
#define EF_XNACK_OFF_V4    0x200u
#define EF_XNACK_ON_V4     0x300u
#define EF_SRAMECC_MASK_V4 0xc00u
#define EF_SRAMECC_OFF_V4  0x800u
#define EF_SRAMECC_ON_V4   0xc00u
/* Code object V3 (EI_ABIVERSION 1): one bit each, set means on. */
#define EF_XNACK_V3    0x100u
#define EF_SRAMECC_V3  0x200u
#define ABI_VERSION_V3 1

static bool in_bounds(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

int cob_elf_header_check(const void *p, size_t size, char *err, size_t err_size)
{
	const uint8_t *b = p;
	Elf64_Ehdr eh;

	if (size < sizeof(eh))
		return str_fail(err, err_size,
		                "not an ELF file: %zu bytes is shorter than an ELF64 header", size);
	if (!elf64_header_read(b, size, &eh)) {
		if (memcmp(b, ELFMAG, SELFMAG))
			return str_fail(err, err_size, "not an ELF file (bad magic)");
		if (b[EI_CLASS] != ELFCLASS64)
			return str_fail(err, err_size, "not an ELF64 file (class %u)", b[EI_CLASS]);
		return str_fail(err, err_size, "not a little-endian ELF file");
	}
	if (eh.e_ident[EI_VERSION] != EV_CURRENT)
		return str_fail(err, err_size, "unknown ELF version %u", eh.e_ident[EI_VERSION]);
	if (eh.e_ident[EI_OSABI] != ELFOSABI_AMDGPU_HSA)
		return str_fail(err, err_size, "ELF OS/ABI is %u, not AMDGPU_HSA (64)",
		                eh.e_ident[EI_OSABI]);
	if (eh.e_machine != EM_AMDGPU)
		return str_fail(err, err_size, "ELF machine is %u, not EM_AMDGPU (224)",
		                eh.e_machine);
	if (eh.e_type != ET_DYN)
		return str_fail(err, err_size, "ELF type is %u, not a linked code object (ET_DYN)",
		                eh.e_type);
	if (eh.e_ehsize != sizeof(Elf64_Ehdr))
		return str_fail(err, err_size, "ELF header size %u is not 64", eh.e_ehsize);
	if (eh.e_phnum == PN_XNUM)
		return str_fail(err, err_size,
		                "extended program header numbering is not supported");
	if (eh.e_phnum && (eh.e_phentsize != sizeof(Elf64_Phdr) ||
	                   !in_bounds(eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr), size)))
		return str_fail(
		    err, err_size,
		    "program header table (offset %llu, %u entries) is outside the file of "
		    "%zu bytes",
		    (unsigned long long)eh.e_phoff, eh.e_phnum, size);
	if (eh.e_shnum == 0)
		return str_fail(
		    err, err_size,
		    "no section headers (a code object needs .text; extended numbering is "
		    "not supported)");
	if (eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_bounds(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), size))
		return str_fail(
		    err, err_size,
		    "section header table (offset %llu, %u entries) is outside the file of "
		    "%zu bytes",
		    (unsigned long long)eh.e_shoff, eh.e_shnum, size);
	if (eh.e_shstrndx == SHN_UNDEF || eh.e_shstrndx >= eh.e_shnum)
		return str_fail(err, err_size, "section name table index %u is invalid",
		                eh.e_shstrndx);
	return 0;
}

static enum cob_feature feature_v4(uint32_t e_flags, uint32_t mask, uint32_t on, uint32_t off)
{
	/* The other two values are "unsupported" and "any": a target id says nothing of either. */
	return (e_flags & mask) == on    ? COB_FEAT_ON
	       : (e_flags & mask) == off ? COB_FEAT_OFF
	                                 : COB_FEAT_ANY;
}

int cob_isa_from_elf(uint32_t e_flags, uint8_t abi_version, struct cob_isa *isa)
{
	memset(isa, 0, sizeof(*isa));
	isa->gfx = gfx_by_mach((uint8_t)(e_flags & 0xff));
	if (!isa->gfx)
		return -1;
	if (abi_version == ABI_VERSION_V3) {
		isa->xnack = (e_flags & EF_XNACK_V3) ? COB_FEAT_ON : COB_FEAT_ANY;
		isa->sramecc = (e_flags & EF_SRAMECC_V3) ? COB_FEAT_ON : COB_FEAT_ANY;
		return 0;
	}
	isa->xnack = feature_v4(e_flags, EF_XNACK_MASK_V4, EF_XNACK_ON_V4, EF_XNACK_OFF_V4);
	isa->sramecc = feature_v4(e_flags, EF_SRAMECC_MASK_V4, EF_SRAMECC_ON_V4, EF_SRAMECC_OFF_V4);
	return 0;
}

bool cob_elf_is_amdgpu(const void *b, size_t size)
{
	Elf64_Ehdr eh;

	return elf64_header_read(b, size, &eh) && eh.e_machine == EM_AMDGPU;
}

const struct gfx_info *cob_elf_processor(const void *b, size_t size)
{
	struct cob_isa isa;
	Elf64_Ehdr eh;

	if (!cob_elf_is_amdgpu(b, size) || !elf64_header_read(b, size, &eh) ||
	    cob_isa_from_elf(eh.e_flags, eh.e_ident[EI_ABIVERSION], &isa) < 0)
		return NULL;
	return isa.gfx;
}

static void grow(size_t *end, uint64_t off, uint64_t len)
{
	if (off + len >= off && off + len > *end)
		*end = (size_t)(off + len);
}

size_t cob_elf_extent(const void *b)
{
	const unsigned char *base = b;
	Elf64_Ehdr eh;
	size_t end = sizeof(eh);

	/* The size is what we are after: the header's own bytes must be readable. */
	if (!elf64_header_read(b, sizeof(eh), &eh))
		return 0;
	grow(&end, eh.e_phoff, (uint64_t)eh.e_phnum * eh.e_phentsize);
	grow(&end, eh.e_shoff, (uint64_t)eh.e_shnum * eh.e_shentsize);
	if (eh.e_phentsize == sizeof(Elf64_Phdr)) {
		for (unsigned i = 0; i < eh.e_phnum; i++) {
			Elf64_Phdr ph;
			memcpy(&ph, base + eh.e_phoff + (size_t)i * sizeof(ph), sizeof(ph));
			grow(&end, ph.p_offset, ph.p_filesz);
		}
	}
	if (eh.e_shentsize == sizeof(Elf64_Shdr)) {
		for (unsigned i = 0; i < eh.e_shnum; i++) {
			Elf64_Shdr sh;
			memcpy(&sh, base + eh.e_shoff + (size_t)i * sizeof(sh), sizeof(sh));
			if (sh.sh_type != SHT_NOBITS)
				grow(&end, sh.sh_offset, sh.sh_size);
		}
	}
	return end;
}

void cob_isa_unknown_mach(uint32_t e_flags, char *err, size_t err_size)
{
	str_fail(err, err_size,
	         "unknown AMDGPU processor (EF_AMDGPU_MACH 0x%02x) in the ELF header",
	         (unsigned)(e_flags & 0xff));
}

static const char *feature_text(enum cob_feature f, const char *on, const char *off)
{
	return f == COB_FEAT_ON ? on : f == COB_FEAT_OFF ? off : "";
}

bool cob_isa_format(const struct cob_isa *isa, char *buf, size_t size)
{
	/* LLVM's canonical order: sramecc before xnack. */
	int n = snprintf(buf, size, "%s%s%s%s", COB_TRIPLE_PREFIX, isa->gfx->name,
	                 feature_text(isa->sramecc, ":sramecc+", ":sramecc-"),
	                 feature_text(isa->xnack, ":xnack+", ":xnack-"));
	return n >= 0 && (size_t)n < size;
}

int cob_code_object_isa(const void *b, size_t size, char *isa_buf, size_t isa_size, char *proc,
                        size_t proc_size, char *err, size_t err_size)
{
	struct cob_isa isa;
	Elf64_Ehdr eh;

	if (!b)
		return str_fail(err, err_size, "no input");
	if (cob_elf_header_check(b, size, err, err_size) < 0)
		return -1;
	elf64_header_read(b, size, &eh);
	if (cob_isa_from_elf(eh.e_flags, eh.e_ident[EI_ABIVERSION], &isa) < 0) {
		cob_isa_unknown_mach(eh.e_flags, err, err_size);
		return -1;
	}
	if (isa_buf && !cob_isa_format(&isa, isa_buf, isa_size))
		return str_fail(err, err_size, "ISA name buffer of %zu bytes is too small",
		                isa_size);
	if (proc && (size_t)snprintf(proc, proc_size, "%s", isa.gfx->name) >= proc_size)
		return str_fail(err, err_size, "processor buffer of %zu bytes is too small",
		                proc_size);
	return 0;
}
