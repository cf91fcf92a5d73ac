/* The entry-trampoline pass end to end, judged by llvm-readelf-22 and llvm-objdump-22. */
#include "test_rewrite_util.h"

#include <inttypes.h>

/* Fixtures with gfx12.5 kernels the pass must stub (the stub symbols name their kernels). */
static const char *const stub_fixtures[] = {
    "hello",   "multi",   "prologue", "dynamic", "sgpr8",          "sgpr104",
    "sgpr105", "sgpr108", "meta127",  "gfx1251", "hello_stripped",
};
/* Every fixture that rewrites successfully with default ISAs. */
static const char *const ok_fixtures[] = {
    "hello",   "multi",   "prologue", "dynamic",        "sgpr8",     "sgpr104", "sgpr105",
    "sgpr108", "meta127", "gfx1251",  "hello_stripped", "data_only", "gfx942",
};
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *mcpu_of(const char *name)
{
	if (!strcmp(name, "gfx1251"))
		return "gfx1251";
	if (!strcmp(name, "gfx942"))
		return "gfx942";
	return "gfx1250";
}

static void save(const char *name, struct hs_rewrite_output out, char *path, size_t size)
{
	tmp_path(path, size, name);
	write_file(path, out.data, out.size);
}

/* llvm-readelf -a must succeed and print no warning at all. */
static void assert_readelf_clean(const char *path)
{
	char cmd[4096], *err, *out;

	snprintf(cmd, sizeof(cmd), "'%s' -a '%s'", tool("LLVM_READELF"), path);
	out = run_capture(cmd, &err);
	if (err[0] || strcasestr(out, "warning"))
		fail_msg("llvm-readelf -a '%s' warns:\n%s\n%s", path, err,
		         strcasestr(out, "warning") ? strcasestr(out, "warning") : "");
	free(out);
	free(err);
}

/* The value of symbol name in readelf -s/--dyn-syms output; false if absent. */
static bool symbol_value(const char *syms, const char *name, uint64_t *value)
{
	const char *line = syms;

	while (line && *line) {
		unsigned long long v;
		char nm[512];
		const char *nl = strchr(line, '\n');
		if (sscanf(line, " %*[0-9]: %llx %*s %*s %*s %*s %*s %511s", &v, nm) == 2 &&
		    !strcmp(nm, name)) {
			*value = v;
			return true;
		}
		line = nl ? nl + 1 : NULL;
	}
	return false;
}

/* Parses a decoded literal operand ("0xffffe4ec", "lit(0xffffffff)", "-1") to 32 bits. */
static uint32_t parse_lit(const char *s)
{
	if (!strncmp(s, "lit(", 4))
		s += 4;
	return (uint32_t)strtoll(s, NULL, 0);
}

struct stub_seen {
	char kernel[256];
	uint64_t addr, target;
	char pair[32];
};

/*
 * Walks llvm-objdump -d output: every "<k.stub>:" (or the bare pool section when the
 * object has no .symtab) must decode to the six stub instructions then s_code_end.
 * Returns how many stubs it saw; fills seen[].
 */
static size_t check_stubs(const char *path, const char *mcpu, struct stub_seen *seen, size_t max)
{
	static const char *const want[] = {"global_prefetch_b8", "v_nop",           "s_get_pc_i64",
	                                   "s_add_co_u32",       "s_add_co_ci_u32", "s_set_pc_i64",
	                                   "s_code_end"};
	char cmd[4096], *err, *out, *line, *save_ptr = NULL;
	size_t n = 0;
	int idx = -1;
	uint32_t lo = 0, hi = 0;

	snprintf(cmd, sizeof(cmd), "'%s' -d --mcpu=%s '%s'", tool("LLVM_OBJDUMP"), mcpu, path);
	out = run_capture(cmd, &err);
	assert_string_equal(err, "");
	for (line = strtok_r(out, "\n", &save_ptr); line; line = strtok_r(NULL, "\n", &save_ptr)) {
		unsigned long long addr;
		char label[512], mn[64], ops[256];
		if (sscanf(line, "%llx <%511[^>]>:", &addr, label) == 2) {
			size_t l = strlen(label);
			bool stub = l > 5 && !strcmp(label + l - 5, ".stub");
			idx = -1;
			if (stub || !strcmp(label, ".hotswap.text")) {
				assert_true(n < max);
				memset(&seen[n], 0, sizeof(seen[n]));
				snprintf(seen[n].kernel, sizeof(seen[n].kernel), "%.*s",
				         stub ? (int)(l - 5) : 0, label);
				seen[n].addr = addr;
				idx = 0;
				n++;
			}
			continue;
		}
		if (idx < 0 || idx >= (int)N(want))
			continue;
		ops[0] = '\0';
		if (sscanf(line, " %63s %255[^/]", mn, ops) < 1)
			continue;
		if (strcmp(mn, want[idx]))
			fail_msg("%s: stub %zu instruction %d is '%s', expected %s", path, n - 1,
			         idx, line, want[idx]);
		if (idx == 2)
			sscanf(ops, "%31s", seen[n - 1].pair);
		if (idx == 3 || idx == 4) {
			char d[32], s0[32], lit[64];
			assert_int_equal(sscanf(ops, "%31[^,], %31[^,], %63s", d, s0, lit), 3);
			assert_string_equal(d, s0); /* dst == src0 */
			if (idx == 3)
				lo = parse_lit(lit);
			else
				hi = parse_lit(lit);
		}
		if (idx == 5) {
			/* The hardware's 64-bit add-with-carry, on PC = stub + 20. */
			uint64_t pc = seen[n - 1].addr + 20;
			uint64_t lsum = (pc & 0xffffffffu) + lo;
			uint64_t hsum = (pc >> 32) + hi + (lsum >> 32);
			seen[n - 1].target = (hsum & 0xffffffffu) << 32 | (lsum & 0xffffffffu);
		}
		idx++;
	}
	free(out);
	free(err);
	return n;
}

