/* Bad input never yields OK: truncations, broken headers and tables, garbage (ASan/UBSan clean). */
#include "test_rewrite_util.h"

static void expect_invalid(struct blob b, const char *what)
{
	HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_ENTRY_DEFAULT);
	HS_OPTS(hs_rewrite_report, rep);
	struct hs_rewrite_output out = {0};
	enum hs_status st = hs_rewrite(b.data, b.size, NULL, NULL, &opts, &out, &rep);

	if (st != HS_INVALID_ARGUMENT)
		fail_msg("%s: expected INVALID_ARGUMENT, got %s (%s)", what, hs_status_str(st),
		         hs_last_error());
	if (!hs_last_error()[0] || !rep.message[0])
		fail_msg("%s: no message", what);
	if (getenv("HS_TEST_VERBOSE"))
		print_message("%s: %s\n", what, hs_last_error());
	assert_null(out.data);
}

static struct blob dup_blob(struct blob b)
{
	struct blob c = {malloc(b.size), b.size};
	assert_non_null(c.data);
	memcpy(c.data, b.data, b.size);
	return c;
}

static void test_truncated(void **state)
{
	static const char *const names[] = {"hello", "multi", "hello_stripped", "data_only"};
	for (size_t f = 0; f < sizeof(names) / sizeof(names[0]); f++) {
		struct blob in = fixture(names[f]);
		for (size_t len = 0; len < in.size; len += len < 512 ? 1 : 13) {
			/* An exact-size copy, so ASan sees any read past the end. */
			struct blob t = {malloc(len ? len : 1), len};
			char what[64];
			memcpy(t.data, in.data, len);
			snprintf(what, sizeof(what), "%s truncated to %zu", names[f], len);
			if (len == 0) {
				HS_OPTS(hs_rewrite_opts, opts, .flags = 0);
				struct hs_rewrite_output out = {0};
				assert_int_equal(
				    hs_rewrite(t.data, 0, NULL, NULL, &opts, &out, NULL),
				    HS_INVALID_ARGUMENT);
			} else {
				expect_invalid(t, what);
			}
			free(t.data);
		}
		free(in.data);
	}
}

typedef void (*mutate_fn)(struct blob b);

