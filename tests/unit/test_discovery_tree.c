/* HotSwap tree search and the completeness predicate, on trees staged in temp dirs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hotswap_tree.h"
#include "test_discovery_util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FX(name)  DISC_FX_DIR "/libfx_" name ".so"
#define INTERCEPT HOTSWAP_INTERCEPT_PATH
#define CORE      HOTSWAP_INTERCEPT_CORE_PATH

struct fixture {
	char *tmp;
	char *home; /* <tmp>/home: HOTSWAP_HOME */
	char *exe;  /* <tmp>/x/bin/mirage: a fake executable path */
	struct hotswap_tree tree;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	f->tmp = tu_mkdtemp();
	f->home = xstrfmt("%s/home", f->tmp);
	f->exe = xstrfmt("%s/x/bin/mirage", f->tmp);
	f->tree = (struct hotswap_tree)HOTSWAP_TREE_INIT;
	char *data = xstrfmt("%s/data", f->tmp);
	setenv(HOTSWAP_ENV_HOME, f->home, 1);
	setenv(MIRAGE_ENV_DATA, data, 1);
	unsetenv("XDG_DATA_HOME");
	free(data);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	hotswap_tree_release(&f->tree);
	tu_rmtree(f->tmp);
	free(f->tmp);
	free(f->home);
	free(f->exe);
	free(f);
	return 0;
}

static int discover(struct fixture *f)
{
	struct discover_opts opts = {.self_exe = f->exe};
	return hotswap_discover(&opts, &f->tree);
}

static void stage_tools(const char *root)
{
	for (size_t i = 0; i < HOTSWAP_PART_COUNT; i++)
		if (hotswap_tree_parts[i].kind == HOTSWAP_PART_TOOL)
			tu_write(root, hotswap_tree_parts[i].path,
			         "#!/bin/sh\necho 'LLVM version 22.0.0'\n", 0755);
	tu_write(root, HOTSWAP_PY_SITECUSTOMIZE_PATH, "# stand-in\n", 0644);
}

static void stage_native(const char *root)
{
	tu_copy(FX("intercept"), root, INTERCEPT, 0755);
	tu_copy(FX("core"), root, CORE, 0755);
	tu_copy(FX("rewrite"), root, HOTSWAP_REWRITE_PATH, 0755);
	stage_tools(root);
}

static const struct hotswap_part *part(const struct hotswap_tree *t, const char *name)
{
	for (size_t i = 0; i < t->nparts; i++)
		if (!strcmp(t->parts[i].name, name))
			return &t->parts[i];
	fail_msg("no part %s", name);
	return NULL;
}

static void test_none(void **state)
{
	struct fixture *f = *state;
	struct strbuf msg = STRBUF_INIT, want = STRBUF_INIT, tip = STRBUF_INIT;
	const char *paths[4], *reasons[] = {
	                          "in-tree build, <mirage dir>/../../build/hotswap",
	                          "build tree, <mirage dir>/../hotswap",
	                          "install prefix, <prefix>/lib/mirage/hotswap",
	                          "installed trees, $MIRAGE_DATA/hotswap/*",
	                      };
	char *p[4];
	p[0] = xstrfmt("%s/build/hotswap/" INTERCEPT, f->tmp);
	p[1] = xstrfmt("%s/x/hotswap/" INTERCEPT, f->tmp);
	p[2] = xstrfmt("%s/x/lib/mirage/hotswap/" INTERCEPT, f->tmp);
	p[3] = xstrfmt("%s/data/hotswap/*/" INTERCEPT, f->tmp);

	unsetenv(HOTSWAP_ENV_HOME);
	assert_int_equal(discover(f), -1);
	assert_false(f->tree.found);
	assert_false(f->tree.pinned);
	assert_false(f->tree.complete);
	assert_null(f->tree.root);
	assert_int_equal(f->tree.nprobes, 4);
	size_t width = 0;
	for (int i = 0; i < 4; i++)
		width = strlen(p[i]) > width ? strlen(p[i]) : width;
	strbuf_addstr(&want, "HotSwap is not installed, or mirage could not find "
	                     "libhotswap_intercept.so.\nmirage looked in:");
	for (int i = 0; i < 4; i++) {
		paths[i] = p[i];
		assert_string_equal(f->tree.probes[i].path, paths[i]);
		assert_string_equal(f->tree.probes[i].reason, reasons[i]);
		assert_false(f->tree.probes[i].exists);
		strbuf_addf(&want, "\n  - %-*s   (%s)", (int)width, p[i], reasons[i]);
	}
	hotswap_format_problem(&f->tree, &msg, &tip);
	assert_string_equal(msg.buf, want.buf);
	assert_string_equal(tip.buf,
	                    "build it in-tree (cmake -DMIRAGE_BUILD_HOTSWAP=ON), install one with "
	                    "`mirage hotswap install URL`, or point HOTSWAP_HOME at a tree root: "
	                    "export HOTSWAP_HOME=/abs/path/to/hotswap");
	for (int i = 0; i < 4; i++)
		free(p[i]);
	strbuf_release(&msg);
	strbuf_release(&tip);
	strbuf_release(&want);
}

