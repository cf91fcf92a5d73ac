/* isa_dump: mirage's own decode of a gfx1250 or gfx942 .text, of hex bytes, or a table's samples.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_isa.h"
#include "mirage/isa.h"
#include "read_whole.h"

/*
 * Usage: isa_dump [--isa gfx1250|gfx942|gfx950] MODE
 *   --isa NAME             the table (default: OBJECT's processor from its ELF e_flags, refused
 *                          when it has no table; gfx1250 for --bytes / --samples / --rows)
 *   isa_dump OBJECT        every instruction of .text: "ADDRESS SIZE FORMAT TEXT [; implicit ...]"
 *                          (MSB state reset at each function symbol and after each
 *                          terminator; an instruction whose size is unknown is
 *                          reported on stderr and decoding resumes at the next function)
 *   isa_dump --bytes       stdin lines "ID HEX..." -> "ID SIZE FORMAT TEXT" (one record each)
 *   isa_dump --samples     the table's samples: "ID<TAB>MNEMONIC<TAB>SAMPLE" per sample
 *   isa_dump --rows        the table's rows: "ID<TAB>MNEMONIC<TAB>FORMAT<TAB>FLAGS" (the native
 *                          family's name, the row's ISA_F_* bits in hex)
 *   isa_dump --stats OBJ   one line: instructions, unknown, undecodable bytes
 * Exit 0 ok, 1 on a file or decode error, 2 on usage.
 */

/* "EXEC|SCC" ("-" for none) for ISA_IMPL_* bits (upper case: never mistaken for an operand). */
static const char *impl_names(unsigned bits, char *buf, size_t size)
{
	static const char *const names[] = {"EXEC", "VCC", "SCC", "M0"};
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < 4; i++)
		if (bits & (1u << i))
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "|" : "",
			                        names[i]);
	return len ? buf : "-";
}

static void print_record(const char *prefix, const struct isa_inst *in)
{
	char text[512], def[32], use[32];

	isa_inst_format(in, text, sizeof(text));
	printf("%s%u %s %s", prefix, in->size, isa_format_name(in->format), text);
	if (in->impl_def || in->impl_use)
		printf("  ; implicit def %s use %s", impl_names(in->impl_def, def, sizeof(def)),
		       impl_names(in->impl_use, use, sizeof(use)));
	putchar('\n');
}

/* The table chosen with --isa, or -1 (the object's e_flags decide). */
static int opt_arch = -1;

static int samples(void)
{
	const struct isa_row *rows =
	    isa_arch_rows(opt_arch < 0 ? ISA_ARCH_GFX1250 : (unsigned)opt_arch);

	for (unsigned id = 1; id < ISA_OP_COUNT; id++) {
		const struct isa_row *r = &rows[id];
		const char *s = r->sample;
		while (s && *s) {
			const char *sep = strstr(s, " || ");
			int n = sep ? (int)(sep - s) : (int)strlen(s);
			printf("%u\t%s\t%.*s\n", id, r->mnemonic, n, s);
			s = sep ? sep + 4 : NULL;
		}
	}
	return 0;
}

static int rows(void)
{
	const struct isa_row *rows =
	    isa_arch_rows(opt_arch < 0 ? ISA_ARCH_GFX1250 : (unsigned)opt_arch);

	for (unsigned id = 1; id < ISA_OP_COUNT; id++)
		if (rows[id].mnemonic)
			printf("%u\t%s\t%s\t0x%x\n", id, rows[id].mnemonic,
			       isa_format_name(rows[id].format), (unsigned)rows[id].flags);
	return 0;
}

static int bytes(void)
{
	char line[4096];

	while (fgets(line, sizeof(line), stdin)) {
		uint8_t buf[64];
		size_t n = 0;
		char *p = line, *end;
		unsigned long id = strtoul(p, &end, 10);
		struct isa_inst in;
		struct isa_state st = {0};
		int rc;

		p = end;
		while (n < sizeof(buf)) {
			unsigned long b = strtoul(p, &end, 16);
			if (end == p)
				break;
			buf[n++] = (uint8_t)b;
			p = end;
		}
		rc = isa_decode(opt_arch < 0 ? ISA_ARCH_GFX1250 : (unsigned)opt_arch, buf, n, 0,
		                &st, &in);
		if (rc) {
			printf("%lu error %s\n", id, isa_strerror(rc));
			continue;
		}
		char prefix[32];
		snprintf(prefix, sizeof(prefix), "%lu ", id);
		print_record(prefix, &in);
	}
	return 0;
}

/* Function symbol start offsets within .text, sorted, for the MSB-state resets. */
struct starts {
	size_t *v, n;
};

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

static void function_starts(Elf *elf, size_t text_index, GElf_Addr text_addr, struct starts *s)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			size_t *grown;
			if (!gelf_getsym(d, (int)i, &sym) ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx != text_index ||
			    sym.st_value < text_addr)
				continue;
			grown = realloc(s->v, (s->n + 1) * sizeof(*s->v));
			if (!grown)
				return;
			s->v = grown;
			s->v[s->n++] = (size_t)(sym.st_value - text_addr);
		}
	}
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), cmp_size);
}