static void m_elf32(struct blob b)
{
	b.data[EI_CLASS] = ELFCLASS32;
}
static void m_big_endian(struct blob b)
{
	b.data[EI_DATA] = ELFDATA2MSB;
}
static void m_machine(struct blob b)
{
	wr16(b.data + EH(e_machine), EM_X86_64);
}
static void m_osabi(struct blob b)
{
	b.data[EI_OSABI] = ELFOSABI_LINUX;
}
static void m_magic(struct blob b)
{
	b.data[1] = 'X';
}
static void m_type_rel(struct blob b)
{
	wr16(b.data + EH(e_type), ET_REL);
}
static void m_shoff_past_end(struct blob b)
{
	wr64(b.data + EH(e_shoff), b.size);
}
static void m_shoff_huge(struct blob b)
{
	wr64(b.data + EH(e_shoff), UINT64_MAX - 63);
}
static void m_shnum_huge(struct blob b)
{
	wr16(b.data + EH(e_shnum), 0xfeff);
}
static void m_shnum_zero(struct blob b)
{
	wr16(b.data + EH(e_shnum), 0);
}
static void m_phoff_past_end(struct blob b)
{
	wr64(b.data + EH(e_phoff), b.size - 8);
}
static void m_phnum_huge(struct blob b)
{
	wr16(b.data + EH(e_phnum), 0xfffe);
}
static void m_phnum_xnum(struct blob b)
{
	wr16(b.data + EH(e_phnum), 0xffff);
}
static void m_shstrndx(struct blob b)
{
	wr16(b.data + EH(e_shstrndx), rd16(b.data + EH(e_shnum)));
}
static void m_shentsize(struct blob b)
{
	wr16(b.data + EH(e_shentsize), 40);
}
static void m_ehsize(struct blob b)
{
	wr16(b.data + EH(e_ehsize), 52);
}
static void m_text_offset_past_end(struct blob b)
{
	wr64(shdr(b, ".text") + 24, b.size);
}
static void m_text_size_huge(struct blob b)
{
	wr64(shdr(b, ".text") + 32, UINT64_MAX - 8);
}
static void m_rodata_addr_wraps(struct blob b)
{
	wr64(shdr(b, ".rodata") + 16, UINT64_MAX - 4);
}
static void m_overlap_file(struct blob b)
{
	/* .text now starts inside .rodata's file range. */
	uint8_t *ro = shdr(b, ".rodata");
	wr64(shdr(b, ".text") + 24, rd64(ro + 24) + 8);
}
static void m_overlap_vaddr(struct blob b)
{
	uint8_t *ro = shdr(b, ".rodata");
	wr64(shdr(b, ".text") + 16, rd64(ro + 16) + 8);
}
static void m_no_text(struct blob b)
{
	uint8_t *sh = shdr(b, ".text");
	uint8_t *strsh =
	    b.data + rd64(b.data + EH(e_shoff)) + (uint64_t)rd16(b.data + EH(e_shstrndx)) * 64;
	b.data[rd64(strsh + SH(sh_offset)) + rd32(sh) + 1] = 'x'; /* ".text" -> ".xext" */
}
static void m_text_nobits(struct blob b)
{
	wr32(shdr(b, ".text") + 4, SHT_NOBITS);
}
static void m_align(struct blob b)
{
	wr64(shdr(b, ".rodata") + 48, 3);
}
static void m_symtab_link(struct blob b)
{
	wr32(shdr(b, ".symtab") + 40, 999);
}
static void m_symtab_link_not_strtab(struct blob b)
{
	wr32(shdr(b, ".symtab") + 40, 1);
}
static void m_symtab_size(struct blob b)
{
	uint8_t *sh = shdr(b, ".symtab");
	wr64(sh + SH(sh_size), rd64(sh + SH(sh_size)) + 5);
}
static void m_symtab_entsize(struct blob b)
{
	wr64(shdr(b, ".symtab") + 56, 16);
}
static void m_symtab_past_end(struct blob b)
{
	wr64(shdr(b, ".symtab") + 32, b.size);
}
/* Applies f to every "<x>.kd" symbol of .symtab and .dynsym. */
static void each_kd(struct blob b, void (*f)(uint8_t *sym, struct blob b))
{
	const char *tabs[] = {".symtab", ".dynsym"};
	for (int t = 0; t < 2; t++) {
		uint8_t *sh = shdr(b, tabs[t]);
		uint64_t shoff = rd64(b.data + EH(e_shoff));
		uint8_t *str = b.data + shoff + (uint64_t)rd32(sh + SH(sh_link)) * 64;
		for (uint64_t o = 24; o < rd64(sh + SH(sh_size)); o += 24) {
			uint8_t *sym = b.data + rd64(sh + SH(sh_offset)) + o;
			const char *name = (const char *)b.data + rd64(str + 24) + rd32(sym);
			size_t n = strlen(name);
			if (n > 3 && !strcmp(name + n - 3, ".kd"))
				f(sym, b);
		}
	}
}
static void kd_value_outside(uint8_t *sym, struct blob b)
{
	wr64(sym + 8, rd64(sym + 8) + 0x20); /* the 64 bytes now run past .rodata */
}
static void kd_shndx(uint8_t *sym, struct blob b)
{
	wr16(sym + 6, 999);
}
static void kd_name(uint8_t *sym, struct blob b)
{
	wr32(sym, 0x7fffffff);
}
static void kd_entry(uint8_t *sym, struct blob b)
{
	/* Descriptors of lld fixtures sit at vaddr == file offset in .rodata. */
	wr64(b.data + rd64(sym + 8) + 16, (uint64_t)INT64_MAX);
}
static void kd_entry_neg(uint8_t *sym, struct blob b)
{
	wr64(b.data + rd64(sym + 8) + 16, (uint64_t)INT64_MIN);
}
static void kd_entry_data(uint8_t *sym, struct blob b)
{
	wr64(b.data + rd64(sym + 8) + 16, 0); /* entry = the descriptor itself: not code */
}
static void m_kd_outside(struct blob b)
{
	each_kd(b, kd_value_outside);
}
static void m_kd_shndx(struct blob b)
{
	each_kd(b, kd_shndx);
}
static void m_kd_name(struct blob b)
{
	each_kd(b, kd_name);
}
static void m_kd_entry(struct blob b)
{
	each_kd(b, kd_entry);
}
static void m_kd_entry_neg(struct blob b)
{
	each_kd(b, kd_entry_neg);
}
static void m_kd_entry_data(struct blob b)
{
	each_kd(b, kd_entry_data);
}
static void m_note_namesz(struct blob b)
{
	wr32(b.data + rd64(shdr(b, ".note") + 24), 0x7ffffff0);
}
static void m_note_descsz(struct blob b)
{
	wr32(b.data + rd64(shdr(b, ".note") + 24) + 4, 0xfffffff0);
}
static void m_note_msgpack(struct blob b)
{
	uint8_t *rec = b.data + rd64(shdr(b, ".note") + 24);
	rec[20] = 0xc1; /* never used in msgpack */
}
static void m_note_not_map(struct blob b)
{
	uint8_t *rec = b.data + rd64(shdr(b, ".note") + 24);
	rec[20] = 0x93; /* fixarray: the document is no longer one map */
}
static void m_phdr_filesz(struct blob b)
{
	uint64_t phoff = rd64(b.data + EH(e_phoff));
	wr64(b.data + phoff + 56 + 32, UINT64_MAX / 2); /* the first PT_LOAD's filesz */
}
static void m_phdr_memsz_small(struct blob b)
{
	uint64_t phoff = rd64(b.data + EH(e_phoff));
	uint8_t *ph = b.data + phoff + 56;
	wr64(ph + PH(p_memsz), rd64(ph + PH(p_filesz)) - 1);
}
static void m_phdr_wraps(struct blob b)
{
	uint64_t phoff = rd64(b.data + EH(e_phoff));
	wr64(b.data + phoff + 56 + 16, UINT64_MAX - 16);
}
static void m_mach_unknown(struct blob b)
{
	b.data[48] = 0xfe;
}