static void test_intercept_only(void **state)
{
	struct fixture *f = *state;
	struct strbuf msg = STRBUF_INIT, tip = STRBUF_INIT;
	tu_copy(FX("intercept"), f->home, INTERCEPT, 0755);

	assert_int_equal(discover(f), -1);
	assert_true(f->tree.found);
	assert_false(f->tree.complete);
	assert_int_equal(f->tree.flavour, HOTSWAP_FLAVOUR_NONE);
	assert_string_equal(f->tree.root, f->home);
	assert_string_equal(f->tree.found_by, HOTSWAP_ENV_HOME);
	assert_int_equal(part(&f->tree, INTERCEPT)->status, PART_OK);
	assert_int_equal(part(&f->tree, HOTSWAP_REWRITE_PATH)->status, PART_MISSING);
	assert_int_equal(part(&f->tree, CORE)->status, PART_MISSING);
	assert_int_equal(
	    part(&f->tree, hotswap_tree_parts[HOTSWAP_PART_REF_HSA_RUNTIME].label)->status,
	    PART_MISSING);
	assert_int_equal(part(&f->tree, hotswap_tree_parts[HOTSWAP_PART_REF_COMGR].label)->status,
	                 PART_MISSING);

	hotswap_format_problem(&f->tree, &msg, &tip);
	char *want = xstrfmt(
	    "the HotSwap tree at '%s' is incomplete (found through HOTSWAP_HOME);\n"
	    "it looks like neither flavour: a native tree needs lib/libhotswap_rewrite.so and "
	    "lib/libhotswap_intercept_core.so,\n"
	    "a reference tree needs lib/libhsa-runtime64.so[.1] and lib/libamd_comgr.so[.3]\n"
	    "broken or missing parts:\n"
	    "  - lib/libhotswap_rewrite.so: missing ('%s/lib/libhotswap_rewrite.so')\n"
	    "  - " CORE ": missing ('%s/" CORE "')\n"
	    "  - lib/libhsa-runtime64.so[.1]: missing ('%s/lib/libhsa-runtime64.so')\n"
	    "  - lib/libamd_comgr.so[.3]: missing ('%s/lib/libamd_comgr.so')\n"
	    "HotSwap is not one library: the intercept needs its rewriter next to it, or the\n"
	    "workload would run unemulated.",
	    f->home, f->home, f->home, f->home, f->home);
	assert_string_equal(msg.buf, want);
	assert_string_equal(tip.buf, "rebuild the in-tree tree (cmake --build build), reinstall "
	                             "it with `mirage hotswap install URL`, or point HOTSWAP_HOME "
	                             "at a complete tree root");
	free(want);
	strbuf_release(&msg);
	strbuf_release(&tip);
}