static char *readelf(const char *args, const char *path)
{
	char cmd[4096], *err, *out;

	snprintf(cmd, sizeof(cmd), "'%s' %s '%s'", tool("LLVM_READELF"), args, path);
	out = run_capture(cmd, &err);
	assert_string_equal(err, "");
	free(err);
	return out;
}

static void test_fixture_outputs(void **state)
{
	for (size_t f = 0; f < N(stub_fixtures); f++) {
		const char *name = stub_fixtures[f];
		struct blob in = fixture(name);
		HS_OPTS(hs_rewrite_report, rep);
		struct hs_rewrite_output out =
		    rewrite_flags(in, HS_REWRITE_ENTRY_DEFAULT, HS_OK, &rep);
		char path[512], inpath[512], oname[300];
		struct stub_seen seen[16];
		char *syms, *notes;
		size_t n;

		snprintf(oname, sizeof(oname), "%s.out.co", name);
		save(oname, out, path, sizeof(path));
		snprintf(oname, sizeof(oname), "%s.in.co", name);
		tmp_path(inpath, sizeof(inpath), oname);
		write_file(inpath, in.data, in.size);
		assert_readelf_clean(path);
		assert_true(rep.changed);
		assert_true(rep.kernels_stubbed > 0);
		assert_int_equal(rep.kernels_stubbed + rep.kernels_skip_prologue, rep.kernels);
		assert_true(rep.pool_vaddr % 4096 == 0 && rep.pool_size > 0);
		assert_int_equal(rep.bytes_grown, (int64_t)out.size - (int64_t)in.size);
		n = check_stubs(path, mcpu_of(name), seen, N(seen));
		assert_int_equal(n, rep.kernels_stubbed);
		/* Each stub lands exactly on its kernel's original entry (the function symbol). */
		syms = readelf(strcmp(name, "hello_stripped") ? "-s" : "--dyn-syms", inpath);
		for (size_t i = 0; i < n; i++) {
			uint64_t entry;
			const char *k = seen[i].kernel[0] ? seen[i].kernel : "hello";
			assert_true(seen[i].addr % 256 == 0);
			if (!symbol_value(syms, k, &entry))
				fail_msg("%s: no symbol '%s' in the input", name, k);
			if (seen[i].target != entry)
				fail_msg("%s: stub for %s jumps to 0x%" PRIx64
				         ", entry is 0x%" PRIx64,
				         name, k, seen[i].target, entry);
		}
		free(syms);
		/* llvm-readelf decodes the (possibly re-encoded) metadata. */
		notes = readelf("--notes", path);
		assert_non_null(strstr(notes, "amdhsa.kernels"));
		assert_non_null(strstr(notes, "Unknown note type: (0x48535750)"));
		free(notes);
		hs_rewrite_output_release(&out);
		free(in.data);
	}
}

/* The spec's scratch examples, through the fixtures: pair name and recorded .sgpr_count. */
static void test_scratch_examples(void **state)
{
	static const struct {
		const char *fixture, *pair, *count;
	} cases[] = {
	    {"sgpr8", "s[8:9]", ".sgpr_count:     12"},
	    {"sgpr104", "s[104:105]", ".sgpr_count:     108"},
	    {"sgpr105", "vcc", ".sgpr_count:     108"},
	    {"sgpr108", "vcc", ".sgpr_count:     108"},
	};
	for (size_t i = 0; i < N(cases); i++) {
		struct blob in = fixture(cases[i].fixture);
		struct hs_rewrite_output out =
		    rewrite_flags(in, HS_REWRITE_ENTRY_DEFAULT, HS_OK, NULL);
		struct stub_seen seen[2];
		char path[512], *notes;

		save("scratch.co", out, path, sizeof(path));
		assert_int_equal(check_stubs(path, "gfx1250", seen, 2), 1);
		assert_string_equal(seen[0].pair, cases[i].pair);
		notes = readelf("--notes", path);
		if (!strstr(notes, cases[i].count))
			fail_msg("%s: expected '%s' in\n%s", cases[i].fixture, cases[i].count,
			         notes);
		free(notes);
		hs_rewrite_output_release(&out);
		free(in.data);
	}
}

