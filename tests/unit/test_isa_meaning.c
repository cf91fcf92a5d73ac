/*
 * The meaning columns of every row of every table (TYPE, MEM, OPER: docs/isa-decoder.md, "What
 * a row means") against the names LLVM gives the rows: the raiser and the B0->A0 pass read the
 * columns, so a row whose columns disagree with its name is caught here, not in a kernel.  The
 * name readers below are the oracle only; nothing outside this test reads meaning from a name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mirage/isa.h"

/* A memory name read as LLVM writes it: <seg>_<load|store|atomic>[_op]..._<type>. */
struct mname {
	enum {
		N_LOAD = 1,
		N_STORE,
		N_ATOMIC
	} kind;
	unsigned bits;
	char kindc; /* the type's letter: b, i, u, f */
	bool d16, hi, twoaddr, stride64, rtn;
	char aop[16];
};

static bool type_token(const char *t, unsigned *bits, char *kindc)
{
	unsigned b;

	if (!t || !*t || !strchr("biuf", t[0]))
		return false;
	b = (unsigned)strtoul(t + 1, NULL, 10);
	if (b % 8 || !b || b > 512)
		return false;
	*bits = b;
	*kindc = t[0];
	return true;
}

static bool read_mname(const char *mn, struct mname *s)
{
	const char *p = strchr(mn, '_');
	char buf[64];
	char *tok[8], *save = NULL;
	unsigned n = 0, op_end = 1;

	memset(s, 0, sizeof(*s));
	if (!p)
		return false;
	snprintf(buf, sizeof(buf), "%s", p + 1);
	for (char *t = strtok_r(buf, "_", &save); t && n < 8; t = strtok_r(NULL, "_", &save))
		tok[n++] = t;
	if (!n || !type_token(tok[n - 1], &s->bits, &s->kindc))
		return false;
	if (!strcmp(tok[0], "load"))
		s->kind = N_LOAD;
	else if (!strcmp(tok[0], "store"))
		s->kind = N_STORE;
	else {
		unsigned a = !strcmp(tok[0], "atomic") ? 1 : 0;
		s->kind = N_ATOMIC;
		snprintf(s->aop, sizeof(s->aop), "%s", tok[a]);
		/* the two-word operations: cond_sub, sub_clamp */
		if (a + 2 < n && (!strcmp(tok[a], "cond") || !strcmp(tok[a + 1], "clamp"))) {
			snprintf(s->aop, sizeof(s->aop), "%s_%s", tok[a], tok[a + 1]);
			op_end = a + 2;
		}
	}
	for (unsigned i = op_end; i + 1 < n; i++) {
		if (!strcmp(tok[i], "d16"))
			s->d16 = true;
		else if (!strcmp(tok[i], "hi"))
			s->hi = true;
		else if (!strcmp(tok[i], "2addr"))
			s->twoaddr = true;
		else if (!strcmp(tok[i], "stride64"))
			s->stride64 = true;
		else if (!strcmp(tok[i], "rtn"))
			s->rtn = true;
		else if (s->kind != N_ATOMIC || strcmp(tok[i], s->aop))
			if (!(s->kind == N_ATOMIC &&
			      (!strcmp(tok[i], "num") || !strcmp(tok[i], "not"))))
				return false;
	}
	return !(s->kind == N_ATOMIC && !strcmp(s->aop, "num"));
}

static const char *const table_name[ISA_ARCH_COUNT] = {"gfx1250", "gfx942", "gfx950"};

/* The name a row's memory meaning is read from: gfx1250's for an id both tables share. */
static const char *memory_name(unsigned id, const struct isa_row *r)
{
	return isa_gfx1250_rows[id].mnemonic ? isa_gfx1250_rows[id].mnemonic : r->mnemonic;
}

static bool is_memory_format(unsigned f)
{
	return f == ISA_FMT_SMEM || f == ISA_FMT_DS || f == ISA_FMT_VFLAT || f == ISA_FMT_VGLOBAL ||
	       f == ISA_FMT_VSCRATCH || f == ISA_FMT_VBUFFER;
}

/* A load, store or read-modify-write with nothing else about it (what the raiser raises). */
static bool plain(const struct isa_row *r)
{
	unsigned kind = r->mem & ISA_M_KIND;

	if (!kind || (r->mem & (ISA_M_RSRC | ISA_M_ASYNC | ISA_M_ADDTID | ISA_M_TR)))
		return false;
	return kind != ISA_M_ATOMIC || r->oper;
}