static void test_native_complete(void **state)
{
	struct fixture *f = *state;
	stage_native(f->home);

	assert_int_equal(discover(f), 0);
	assert_true(f->tree.found);
	assert_true(f->tree.complete);
	assert_int_equal(f->tree.flavour, HOTSWAP_FLAVOUR_NATIVE);
	assert_string_equal(hotswap_flavour_name(f->tree.flavour), "native");
	assert_int_equal(f->tree.warnings.nr, 0);
	assert_int_equal(f->tree.nprobes, 1);
	assert_true(f->tree.probes[0].exists);
	for (size_t i = 0; i < f->tree.nparts; i++)
		assert_int_equal(f->tree.parts[i].status, PART_OK);
	char *lib = xstrfmt("%s/lib", f->home);
	assert_string_equal(f->tree.lib_dir, lib);
	free(lib);
}

/* The root is reported canonical even when HOTSWAP_HOME has "..", "." and a symlink in it. */
static void test_root_canonical(void **state)
{
	struct fixture *f = *state;
	stage_native(f->home);
	tu_mkdirs(f->tmp, "sub");
	char *link = xstrfmt("%s/link", f->tmp);
	assert_int_equal(symlink(f->home, link), 0);
	char *odd = xstrfmt("%s/sub/../link/.", f->tmp);
	setenv(HOTSWAP_ENV_HOME, odd, 1);
	assert_int_equal(discover(f), 0);
	assert_string_equal(f->tree.root, f->home);
	free(link);
	free(odd);
}

static void test_optional_parts_warn(void **state)
{
	struct fixture *f = *state;
	tu_copy(FX("intercept"), f->home, INTERCEPT, 0755);
	tu_copy(FX("core"), f->home, CORE, 0755);
	tu_copy(FX("rewrite"), f->home, HOTSWAP_REWRITE_PATH, 0755);
	tu_write(f->home, HOTSWAP_TREE_TOOLS_DIR "/" HOTSWAP_TOOL_LLC, "not executable\n", 0644);

	assert_int_equal(discover(f), 0);
	assert_true(f->tree.complete);
	assert_int_equal(part(&f->tree, HOTSWAP_TREE_TOOLS_DIR "/" HOTSWAP_TOOL_LLC)->status,
	                 PART_NOT_EXECUTABLE);
	assert_int_equal(part(&f->tree, HOTSWAP_TREE_TOOLS_DIR "/" HOTSWAP_TOOL_LD_LLD)->status,
	                 PART_MISSING);
	assert_int_equal(f->tree.warnings.nr, 5);
	char *want = xstrfmt("llvm-tools/llc: not executable (%s/llvm-tools/llc)", f->home);
	assert_string_equal(f->tree.warnings.v[0], want);
	free(want);
	want = xstrfmt("runtime/hotswap_py/sitecustomize.py: no such file "
	               "(%s/runtime/hotswap_py/sitecustomize.py)",
	               f->home);
	assert_string_equal(f->tree.warnings.v[4], want);
	free(want);
}

static void test_reference_complete(void **state)
{
	struct fixture *f = *state;
	tu_copy(FX("intercept"), f->home, INTERCEPT, 0755);
	tu_copy(FX("hsa"), f->home, HOTSWAP_TREE_LIB_DIR "/" HOTSWAP_REF_HSA_RUNTIME_ALT, 0755);
	tu_copy(FX("comgr"), f->home, HOTSWAP_TREE_LIB_DIR "/" HOTSWAP_REF_COMGR_ALT, 0755);
	stage_tools(f->home);

	assert_int_equal(discover(f), 0);
	assert_true(f->tree.complete);
	assert_int_equal(f->tree.flavour, HOTSWAP_FLAVOUR_REFERENCE);
	const struct hotswap_part *hsa =
	    part(&f->tree, hotswap_tree_parts[HOTSWAP_PART_REF_HSA_RUNTIME].label);
	char *want = xstrfmt("%s/lib/libhsa-runtime64.so.1", f->home);
	assert_string_equal(hsa->path, want);
	assert_string_equal(hsa->symbol, "hsa_init");
	assert_string_equal(
	    part(&f->tree, hotswap_tree_parts[HOTSWAP_PART_REF_COMGR].label)->symbol,
	    "amd_comgr_hotswap_rewrite");
	free(want);
	/* The reference flavour's intercept has no core to require. */
	for (size_t i = 0; i < f->tree.nparts; i++)
		assert_string_not_equal(f->tree.parts[i].name, CORE);
}