static void test_sgpr109_fails_closed(void **state)
{
	struct blob in = fixture("sgpr109");
	HS_OPTS(hs_rewrite_report, rep);
	struct hs_rewrite_output out = {.data = (void *)0x1, .size = 7};
	HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_ENTRY_DEFAULT);

	assert_int_equal(hs_rewrite(in.data, in.size, NULL, NULL, &opts, &out, &rep), HS_ERROR);
	/* Output untouched on failure; the message names the kernel and the count. */
	assert_ptr_equal(out.data, (void *)0x1);
	assert_int_equal(out.size, 7);
	assert_non_null(strstr(hs_last_error(), "sgpr109"));
	assert_non_null(strstr(hs_last_error(), "109"));
	assert_string_equal(rep.message, hs_last_error());
	free(in.data);
}

/* Rewriting the output again with the same options returns the same bytes, for every flag set. */
static void test_idempotent_every_flag_combination(void **state)
{
	for (size_t f = 0; f < N(ok_fixtures); f++) {
		struct blob in = fixture(ok_fixtures[f]);
		for (uint64_t flags = 0; flags <= HS_REWRITE_ALL_FLAGS; flags++) {
			HS_OPTS(hs_rewrite_report, r1);
			HS_OPTS(hs_rewrite_report, r2);
			struct hs_rewrite_output o1 = rewrite_flags(in, flags, HS_OK, &r1);
			struct blob b1 = {o1.data, o1.size};
			struct hs_rewrite_output o2 = rewrite_flags(b1, flags, HS_OK, &r2);

			if (o1.size != o2.size || memcmp(o1.data, o2.data, o1.size))
				fail_msg("%s flags 0x%llx: second rewrite differs", ok_fixtures[f],
				         (unsigned long long)flags);
			assert_false(r2.changed);
			if (!r1.changed)
				assert_memory_equal(o1.data, in.data, in.size);
			/* Deterministic: a third run from the input gives the first bytes again. */
			{
				struct hs_rewrite_output o3 = rewrite_flags(in, flags, HS_OK, NULL);
				assert_int_equal(o3.size, o1.size);
				assert_memory_equal(o3.data, o1.data, o1.size);
				hs_rewrite_output_release(&o3);
			}
			hs_rewrite_output_release(&o1);
			hs_rewrite_output_release(&o2);
		}
		free(in.data);
	}
}

/* File offset of a vaddr through the section headers llvm-readelf prints. */
static size_t vaddr_to_off(const char *sections, uint64_t vaddr)
{
	const char *line = sections;

	while (line && *line) {
		unsigned long long addr, off, size;
		const char *nl = strchr(line, '\n');
		if (sscanf(line, " [%*d] %*s %*s %llx %llx %llx", &addr, &off, &size) == 3 &&
		    addr && vaddr >= addr && vaddr < addr + size)
			return (size_t)(off + (vaddr - addr));
		line = nl ? nl + 1 : NULL;
	}
	fail_msg("vaddr 0x%" PRIx64 " is in no section", vaddr);
	return 0;
}

/* INST_PREF_SIZE is clamped to min(orig, 2), other RSRC3 bits and RSRC1 kept, entry = stub - kd. */
static void test_descriptor_fixes(void **state)
{
	static const struct {
		const char *fixture, *kernel;
		uint32_t pref_before, pref_after;
	} cases[] = {
	    {"hello", "hello", 4, 2},
	    {"multi", "k_a", 1, 1},
	    {"multi", "k_b", 3, 2},
	    {"multi", "k_c", 0, 0},
	};
	for (size_t i = 0; i < N(cases); i++) {
		struct blob in = fixture(cases[i].fixture);
		struct hs_rewrite_output out =
		    rewrite_flags(in, HS_REWRITE_ENTRY_DEFAULT, HS_OK, NULL);
		char path[512], kd[300], stub[300], *syms, *secs;
		uint64_t kd_vaddr, stub_vaddr;
		const uint8_t *a, *b;
		size_t off;
		int64_t entry;

		save("kd.co", out, path, sizeof(path));
		syms = readelf("-s", path);
		secs = readelf("-S", path);
		snprintf(kd, sizeof(kd), "%s.kd", cases[i].kernel);
		snprintf(stub, sizeof(stub), "%s.stub", cases[i].kernel);
		assert_true(symbol_value(syms, kd, &kd_vaddr));
		assert_true(symbol_value(syms, stub, &stub_vaddr));
		off = vaddr_to_off(secs, kd_vaddr);
		a = in.data + off;
		b = (const uint8_t *)out.data + off;
		assert_int_equal((rd32(a + 44) >> 4) & 0xff, cases[i].pref_before);
		assert_int_equal((rd32(b + 44) >> 4) & 0xff, cases[i].pref_after);
		assert_int_equal(rd32(a + 44) & ~0xff0u, rd32(b + 44) & ~0xff0u);
		assert_int_equal(rd32(a + 48), rd32(b + 48)); /* RSRC1 reserved on gfx10+ */
		assert_int_equal(rd32(a + 52), rd32(b + 52));
		memcpy(&entry, b + 16, 8);
		assert_int_equal((uint64_t)entry, stub_vaddr - kd_vaddr);
		free(syms);
		free(secs);
		hs_rewrite_output_release(&out);
		free(in.data);
	}
}

