/* The one table of every mirage command; help, parsing and completions all walk it. */
#include "command.h"

#include <string.h>

extern const struct cmd_entry cmd_profile_entry;
extern const struct cmd_entry cmd_profile_create_entry;
extern const struct cmd_entry cmd_profile_list_entry;
extern const struct cmd_entry cmd_profile_show_entry;
extern const struct cmd_entry cmd_profile_edit_entry;
extern const struct cmd_entry cmd_profile_delete_entry;
extern const struct cmd_entry cmd_profile_export_entry;
extern const struct cmd_entry cmd_profile_import_entry;
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
extern const struct cmd_entry cmd_completions_entry, cmd_complete_entry;

const struct cmd_entry *const command_table[] = {
    &cmd_profile_entry,
    &cmd_profile_create_entry,
    &cmd_profile_list_entry,
    &cmd_profile_show_entry,
    &cmd_profile_edit_entry,
    &cmd_profile_delete_entry,
    &cmd_profile_export_entry,
    &cmd_profile_import_entry,
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
    &cmd_completions_entry,
    &cmd_complete_entry,
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
