/* The one completeness predicate for a HotSwap tree: which flavour it is and whether every part
 * works. */
#include "elf_check.h"
#include "hotswap_tree.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A part of the tree; alt is the versioned file accepted in its place (".so.1"). */
struct part_spec {
	const char *label; /* how messages name it */
	const char *name;
	const char *alt;
	const char *symbol;
	bool required;
	bool tool; /* an executable, not a library */
};

static const struct part_spec intercept_spec = {
    "lib/" HOTSWAP_INTERCEPT_LIB, "lib/" HOTSWAP_INTERCEPT_LIB, NULL, "OnLoad", true, false};
static const struct part_spec native_spec = {
    "lib/" HOTSWAP_REWRITE_LIB, "lib/" HOTSWAP_REWRITE_LIB, NULL, "hs_rewrite", true, false};
/*
 * Our intercept is a libc-only shim that dlopen()s its core at OnLoad; without the core it only
 * warns and the workload runs unemulated, so a native tree needs it.  The reference flavour's
 * intercept has no core.
 */
static const struct part_spec core_spec = {"lib/" HOTSWAP_INTERCEPT_CORE_LIB,
                                           "lib/" HOTSWAP_INTERCEPT_CORE_LIB,
                                           NULL,
                                           "hsi_core_get_api",
                                           true,
                                           false};
/* The patched ROCr and COMGR of the reference flavour; their names are those the reference stages.
 */
static const struct part_spec reference_specs[] = {
    {"lib/libhsa-runtime64.so[.1]", "lib/libhsa-runtime64.so", "lib/libhsa-runtime64.so.1",
     "hsa_init", true, false},
    {"lib/libamd_comgr.so[.3]", "lib/libamd_comgr.so", "lib/libamd_comgr.so.3",
     "amd_comgr_hotswap_rewrite", true, false},
};
/* Optional parts: the cross-family transpiler shells out to these, and python adapters need the
 * runtime. */
static const struct part_spec optional_specs[] = {
    {"llvm-tools/llc", "llvm-tools/llc", NULL, NULL, false, true},
    {"llvm-tools/llvm-mc", "llvm-tools/llvm-mc", NULL, NULL, false, true},
    {"llvm-tools/lld", "llvm-tools/lld", NULL, NULL, false, true},
    {"llvm-tools/ld.lld", "llvm-tools/ld.lld", NULL, NULL, false, true},
    {"runtime/hotswap_py/sitecustomize.py", "runtime/hotswap_py/sitecustomize.py", NULL, NULL,
     false, false},
};

