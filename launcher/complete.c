/* The shells mirage completes, the dispatch to their generators (complete_<shell>.c), and the
 * candidates the scripts ask for. */
#include "complete.h"

#include "complete_internal.h"

#include "gfx_table.h"
#include "hotswap_tree.h"
#include "profile.h"
#include "profile_store.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

const char *const comp_shell_names[] = {"bash", "zsh", "fish", NULL};

int comp_shell_from_name(const char *name)
{
	for (int i = 0; comp_shell_names[i]; i++)
		if (!strcmp(comp_shell_names[i], name))
			return i;
	return -1;
}

void comp_generate(enum comp_shell shell, struct strbuf *out)
{
	switch (shell) {
	case COMP_BASH:
		comp_gen_bash(out);
		break;
	case COMP_ZSH:
		comp_gen_zsh(out);
		break;
	case COMP_FISH:
		comp_gen_fish(out);
		break;
	}
}

/* ---------------------------------------------------------------- candidates */

int comp_candidates(const char *kind, const char *which, struct strvec *out)
{
	if (!strcmp(kind, "profiles")) {
		struct diag err = DIAG_INIT;
		/* A missing or unreadable store has no names to offer; that is not worth a message
		 * here. */
		profile_list(out, &err);
		diag_release(&err);
		return 0;
	}
	if (!strcmp(kind, "trees")) {
		char *dir = hotswap_trees_dir();
		hotswap_installed_names(dir, out); /* none installed: nothing to offer */
		free(dir);
		return 0;
	}
	if (!strcmp(kind, "profile-keys")) {
		for (size_t i = 0; i < PK_COUNT; i++)
			strvec_push_nodup(out, xstrfmt("%s=", profile_keys[i].name));
		strvec_push(out, "env.");
		return 0;
	}
	if (!strcmp(kind, "schedules")) {
		strvec_push(out, "deterministic");
		strvec_push(out, "shuffle:");
		return 0;
	}
	if (!strcmp(kind, "emulators")) {
		strvec_pushv(out, profile_emulators);
		return 0;
	}
	if (!strcmp(kind, "shells")) {
		strvec_pushv(out, comp_shell_names);
		return 0;
	}
	if (!strcmp(kind, "gfx")) {
		size_t n;
		const struct gfx_info *t = gfx_table(&n);
		bool targets = which && !strcmp(which, "targets");
		bool sources = which && !strcmp(which, "sources");
		if (which && !targets && !sources)
			return -1;
		for (size_t i = 0; i < n; i++) {
			if (targets && t[i].retarget == GFX_RETARGET_NONE)
				continue;
			if (sources && t[i].is_generic)
				continue;
			strvec_push(out, t[i].name);
		}
		return 0;
	}
	return -1;
}
