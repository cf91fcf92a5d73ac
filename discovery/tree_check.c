/* The one completeness predicate for a HotSwap tree: which flavour it is and whether every part
 * works. */
#include "elf_check.h"
#include "hotswap_tree.h"
#include "tree_tools.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The rows of the contract's table (hotswap_contract.c), the one list of a tree's parts. */
#define ROW(id) (&hotswap_tree_parts[id])

static bool is_file(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static char *part_path(const char *root, const struct hotswap_part_row *spec)
{
	char *path = xstrfmt("%s/%s", root, spec->path);
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

static bool part_present(const char *root, enum hotswap_part_id id)
{
	char *path = part_path(root, ROW(id));
	bool ok = is_file(path);
	free(path);
	return ok;
}

static void check_part(struct hotswap_tree *tree, enum hotswap_part_id id)
{
	const struct hotswap_part_row *spec = ROW(id);
	struct strbuf detail = STRBUF_INIT;
	struct hotswap_part *part;

	tree->parts = xrealloc(tree->parts, (tree->nparts + 1) * sizeof(*tree->parts));
	part = &tree->parts[tree->nparts++];
	memset(part, 0, sizeof(*part));
	part->id = id;
	part->name = spec->label;
	part->symbol = spec->symbol;
	part->required = spec->required;
	part->path = part_path(tree->root, spec);

	if (spec->kind == HOTSWAP_PART_TOOL) {
		enum tree_tool_state state = tree_tool_state(part->path);
		if (state == TREE_TOOL_MISSING) {
			part->status = PART_MISSING;
			strbuf_addstr(&detail, "no such file");
		} else if (state == TREE_TOOL_NOT_EXECUTABLE) {
			part->status = PART_NOT_EXECUTABLE;
			strbuf_addstr(&detail, "not executable");
		}
	} else if (spec->kind == HOTSWAP_PART_LIBRARY) {
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

/* A flavour's parts beyond the intercept, in table order (native: our rewriter, the core). */
static void check_parts_of(struct hotswap_tree *tree, enum hotswap_flavour flavour)
{
	for (size_t id = 0; id < HOTSWAP_PART_COUNT; id++)
		if (ROW(id)->flavour == flavour)
			check_part(tree, (enum hotswap_part_id)id);
}

static void check_flavour_parts(struct hotswap_tree *tree)
{
	size_t base = tree->nparts;
	bool native = part_present(tree->root, HOTSWAP_PART_REWRITE);
	bool reference = part_present(tree->root, HOTSWAP_PART_REF_HSA_RUNTIME) ||
	                 part_present(tree->root, HOTSWAP_PART_REF_COMGR);

	/*
	 * A tree holding both flavours' files is native if our rewriter and the
	 * intercept's core work (stock ROCr is the simpler path), else reference
	 * if that one works.  "Native" is keyed on the rewriter alone, so a
	 * native tree that lost its core is an incomplete native tree.
	 */
	if (native) {
		check_parts_of(tree, HOTSWAP_FLAVOUR_NATIVE);
		tree->flavour = HOTSWAP_FLAVOUR_NATIVE;
		if (parts_ok(tree, base) || !reference)
			return;
		drop_parts(tree, base);
	}
	if (reference) {
		check_parts_of(tree, HOTSWAP_FLAVOUR_REFERENCE);
		tree->flavour = HOTSWAP_FLAVOUR_REFERENCE;
		if (parts_ok(tree, base) || !native)
			return;
		/* Neither works: describe it as native, which is what its rewriter says it is. */
		drop_parts(tree, base);
		check_parts_of(tree, HOTSWAP_FLAVOUR_NATIVE);
		tree->flavour = HOTSWAP_FLAVOUR_NATIVE;
		return;
	}
	/* Only the intercept: looks like neither, so list what either flavour would need. */
	tree->flavour = HOTSWAP_FLAVOUR_NONE;
	check_parts_of(tree, HOTSWAP_FLAVOUR_NATIVE);
	check_parts_of(tree, HOTSWAP_FLAVOUR_REFERENCE);
}

int hotswap_check_root(const char *root, struct hotswap_tree *out)
{
	char *canon = realpath(root, NULL);

	free(out->root);
	free(out->lib_dir);
	out->root = canon ? canon : xstrdup(root);
	out->lib_dir = xstrfmt("%s/" HOTSWAP_TREE_LIB_DIR, out->root);

	check_part(out, HOTSWAP_PART_INTERCEPT);
	out->found = out->parts[0].status != PART_MISSING;
	check_flavour_parts(out);
	/* The optional parts every tree may have: the cross-family tools, the python runtime. */
	for (size_t id = 0; id < HOTSWAP_PART_COUNT; id++)
		if (ROW(id)->flavour == HOTSWAP_FLAVOUR_NONE && !ROW(id)->required)
			check_part(out, (enum hotswap_part_id)id);

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