static void test_reference_half_staged(void **state)
{
	struct fixture *f = *state;
	struct strbuf msg = STRBUF_INIT, tip = STRBUF_INIT;
	tu_copy(FX("intercept"), f->home, INTERCEPT, 0755);
	tu_copy(FX("hsa"), f->home, HOTSWAP_REF_HSA_RUNTIME_PATH, 0755);

	assert_int_equal(discover(f), -1);
	assert_true(f->tree.found);
	assert_int_equal(f->tree.flavour, HOTSWAP_FLAVOUR_REFERENCE);
	assert_int_equal(part(&f->tree, hotswap_tree_parts[HOTSWAP_PART_REF_COMGR].label)->status,
	                 PART_MISSING);
	hotswap_format_problem(&f->tree, &msg, &tip);
	assert_non_null(strstr(msg.buf,
	                       "it looks like a reference tree (intercept + patched ROCr + "
	                       "COMGR)\nbroken or missing parts:\n  - "
	                       "lib/libamd_comgr.so[.3]: missing ('"));
	assert_null(strstr(msg.buf, "libhsa-runtime64.so[.1]: "));
	strbuf_release(&msg);
	strbuf_release(&tip);
}

static void test_text_library(void **state)
{
	struct fixture *f = *state;
	struct strbuf msg = STRBUF_INIT, tip = STRBUF_INIT;
	stage_native(f->home);
	tu_write(f->home, HOTSWAP_REWRITE_PATH, "INPUT(libfoo.so)\n", 0644);

	assert_int_equal(discover(f), -1);
	assert_true(f->tree.found);
	assert_false(f->tree.complete);
	assert_int_equal(f->tree.flavour, HOTSWAP_FLAVOUR_NATIVE);
	const struct hotswap_part *rw = part(&f->tree, HOTSWAP_REWRITE_PATH);
	assert_int_equal(rw->status, PART_NOT_ELF);
	assert_string_equal(rw->detail, "not an ELF file");
	assert_string_equal(hotswap_part_status_name(rw->status), "not-elf");
	hotswap_format_problem(&f->tree, &msg, &tip);
	char *line = xstrfmt("it looks like a native tree (intercept + libhotswap_rewrite.so)\n"
	                     "broken or missing parts:\n"
	                     "  - lib/libhotswap_rewrite.so: not-elf, not an ELF file "
	                     "('%s/lib/libhotswap_rewrite.so')\n",
	                     f->home);
	assert_non_null(strstr(msg.buf, line));
	free(line);
	strbuf_release(&msg);
	strbuf_release(&tip);
}

static void test_wrong_machine(void **state)
{
	struct fixture *f = *state;
	stage_native(f->home);
	tu_copy(FX("aarch64"), f->home, INTERCEPT, 0755);
	tu_copy(SELFTEST_CO, f->home, HOTSWAP_REWRITE_PATH, 0755);

	assert_int_equal(discover(f), -1);
	assert_true(f->tree.found);
	const struct hotswap_part *ic = part(&f->tree, INTERCEPT);
	const struct hotswap_part *rw = part(&f->tree, HOTSWAP_REWRITE_PATH);
	assert_int_equal(ic->status, PART_WRONG_MACHINE);
	assert_int_equal(rw->status, PART_WRONG_MACHINE);
	assert_string_equal(hotswap_part_status_name(ic->status), "wrong-machine");
#if defined(__x86_64__)
	assert_string_equal(ic->detail,
	                    "built for AArch64 64-bit, but mirage runs on x86-64 64-bit");
	assert_string_equal(rw->detail,
	                    "built for AMDGPU 64-bit, but mirage runs on x86-64 64-bit");
#else
	assert_non_null(strstr(ic->detail, "built for AArch64 64-bit, but mirage runs on "));
#endif
}

