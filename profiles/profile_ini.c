/* INI reading (inih, line by line so errors carry the right line) and writing. */
#include "profile_ini.h"

#include "name_set.h"
#include "profile_file.h"

#include <ini.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct ini_state {
	struct profile *p;
	const char *path;
	const char *text; /* rest of the input, for the line reader */
	int line;         /* line the reader handed to inih last */
	int overlong;     /* first line too long for inih's buffer, or 0 */
	bool failed;
	bool seen[PK_COUNT];
	bool seen_name;
	struct name_set env_seen; /* [env] names so far: duplicates are refused as elsewhere */
	struct diag *err;
};

__attribute__((format(printf, 2, 3))) static int fail(struct ini_state *st, const char *fmt, ...);

static bool known_section(const char *name, size_t len)
{
	static const char *const sections[] = {"profile", "hotswap", "env"};
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (strlen(sections[i]) == len && !strncmp(sections[i], name, len))
			return true;
	return false;
}

/*
 * inih only reports keys, so an unknown section would be named at its first
 * key (or not at all when empty): check headers here, at their own line.
 */
static void check_section_header(struct ini_state *st, const char *line)
{
	const char *p = line + strspn(line, " \t");
	size_t len;
	if (*p != '[' || st->failed)
		return;
	len = strcspn(p + 1, "]");
	if (p[1 + len] == ']' && !known_section(p + 1, len)) {
		fail(st, "unknown section '[%.*s]'", (int)(len > 48 ? 48 : len), p + 1);
		diag_hint(st->err, "sections are [profile], [hotswap] and [env]");
	}
}

/* inih calls this for every line; counting here gives the handler its line number. */
static char *read_line(char *buf, int size, void *stream)
{
	struct ini_state *st = stream;
	size_t len = strcspn(st->text, "\n");
	size_t n = len + (st->text[len] == '\n');
	if (!*st->text)
		return NULL;
	if (n + 1 > (size_t)size) {
		/* inih would silently split the line and misread the rest: stop here instead. */
		st->overlong = st->line + 1;
		return NULL;
	}
	memcpy(buf, st->text, n);
	buf[n] = '\0';
	st->text += n;
	st->line++;
	check_section_header(st, buf);
	return buf;
}

/* Records the first error only, prefixed with file:line; returns 0 to tell inih it failed. */
__attribute__((format(printf, 2, 3))) static int fail(struct ini_state *st, const char *fmt, ...)
{
	if (!st->failed) {
		struct strbuf msg = STRBUF_INIT;
		va_list ap;
		strbuf_addf(&msg, "%s:%d: ", st->path, st->line);
		va_start(ap, fmt);
		strbuf_vaddf(&msg, fmt, ap);
		va_end(ap);
		diag_set(st->err, "%s", msg.buf);
		strbuf_release(&msg);
		st->failed = true;
	}
	return 0;
}

static int handle(void *user, const char *section, const char *name, const char *value)
{
	struct ini_state *st = user;
	struct diag sub = DIAG_INIT;
	const struct profile_key *key;

	if (st->failed)
		return 0;
	if (!strcmp(section, "env")) {
		if (!name_set_add(&st->env_seen, name))
			return fail(st, "env '%.48s': duplicate key", name);
		if (profile_add_env(st->p, name, value, &sub) < 0) {
			fail(st, "%s", sub.msg.buf);
			diag_release(&sub);
			return 0;
		}
		return 1;
	}
	if (!strcmp(section, "profile") && !strcmp(name, "name")) {
		if (st->seen_name)
			return fail(st, "key 'name': duplicate key");
		st->seen_name = true;
		free(st->p->name);
		st->p->name = xstrdup(value);
		return 1;
	}
	if (strcmp(section, "profile") && strcmp(section, "hotswap")) {
		fail(st, "unknown section '[%.48s]'", section);
		diag_hint(st->err, "sections are [profile], [hotswap] and [env]");
		return 0;
	}
	key = profile_key_find(name);
	if (!key || strcmp(key->section, section)) {
		fail(st, "key '%.48s': unknown key in [%s]", name, section);
		diag_hint(st->err, "see 'mirage profile create --help' for the keys");
		return 0;
	}
	if (st->seen[key->id])
		return fail(st, "key '%s': duplicate key", key->name);
	st->seen[key->id] = true;
	if (profile_set(st->p, key, value, &sub) < 0) {
		fail(st, "%s", sub.msg.buf);
		if (sub.hint.len)
			diag_hint(st->err, "%s", sub.hint.buf);
		diag_release(&sub);
		return 0;
	}
	return 1;
}

int profile_parse_ini(struct profile *p, const char *text, size_t len, const char *path,
                      const char *expect_name, struct diag *err)
{
	struct ini_state st = {.p = p, .path = path, .text = text, .err = err};
	int line;

	/* Before inih, which reads C strings: a NUL would silently end the profile there. */
	if (profile_text_check(text, len, path, err) < 0)
		return -1;
	line = ini_parse_stream(read_line, &st, handle, &st);
	name_set_release(&st.env_seen);
	if (st.failed)
		return -1;
	if (st.overlong) {
		diag_set(err, "%s:%d: line is longer than the %d bytes a profile line may have",
		         path, st.overlong, PROFILE_LINE_MAX);
		diag_hint(err, "shorten the value (at most %d bytes)", PROFILE_VALUE_MAX);
		return -1;
	}
	if (line > 0) {
		diag_set(err, "%s:%d: syntax error", path, line);
		diag_hint(err, "each line is '[section]', 'key = value' or a '; comment'");
		return -1;
	}
	if (line < 0)
		return diag_set(err, "%s: cannot parse (out of memory)", path);
	if (!st.seen_name) {
		diag_set(err, "%s: [profile] has no 'name' key", path);
		diag_hint(err, "add 'name = %s' under [profile]",
		          expect_name ? expect_name : "NAME");
		return -1;
	}
	if (expect_name && strcmp(p->name, expect_name)) {
		diag_set(err, "%s: key 'name': '%.48s' does not match the file name '%s'", path,
		         p->name, expect_name);
		diag_hint(err, "rename the file or set 'name = %s'", expect_name);
		return -1;
	}
	return 0;
}

void profile_format_ini(const struct profile *p, struct strbuf *out)
{
	const char *section = NULL;
	strbuf_addstr(out, "; mirage profile: change it with 'mirage profile edit'\n");
	strbuf_addf(out, "[profile]\nname = %s\n", p->name);
	section = "profile";
	for (size_t i = 0; i < PK_COUNT; i++) {
		const struct profile_key *k = &profile_keys[i];
		if (!strcmp(k->section, "hotswap") && !profile_is_hotswap(p))
			continue;
		if (strcmp(k->section, section)) {
			strbuf_addf(out, "\n[%s]\n", k->section);
			section = k->section;
		}
		strbuf_addf(out, "%s =%s%s\n", k->name, *p->values[i] ? " " : "", p->values[i]);
	}
	if (p->env.nr) {
		strbuf_addstr(out, "\n[env]\n");
		for (size_t i = 0; i < p->env.nr; i++) {
			const char *eq = strchr(p->env.v[i], '=');
			strbuf_addf(out, "%.*s =%s%s\n", (int)(eq - p->env.v[i]), p->env.v[i],
			            eq[1] ? " " : "", eq + 1);
		}
	}
}
