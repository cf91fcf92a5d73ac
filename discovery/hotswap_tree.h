/*
 * Finding a HotSwap tree and deciding whether it is complete: the ONE
 * predicate behind `profile create` validation, `doctor`, `emulators` and the
 * environment `mirage run` injects, so they can never disagree.
 *
 * Usage:
 *	struct hotswap_tree tree = HOTSWAP_TREE_INIT;
 *	hotswap_discover(&(struct discover_opts){.self_exe = exe}, &tree);
 *	if (!tree.complete) {
 *		struct strbuf msg = STRBUF_INIT;
 *		hotswap_format_problem(&tree, &msg, &fix);   // what is wrong, how to fix it
 *		...
 *	}
 *	hotswap_tree_release(&tree);
 *
 * Everything in a struct hotswap_tree is owned by it and freed by
 * hotswap_tree_release().  Reads files and ELF headers only: never dlopen()s.
 * Uses strbuf/strvec, so it is for the launcher (allocation failure aborts).
 */
#ifndef MIRAGE_HOTSWAP_TREE_H
#define MIRAGE_HOTSWAP_TREE_H

#include "hotswap_contract.h" /* the tree's names, enum hotswap_flavour, the parts table */
#include "strbuf.h"
#include "strvec.h"

#include <stdbool.h>
#include <stddef.h>

enum hotswap_part_status {
	PART_OK = 0,
	PART_MISSING,        /* no such file (or not a regular file) */
	PART_NOT_ELF,        /* not an ELF file, unreadable, or not a shared object */
	PART_WRONG_MACHINE,  /* an ELF shared object for another machine/class/byte order */
	PART_MISSING_SYMBOL, /* loads here but does not define its entry point in .dynsym */
	PART_NOT_EXECUTABLE, /* a tool that exists but is not executable */
};

/* One file of the tree and its verdict. */
struct hotswap_part {
	enum hotswap_part_id id; /* its row in hotswap_tree_parts[] */
	const char *name;        /* "lib/libhotswap_rewrite.so", relative to the root (static) */
	const char *symbol;      /* entry point it must export, or NULL (static) */
	char *path;              /* absolute path looked at (the one found for [.so|.so.N] pairs) */
	bool required;           /* false: a problem is a warning, not incompleteness */
	enum hotswap_part_status status;
	char *detail; /* why it is not ok ("ELF for AArch64, mirage runs on x86-64"); NULL if ok */
};

/* One location the search looked at, in search order. */
struct hotswap_probe {
	char *path;   /* absolute path of the intercept candidate, not normalised */
	char *reason; /* what drives it: "HOTSWAP_HOME", "build tree, <mirage dir>/../hotswap" */
	bool exists;  /* a regular file is there (this probe is the hit if it is the first) */
};

struct hotswap_tree {
	bool found;                   /* an intercept was found: root/lib_dir/found_by are set */
	bool complete;                /* every required part is PART_OK */
	enum hotswap_flavour flavour; /* the flavour it is (complete) or looks like (incomplete) */
	char *root;                   /* absolute, canonical root (parent of lib/) */
	char *lib_dir;                /* <root>/lib */
	const char *found_by;         /* reason of the winning probe (points into probes[]) */
	/*
	 * HOTSWAP_HOME was set: a user who sets it means that tree, so it was the only probe
	 * and no other location can stand in for it.  When nothing was found there, home_missing
	 * says what is missing ("no such directory", ...).
	 */
	bool pinned;
	char *home_missing;
	struct hotswap_probe *probes;
	size_t nprobes;
	struct hotswap_part *parts; /* intercept first, then flavour libraries, tools, python */
	size_t nparts;
	struct strvec warnings; /* problems with optional parts, one line each */
};

#define HOTSWAP_TREE_INIT                                                                          \
	{                                                                                          \
		.warnings = STRVEC_INIT                                                            \
	}

struct discover_opts {
	/* Path of the running mirage binary; NULL means readlink(/proc/self/exe). */
	const char *self_exe;
};

/*
 * Searches the locations of docs/discovery.md in order (first hit wins), recording
 * every probe, then checks the tree found with hotswap_check_root().  A set
 * HOTSWAP_HOME is the only location probed (out->pinned).  *out must be
 * HOTSWAP_TREE_INIT or released.  Returns 0 when a complete tree was found, -1
 * otherwise (out says why; release it either way).
 */
int hotswap_discover(const struct discover_opts *opts, struct hotswap_tree *out);

/*
 * The completeness predicate on one root: fills flavour, parts, complete and
 * warnings (found is set when the intercept exists).  Returns 0 if complete,
 * -1 otherwise.
 */
int hotswap_check_root(const char *root, struct hotswap_tree *out);

/* Frees everything in tree and resets it to HOTSWAP_TREE_INIT. */
void hotswap_tree_release(struct hotswap_tree *tree);

/* <data>/hotswap, where `mirage hotswap install` puts trees; caller frees. */
char *hotswap_trees_dir(void);
/*
 * Appends the names of the trees installed in dir (hotswap_trees_dir()): its
 * directories, sorted, the order discovery probes them in, without the
 * installer's dot-named temp and trash directories.  Returns 0 (also when dir
 * does not exist yet) or -1 with errno.
 */
int hotswap_installed_names(const char *dir, struct strvec *names);

/* "native", "reference", or "unknown". */
const char *hotswap_flavour_name(enum hotswap_flavour flavour);
/* "ok", "missing", "not-elf", "wrong-machine", "missing-symbol", "not-executable". */
const char *hotswap_part_status_name(enum hotswap_part_status status);

/*
 * Appends the multi-line message for a tree that is not complete to out: when none was
 * found, every probe with its driver (or, pinned, what HOTSWAP_HOME lacks); when one was,
 * its directory, flavour and each broken part; no trailing newline.  The one-line fix goes
 * to fix, for the caller's hint.  Nothing when the tree is complete.
 */
void hotswap_format_problem(const struct hotswap_tree *tree, struct strbuf *out,
                            struct strbuf *fix);
/*
 * The one-line verdict on a search that found no tree, and its fix (doctor's FAIL line,
 * `emulators -l`): "HotSwap is not installed: ..." or, pinned, "HOTSWAP_HOME ...".
 * Nothing when a tree was found.
 */
void hotswap_format_not_found_line(const struct hotswap_tree *tree, struct strbuf *what,
                                   struct strbuf *fix);
/*
 * The part of that message about a found but incomplete tree that callers
 * with a heading of their own share: "\nit looks like <flavour>", then
 * "\nbroken or missing parts:" and one "\n  - <part>: <status>" line per
 * broken required part, each with its path when with_paths.
 */
void hotswap_format_parts(const struct hotswap_tree *tree, bool with_paths, struct strbuf *out);

#endif
