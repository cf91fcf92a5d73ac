/* JSON export and import, including the reference mirage's profile shape. */
#include "profile_json.h"

#include "gfx_table.h"
#include "name_set.h"
#include "profile_file.h"

#include <ctype.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>

cJSON *profile_to_json(const struct profile *p)
{
	cJSON *root = cJSON_CreateObject(), *hs = NULL, *env = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "name", p->name);
	for (size_t i = 0; i < PK_COUNT; i++) {
		const struct profile_key *k = &profile_keys[i];
		cJSON *where = root;
		if (!strcmp(k->section, "hotswap")) {
			if (!profile_is_hotswap(p))
				continue;
			if (!hs)
				hs = cJSON_AddObjectToObject(root, "hotswap");
			where = hs;
		}
		if (k->type == PKEY_BOOL)
			cJSON_AddBoolToObject(where, k->name, profile_get_bool(p, k->id));
		else
			cJSON_AddStringToObject(where, k->name, p->values[i]);
	}
	for (size_t i = 0; i < p->env.nr; i++) {
		const char *eq = strchr(p->env.v[i], '=');
		char *name = xstrndup(p->env.v[i], (size_t)(eq - p->env.v[i]));
		cJSON_AddStringToObject(env, name, eq + 1);
		free(name);
	}
	cJSON_AddItemToObject(root, "env", env);
	return root;
}

/* Scalars become the text profile_set() validates; objects and arrays are refused. */
static int scalar_text(const cJSON *v, struct strbuf *out)
{
	if (cJSON_IsString(v))
		strbuf_addstr(out, v->valuestring);
	else if (cJSON_IsBool(v))
		strbuf_addstr(out, cJSON_IsTrue(v) ? "true" : "false");
	else if (cJSON_IsNumber(v) && v->valuedouble == (double)(long long)v->valuedouble)
		strbuf_addf(out, "%lld", (long long)v->valuedouble);
	else
		return -1;
	return 0;
}

static int set_key(struct profile *p, const char *origin, const char *where, const cJSON *v,
                   struct diag *err)
{
	const struct profile_key *k = profile_key_find(v->string);
	struct strbuf text = STRBUF_INIT;
	struct diag sub = DIAG_INIT;
	int ret = 0;
	if (!k || strcmp(k->section, where)) {
		diag_set(err, "%s: unknown key '%s.%.48s'", origin, where, v->string);
		diag_hint(err, "see 'mirage profile create --help' for the keys");
		return -1;
	}
	if (scalar_text(v, &text) < 0) {
		ret = diag_set(err, "%s: key '%s': expected a string or boolean", origin, k->name);
	} else if (profile_set(p, k, text.buf, &sub) < 0) {
		ret = diag_set(err, "%s: %s", origin, sub.msg.buf);
		if (sub.hint.len)
			diag_hint(err, "%s", sub.hint.buf);
	}
	strbuf_release(&text);
	diag_release(&sub);
	return ret;
}

static int read_env(struct profile *p, const char *origin, const cJSON *env, struct diag *err)
{
	struct name_set seen = NAME_SET_INIT;
	const cJSON *e;
	int bad = 0;
	if (!cJSON_IsObject(env))
		return diag_set(err, "%s: 'env' must be an object of NAME: value", origin);
	cJSON_ArrayForEach(e, env)
	{
		struct strbuf text = STRBUF_INIT;
		struct diag sub = DIAG_INIT;
		if (scalar_text(e, &text) < 0)
			bad =
			    diag_set(err, "%s: env '%.48s': expected a string", origin, e->string);
		else if (!name_set_add(&seen, e->string))
			/* cJSON keeps both; the INI loader refuses this too. */
			bad = diag_set(err, "%s: env '%.48s': duplicate key", origin, e->string);
		else if (profile_add_env(p, e->string, text.buf, &sub) < 0)
			bad = diag_set(err, "%s: %s", origin, sub.msg.buf);
		strbuf_release(&text);
		diag_release(&sub);
		if (bad)
			break;
	}
	name_set_release(&seen);
	return bad;
}

/* The reference mirage's JSON names GPUs by agent ("MI350X"); the ones it ships map onto
 * gfx names. */
static const char *agent_gfx(const char *agent)
{
	static const struct {
		const char *agent, *gfx;
	} agents[] = {{"mi300x", "gfx942"}, {"mi350x", "gfx950"}, {"mi450x", "gfx1250"}};
	for (size_t i = 0; i < sizeof(agents) / sizeof(agents[0]); i++)
		if (!strncasecmp(agent, agents[i].agent, strlen(agents[i].agent)))
			return agents[i].gfx;
	return NULL;
}

