/* Profile values: defaults, validation against the key table, [env] entries, the name rule. */
#include "profile.h"

#include "gfx_route.h"
#include "gfx_table.h"
#include "name_rule.h"
#include "truthy.h"
#include "utf8.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void profile_init(struct profile *p, const char *name)
{
	p->name = xstrdup(name ? name : "");
	for (size_t i = 0; i < PK_COUNT; i++)
		p->values[i] = xstrdup(profile_keys[i].def);
	strvec_init(&p->env);
}

void profile_release(struct profile *p)
{
	free(p->name);
	p->name = NULL;
	for (size_t i = 0; i < PK_COUNT; i++) {
		free(p->values[i]);
		p->values[i] = NULL;
	}
	strvec_clear(&p->env);
}

const char *profile_get(const struct profile *p, enum profile_key_id id)
{
	return p->values[id];
}

bool profile_get_bool(const struct profile *p, enum profile_key_id id)
{
	return !strcmp(p->values[id], "true");
}

bool profile_is_hotswap(const struct profile *p)
{
	return !strcmp(p->values[PK_EMULATOR], "hotswap");
}

int profile_check_route(const struct profile *p, struct diag *err)
{
	const char *src = profile_get(p, PK_SOURCE_TARGET), *dst = profile_get(p, PK_TARGET);
	char proc[32], routes[256];

	if (!profile_is_hotswap(p) || !dst || !*dst || !strcmp(dst, "auto") || !src)
		return 0;
	if (!gfx_target_processor(src, proc, sizeof(proc)))
		snprintf(proc, sizeof(proc), "%.16s...", src);
	if (gfx_route_by_name(proc, dst) != GFX_ROUTE_NONE)
		return 0;
	diag_set(err, "profile '%s': there is no route from %s code to %s", p->name, proc, dst);
	diag_hint(err, "the routes mirage has: %s; set target and source-target to one of them",
	          gfx_routes_text(NULL, routes, sizeof(routes)));
	return -1;
}

