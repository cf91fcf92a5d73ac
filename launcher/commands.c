/* The one table of every mirage command; help, parsing and completions all walk it. */
#include "command.h"

#include <string.h>

const struct exit_status exit_statuses[] = {
    {EXIT_OK, "ok"},
    {EXIT_ERROR, "mirage failed: what the command line names cannot be used (a missing file or "
                 "profile, an object it cannot rewrite, a workload it cannot start); the message "
                 "says why and how to fix it"},
    {EXIT_USAGE, "a bad command line: an unknown command or flag, a missing argument, a malformed "
                 "value (also in a profile or launch file mirage is given to read), a source and "
                 "target without a route, a declined confirmation"},
    {EXIT_PARTIAL, "done, but partially: `rewrite` translated some kernels and wrote each kernel "
                   "it refused as an entry that traps (the report names them and why; "
                   "--all-kernels refuses the whole object instead)"},
    {0, NULL},
};
const char exit_status_run[] = "`mirage run` exits with the workload's own status: 128+N if "
                               "signal N killed it, 127 if the command was not found, 126 if it "
                               "is not executable";

extern const struct cmd_entry cmd_profile_entry;
extern const struct cmd_entry cmd_profile_create_entry;
extern const struct cmd_entry cmd_profile_list_entry;
extern const struct cmd_entry cmd_profile_show_entry;
extern const struct cmd_entry cmd_profile_edit_entry;
extern const struct cmd_entry cmd_profile_delete_entry;
extern const struct cmd_entry cmd_profile_export_entry;
extern const struct cmd_entry cmd_profile_import_entry;
extern const struct cmd_entry cmd_profile_copy_entry;
extern const struct cmd_entry cmd_profile_rename_entry;
extern const struct cmd_entry cmd_run_entry;
extern const struct cmd_entry cmd_rewrite_entry;
extern const struct cmd_entry cmd_raise_entry;
extern const struct cmd_entry cmd_emulate_entry;
extern const struct cmd_entry cmd_doctor_entry;
extern const struct cmd_entry cmd_emulators_entry;
extern const struct cmd_entry cmd_paths_entry;
extern const struct cmd_entry cmd_inspect_entry;
extern const struct cmd_entry cmd_hotswap_entry;
extern const struct cmd_entry cmd_hotswap_install_entry;
extern const struct cmd_entry cmd_hotswap_list_entry;
extern const struct cmd_entry cmd_hotswap_remove_entry;
extern const struct cmd_entry cmd_cache_entry;
extern const struct cmd_entry cmd_cache_stats_entry;
extern const struct cmd_entry cmd_cache_verify_entry;
extern const struct cmd_entry cmd_cache_prune_entry;
extern const struct cmd_entry cmd_cache_clear_entry;
extern const struct cmd_entry cmd_cache_warm_entry;
extern const struct cmd_entry cmd_completions_entry, cmd_complete_entry;
extern const struct cmd_entry cmd_help_entry, cmd_man_entry;

const struct cmd_entry *const command_table[] = {
    &cmd_profile_entry,
    &cmd_profile_create_entry,
    &cmd_profile_list_entry,
    &cmd_profile_show_entry,
    &cmd_profile_edit_entry,
    &cmd_profile_delete_entry,
    &cmd_profile_export_entry,
    &cmd_profile_import_entry,
    &cmd_profile_copy_entry,
    &cmd_profile_rename_entry,
    &cmd_run_entry,
    &cmd_rewrite_entry,
    &cmd_raise_entry,
    &cmd_emulate_entry,
    &cmd_inspect_entry,
    &cmd_doctor_entry,
    &cmd_emulators_entry,
    &cmd_paths_entry,
    &cmd_hotswap_entry,
    &cmd_hotswap_install_entry,
    &cmd_hotswap_list_entry,
    &cmd_hotswap_remove_entry,
    &cmd_cache_entry,
    &cmd_cache_warm_entry,
    &cmd_cache_stats_entry,
    &cmd_cache_verify_entry,
    &cmd_cache_prune_entry,
    &cmd_cache_clear_entry,
    &cmd_completions_entry,
    &cmd_help_entry,
    &cmd_complete_entry,
    &cmd_man_entry,
    NULL,
};

const struct cmd_entry *command_find(const char *parent, const char *name)
{
	for (size_t i = 0; command_table[i]; i++) {
		const struct cmd_entry *c = command_table[i];
		if (strcmp(c->name, name))
			continue;
		if (parent ? (c->parent && !strcmp(c->parent, parent)) : !c->parent)
			return c;
	}
	return NULL;
}