static size_t count_str(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* .symtab: locals before sh_info, non-locals from it; each stub symbol once. */
static void assert_symtab_sane(const char *path, const char *stubname)
{
	char *secs = readelf("-S", path), *syms = readelf("-s", path);
	const char *line = strstr(secs, ".symtab"), *tab;
	unsigned info = 0;
	unsigned long long a, o, s;
	char es[16], lk[16];

	assert_non_null(line);
	/* [Nr] Name Type Address Off Size ES Flg Lk Inf Al: no flags on .symtab */
	assert_int_equal(
	    sscanf(line, ".symtab SYMTAB %llx %llx %llx %15s %15s %u", &a, &o, &s, es, lk, &info),
	    6);
	tab = strstr(syms, "Symbol table '.symtab'");
	assert_non_null(tab);
	for (line = tab; line && *line;) {
		unsigned num;
		char bind[32];
		const char *nl = strchr(line, '\n');
		if (sscanf(line, " %u: %*s %*s %*s %31s", &num, bind) == 2) {
			if (num > 0)
				assert_int_equal(!strcmp(bind, "LOCAL"), num < info);
		}
		line = nl ? nl + 1 : NULL;
	}
	assert_int_equal(count_str(tab, stubname), 1);
	free(secs);
	free(syms);
}

static void test_stub_symbols_once(void **state)
{
	struct blob in = fixture("multi");
	HS_OPTS(hs_rewrite_report, rep);
	struct hs_rewrite_output o1 = rewrite_flags(in, HS_REWRITE_ENTRY_DEFAULT, HS_OK, &rep);
	struct blob b1 = {o1.data, o1.size};
	struct hs_rewrite_output o2 = rewrite_flags(b1, HS_REWRITE_ENTRY_DEFAULT, HS_OK, &rep);
	char path[512];

	assert_false(rep.changed);
	assert_int_equal(rep.symbols_added, 0);
	assert_int_equal(rep.kernels_skip_stubbed, 3);
	save("syms2.co", o2, path, sizeof(path));
	assert_symtab_sane(path, "k_a.stub");
	assert_symtab_sane(path, "k_c.stub");
	hs_rewrite_output_release(&o1);
	hs_rewrite_output_release(&o2);

	/* Stubs made without symbols get them on a later pass that asks, once. */
	o1 = rewrite_flags(in, HS_REWRITE_ENTRY_TRAMPOLINES, HS_OK, &rep);
	assert_int_equal(rep.symbols_added, 0);
	b1 = (struct blob){o1.data, o1.size};
	o2 = rewrite_flags(b1, HS_REWRITE_ENTRY_DEFAULT, HS_OK, &rep);
	assert_true(rep.changed);
	assert_int_equal(rep.symbols_added, 3);
	assert_int_equal(rep.kernels_stubbed, 0);
	save("syms3.co", o2, path, sizeof(path));
	assert_readelf_clean(path);
	assert_symtab_sane(path, "k_b.stub");
	hs_rewrite_output_release(&o1);
	hs_rewrite_output_release(&o2);
	free(in.data);
}

static void test_stripped_symtab(void **state)
{
	struct blob in = fixture("hello_stripped");
	HS_OPTS(hs_rewrite_report, rep);
	struct hs_rewrite_output out = rewrite_flags(in, HS_REWRITE_ENTRY_DEFAULT, HS_OK, &rep);

	assert_true(rep.changed);
	assert_int_equal(rep.kernels_stubbed, 1);
	assert_true(rep.symbols_skipped);
	assert_int_equal(rep.symbols_added, 0);
	assert_non_null(strstr(rep.message, ".symtab"));
	hs_rewrite_output_release(&out);
	free(in.data);
}

static void test_prologue_skipped(void **state)
{
	struct blob in = fixture("prologue");
	HS_OPTS(hs_rewrite_report, rep);
	struct hs_rewrite_output out = rewrite_flags(in, HS_REWRITE_ENTRY_DEFAULT, HS_OK, &rep);
	struct stub_seen seen[4];
	char path[512];

	assert_int_equal(rep.kernels, 3);
	assert_int_equal(rep.kernels_skip_prologue, 2); /* global_prefetch_b8 and global_wb */
	assert_int_equal(rep.kernels_stubbed, 1);
	save("prologue.out.co", out, path, sizeof(path));
	assert_int_equal(check_stubs(path, "gfx1250", seen, 4), 1);
	assert_string_equal(seen[0].kernel, "k_plain");
	hs_rewrite_output_release(&out);
	free(in.data);
}

/* Which ISA pairs run, which are refused, and what the refusals say. */
static void test_isa_pairs(void **state)
{
	static const struct {
		const char *fixture, *src, *dst;
		uint64_t flags;
		enum hs_status st;
		const char *msg;
	} cases[] = {
	    {"hello", "gfx1250", "gfx1250", HS_REWRITE_ENTRY_DEFAULT, HS_OK, NULL},
	    /* B0 -> A0 (the defaults): the pass runs; hello has no B0-only site. */
	    {"hello", NULL, "amdgcn-amd-amdhsa--gfx1250", 0, HS_OK, NULL},
	    {"hello", "gfx1250", "gfx1250", HS_REWRITE_ENTRY_DEFAULT | HS_REWRITE_NO_B0A0, HS_OK,
	     NULL},
	    {"hello", NULL, "amdgcn-amd-amdhsa--gfx1250:gfx1250-b0-specific+",
	     HS_REWRITE_ENTRY_DEFAULT, HS_OK, NULL},
	    {"hello", "gfx1250:gfx1250-b0-specific-", "gfx1250:gfx1250-b0-specific-",
	     HS_REWRITE_ENTRY_DEFAULT, HS_OK, NULL},
	    {"hello", "gfx1250:gfx1250-b0-specific-", "gfx1250:gfx1250-b0-specific+", 0,
	     HS_INVALID_ARGUMENT, "A0 -> B0"},
	    /* gfx1250 -> gfx942/gfx950 is the translation route (test_translate_route.c). */
	    {"hello", NULL, "gfx1100", 0, HS_INVALID_ARGUMENT, "not supported yet"},
	    {"gfx1251", NULL, "gfx942", 0, HS_INVALID_ARGUMENT, "gfx1250 code only"},
	    {"gfx1251", NULL, "gfx950", HS_REWRITE_NO_B0A0, HS_INVALID_ARGUMENT,
	     "gfx1250 code only"},
	    {"hello", "gfx942", NULL, 0, HS_INVALID_ARGUMENT, "gfx1250"},
	    {"hello", "gfx1250-nonsense", NULL, 0, HS_INVALID_ARGUMENT, "source ISA"},
	    {"gfx1251", "gfx1251", "gfx1251", HS_REWRITE_ENTRY_DEFAULT, HS_OK, NULL},
	    {"gfx1251", NULL, "gfx1251:gfx1250-b0-specific+", 0, HS_INVALID_ARGUMENT,
	     "only valid on gfx1250"},
	    {"gfx942", NULL, NULL, HS_REWRITE_ENTRY_DEFAULT, HS_OK, NULL},
	    {"gfx942", "gfx942", "gfx942:xnack+", 0, HS_OK, NULL},
	};
	for (size_t i = 0; i < N(cases); i++) {
		struct blob in = fixture(cases[i].fixture);
		HS_OPTS(hs_rewrite_opts, opts, .flags = cases[i].flags);
		struct hs_rewrite_output out = {0};
		enum hs_status st =
		    hs_rewrite(in.data, in.size, cases[i].src, cases[i].dst, &opts, &out, NULL);
		if (st != cases[i].st)
			fail_msg("case %zu: expected %s, got %s: %s", i, hs_status_str(cases[i].st),
			         hs_status_str(st), hs_last_error());
		if (cases[i].msg && !strstr(hs_last_error(), cases[i].msg))
			fail_msg("case %zu: message '%s' lacks '%s'", i, hs_last_error(),
			         cases[i].msg);
		if (st == HS_OK && !strcmp(cases[i].fixture, "gfx942")) {
			/* Not a gfx12.5 object: the erratum pass does not apply; a copy. */
			assert_int_equal(out.size, in.size);
			assert_memory_equal(out.data, in.data, in.size);
		}
		hs_rewrite_output_release(&out);
		free(in.data);
	}
}

static void test_opts_and_report_guards(void **state)
{
	struct blob in = fixture("hello");
	uint8_t *copy = malloc(in.size);
	struct hs_rewrite_output out = {0};
	struct {
		struct hs_rewrite_opts o;
		uint64_t future[2];
	} big;
	struct hs_rewrite_opts o;
	HS_OPTS(hs_rewrite_report, rep);

	memcpy(copy, in.data, in.size);
	o = (struct hs_rewrite_opts){.sz = 0};
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, NULL, &o, &out, NULL),
	                 HS_INVALID_ARGUMENT);
	assert_non_null(strstr(hs_last_error(), "options size"));
	o = (struct hs_rewrite_opts){.sz = sizeof(size_t)};
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, NULL, &o, &out, NULL),
	                 HS_INVALID_ARGUMENT);
	o = (struct hs_rewrite_opts){.sz = sizeof(o), .flags = HS_REWRITE_ALL_FLAGS + 1};
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, NULL, &o, &out, NULL),
	                 HS_INVALID_ARGUMENT);
	assert_non_null(strstr(hs_last_error(), "unknown option flags"));
	o = (struct hs_rewrite_opts){.sz = sizeof(o), .flags = UINT64_C(1) << 63};
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, NULL, &o, &out, NULL),
	                 HS_INVALID_ARGUMENT);
	/* A newer caller's larger struct: zero tail accepted, non-zero tail refused. */
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	big.o.flags = HS_REWRITE_ENTRY_DEFAULT;
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, NULL, &big.o, &out, NULL), HS_OK);
	hs_rewrite_output_release(&out);
	big.future[1] = 1;
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, NULL, &big.o, &out, NULL),
	                 HS_INVALID_ARGUMENT);
	assert_non_null(strstr(hs_last_error(), "non-zero"));
	assert_null(out.data);
	/* NULL options: defaults (validate and copy). */
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, NULL, NULL, &out, &rep), HS_OK);
	assert_false(rep.changed);
	assert_memory_equal(out.data, in.data, in.size);
	hs_rewrite_output_release(&out);
	hs_rewrite_output_release(&out); /* twice is fine */
	hs_rewrite_output_release(NULL);
	/* Report too small. */
	rep.sz = 4;
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, NULL, NULL, &out, &rep),
	                 HS_INVALID_ARGUMENT);
	assert_non_null(strstr(hs_last_error(), "report size"));
	/* Missing arguments. */
	assert_int_equal(hs_rewrite(NULL, 0, NULL, NULL, NULL, &out, NULL), HS_INVALID_ARGUMENT);
	assert_int_equal(hs_rewrite(in.data, 0, NULL, NULL, NULL, &out, NULL), HS_INVALID_ARGUMENT);
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, NULL, NULL, NULL, NULL),
	                 HS_INVALID_ARGUMENT);
	assert_true(strlen(hs_last_error()) > 0);
	/* The input is never modified. */
	assert_memory_equal(copy, in.data, in.size);
	free(copy);
	free(in.data);
}