static void add_choices(struct strbuf *sb, const char *const *choices)
{
	for (size_t i = 0; choices[i]; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", choices[i]);
}

static void add_retarget_names(struct strbuf *sb)
{
	size_t n, k = 0;
	const struct gfx_info *t = gfx_table(&n);
	for (size_t i = 0; i < n; i++)
		if (t[i].retarget != GFX_RETARGET_NONE)
			strbuf_addf(sb, "%s%s", k++ ? ", " : "", t[i].name);
}

/* Text that inih would silently change (comments, surrounding blanks, newlines) is refused. */
static int check_ini_safe(const char *what, const char *value, struct diag *err)
{
	size_t len = strlen(value);
	if (len > PROFILE_VALUE_MAX)
		return diag_set(err,
		                "%s: value is %zu bytes long, more than the %d a profile keeps",
		                what, len, PROFILE_VALUE_MAX);
	if (utf8_invalid_at(value, len) != len)
		return diag_set(err, "%s: value is not valid UTF-8 (byte %zu)", what,
		                utf8_invalid_at(value, len) + 1);
	if (strpbrk(value, "\n\r"))
		return diag_set(err, "%s: value must be a single line", what);
	if (len && (isspace((unsigned char)value[0]) || isspace((unsigned char)value[len - 1])))
		return diag_set(err, "%s: value must not start or end with blanks", what);
	if (strstr(value, " ;") || strstr(value, "\t;"))
		return diag_set(err, "%s: value must not contain ' ;' (it starts an INI comment)",
		                what);
	return 0;
}

static int check_source_target(const char *value, struct diag *err, const char *what)
{
	const char *colon = strchr(value, ':');
	char *proc = xstrndup(value, colon ? (size_t)(colon - value) : strlen(value));
	const struct gfx_info *g = gfx_by_name(proc);
	int ret = 0;
	if (!g || g->is_generic) {
		ret = diag_set(err, "%s: unknown processor '%.48s'", what, proc);
		diag_hint(err, "use a gfx name from the gfx table, e.g. gfx1250:32");
	} else if (colon && strcmp(colon, ":32") && strcmp(colon, ":64")) {
		ret = diag_set(err, "%s: wavefront size '%.16s' must be 32 or 64", what, colon + 1);
	}
	free(proc);
	return ret;
}

int profile_set(struct profile *p, const struct profile_key *key, const char *value,
                struct diag *err)
{
	struct strbuf what = STRBUF_INIT;
	char *normal = NULL;
	int ret = 0;

	strbuf_addf(&what, "key '%s'", key->name);
	switch (key->type) {
	case PKEY_TEXT:
	case PKEY_PATH:
		ret = check_ini_safe(what.buf, value, err);
		if (!ret && key->type == PKEY_PATH && *value && value[0] != '/') {
			ret = diag_set(err, "%s: '%.48s' is not an absolute path", what.buf, value);
		}
		break;
	case PKEY_BOOL: {
		bool b;
		if (parse_bool(value, &b) < 0)
			ret = diag_set(err, "%s: expected true or false, not '%.48s'", what.buf,
			               value);
		else
			normal = xstrdup(b ? "true" : "false");
		break;
	}
	case PKEY_ENUM: {
		bool ok = false;
		for (size_t i = 0; key->choices[i]; i++)
			ok = ok || !strcmp(key->choices[i], value);
		if (!ok) {
			struct strbuf c = STRBUF_INIT;
			add_choices(&c, key->choices);
			ret = diag_set(err, "%s: expected one of %s, not '%.48s'", what.buf, c.buf,
			               value);
			strbuf_release(&c);
		}
		break;
	}
	case PKEY_SOURCE_TARGET:
		ret = check_source_target(value, err, what.buf);
		break;
	case PKEY_TARGET: {
		const struct gfx_info *g = gfx_by_name(value);
		if (strcmp(value, "auto") && (!g || g->retarget == GFX_RETARGET_NONE)) {
			struct strbuf c = STRBUF_INIT;
			add_retarget_names(&c);
			ret = diag_set(err, "%s: expected auto or one of %s, not '%.48s'", what.buf,
			               c.buf, value);
			strbuf_release(&c);
		}
		break;
	}
	}
	if (!ret) {
		free(p->values[key->id]);
		p->values[key->id] = normal ? normal : xstrdup(value);
	} else {
		free(normal);
	}
	strbuf_release(&what);
	return ret;
}

bool env_name_valid(const char *name)
{
	if (!name || !(isalpha((unsigned char)*name) || *name == '_'))
		return false;
	for (const char *c = name; *c; c++)
		if (!(isalnum((unsigned char)*c) || *c == '_'))
			return false;
	return true;
}

/* The checks of an [env] entry: a valid name, a value inih keeps as is, one line in all. */
static int check_env(const char *name, const char *value, struct diag *err)
{
	struct strbuf what = STRBUF_INIT;
	int ret;
	if (!env_name_valid(name)) {
		diag_set(err, "invalid environment variable name '%.48s'", name);
		diag_hint(err, "names are letters, digits and '_', not starting with a digit");
		return -1;
	}
	strbuf_addf(&what, "env '%s'", name);
	ret = check_ini_safe(what.buf, value, err);
	strbuf_release(&what);
	if (!ret && strlen(name) + 3 + strlen(value) > PROFILE_LINE_MAX)
		ret = diag_set(err,
		               "env '%.48s': 'NAME = value' is longer than the %d bytes a profile "
		               "line may have",
		               name, PROFILE_LINE_MAX);
	return ret;
}

int profile_add_env(struct profile *p, const char *name, const char *value, struct diag *err)
{
	if (check_env(name, value, err) < 0)
		return -1;
	strvec_pushf(&p->env, "%s=%s", name, value);
	return 0;
}

int profile_set_env(struct profile *p, const char *name, const char *value, struct diag *err)
{
	long i;
	char *entry;
	if (check_env(name, value, err) < 0)
		return -1;
	entry = xstrfmt("%s=%s", name, value);
	if ((i = strvec_find_key(&p->env, name)) < 0) {
		strvec_push_nodup(&p->env, entry);
	} else {
		strvec_replace(&p->env, (size_t)i, entry);
		free(entry);
	}
	return 0;
}

int profile_set_env_assignment(struct profile *p, const char *assignment, struct diag *err)
{
	const char *eq = strchr(assignment, '=');
	char *name;
	int ret;
	if (!eq) {
		diag_set(err, "'%.48s' is not an assignment", assignment);
		diag_hint(err, "write NAME=VALUE, e.g. --env HIP_VISIBLE_DEVICES=0");
		return -1;
	}
	name = xstrndup(assignment, (size_t)(eq - assignment));
	ret = profile_set_env(p, name, eq + 1, err);
	free(name);
	return ret;
}

int profile_unset_env(struct profile *p, const char *name)
{
	long i = strvec_find_key(&p->env, name);
	if (i < 0)
		return -1;
	strvec_remove(&p->env, (size_t)i);
	return 0;
}

int profile_name_check(const char *name, struct diag *err)
{
	return name_rule_check("profile", name, "profiles are stored lowercase", err);
}