static void test_missing_symbol(void **state)
{
	struct fixture *f = *state;
	stage_native(f->home);
	tu_copy(FX("nosym"), f->home, HOTSWAP_REWRITE_PATH, 0755);
	/* A real ELF library, just not the intercept: it exports hs_rewrite, not OnLoad. */
	tu_copy(FX("rewrite"), f->home, INTERCEPT, 0755);

	assert_int_equal(discover(f), -1);
	assert_true(f->tree.found);
	assert_false(f->tree.complete);
	const struct hotswap_part *ic = part(&f->tree, INTERCEPT);
	const struct hotswap_part *rw = part(&f->tree, HOTSWAP_REWRITE_PATH);
	assert_int_equal(ic->status, PART_MISSING_SYMBOL);
	assert_string_equal(ic->detail, "does not export OnLoad (no defined symbol in .dynsym)");
	assert_int_equal(rw->status, PART_MISSING_SYMBOL);
	assert_string_equal(rw->detail,
	                    "does not export hs_rewrite (no defined symbol in .dynsym)");
	assert_string_equal(hotswap_part_status_name(rw->status), "missing-symbol");
}

/* A native tree without the intercept's core would run workloads unemulated: incomplete. */
static void test_native_without_core(void **state)
{
	struct fixture *f = *state;
	struct strbuf msg = STRBUF_INIT, tip = STRBUF_INIT;
	stage_native(f->home);
	char *core = xstrfmt("%s/" CORE, f->home);
	assert_int_equal(unlink(core), 0);

	assert_int_equal(discover(f), -1);
	assert_true(f->tree.found);
	assert_false(f->tree.complete);
	assert_int_equal(f->tree.flavour, HOTSWAP_FLAVOUR_NATIVE);
	const struct hotswap_part *c = part(&f->tree, CORE);
	assert_int_equal(c->status, PART_MISSING);
	assert_true(c->required);
	assert_string_equal(c->symbol, "hsi_core_get_api");
	assert_string_equal(c->path, core);
	assert_int_equal(part(&f->tree, HOTSWAP_REWRITE_PATH)->status, PART_OK);
	hotswap_format_problem(&f->tree, &msg, &tip);
	char *want = xstrfmt("it looks like a native tree (intercept + libhotswap_rewrite.so)\n"
	                     "broken or missing parts:\n"
	                     "  - " CORE ": missing ('%s')\n"
	                     "HotSwap is not one library",
	                     core);
	assert_non_null(strstr(msg.buf, want));
	free(want);
	free(core);
	strbuf_release(&msg);
	strbuf_release(&tip);
}

static void test_core_text_file(void **state)
{
	struct fixture *f = *state;
	struct strbuf msg = STRBUF_INIT, tip = STRBUF_INIT;
	stage_native(f->home);
	tu_write(f->home, CORE, "INPUT(libfoo.so)\n", 0644);

	assert_int_equal(discover(f), -1);
	assert_false(f->tree.complete);
	assert_int_equal(f->tree.flavour, HOTSWAP_FLAVOUR_NATIVE);
	const struct hotswap_part *c = part(&f->tree, CORE);
	assert_int_equal(c->status, PART_NOT_ELF);
	assert_string_equal(c->detail, "not an ELF file");
	hotswap_format_problem(&f->tree, &msg, &tip);
	char *line = xstrfmt("  - " CORE ": not-elf, not an ELF file ('%s/" CORE "')\n", f->home);
	assert_non_null(strstr(msg.buf, line));
	free(line);
	strbuf_release(&msg);
	strbuf_release(&tip);
}