/* Each refusal carries its reason code; callers switch on it, never on the message text. */
static void test_reason_codes(void **state)
{
	static const struct {
		const char *fixture, *src, *dst;
		uint64_t flags;
		enum hs_status want;
		enum hs_reason reason;
	} cases[] = {
	    /* B0 -> A0 runs the pass now; a required site it cannot place fails closed. */
	    {"hello", NULL, "gfx1250", HS_REWRITE_ENTRY_DEFAULT, HS_OK, HS_REASON_NONE},
	    {"b0a0_decline", NULL, "gfx1250", 0, HS_ERROR, HS_REASON_CANNOT_APPLY},
	    {"hello", "gfx1250:gfx1250-b0-specific-", "gfx1250:gfx1250-b0-specific+", 0,
	     HS_INVALID_ARGUMENT, HS_REASON_UNSUPPORTED_PAIR},
	    {"hello", NULL, "gfx1100", 0, HS_INVALID_ARGUMENT, HS_REASON_UNSUPPORTED_PAIR},
	    {"gfx1251", NULL, "gfx942", 0, HS_INVALID_ARGUMENT, HS_REASON_UNSUPPORTED_PAIR},
	    {"hello", "gfx1250-nonsense", NULL, 0, HS_INVALID_ARGUMENT, HS_REASON_BAD_ARGUMENT},
	    {"hello", NULL, NULL, UINT64_C(1) << 40, HS_INVALID_ARGUMENT, HS_REASON_BAD_ARGUMENT},
	    {"dup", NULL, NULL, 0, HS_INVALID_ARGUMENT, HS_REASON_BAD_OBJECT},
	    {"sgpr109", NULL, "gfx1250:gfx1250-b0-specific+", HS_REWRITE_ENTRY_DEFAULT, HS_ERROR,
	     HS_REASON_CANNOT_APPLY},
	    {"hello_stripped", NULL, "gfx1250:gfx1250-b0-specific+", HS_REWRITE_ENTRY_DEFAULT,
	     HS_OK, HS_REASON_SYMBOLS_SKIPPED},
	    {"hello", NULL, "gfx1250:gfx1250-b0-specific+", HS_REWRITE_ENTRY_DEFAULT, HS_OK,
	     HS_REASON_NONE},
	    {"gfx942", NULL, NULL, HS_REWRITE_ENTRY_DEFAULT, HS_OK, HS_REASON_PASS_NOT_APPLICABLE},
	    {"gfx942", NULL, NULL, 0, HS_OK, HS_REASON_NONE},
	    {"two_notes", NULL, "gfx1250:gfx1250-b0-specific+", HS_REWRITE_ENTRY_DEFAULT, HS_OK,
	     HS_REASON_NONE},
	    {"two_versions", NULL, "gfx1250:gfx1250-b0-specific+", HS_REWRITE_ENTRY_DEFAULT,
	     HS_ERROR, HS_REASON_SEVERAL_METADATA},
	};
	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		struct blob in = fixture(cases[i].fixture);
		HS_OPTS(hs_rewrite_opts, opts, .flags = cases[i].flags);
		HS_OPTS(hs_rewrite_report, rep);
		struct hs_rewrite_output out = {0};
		enum hs_status st =
		    hs_rewrite(in.data, in.size, cases[i].src, cases[i].dst, &opts, &out, &rep);
		if (st != cases[i].want || rep.reason != cases[i].reason)
			fail_msg("case %zu (%s): status %s reason %u, want %s reason %u: %s", i,
			         cases[i].fixture, hs_status_str(st), rep.reason,
			         hs_status_str(cases[i].want), cases[i].reason, rep.message);
		hs_rewrite_output_release(&out);
		free(in.data);
	}
}

