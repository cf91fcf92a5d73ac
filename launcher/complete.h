/*
 * Shell completion scripts generated from command_table (after git's
 * --git-completion-helper and curl's completion.pl): one walk of the table
 * per shell, so a new command or flag is completed without touching this.
 */
#ifndef MIRAGE_COMPLETE_H
#define MIRAGE_COMPLETE_H

#include "strbuf.h"
#include "strvec.h"

enum comp_shell {
	COMP_BASH,
	COMP_ZSH,
	COMP_FISH,
};

/* "bash", "zsh", "fish", NULL: the names `mirage completions` accepts. */
extern const char *const comp_shell_names[];

/* Finds a shell by name; -1 when unknown. */
int comp_shell_from_name(const char *name);

/* Appends the whole completion script for shell to out. */
void comp_generate(enum comp_shell shell, struct strbuf *out);

/*
 * Appends the candidates of `mirage __complete KIND [WHICH]` to out:
 * "profiles" (stored names), "emulators", "shells", "gfx [sources|targets]".
 * Cheap on purpose (no LLVM, no GPU scan): shells run it on every TAB.
 * Returns 0, or -1 for an unknown kind.
 */
int comp_candidates(const char *kind, const char *which, struct strvec *out);

#endif