static void test_core_missing_symbol(void **state)
{
	struct fixture *f = *state;
	stage_native(f->home);
	tu_copy(FX("nosym"), f->home, CORE, 0755);

	assert_int_equal(discover(f), -1);
	assert_false(f->tree.complete);
	assert_int_equal(f->tree.flavour, HOTSWAP_FLAVOUR_NATIVE);
	const struct hotswap_part *c = part(&f->tree, CORE);
	assert_int_equal(c->status, PART_MISSING_SYMBOL);
	assert_string_equal(c->detail,
	                    "does not export hsi_core_get_api (no defined symbol in .dynsym)");
	assert_int_equal(part(&f->tree, INTERCEPT)->status, PART_OK);
	assert_int_equal(part(&f->tree, HOTSWAP_REWRITE_PATH)->status, PART_OK);
}

/* Both flavours' files: native when our rewriter works, reference when only that one does. */
static void test_both_flavours(void **state)
{
	struct fixture *f = *state;
	stage_native(f->home);
	tu_copy(FX("hsa"), f->home, HOTSWAP_REF_HSA_RUNTIME_PATH, 0755);
	tu_copy(FX("comgr"), f->home, HOTSWAP_REF_COMGR_PATH, 0755);
	assert_int_equal(discover(f), 0);
	assert_int_equal(f->tree.flavour, HOTSWAP_FLAVOUR_NATIVE);

	tu_write(f->home, HOTSWAP_REWRITE_PATH, "text\n", 0644);
	assert_int_equal(discover(f), 0);
	assert_int_equal(f->tree.flavour, HOTSWAP_FLAVOUR_REFERENCE);

	/* A working rewriter without the core is no working native tree either. */
	tu_copy(FX("rewrite"), f->home, HOTSWAP_REWRITE_PATH, 0755);
	char *core = xstrfmt("%s/" CORE, f->home);
	assert_int_equal(unlink(core), 0);
	free(core);
	assert_int_equal(discover(f), 0);
	assert_int_equal(f->tree.flavour, HOTSWAP_FLAVOUR_REFERENCE);

	/* Neither works: reported as the native tree its rewriter says it is, core named. */
	tu_write(f->home, HOTSWAP_REF_COMGR_PATH, "text\n", 0644);
	assert_int_equal(discover(f), -1);
	assert_int_equal(f->tree.flavour, HOTSWAP_FLAVOUR_NATIVE);
	assert_int_equal(part(&f->tree, CORE)->status, PART_MISSING);
}

/* A reference tree never needs our core, even with an intercept that is ours by name. */
static void test_reference_without_core(void **state)
{
	struct fixture *f = *state;
	tu_copy(FX("intercept"), f->home, INTERCEPT, 0755);
	tu_copy(FX("hsa"), f->home, HOTSWAP_REF_HSA_RUNTIME_PATH, 0755);
	tu_copy(FX("comgr"), f->home, HOTSWAP_REF_COMGR_PATH, 0755);
	assert_int_equal(hotswap_check_root(f->home, &f->tree), 0);
	assert_true(f->tree.complete);
	assert_int_equal(f->tree.flavour, HOTSWAP_FLAVOUR_REFERENCE);
	for (size_t i = 0; i < f->tree.nparts; i++)
		assert_string_not_equal(f->tree.parts[i].name, CORE);
}