/* count[] mirrors the named counters; a 0.1-sized report is never written past its end. */
static void test_report_counts_and_v1_size(void **state)
{
	struct blob in = fixture("multi");
	HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_ENTRY_DEFAULT);
	HS_OPTS(hs_rewrite_report, rep);
	struct hs_rewrite_output out = {0};
	size_t v1 = offsetof(struct hs_rewrite_report, reason);
	struct hs_rewrite_report *small = malloc(sizeof(*small));
	const char *b0 = "gfx1250:gfx1250-b0-specific+";

	(void)state;
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, b0, &opts, &out, &rep), HS_OK);
	hs_rewrite_output_release(&out);
	assert_int_equal(rep.count[HS_COUNT_KERNELS], 3);
	assert_int_equal(rep.count[HS_COUNT_KERNELS_STUBBED], rep.kernels_stubbed);
	assert_int_equal(rep.count[HS_COUNT_SYMBOLS_ADDED], 3);
	for (unsigned k = HS_COUNT__KNOWN; k < HS_COUNT_CAPACITY; k++)
		assert_int_equal(rep.count[k], 0);
	/* A caller built against 0.1: the bytes past its struct stay as they were. */
	assert_non_null(small);
	memset(small, 0xa5, sizeof(*small));
	small->sz = v1;
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, b0, &opts, &out, small), HS_OK);
	hs_rewrite_output_release(&out);
	assert_int_equal(small->kernels, 3);
	for (size_t i = v1; i < sizeof(*small); i++)
		assert_int_equal(((uint8_t *)small)[i], 0xa5);
	memset(small, 0xa5, sizeof(*small));
	small->sz = v1;
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, "gfx1100", &opts, &out, small),
	                 HS_INVALID_ARGUMENT);
	assert_non_null(strstr(small->message, "gfx1100"));
	for (size_t i = v1; i < sizeof(*small); i++)
		assert_int_equal(((uint8_t *)small)[i], 0xa5);
	free(small);
	free(in.data);
}

