/* Turns a discovery result into the "not installed", "HOTSWAP_HOME holds no tree" and
 * "incomplete" messages of docs/discovery.md. */
#include "hotswap_tree.h"

#include <string.h>

/* The multi-line "not installed" message: every probe with its driver, and the tips. */
static void hotswap_format_not_found(const struct hotswap_tree *tree, struct strbuf *out,
                                     struct strbuf *fix)
{
	size_t width = 0;

	strbuf_addstr(out,
	              "HotSwap is not installed, or mirage could not find " HOTSWAP_INTERCEPT_LIB
	              ".\nmirage looked in:");
	for (size_t i = 0; i < tree->nprobes; i++)
		if (strlen(tree->probes[i].path) > width)
			width = strlen(tree->probes[i].path);
	for (size_t i = 0; i < tree->nprobes; i++)
		strbuf_addf(out, "\n  - %-*s   (%s)", (int)width, tree->probes[i].path,
		            tree->probes[i].reason);
	if (!tree->nprobes)
		strbuf_addstr(out, "\n  (nowhere: no location applies)");
	strbuf_addstr(fix, "build it in-tree (cmake -DMIRAGE_BUILD_HOTSWAP=ON), install one with "
	                   "`mirage hotswap install URL`, or point " HOTSWAP_ENV_HOME
	                   " at a tree root: export " HOTSWAP_ENV_HOME "=/abs/path/to/hotswap");
}

/* The root HOTSWAP_HOME names, as probed (absolute, not normalised). */
static const char *pinned_root(const struct hotswap_tree *tree, struct strbuf *buf)
{
	const char *path = tree->nprobes ? tree->probes[0].path : "";
	size_t tail = strlen("/lib/" HOTSWAP_INTERCEPT_LIB);
	size_t len = strlen(path);

	strbuf_add(buf, path, len > tail ? len - tail : len);
	return buf->buf;
}

/* The fix for a HOTSWAP_HOME without a tree, in both messages. */
#define PINNED_FIX_POINT                                                                           \
	"point " HOTSWAP_ENV_HOME                                                                  \
	" at the root of a HotSwap tree (the directory holding " HOTSWAP_INTERCEPT_PATH ")"
#define PINNED_FIX_UNSET "unset " HOTSWAP_ENV_HOME " to let mirage search its other locations"

/* HOTSWAP_HOME is set, but holds no tree: say what is missing there; nothing else is probed. */
static void hotswap_format_pinned(const struct hotswap_tree *tree, struct strbuf *out,
                                  struct strbuf *fix)
{
	struct strbuf root = STRBUF_INIT;

	strbuf_addf(out, HOTSWAP_ENV_HOME " is set to '%s', but there is no HotSwap tree there: %s",
	            pinned_root(tree, &root), tree->home_missing ? tree->home_missing : "?");
	strbuf_addf(out,
	            "\nmirage looked for '%s' and, while " HOTSWAP_ENV_HOME " is set, nowhere else",
	            tree->nprobes ? tree->probes[0].path : "?");
	strbuf_addstr(fix, PINNED_FIX_POINT ": export " HOTSWAP_ENV_HOME "=/abs/path/to/hotswap, "
	                                    "or " PINNED_FIX_UNSET);
	strbuf_release(&root);
}

void hotswap_format_not_found_line(const struct hotswap_tree *tree, struct strbuf *what,
                                   struct strbuf *fix)
{
	struct strbuf root = STRBUF_INIT;

	if (tree->found)
		return;
	if (tree->pinned) {
		strbuf_addf(what, HOTSWAP_ENV_HOME "='%s' holds no HotSwap tree: %s",
		            pinned_root(tree, &root),
		            tree->home_missing ? tree->home_missing : "?");
		strbuf_addstr(fix, PINNED_FIX_POINT ", or " PINNED_FIX_UNSET);
	} else {
		strbuf_addf(what, "HotSwap is not installed: no %s in any of %zu locations",
		            HOTSWAP_INTERCEPT_LIB, tree->nprobes);
		strbuf_addstr(fix, "build it in-tree (cmake -DMIRAGE_BUILD_HOTSWAP=ON), `mirage "
		                   "hotswap install URL`, or export " HOTSWAP_ENV_HOME
		                   "=/abs/path/to/tree");
	}
	strbuf_release(&root);
}

static void add_part_line(struct strbuf *out, const struct hotswap_part *part, bool with_path)
{
	strbuf_addf(out, "\n  - %s: %s", part->name, hotswap_part_status_name(part->status));
	if (part->status != PART_MISSING && part->detail)
		strbuf_addf(out, ", %s", part->detail);
	if (with_path)
		strbuf_addf(out, " ('%s')", part->path);
}

void hotswap_format_parts(const struct hotswap_tree *tree, bool with_paths, struct strbuf *out)
{
	switch (tree->flavour) {
	case HOTSWAP_FLAVOUR_NATIVE:
		strbuf_addstr(out, "\nit looks like a native tree (intercept + " HOTSWAP_REWRITE_LIB
		                   ")");
		break;
	case HOTSWAP_FLAVOUR_REFERENCE:
		strbuf_addstr(
		    out, "\nit looks like a reference tree (intercept + patched ROCr + COMGR)");
		break;
	case HOTSWAP_FLAVOUR_NONE:
		strbuf_addf(out,
		            "\nit looks like neither flavour: a native tree needs %s and %s,"
		            "\na reference tree needs %s and %s",
		            hotswap_tree_parts[HOTSWAP_PART_REWRITE].label,
		            hotswap_tree_parts[HOTSWAP_PART_INTERCEPT_CORE].label,
		            hotswap_tree_parts[HOTSWAP_PART_REF_HSA_RUNTIME].label,
		            hotswap_tree_parts[HOTSWAP_PART_REF_COMGR].label);
		break;
	}
	strbuf_addstr(out, "\nbroken or missing parts:");
	for (size_t i = 0; i < tree->nparts; i++)
		if (tree->parts[i].required && tree->parts[i].status != PART_OK)
			add_part_line(out, &tree->parts[i], with_paths);
}

/* The multi-line "incomplete" message: directory, flavour, each broken part. */
static void hotswap_format_incomplete(const struct hotswap_tree *tree, struct strbuf *out,
                                      struct strbuf *fix)
{
	strbuf_addf(out, "the HotSwap tree at '%s' is incomplete", tree->root ? tree->root : "?");
	if (tree->found_by)
		strbuf_addf(out, " (found through %s)", tree->found_by);
	strbuf_addch(out, ';');
	hotswap_format_parts(tree, true, out);
	strbuf_addstr(out,
	              "\nHotSwap is not one library: the intercept needs its rewriter next to it,"
	              " or the\nworkload would run unemulated.");
	strbuf_addstr(fix, "rebuild the in-tree tree (cmake --build build), reinstall it with "
	                   "`mirage hotswap install URL`, or point " HOTSWAP_ENV_HOME
	                   " at a complete tree root");
}

void hotswap_format_problem(const struct hotswap_tree *tree, struct strbuf *out, struct strbuf *fix)
{
	if (!tree->found && tree->pinned)
		hotswap_format_pinned(tree, out, fix);
	else if (!tree->found)
		hotswap_format_not_found(tree, out, fix);
	else if (!tree->complete)
		hotswap_format_incomplete(tree, out, fix);
	strbuf_rtrim(out); /* callers embed it in a message of their own */
}