/* The cross-lane DS moves, ds_nop and the ADDTID forms, which the raiser takes by id. */
static bool ds_by_id(unsigned id)
{
	return id == ISA_OP_DS_NOP || id == ISA_OP_DS_BPERMUTE_B32 ||
	       id == ISA_OP_DS_BPERMUTE_FI_B32 || id == ISA_OP_DS_PERMUTE_B32 ||
	       id == ISA_OP_DS_SWIZZLE_B32 || id == ISA_OP_DS_LOAD_ADDTID_B32 ||
	       id == ISA_OP_DS_STORE_ADDTID_B32;
}

/* What the raiser takes by id before it reads a memory row: prefetches and cache controls. */
static bool taken_by_id(unsigned id)
{
	return id == ISA_OP_S_PREFETCH_DATA || id == ISA_OP_GLOBAL_PREFETCH_B8 ||
	       id == ISA_OP_FLAT_PREFETCH_B8 || id == ISA_OP_GLOBAL_WB || id == ISA_OP_GLOBAL_INV ||
	       id == ISA_OP_GLOBAL_WBINV;
}

static bool async_copy(unsigned id, unsigned *bits, bool *to_lds)
{
	static const struct {
		unsigned id, bits;
		bool to_lds;
	} copies[] = {
	    {ISA_OP_GLOBAL_LOAD_ASYNC_TO_LDS_B8, 8, true},
	    {ISA_OP_CLUSTER_LOAD_ASYNC_TO_LDS_B8, 8, true},
	    {ISA_OP_GLOBAL_LOAD_ASYNC_TO_LDS_B32, 32, true},
	    {ISA_OP_CLUSTER_LOAD_ASYNC_TO_LDS_B32, 32, true},
	    {ISA_OP_GLOBAL_LOAD_ASYNC_TO_LDS_B64, 64, true},
	    {ISA_OP_CLUSTER_LOAD_ASYNC_TO_LDS_B64, 64, true},
	    {ISA_OP_GLOBAL_LOAD_ASYNC_TO_LDS_B128, 128, true},
	    {ISA_OP_CLUSTER_LOAD_ASYNC_TO_LDS_B128, 128, true},
	    {ISA_OP_GLOBAL_STORE_ASYNC_FROM_LDS_B8, 8, false},
	    {ISA_OP_GLOBAL_STORE_ASYNC_FROM_LDS_B32, 32, false},
	    {ISA_OP_GLOBAL_STORE_ASYNC_FROM_LDS_B64, 64, false},
	    {ISA_OP_GLOBAL_STORE_ASYNC_FROM_LDS_B128, 128, false},
	};
	for (size_t i = 0; i < sizeof(copies) / sizeof(copies[0]); i++)
		if (copies[i].id == id) {
			*bits = copies[i].bits;
			*to_lds = copies[i].to_lds;
			return true;
		}
	return false;
}

static unsigned failures;

/* Every disagreement is printed; the test fails at the end if there was one. */
static void fail_row(unsigned arch, const struct isa_row *r, const char *what)
{
	print_error("%s %s: %s\n", table_name[arch], r->mnemonic, what);
	failures++;
}

/* The access the name describes against MEM / TYPE / OPER and the shape's ISA_S_2ADDR. */
static void same_access(unsigned arch, const struct isa_row *r, const struct mname *n)
{
	static const unsigned kinds[] = {0, ISA_M_LOAD, ISA_M_STORE, ISA_M_ATOMIC};
	unsigned tk = isa_type_kind(r->type);
	bool sign = tk == ISA_TK_I, fp = tk == ISA_TK_F;

	if ((r->mem & ISA_M_KIND) != kinds[n->kind])
		fail_row(arch, r, "MEM's kind is not the name's");
	if (isa_type_bits(r->type) != n->bits || sign != (n->kindc == 'i') ||
	    fp != (n->kindc == 'f'))
		fail_row(arch, r, "TYPE is not the name's");
	if (!!(r->mem & ISA_M_D16) != n->d16 || !!(r->mem & ISA_M_HI) != n->hi ||
	    !!(r->mem & ISA_M_STRIDE64) != n->stride64 || !!(r->shape & ISA_S_2ADDR) != n->twoaddr)
		fail_row(arch, r, "d16, hi, stride64 or 2addr is not the name's");
	if (r->format == ISA_FMT_DS && !!(r->mem & ISA_M_RTN) != n->rtn)
		fail_row(arch, r, "ISA_M_RTN is not the name's _rtn");
	if (n->kind == N_ATOMIC && strcmp(isa_oper_name(r->oper), n->aop))
		fail_row(arch, r, "OPER is not the name's atomic");
}