/* Per-kernel results: what the call did to each kernel, asked for through the options. */
static void test_kernel_results(void **state)
{
	struct blob in = fixture("multi");
	struct hs_rewrite_result *res = (struct hs_rewrite_result *)&res; /* overwritten */
	HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_ENTRY_DEFAULT, .result = &res);
	struct hs_rewrite_output out = {0};
	struct hs_kernel_result kr = {.sz = sizeof(kr)};
	const char *b0 = "gfx1250:gfx1250-b0-specific+";
	struct hs_rewrite_opts v1;

	(void)state;
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, b0, &opts, &out, NULL), HS_OK);
	hs_rewrite_output_release(&out);
	assert_non_null(res);
	assert_int_equal(hs_rewrite_result_kernels(res), 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(hs_rewrite_result_kernel(res, i, &kr), HS_OK);
		assert_int_equal(kr.passes, HS_PASS_ENTRY_TRAMPOLINES);
		assert_true(kr.entry_after != kr.entry_before);
		assert_true(kr.entry_after % 256 == 0);
		assert_true(kr.sgprs_after > kr.sgprs_before && kr.sgprs_before > 0);
		assert_int_equal(kr.vgprs_after, kr.vgprs_before);
	}
	assert_string_equal((hs_rewrite_result_kernel(res, 0, &kr), kr.name), "k_a");
	assert_int_equal(hs_rewrite_result_kernel(res, 3, &kr), HS_INVALID_ARGUMENT);
	kr.sz = sizeof(size_t);
	assert_int_equal(hs_rewrite_result_kernel(res, 0, &kr), HS_INVALID_ARGUMENT);
	assert_non_null(strstr(hs_last_error(), "kernel result size"));
	hs_rewrite_result_free(res);
	hs_rewrite_result_free(NULL);
	assert_int_equal(hs_rewrite_result_kernels(NULL), 0);
	/* A second rewrite changes no kernel. */
	res = NULL;
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, b0, &opts, &out, NULL), HS_OK);
	{
		struct blob again = {out.data, out.size};
		struct hs_rewrite_output out2 = {0};
		hs_rewrite_result_free(res);
		assert_int_equal(hs_rewrite(again.data, again.size, NULL, b0, &opts, &out2, NULL),
		                 HS_OK);
		hs_rewrite_output_release(&out2);
		kr.sz = sizeof(kr);
		assert_int_equal(hs_rewrite_result_kernel(res, 1, &kr), HS_OK);
		assert_int_equal(kr.passes, 0);
		assert_int_equal(kr.entry_after, kr.entry_before);
		hs_rewrite_result_free(res);
	}
	hs_rewrite_output_release(&out);
	/* A failed call leaves no result. */
	res = (struct hs_rewrite_result *)&res;
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, "gfx1100", &opts, &out, NULL),
	                 HS_INVALID_ARGUMENT);
	assert_null(res);
	/* A 0.1 caller's options end before .result: never read, never written. */
	res = (struct hs_rewrite_result *)&res;
	memset(&v1, 0, sizeof(v1));
	v1.sz = offsetof(struct hs_rewrite_opts, result);
	v1.flags = HS_REWRITE_ENTRY_DEFAULT;
	v1.result = &res;
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, b0, &v1, &out, NULL), HS_OK);
	assert_ptr_equal(res, (struct hs_rewrite_result *)&res);
	hs_rewrite_output_release(&out);
	free(in.data);
}