static void test_mutations(void **state)
{
	static const struct {
		const char *name;
		mutate_fn f;
	} cases[] = {
#define M(x) {#x, x}
	    M(m_elf32),
	    M(m_big_endian),
	    M(m_machine),
	    M(m_osabi),
	    M(m_magic),
	    M(m_type_rel),
	    M(m_shoff_past_end),
	    M(m_shoff_huge),
	    M(m_shnum_huge),
	    M(m_shnum_zero),
	    M(m_phoff_past_end),
	    M(m_phnum_huge),
	    M(m_phnum_xnum),
	    M(m_shstrndx),
	    M(m_shentsize),
	    M(m_ehsize),
	    M(m_text_offset_past_end),
	    M(m_text_size_huge),
	    M(m_rodata_addr_wraps),
	    M(m_overlap_file),
	    M(m_overlap_vaddr),
	    M(m_no_text),
	    M(m_text_nobits),
	    M(m_align),
	    M(m_symtab_link),
	    M(m_symtab_link_not_strtab),
	    M(m_symtab_size),
	    M(m_symtab_entsize),
	    M(m_symtab_past_end),
	    M(m_kd_outside),
	    M(m_kd_shndx),
	    M(m_kd_name),
	    M(m_kd_entry),
	    M(m_kd_entry_neg),
	    M(m_kd_entry_data),
	    M(m_note_namesz),
	    M(m_note_descsz),
	    M(m_note_msgpack),
	    M(m_note_not_map),
	    M(m_phdr_filesz),
	    M(m_phdr_memsz_small),
	    M(m_phdr_wraps),
	    M(m_mach_unknown),
#undef M
	};
	struct blob in = fixture("hello");

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct blob b = dup_blob(in);
		cases[i].f(b);
		expect_invalid(b, cases[i].name);
		free(b.data);
	}
	free(in.data);
}

/* Rewrite and inspect name an unknown processor the same way, with its mach byte. */
static void test_unknown_processor_message(void **state)
{
	struct blob b = fixture("hello");
	struct hs_rewrite_output out = {0};
	char *json = NULL;
	const char *want = "unknown AMDGPU processor (EF_AMDGPU_MACH 0xfe) in the ELF header";

	m_mach_unknown(b);
	assert_int_equal(hs_rewrite(b.data, b.size, NULL, NULL, NULL, &out, NULL),
	                 HS_INVALID_ARGUMENT);
	assert_string_equal(hs_last_error(), want);
	assert_int_equal(hs_inspect(b.data, b.size, 0, NULL, &json), HS_INVALID_ARGUMENT);
	assert_string_equal(hs_last_error(), want);
	assert_null(json);
	free(b.data);
}

/* Deterministic garbage, bare and behind a valid-looking ELF header. */
static void test_garbage(void **state)
{
	struct blob in = fixture("hello");
	uint32_t x = 12345;

	for (size_t round = 0; round < 200; round++) {
		size_t len = 1 + (round * 37) % 3000;
		struct blob b = {malloc(len), len};
		for (size_t i = 0; i < len; i++) {
			x = x * 1103515245u + 12345u;
			b.data[i] = (uint8_t)(x >> 16);
		}
		if (round % 2 && len >= 64)
			memcpy(b.data, in.data, 64); /* the header of hello, random tables */
		expect_invalid(b, "garbage");
		free(b.data);
	}
	/* Random byte flips of a valid object: anything but a crash; non-OK needs a message. */
	for (size_t round = 0; round < 400; round++) {
		struct blob b = dup_blob(in);
		HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_ENTRY_DEFAULT);
		struct hs_rewrite_output out = {0};
		enum hs_status st;
		for (int k = 0; k < 4; k++) {
			x = x * 1103515245u + 12345u;
			b.data[(x >> 8) % b.size] ^= (uint8_t)(1u << (x % 8));
		}
		st = hs_rewrite(b.data, b.size, NULL, NULL, &opts, &out, NULL);
		if (st != HS_OK)
			assert_true(hs_last_error()[0] != '\0');
		hs_rewrite_output_release(&out);
		free(b.data);
	}
	free(in.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_truncated),
	    cmocka_unit_test(test_mutations),
	    cmocka_unit_test(test_unknown_processor_message),
	    cmocka_unit_test(test_garbage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