static void check_memory(unsigned arch, unsigned id, const struct isa_row *r)
{
	const char *mn = memory_name(id, r);
	struct mname n;
	bool named = read_mname(mn, &n), to_lds = false;
	unsigned bits = 0;

	if (taken_by_id(id)) {
		if (r->mem)
			fail_row(arch, r, "MEM on a prefetch or a cache control");
		return;
	}
	if (r->format == ISA_FMT_SMEM) {
		if (!strncmp(mn, "s_buffer_", 9) != !!(r->mem & ISA_M_RSRC))
			fail_row(arch, r, "ISA_M_RSRC is not the name's s_buffer_");
		if (!(r->mem & ISA_M_RSRC) &&
		    (named && n.kind == N_LOAD) != ((r->mem & ISA_M_KIND) == ISA_M_LOAD))
			fail_row(arch, r,
			         "an SMEM load that the name does not say, or the other way");
		if (!(r->mem & ISA_M_RSRC) && named && n.kind == N_LOAD)
			same_access(arch, r, &n);
		return;
	}
	if (r->format == ISA_FMT_VBUFFER)
		return; /* buffer resources: the raiser refuses the format */
	if (async_copy(id, &bits, &to_lds) != !!(r->mem & ISA_M_ASYNC))
		fail_row(arch, r, "ISA_M_ASYNC is not the async copies'");
	if (r->mem & ISA_M_ASYNC) {
		if (isa_type_bits(r->type) != bits ||
		    to_lds != ((r->mem & ISA_M_KIND) == ISA_M_LOAD))
			fail_row(arch, r, "the async copy's width or direction");
		return;
	}
	if (r->format == ISA_FMT_DS) {
		if ((id == ISA_OP_DS_LOAD_ADDTID_B32 || id == ISA_OP_DS_STORE_ADDTID_B32) !=
		    !!(r->mem & ISA_M_ADDTID))
			fail_row(arch, r, "ISA_M_ADDTID is not ds_{load,store}_addtid_b32");
		if (ds_by_id(id))
			return;
		/* what the name gives, less the forms the raiser refused by name */
		named = named && strcmp(n.aop, "permute") && !strstr(mn, "addtid") &&
		        !strstr(mn, "_tr") && !strstr(mn, "bpermute");
		if (named != (plain(r) && !(r->mem & ISA_M_D16)))
			fail_row(arch, r, "an LDS access the name does not say, or the other way");
	} else if (named != plain(r)) {
		fail_row(arch, r, "an access the name does not say, or the other way");
	}
	if (named)
		same_access(arch, r, &n);
	if (r->format != ISA_FMT_DS && (r->mem & ISA_M_KIND) == ISA_M_ATOMIC &&
	    !!(r->mem & ISA_M_RTN) != !!(r->flags & ISA_F_RTN))
		fail_row(arch, r, "a FLAT atomic's ISA_M_RTN is not its ISA_F_RTN");
}

/* The float width a name gives (the widest of _f64, then _f16, else 32). */
static unsigned float_bits(const char *mn)
{
	return strstr(mn, "_f64") ? 64 : strstr(mn, "_f16") ? 16 : 32;
}

static bool float_math(unsigned oper)
{
	return oper >= ISA_O_ADD && oper <= ISA_O_DIV_FIXUP && oper != ISA_O_RSUB;
}