static int from_reference(struct profile *p, const cJSON *emu, const char *origin, struct diag *err)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(emu, "emulator");
	const cJSON *opts = cJSON_GetObjectItemCaseSensitive(emu, "options");
	const cJSON *topo = cJSON_GetObjectItemCaseSensitive(emu, "topology");
	const cJSON *o;
	struct diag sub = DIAG_INIT;

	if (!cJSON_IsString(name))
		return diag_set(err, "%s: 'emulator.emulator' must name a backend", origin);
	if (profile_set(p, &profile_keys[PK_EMULATOR], name->valuestring, &sub) < 0) {
		diag_set(err, "%s: emulator '%.48s' is not a backend of this mirage", origin,
		         name->valuestring);
		diag_hint(err, "mirage runs hotswap and native profiles; see 'mirage emulators'");
		diag_release(&sub);
		return -1;
	}
	diag_release(&sub);
	cJSON_ArrayForEach(o, emu)
	{
		static const char *const known[] = {"emulator", "plugins", "exec_mode", "options",
		                                    "topology", "extra",   NULL};
		bool ok = false;
		for (size_t i = 0; known[i]; i++)
			ok = ok || !strcmp(o->string, known[i]);
		if (!ok)
			return diag_set(err, "%s: unknown key 'emulator.%.48s'", origin, o->string);
	}
	/* The reference mirage's options that share a name with one of our hotswap keys keep their
	 * meaning. */
	if (opts && cJSON_IsObject(opts))
		cJSON_ArrayForEach(o,
		                   opts) if (set_key(p, origin, "hotswap", o, err) < 0) return -1;
	/* An agent-based topology tells which GPU the profile was made for. */
	if (topo) {
		const cJSON *agent =
		    cJSON_IsObject(topo) ? cJSON_GetObjectItemCaseSensitive(topo, "agent") : topo;
		const char *gfx = cJSON_IsString(agent) ? agent_gfx(agent->valuestring) : NULL;
		if (gfx && gfx_by_name(gfx)->retarget != GFX_RETARGET_NONE &&
		    !strcmp(profile_get(p, PK_TARGET), "auto"))
			profile_set(p, &profile_keys[PK_TARGET], gfx, err);
	}
	return 0;
}

static size_t line_of(const char *text, const char *at)
{
	size_t line = 1;
	for (const char *c = text; c < at; c++)
		line += *c == '\n';
	return line;
}

/*
 * cJSON decodes "\u0000" into a NUL that ends the C string it hands back, so "x\u0000y" would
 * quietly become "x".  Finds such an escape in text (valid JSON, no NUL byte) and the key it
 * belongs to: the string itself when it is a key, else the last key before it.
 */
static int refuse_nul_escape(const char *text, const char *origin, struct diag *err)
{
	const char *key = NULL;
	size_t key_len = 0;

	for (const char *c = text; *c; c++) {
		const char *start, *after;
		bool nul = false;
		if (*c != '"')
			continue;
		start = ++c;
		for (; *c && *c != '"'; c++)
			if (*c == '\\' && c[1]) {
				nul = nul || !strncmp(c + 1, "u0000", 5);
				c++;
			}
		if (!*c)
			break;
		after = c + 1 + strspn(c + 1, " \t\r\n");
		if (*after == ':') {
			key = start;
			key_len = (size_t)(c - start);
		}
		if (nul) {
			if (key)
				diag_set(err,
				         "%s:%zu: key '%.*s': \\u0000 (a NUL byte) in a string",
				         origin, line_of(text, start),
				         (int)(key_len > 48 ? 48 : key_len), key);
			else
				diag_set(err, "%s:%zu: \\u0000 (a NUL byte) in a string", origin,
				         line_of(text, start));
			diag_hint(err, "a profile's values are text without NUL bytes");
			return -1;
		}
	}
	return 0;
}

int profile_from_json(struct profile *p, const char *text, size_t len, const char *origin,
                      struct diag *err)
{
	cJSON *root, *v;
	const cJSON *emu;
	int ret = -1;

	if (profile_text_check(text, len, origin, err) < 0)
		return -1;
	if (!(root = cJSON_Parse(text))) {
		const char *at = cJSON_GetErrorPtr();
		diag_set(err, "%s:%zu: invalid JSON", origin,
		         line_of(text, at && at >= text ? at : text));
		return -1;
	}
	if (refuse_nul_escape(text, origin, err) < 0)
		goto out;
	if (!cJSON_IsObject(root)) {
		diag_set(err, "%s: expected a JSON object describing one profile", origin);
		goto out;
	}
	cJSON_ArrayForEach(v, root)
	{
		static const char *const known[] = {"name", "description",  "emulator", "hotswap",
		                                    "env",  "containerize", NULL};
		bool ok = false;
		for (size_t i = 0; known[i]; i++)
			ok = ok || !strcmp(v->string, known[i]);
		if (!ok) {
			diag_set(err, "%s: unknown key '%.48s'", origin, v->string);
			diag_hint(err,
			          "a profile has name, description, emulator, hotswap and env");
			goto out;
		}
	}
	v = cJSON_GetObjectItemCaseSensitive(root, "name");
	if (!cJSON_IsString(v)) {
		diag_set(err, "%s: 'name' is missing or not a string", origin);
		goto out;
	}
	free(p->name);
	p->name = xstrdup(v->valuestring);
	if ((v = cJSON_GetObjectItemCaseSensitive(root, "description")) &&
	    set_key(p, origin, "profile", v, err) < 0)
		goto out;
	emu = cJSON_GetObjectItemCaseSensitive(root, "emulator");
	if (cJSON_IsObject(emu)) {
		if (from_reference(p, emu, origin, err) < 0)
			goto out;
	} else if (emu && set_key(p, origin, "profile", emu, err) < 0) {
		goto out;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(root, "hotswap"))) {
		const cJSON *o;
		if (!cJSON_IsObject(v)) {
			diag_set(err, "%s: 'hotswap' must be an object", origin);
			goto out;
		}
		cJSON_ArrayForEach(o, v) if (set_key(p, origin, "hotswap", o, err) < 0) goto out;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(root, "env")) && read_env(p, origin, v, err) < 0)
		goto out;
	ret = 0;
out:
	cJSON_Delete(root);
	return ret;
}
