/*
 * Backend validation for profile create/edit/import: a hotswap profile needs a
 * complete tree whose paths the contract can hand to a workload.
 */
#include "profile_validate.h"

#include "env_contract.h"
#include "hotswap_tree.h"

#include <stdlib.h>
#include <string.h>

int profile_validate_backend(const struct profile *p, const char *self_exe, struct diag *err)
{
	struct hotswap_tree tree = HOTSWAP_TREE_INIT;
	int ret = 0;

	if (!profile_is_hotswap(p))
		return 0;
	/* The same predicate `run`, `doctor` and `emulators` use, so they never disagree. */
	if (hotswap_discover(&(struct discover_opts){.self_exe = self_exe}, &tree) < 0) {
		struct strbuf msg = STRBUF_INIT, fix = STRBUF_INIT;
		hotswap_format_problem(&tree, &msg, &fix);
		ret = diag_set(err, "cannot use the hotswap emulator for profile '%s':\n%s",
		               p->name, msg.buf);
		diag_hint(err, "%s", fix.buf);
		strbuf_release(&msg);
		strbuf_release(&fix);
	} else if (contract_check_paths(&tree, err) < 0) {
		/* A tree `run` would refuse to inject is no more usable than a missing one. */
		char *why = strbuf_detach(&err->msg, NULL);
		ret = diag_set(err, "cannot use the hotswap emulator for profile '%s': %s", p->name,
		               why);
		free(why);
	}
	hotswap_tree_release(&tree);
	return ret;
}

void probe_rows(const struct hotswap_tree *tree, struct strvec *rows)
{
	int width = 0;
	for (size_t i = 0; i < tree->nprobes; i++)
		if ((int)strlen(tree->probes[i].path) > width)
			width = (int)strlen(tree->probes[i].path);
	for (size_t i = 0; i < tree->nprobes; i++)
		strvec_pushf(rows, "%-*s   (%s)", width, tree->probes[i].path,
		             tree->probes[i].reason);
}