static bool is_file(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static char *part_path(const char *root, const struct part_spec *spec)
{
	char *path = xstrfmt("%s/%s", root, spec->name);
	if (spec->alt && !is_file(path)) {
		char *alt = xstrfmt("%s/%s", root, spec->alt);
		if (is_file(alt)) {
			free(path);
			return alt;
		}
		free(alt);
	}
	return path;
}

static bool part_present(const char *root, const struct part_spec *spec)
{
	char *path = part_path(root, spec);
	bool ok = is_file(path);
	free(path);
	return ok;
}

static void check_part(struct hotswap_tree *tree, const struct part_spec *spec)
{
	struct strbuf detail = STRBUF_INIT;
	struct hotswap_part *part;

	tree->parts = xrealloc(tree->parts, (tree->nparts + 1) * sizeof(*tree->parts));
	part = &tree->parts[tree->nparts++];
	memset(part, 0, sizeof(*part));
	part->name = spec->label;
	part->symbol = spec->symbol;
	part->required = spec->required;
	part->path = part_path(tree->root, spec);

	if (spec->tool) {
		struct stat st;
		if (stat(part->path, &st) || !S_ISREG(st.st_mode)) {
			part->status = PART_MISSING;
			strbuf_addstr(&detail, "no such file");
		} else if (access(part->path, X_OK)) {
			part->status = PART_NOT_EXECUTABLE;
			strbuf_addstr(&detail, "not executable");
		}
	} else if (!strncmp(spec->name, "lib/", 4)) {
		part->status = elf_check_shared_object(part->path, spec->symbol, &detail);
	} else if (!is_file(part->path)) {
		part->status = PART_MISSING;
		strbuf_addstr(&detail, "no such file");
	}

	if (part->status != PART_OK) {
		part->detail = strbuf_detach(&detail, NULL);
		if (!part->required)
			strvec_pushf(&tree->warnings, "%s: %s (%s)", part->name, part->detail,
			             part->path);
	}
	strbuf_release(&detail);
}

static bool parts_ok(const struct hotswap_tree *tree, size_t from)
{
	for (size_t i = from; i < tree->nparts; i++)
		if (tree->parts[i].required && tree->parts[i].status != PART_OK)
			return false;
	return true;
}

/* Drops parts[from..] so a flavour that did not fit can be replaced by the other. */
static void drop_parts(struct hotswap_tree *tree, size_t from)
{
	while (tree->nparts > from) {
		struct hotswap_part *p = &tree->parts[--tree->nparts];
		free(p->path);
		free(p->detail);
	}
}

/* The native flavour's parts beyond the intercept: our rewriter and the intercept's core. */
static void check_native_parts(struct hotswap_tree *tree)
{
	check_part(tree, &native_spec);
	check_part(tree, &core_spec);
}

static void check_flavour_parts(struct hotswap_tree *tree)
{
	size_t base = tree->nparts;
	bool native = part_present(tree->root, &native_spec);
	bool reference = part_present(tree->root, &reference_specs[0]) ||
	                 part_present(tree->root, &reference_specs[1]);

	/*
	 * A tree holding both flavours' files is native if our rewriter and the
	 * intercept's core work (stock ROCr is the simpler path), else reference
	 * if that one works.  "Native" is keyed on the rewriter alone, so a
	 * native tree that lost its core is an incomplete native tree.
	 */
	if (native) {
		check_native_parts(tree);
		tree->flavour = HOTSWAP_FLAVOUR_NATIVE;
		if (parts_ok(tree, base) || !reference)
			return;
		drop_parts(tree, base);
	}
	if (reference) {
		check_part(tree, &reference_specs[0]);
		check_part(tree, &reference_specs[1]);
		tree->flavour = HOTSWAP_FLAVOUR_REFERENCE;
		if (parts_ok(tree, base) || !native)
			return;
		/* Neither works: describe it as native, which is what its rewriter says it is. */
		drop_parts(tree, base);
		check_native_parts(tree);
		tree->flavour = HOTSWAP_FLAVOUR_NATIVE;
		return;
	}
	/* Only the intercept: looks like neither, so list what either flavour would need. */
	tree->flavour = HOTSWAP_FLAVOUR_NONE;
	check_native_parts(tree);
	check_part(tree, &reference_specs[0]);
	check_part(tree, &reference_specs[1]);
}

int hotswap_check_root(const char *root, struct hotswap_tree *out)
{
	char *canon = realpath(root, NULL);

	free(out->root);
	free(out->lib_dir);
	out->root = canon ? canon : xstrdup(root);
	out->lib_dir = xstrfmt("%s/lib", out->root);

	check_part(out, &intercept_spec);
	out->found = out->parts[0].status != PART_MISSING;
	check_flavour_parts(out);
	for (size_t i = 0; i < sizeof(optional_specs) / sizeof(optional_specs[0]); i++)
		check_part(out, &optional_specs[i]);

	out->complete = out->flavour != HOTSWAP_FLAVOUR_NONE && parts_ok(out, 0);
	return out->complete ? 0 : -1;
}

const char *hotswap_flavour_name(enum hotswap_flavour flavour)
{
	switch (flavour) {
	case HOTSWAP_FLAVOUR_NATIVE:
		return "native";
	case HOTSWAP_FLAVOUR_REFERENCE:
		return "reference";
	case HOTSWAP_FLAVOUR_NONE:
		break;
	}
	return "unknown";
}

const char *hotswap_part_status_name(enum hotswap_part_status status)
{
	static const char *const names[] = {
	    [PART_OK] = "ok",
	    [PART_MISSING] = "missing",
	    [PART_NOT_ELF] = "not-elf",
	    [PART_WRONG_MACHINE] = "wrong-machine",
	    [PART_MISSING_SYMBOL] = "missing-symbol",
	    [PART_NOT_EXECUTABLE] = "not-executable",
	};
	if ((size_t)status < sizeof(names) / sizeof(names[0]) && names[status])
		return names[status];
	return "unknown";
}
