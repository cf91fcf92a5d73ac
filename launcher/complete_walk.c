/* The walk of command_table every shell generator shares, and the template expander. */
#include "complete_internal.h"

#include <stdlib.h>
#include <string.h>

const char *const comp_kind_names[] = {
    [CK_NONE] = "",
    [CK_ANY] = "any",
    [CK_FILE] = "file",
    [CK_DIR] = "dir",
    [CK_PROFILE] = "profile",
    [CK_ENUM] = "enum",
    [CK_GFX_SOURCE] = "gfx-sources",
    [CK_GFX_TARGET] = "gfx-targets",
    [CK_GFX_TARGET_AUTO] = "gfx-targets-auto",
    [CK_SHELL] = "shell",
    [CK_COMMAND] = "command",
    [CK_TREE] = "tree",
    [CK_PROFILE_KEY] = "profile-key",
    [CK_SCHEDULE] = "schedule",
};

enum comp_kind comp_opt_kind(const struct opt_spec *o)
{
	switch (o->type) {
	case OPT_BOOL:
	case OPT_COUNT:
		return CK_NONE;
	case OPT_PATH:
		return CK_FILE;
	case OPT_DIR:
		return CK_DIR;
	case OPT_PROFILE:
		return CK_PROFILE;
	case OPT_ENUM:
		return CK_ENUM;
	case OPT_GFX_SOURCE:
		return CK_GFX_SOURCE;
	case OPT_GFX_TARGET:
		return (o->flags & OPT_AUTO) ? CK_GFX_TARGET_AUTO : CK_GFX_TARGET;
	case OPT_STRING:
		return o->values == OV_PROFILE_KEYS ? CK_PROFILE_KEY
		       : o->values == OV_SCHEDULES  ? CK_SCHEDULE
		                                    : CK_ANY;
	}
	return CK_ANY;
}

enum comp_kind comp_arg_kind(const struct cmd_entry *c)
{
	switch (c->arg_kind) {
	case ARG_FILE:
	case ARG_URL_OR_FILE:
		return CK_FILE;
	case ARG_PROFILE:
		return CK_PROFILE;
	case ARG_TREE:
		return CK_TREE;
	case ARG_SHELL:
		return CK_SHELL;
	case ARG_COMMAND:
		return CK_COMMAND;
	case ARG_NONE:
	case ARG_WORD:
		return CK_ANY;
	}
	return CK_ANY;
}

/* An option whose value must be glued on (--x=VALUE), so the next word is never its value. */
bool comp_value_glued(const struct opt_spec *o)
{
	return (o->flags & OPT_ARG_OPTIONAL) != 0;
}

bool comp_is_group(const struct cmd_entry *c)
{
	return (c->flags & CMD_GROUP) != 0;
}

/* Hidden commands, and everything under a hidden or missing group, are never completed. */
bool comp_visible(const struct cmd_entry *c)
{
	if (c->flags & CMD_HIDDEN)
		return false;
	if (!c->parent)
		return true;
	const struct cmd_entry *p = command_find(NULL, c->parent);
	return p && !(p->flags & CMD_HIDDEN);
}

bool comp_child_of(const struct cmd_entry *c, const struct cmd_entry *group)
{
	return group ? c->parent && !strcmp(c->parent, group->name) : !c->parent;
}

/* --help and the top-level options (--version) answer and exit, so nothing goes with them. */
bool comp_answers_alone(const struct opt_spec *o)
{
	const struct opt_spec *t = top_options();
	for (size_t i = 0; t[i].name; i++)
		if (o == &t[i])
			return true;
	return o == &global_options()[GLOBAL_HELP];
}

/*
 * The description of one spelling, in a buffer the caller frees: the table has
 * one help line per flag, written for the positive form, so --no-x gets its own.
 */
char *comp_spelling_help(const struct opt_spec *o, bool negated)
{
	return negated ? xstrfmt("turn --%s off", o->name) : opt_help_line(o);
}

/* Appends the space-separated words of a NULL-terminated list. */
void comp_add_words(struct strbuf *out, const char *const *words)
{
	for (size_t i = 0; words && words[i]; i++)
		strbuf_addf(out, "%s%s", i ? " " : "", words[i]);
}

/* Every spelling of an option: --name, --no-name, -c. */
void comp_add_spellings(struct strbuf *out, const struct opt_spec *o)
{
	strbuf_addf(out, " --%s", o->name);
	if (o->flags & OPT_NEGATABLE)
		strbuf_addf(out, " --no-%s", o->name);
	if (o->short_name)
		strbuf_addf(out, " -%c", o->short_name);
}

void comp_expand(struct strbuf *out, const char *tmpl, const struct comp_slot *slots)
{
	for (const char *line = tmpl; *line;) {
		size_t len = strcspn(line, "\n");
		const struct comp_slot *s = NULL;

		if (slots && len > 2 && line[0] == '@' && line[len - 1] == '@')
			for (s = slots; s->name; s++)
				if (strlen(s->name) == len - 2 &&
				    !memcmp(s->name, line + 1, len - 2))
					break;
		if (s && s->name)
			s->fill(out);
		else if (strncmp(line, "@#", 2))
			strbuf_add(out, line, len + (line[len] == '\n'));
		line += len + (line[len] == '\n');
	}
}