static int dump(const char *path, int stats)
{
	int fd = -1, rc = 1;
	size_t size = 0, text_index = 0;
	void *image = NULL;
	Elf *elf = NULL;
	Elf_Scn *scn = NULL;
	Elf_Data *text = NULL;
	GElf_Addr text_addr = 0;
	struct starts starts = {0};
	size_t next_start = 0, count = 0, unknown = 0;
	struct isa_state st;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !(image = read_whole_fd(fd, &size))) {
		fprintf(stderr, "isa_dump: cannot read '%s': %s\n", path, strerror(errno));
		goto out;
	}
	elf_version(EV_CURRENT);
	elf = elf_memory(image, size);
	size_t shstrndx;
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx)) {
		fprintf(stderr, "isa_dump: '%s' is not an ELF file\n", path);
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".text") && sh.sh_type == SHT_PROGBITS) {
			text = elf_getdata(scn, NULL);
			text_index = elf_ndxscn(scn);
			text_addr = sh.sh_addr;
			break;
		}
	}
	if (!text) {
		fprintf(stderr, "isa_dump: '%s' has no .text\n", path);
		goto out;
	}
	GElf_Ehdr eh;
	int arch = opt_arch;
	if (arch < 0) {
		const struct gfx_info *g;
		if (!gelf_getehdr(elf, &eh)) {
			fprintf(stderr, "isa_dump: '%s' has no ELF header\n", path);
			goto out;
		}
		arch = isa_arch_of_e_flags((uint32_t)eh.e_flags);
		if (arch < 0) {
			g = cob_elf_processor(image, size);
			fprintf(
			    stderr,
			    "isa_dump: '%s': no decoder table for processor %s (e_flags 0x%x); "
			    "tables: gfx1250 (gfx12.5), gfx942 (gfx942, gfx9-4-generic), gfx950\n",
			    path, g ? g->name : "unknown", (unsigned)eh.e_flags);
			goto out;
		}
	}
	function_starts(elf, text_index, text_addr, &starts);
	isa_state_reset(&st);
	rc = 0;
	for (size_t off = 0; off < text->d_size;) {
		struct isa_inst in;
		int err;
		while (next_start < starts.n && starts.v[next_start] <= off) {
			if (starts.v[next_start] == off)
				isa_state_reset(&st);
			next_start++;
		}
		err = isa_decode((unsigned)arch, text->d_buf, text->d_size, off, &st, &in);
		if (err) {
			fprintf(stderr,
			        "isa_dump: '%s': .text offset 0x%zx: %s (%s, opcode 0x%x)\n", path,
			        off, isa_strerror(err), isa_format_name(in.format), in.raw_opcode);
			rc = 1;
			/* Nothing says where the next instruction is: resume at the next function.
			 */
			while (next_start < starts.n && starts.v[next_start] <= off)
				next_start++;
			if (next_start == starts.n)
				break;
			off = starts.v[next_start];
			continue;
		}
		count++;
		unknown += !in.op;
		if (!stats) {
			char prefix[32];
			snprintf(prefix, sizeof(prefix), "%llx ",
			         (unsigned long long)(text_addr + off));
			print_record(prefix, &in);
		}
		/*
		 * Nothing falls through a terminator: what follows starts a block only a jump
		 * reaches, and LLVM's convention (its VGPR-encoding pass) is that such blocks
		 * start with the MSB state zero (llvm-objdump-22 resets there too).
		 */
		if (in.flags & ISA_F_TERM)
			isa_state_reset(&st);
		off += in.size;
		/* A record that runs over the next function's start (its literal is the next
		 * function's bytes): llvm-objdump-22 starts that function afresh, and so do we. */
		if (next_start < starts.n && starts.v[next_start] < off)
			off = starts.v[next_start];
	}
	if (stats)
		printf("instructions %zu unknown %zu\n", count, unknown);
out:
	free(starts.v);
	elf_end(elf);
	free(image);
	if (fd >= 0)
		close(fd);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--isa")) {
		opt_arch = isa_arch_by_name(argv[2]);
		if (opt_arch < 0) {
			fprintf(stderr, "isa_dump: unknown --isa '%s' (gfx1250, gfx942, gfx950)\n",
			        argv[2]);
			return 2;
		}
		argc -= 2;
		argv += 2;
	}
	if (argc == 2 && !strcmp(argv[1], "--samples"))
		return samples();
	if (argc == 2 && !strcmp(argv[1], "--rows"))
		return rows();
	if (argc == 2 && !strcmp(argv[1], "--bytes"))
		return bytes();
	if (argc == 3 && !strcmp(argv[1], "--stats"))
		return dump(argv[2], 1);
	if (argc == 2 && argv[1][0] != '-')
		return dump(argv[1], 0);
	fprintf(stderr,
	        "usage: isa_dump [--isa gfx1250|gfx942|gfx950] OBJECT | --stats OBJECT | --bytes | "
	        "--samples | --rows\n");
	return 2;
}