/* v_cmp[x]_<cond>_<type>: the condition, the type and whether it writes EXEC. */
static void check_compare(unsigned arch, const struct isa_row *r)
{
	static const char *const conds[] = {"lt",  "eq",  "le",  "gt",   "ne",  "lg",
	                                    "ge",  "o",   "u",   "nge",  "nlg", "ngt",
	                                    "nle", "neq", "nlt", "class"};
	const char *mn = r->mnemonic, *p, *us;
	bool cmpx = !strncmp(mn, "v_cmpx_", 7), known = false;
	char cond[8] = {0};
	unsigned bits = 0;
	char kindc = 0;

	p = mn + (cmpx ? 7 : 6);
	us = strchr(p, '_');
	if (us && us - p < (long)sizeof(cond))
		memcpy(cond, p, (size_t)(us - p));
	for (size_t i = 0; i < sizeof(conds) / sizeof(conds[0]); i++)
		known = known || !strcmp(cond, conds[i]);
	if (known != isa_oper_is_compare(r->oper) ||
	    (known && strcmp(isa_oper_name(r->oper), cond)))
		fail_row(arch, r, "OPER is not the compare's condition");
	if (us && type_token(us + 1, &bits, &kindc) &&
	    (isa_type_bits(r->type) != bits ||
	     (isa_type_kind(r->type) == ISA_TK_F) != (kindc == 'f') ||
	     (isa_type_kind(r->type) == ISA_TK_I) != (kindc == 'i')))
		fail_row(arch, r, "TYPE is not the compare's type");
	if (cmpx != !!(r->impl_def & ISA_IMPL_EXEC))
		fail_row(arch, r, "a v_cmpx that does not write EXEC, or the other way");
}

static void test_columns_are_the_names(void **state)
{
	unsigned rows = 0;

	(void)state;
	for (unsigned arch = 0; arch < ISA_ARCH_COUNT; arch++) {
		const struct isa_row *t = isa_arch_rows(arch);
		for (unsigned id = 1; id < ISA_OP_COUNT; id++) {
			const struct isa_row *r = &t[id];
			if (!r->mnemonic)
				continue;
			rows++;
			if (is_memory_format(r->format))
				check_memory(arch, id, r);
			else if (r->mem)
				fail_row(arch, r, "MEM on a row that is no memory access");
			if (!strncmp(r->mnemonic, "v_cmp", 5))
				check_compare(arch, r);
			if (!r->mem && float_math(r->oper) &&
			    (isa_type_kind(r->type) != ISA_TK_F ||
			     isa_type_bits(r->type) != float_bits(r->mnemonic)))
				fail_row(arch, r,
				         "a float op whose TYPE is not the name's float width");
		}
	}
	assert_true(rows > 1500);
	assert_int_equal(failures, 0);
}

/* One meaning per op id: a row the gfx942 table shares with gfx1250 means what gfx1250's does. */
static void test_shared_ids_mean_the_same(void **state)
{
	(void)state;
	for (unsigned arch = ISA_ARCH_GFX942; arch < ISA_ARCH_COUNT; arch++)
		for (unsigned id = 1; id < ISA_OP_COUNT; id++) {
			const struct isa_row *a = &isa_gfx1250_rows[id],
			                     *b = &isa_arch_rows(arch)[id];
			if (!a->mnemonic || !b->mnemonic)
				continue;
			if (a->type != b->type || a->mem != b->mem || a->oper != b->oper)
				fail_row(arch, b, "not the meaning of the gfx1250 row of its id");
		}
	assert_int_equal(failures, 0);
}

static void test_oper_names(void **state)
{
	(void)state;
	assert_string_equal(isa_oper_name(ISA_O_NONE), "");
	assert_string_equal(isa_oper_name(ISA_O_CMPSWAP), "cmpswap");
	assert_string_equal(isa_oper_name(ISA_O_CMP_CLASS), "class");
	assert_string_equal(isa_oper_name(ISA_O_COUNT), "?");
	for (unsigned o = 1; o < ISA_O_COUNT; o++)
		assert_true(isa_oper_name(o)[0]);
	assert_true(isa_oper_is_compare(ISA_O_CMP_LT) && isa_oper_is_compare(ISA_O_CMP_CLASS));
	assert_false(isa_oper_is_compare(ISA_O_MSKOR));
	assert_int_equal(isa_type_kind(ISA_T(BF, 16)), ISA_TK_BF);
	assert_int_equal(isa_type_bits(ISA_T(B, 512)), 512);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_columns_are_the_names),
	    cmocka_unit_test(test_shared_ids_mean_the_same),
	    cmocka_unit_test(test_oper_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