static void test_data_only_and_dup(void **state)
{
	struct blob in = fixture("data_only");
	HS_OPTS(hs_rewrite_report, rep);
	struct hs_rewrite_output out =
	    rewrite_flags(in, HS_REWRITE_ALL_FLAGS & ~HS_REWRITE_STRICT, HS_OK, &rep);

	assert_false(rep.changed);
	assert_int_equal(rep.kernels, 0);
	assert_int_equal(out.size, in.size);
	assert_memory_equal(out.data, in.data, in.size);
	hs_rewrite_output_release(&out);
	free(in.data);

	in = fixture("dup");
	out = rewrite_flags(in, 0, HS_INVALID_ARGUMENT, &rep);
	assert_non_null(strstr(hs_last_error(), "'dup' is ambiguous"));
	assert_string_equal(rep.message, hs_last_error());
	free(in.data);
}

static void test_code_object_isa(void **state)
{
	static const struct {
		const char *fixture, *isa, *proc;
	} cases[] = {
	    {"hello", "amdgcn-amd-amdhsa--gfx1250", "gfx1250"},
	    {"gfx1251", "amdgcn-amd-amdhsa--gfx1251", "gfx1251"},
	    {"gfx942", "amdgcn-amd-amdhsa--gfx942", "gfx942"},
	};
	char isa[128], proc[32];

	for (size_t i = 0; i < N(cases); i++) {
		struct blob in = fixture(cases[i].fixture);
		assert_int_equal(
		    hs_code_object_isa(in.data, in.size, isa, sizeof(isa), proc, sizeof(proc)),
		    HS_OK);
		assert_string_equal(isa, cases[i].isa);
		assert_string_equal(proc, cases[i].proc);
		assert_int_equal(hs_code_object_isa(in.data, in.size, isa, 4, NULL, 0),
		                 HS_INVALID_ARGUMENT);
		assert_int_equal(hs_code_object_isa(in.data, 10, isa, sizeof(isa), NULL, 0),
		                 HS_INVALID_ARGUMENT);
		free(in.data);
	}
	assert_string_equal(hs_status_str(HS_OK), "OK");
	assert_string_equal(hs_status_str(HS_ERROR), "ERROR");
	/* The library and its header are built from one version (project(VERSION)). */
	assert_string_equal(hs_version(), HS_REWRITE_VERSION_STRING);
	/* The test binary carries a build-id (every link of ours asks for one). */
	const char *id = hs_build_identity();
	const char *prefix = HS_REWRITE_VERSION_STRING " rewrite=";
	assert_true(!strncmp(id, prefix, strlen(prefix)));
	assert_true(strspn(id + strlen(prefix), "0123456789abcdef") == 40);
	assert_non_null(strstr(id, " mc="));
	assert_ptr_equal(hs_build_identity(), id); /* computed once */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fixture_outputs),
	    cmocka_unit_test(test_scratch_examples),
	    cmocka_unit_test(test_sgpr109_fails_closed),
	    cmocka_unit_test(test_idempotent_every_flag_combination),
	    cmocka_unit_test(test_descriptor_fixes),
	    cmocka_unit_test(test_stub_symbols_once),
	    cmocka_unit_test(test_stripped_symtab),
	    cmocka_unit_test(test_prologue_skipped),
	    cmocka_unit_test(test_isa_pairs),
	    cmocka_unit_test(test_opts_and_report_guards),
	    cmocka_unit_test(test_reason_codes),
	    cmocka_unit_test(test_report_counts_and_v1_size),
	    cmocka_unit_test(test_kernel_results),
	    cmocka_unit_test(test_data_only_and_dup),
	    cmocka_unit_test(test_code_object_isa),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