/* First hit wins, in docs/discovery.md's order, even when the hit is incomplete. */
static void test_search_order(void **state)
{
	struct fixture *f = *state;
	char *intree = xstrfmt("%s/build/hotswap", f->tmp);
	char *buildtree = xstrfmt("%s/x/hotswap", f->tmp);
	char *prefix = xstrfmt("%s/x/lib/mirage/hotswap", f->tmp);
	char *data_a = xstrfmt("%s/data/hotswap/a", f->tmp);
	char *data_b = xstrfmt("%s/data/hotswap/b", f->tmp);

	unsetenv(HOTSWAP_ENV_HOME);
	stage_native(data_b);
	tu_copy(FX("intercept"), data_a, INTERCEPT, 0755);
	assert_int_equal(discover(f), -1);
	assert_string_equal(f->tree.root, data_a);
	assert_string_equal(f->tree.found_by, "installed tree, $MIRAGE_DATA/hotswap/*");
	assert_int_equal(f->tree.nprobes, 4);

	tu_rmtree(data_a);
	assert_int_equal(discover(f), 0);
	assert_string_equal(f->tree.root, data_b);

	stage_native(prefix);
	assert_int_equal(discover(f), 0);
	assert_string_equal(f->tree.root, prefix);
	assert_string_equal(f->tree.found_by, "install prefix, <prefix>/lib/mirage/hotswap");

	stage_native(buildtree);
	assert_int_equal(discover(f), 0);
	assert_string_equal(f->tree.root, buildtree);
	assert_string_equal(f->tree.found_by, "build tree, <mirage dir>/../hotswap");

	stage_native(intree);
	assert_int_equal(discover(f), 0);
	assert_string_equal(f->tree.root, intree);
	assert_int_equal(f->tree.nprobes, 1);

	stage_native(f->home);
	setenv(HOTSWAP_ENV_HOME, f->home, 1);
	assert_int_equal(discover(f), 0);
	assert_true(f->tree.pinned);
	assert_string_equal(f->tree.root, f->home);
	assert_int_equal(f->tree.nprobes, 1);

	/* An empty HOTSWAP_HOME counts as unset. */
	setenv(HOTSWAP_ENV_HOME, "", 1);
	assert_int_equal(discover(f), 0);
	assert_string_equal(f->tree.root, intree);
	assert_string_equal(f->tree.probes[0].reason,
	                    "in-tree build, <mirage dir>/../../build/hotswap");
	free(intree);
	free(buildtree);
	free(prefix);
	free(data_a);
	free(data_b);
}

/* The verdict on a HOTSWAP_HOME without a tree, and the doctor line, for one root. */
static void expect_pinned(struct fixture *f, const char *root, const char *missing)
{
	struct strbuf msg = STRBUF_INIT, what = STRBUF_INIT, fix = STRBUF_INIT, tip = STRBUF_INIT;

	setenv(HOTSWAP_ENV_HOME, root, 1);
	assert_int_equal(discover(f), -1);
	assert_false(f->tree.found);
	assert_true(f->tree.pinned);
	assert_int_equal(f->tree.nprobes, 1);
	assert_string_equal(f->tree.probes[0].reason, HOTSWAP_ENV_HOME);
	assert_string_equal(f->tree.home_missing, missing);

	hotswap_format_problem(&f->tree, &msg, &tip);
	char *want = xstrfmt("HOTSWAP_HOME is set to '%s', but there is no HotSwap tree there: %s\n"
	                     "mirage looked for '%s/" INTERCEPT
	                     "' and, while HOTSWAP_HOME is set, nowhere else",
	                     root, missing, root);
	assert_string_equal(msg.buf, want);
	assert_string_equal(tip.buf, "point HOTSWAP_HOME at the root of a HotSwap tree (the "
	                             "directory holding " INTERCEPT
	                             "): export HOTSWAP_HOME=/abs/path/to/hotswap, or unset "
	                             "HOTSWAP_HOME to let mirage search its other locations");
	free(want);

	hotswap_format_not_found_line(&f->tree, &what, &fix);
	want = xstrfmt("HOTSWAP_HOME='%s' holds no HotSwap tree: %s", root, missing);
	assert_string_equal(what.buf, want);
	assert_string_equal(fix.buf, "point HOTSWAP_HOME at the root of a HotSwap tree (the "
	                             "directory holding " INTERCEPT
	                             "), or unset HOTSWAP_HOME to let mirage search its other "
	                             "locations");
	free(want);
	strbuf_release(&msg);
	strbuf_release(&tip);
	strbuf_release(&what);
	strbuf_release(&fix);
}

