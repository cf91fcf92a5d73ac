/* Reads an ELF file's header and .dynsym to judge whether this process could load it. */
#include "elf_check.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What the running mirage is: a library for anything else cannot be preloaded into its children. */
struct host_abi {
	int known;
	unsigned machine;
	unsigned char elf_class;
	unsigned char data;
};

static const struct {
	unsigned machine;
	const char *name;
} machine_names[] = {
    {EM_X86_64, "x86-64"}, {EM_AARCH64, "AArch64"},         {EM_386, "i386"},
    {EM_ARM, "ARM"},       {EM_PPC64, "PowerPC64"},         {EM_S390, "s390"},
    {EM_RISCV, "RISC-V"},  {224 /* EM_AMDGPU */, "AMDGPU"},
};

/* Human name of an ELF e_machine value: "x86-64", "AArch64", "AMDGPU", else "machine 183". */
static const char *elf_machine_name(unsigned machine, char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof(machine_names) / sizeof(machine_names[0]); i++)
		if (machine_names[i].machine == machine)
			return machine_names[i].name;
	snprintf(buf, size, "machine %u", machine);
	return buf;
}

static int read_ehdr(int fd, Elf **elfp, GElf_Ehdr *ehdr)
{
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf)
		return -1;
	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, ehdr)) {
		elf_end(elf);
		return -1;
	}
	*elfp = elf;
	return 0;
}

/*
 * The running binary's own header is the truth about "this machine"; the
 * compile-time macros would be wrong under binfmt emulation.
 */
static const struct host_abi *host_abi(void)
{
	static struct host_abi abi;
	if (abi.known)
		return &abi;
	abi.known = -1;
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		Elf *elf = NULL;
		GElf_Ehdr ehdr;
		if (!read_ehdr(fd, &elf, &ehdr)) {
			abi.known = 1;
			abi.machine = ehdr.e_machine;
			abi.elf_class = ehdr.e_ident[EI_CLASS];
			abi.data = ehdr.e_ident[EI_DATA];
			elf_end(elf);
		}
		close(fd);
	}
	return &abi;
}

static int defines_symbol(Elf *elf, const char *symbol)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_DYNSYM || !shdr.sh_entsize)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		size_t n = shdr.sh_size / shdr.sh_entsize;
		for (size_t i = 1; i < n; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
				continue;
			const char *name = elf_strptr(elf, shdr.sh_link, sym.st_name);
			if (name && !strcmp(name, symbol))
				return 1;
		}
	}
	return 0;
}

enum hotswap_part_status elf_check_shared_object(const char *path, const char *symbol,
                                                 struct strbuf *detail)
{
	struct stat st;
	if (stat(path, &st)) {
		strbuf_addstr(detail, errno == ENOENT ? "no such file" : strerror(errno));
		return PART_MISSING;
	}
	if (!S_ISREG(st.st_mode)) {
		strbuf_addstr(detail, "not a regular file");
		return PART_MISSING;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		strbuf_addstr(detail, "libelf is unusable");
		return PART_NOT_ELF;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		strbuf_addf(detail, "cannot open: %s", strerror(errno));
		return PART_NOT_ELF;
	}
	enum hotswap_part_status status = PART_OK;
	Elf *elf = NULL;
	GElf_Ehdr ehdr;
	const struct host_abi *abi = host_abi();
	char b1[32], b2[32];
	if (read_ehdr(fd, &elf, &ehdr)) {
		strbuf_addstr(detail, "not an ELF file");
		status = PART_NOT_ELF;
	} else if (ehdr.e_type != ET_DYN) {
		strbuf_addf(detail, "not a shared object (ELF type %u)", (unsigned)ehdr.e_type);
		status = PART_NOT_ELF;
	} else if (abi->known > 0 &&
	           (ehdr.e_machine != abi->machine || ehdr.e_ident[EI_CLASS] != abi->elf_class ||
	            ehdr.e_ident[EI_DATA] != abi->data)) {
		strbuf_addf(detail, "built for %s %d-bit, but mirage runs on %s %d-bit",
		            elf_machine_name(ehdr.e_machine, b1, sizeof(b1)),
		            ehdr.e_ident[EI_CLASS] == ELFCLASS64 ? 64 : 32,
		            elf_machine_name(abi->machine, b2, sizeof(b2)),
		            abi->elf_class == ELFCLASS64 ? 64 : 32);
		status = PART_WRONG_MACHINE;
	} else if (symbol && !defines_symbol(elf, symbol)) {
		strbuf_addf(detail, "does not export %s (no defined symbol in .dynsym)", symbol);
		status = PART_MISSING_SYMBOL;
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return status;
}