/*
 * A set HOTSWAP_HOME is the tree the user means: when it holds none, complete trees later in
 * the search order do not stand in for it, and the verdict says what is missing there.
 */
static void test_home_pinned(void **state)
{
	struct fixture *f = *state;
	char *prefix = xstrfmt("%s/x/lib/mirage/hotswap", f->tmp);
	char *intree = xstrfmt("%s/build/hotswap", f->tmp);
	char *file = xstrfmt("%s/file", f->tmp);

	stage_native(prefix);
	stage_native(intree);
	expect_pinned(f, f->home, "no such directory");
	tu_write(f->tmp, "file", "not a tree\n", 0644);
	expect_pinned(f, file, "it is not a directory");
	tu_mkdirs(f->home, "runtime");
	expect_pinned(f, f->home, "no lib/ directory in it");
	tu_mkdirs(f->home, "lib");
	expect_pinned(f, f->home, "no " INTERCEPT " in it");
	tu_mkdirs(f->home, INTERCEPT);
	expect_pinned(f, f->home, INTERCEPT " is not a regular file");

	/* The commonest slip: the tree's lib/ directory instead of its root. */
	char *want =
	    xstrfmt("it is a tree's lib/ directory, not its root: the root is '%s'", prefix);
	char *prefix_lib = xstrfmt("%s/lib", prefix);
	expect_pinned(f, prefix_lib, want);
	free(want);
	free(prefix_lib);

	/* Unset, the search finds the other trees again. */
	unsetenv(HOTSWAP_ENV_HOME);
	assert_int_equal(discover(f), 0);
	assert_false(f->tree.pinned);
	assert_string_equal(f->tree.root, intree);
	free(prefix);
	free(intree);
	free(file);
}

static void test_xdg_data_home(void **state)
{
	struct fixture *f = *state;
	char *xdg = xstrfmt("%s/xdg", f->tmp);
	char *root = xstrfmt("%s/mirage/hotswap/v1", xdg);
	unsetenv(MIRAGE_ENV_DATA);
	unsetenv(HOTSWAP_ENV_HOME);
	setenv("XDG_DATA_HOME", xdg, 1);
	stage_native(root);
	assert_int_equal(discover(f), 0);
	assert_string_equal(f->tree.root, root);
	assert_string_equal(f->tree.found_by, "installed tree, $XDG_DATA_HOME/mirage/hotswap/*");
	assert_int_equal(f->tree.nprobes, 4);
	free(xdg);
	free(root);
}

/* The predicate alone, as `hotswap install` would use it on a staged root. */
static void test_check_root(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(hotswap_check_root(f->home, &f->tree), -1);
	assert_false(f->tree.found);
	hotswap_tree_release(&f->tree);
	stage_native(f->home);
	assert_int_equal(hotswap_check_root(f->home, &f->tree), 0);
	assert_true(f->tree.complete);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
	    T(test_none),
	    T(test_intercept_only),
	    T(test_native_complete),
	    T(test_root_canonical),
	    T(test_optional_parts_warn),
	    T(test_reference_complete),
	    T(test_reference_half_staged),
	    T(test_text_library),
	    T(test_wrong_machine),
	    T(test_missing_symbol),
	    T(test_native_without_core),
	    T(test_core_text_file),
	    T(test_core_missing_symbol),
	    T(test_both_flavours),
	    T(test_reference_without_core),
	    T(test_search_order),
	    T(test_home_pinned),
	    T(test_xdg_data_home),
	    T(test_check_root),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
