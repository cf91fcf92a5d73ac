/* Profiles: key table, validation, name rule, INI round trip and line numbers, JSON import. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "config_paths.h"
#include "name_set.h"
#include "hotswap_contract.h"
#include "profile.h"
#include "profile_ini.h"
#include "profile_json.h"
#include "profile_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_defaults_are_valid(void **state)
{
	struct profile p, q;
	struct diag err = DIAG_INIT;
	profile_init(&p, "x");
	profile_init(&q, "x");
	for (size_t i = 0; i < PK_COUNT; i++) {
		assert_int_equal(profile_keys[i].id, i);
		assert_non_null(profile_keys[i].help);
		assert_int_equal(profile_set(&q, &profile_keys[i], profile_keys[i].def, &err), 0);
		assert_string_equal(profile_get(&p, (enum profile_key_id)i), profile_keys[i].def);
		assert_ptr_equal(profile_key_find(profile_keys[i].name), &profile_keys[i]);
	}
	profile_release(&p);
	profile_release(&q);
	diag_release(&err);
}

static void test_validation_messages(void **state)
{
	struct profile p;
	struct diag err = DIAG_INIT;
	profile_init(&p, "x");
	assert_int_equal(profile_set(&p, &profile_keys[PK_TARGET], "gfx90a", &err), -1);
	assert_non_null(
	    strstr(err.msg.buf, "key 'target': expected auto or one of gfx942, gfx950"));
	assert_int_equal(profile_set(&p, &profile_keys[PK_SOURCE_TARGET], "gfx1250:48", &err), -1);
	assert_non_null(strstr(err.msg.buf, "wavefront size"));
	assert_int_equal(profile_set(&p, &profile_keys[PK_SOURCE_TARGET], "gfx9-generic", &err),
	                 -1);
	assert_int_equal(profile_set(&p, &profile_keys[PK_ADAPTER_POLICY], "fast", &err), -1);
	assert_non_null(strstr(err.msg.buf, "none, env, native_build, triton, compile, full"));
	assert_int_equal(profile_set(&p, &profile_keys[PK_STRICT], "maybe", &err), -1);
	assert_int_equal(profile_set(&p, &profile_keys[PK_STRICT], "NO", &err), 0);
	assert_string_equal(profile_get(&p, PK_STRICT), "false");
	assert_int_equal(profile_set(&p, &profile_keys[PK_CACHE_DIR], "relative/dir", &err), -1);
	assert_int_equal(profile_set(&p, &profile_keys[PK_DESCRIPTION], "a ; b", &err), -1);
	assert_int_equal(profile_set(&p, &profile_keys[PK_DESCRIPTION], "two\nlines", &err), -1);
	assert_int_equal(profile_set_env_assignment(&p, "1BAD=x", &err), -1);
	assert_int_equal(profile_set_env_assignment(&p, "NOEQUALS", &err), -1);
	assert_int_equal(profile_set_env_assignment(&p, "GOOD=a=b", &err), 0);
	assert_string_equal(p.env.v[0], "GOOD=a=b");
	profile_release(&p);
	diag_release(&err);
}

static void test_name_rule(void **state)
{
	struct diag err = DIAG_INIT;
	char long_name[200];
	assert_int_equal(profile_name_check("rdna-1.2_x+y", &err), 0);
	assert_int_equal(profile_name_check("", &err), -1);
	assert_int_equal(profile_name_check(".hidden", &err), -1);
	assert_int_equal(profile_name_check("a/b", &err), -1);
	assert_non_null(strstr(err.msg.buf, "contains '/'"));
	assert_int_equal(profile_name_check("MyProfile", &err), -1);
	assert_non_null(strstr(err.hint.buf, "'myprofile'"));
	memset(long_name, 'a', 129);
	long_name[129] = '\0';
	assert_int_equal(profile_name_check(long_name, &err), -1);
	/* Quoted names are cut at 48 bytes and say how long they were. */
	assert_non_null(strstr(err.msg.buf, "(129 characters)"));
	long_name[128] = '\0';
	assert_int_equal(profile_name_check(long_name, &err), 0);
	diag_release(&err);
}

static void test_ini_round_trip(void **state)
{
	struct profile p, q;
	struct diag err = DIAG_INIT;
	struct strbuf text = STRBUF_INIT;
	profile_init(&p, "rdna");
	assert_int_equal(profile_set(&p, &profile_keys[PK_TARGET], "gfx950", &err), 0);
	assert_int_equal(profile_set(&p, &profile_keys[PK_CACHE_DIR], "/var/cache/x", &err), 0);
	assert_int_equal(profile_set_env_assignment(&p, "A=1", &err), 0);
	assert_int_equal(profile_set_env_assignment(&p, "EMPTY=", &err), 0);
	profile_format_ini(&p, &text);
	profile_init(&q, "");
	assert_int_equal(profile_parse_ini(&q, text.buf, text.len, "rdna.ini", "rdna", &err), 0);
	for (size_t i = 0; i < PK_COUNT; i++)
		assert_string_equal(p.values[i], q.values[i]);
	assert_int_equal(q.env.nr, 2);
	assert_string_equal(q.env.v[1], "EMPTY=");
	profile_release(&p);
	profile_release(&q);
	strbuf_release(&text);
	diag_release(&err);
}

static void expect_ini_error_len(const char *text, size_t len, const char *msg_part)
{
	struct profile p;
	struct diag err = DIAG_INIT;
	profile_init(&p, "");
	assert_int_equal(profile_parse_ini(&p, text, len, "profiles/x.ini", "x", &err), -1);
	if (!strstr(err.msg.buf, msg_part))
		fail_msg("expected '%s' in '%s'", msg_part, err.msg.buf);
	profile_release(&p);
	diag_release(&err);
}

static void expect_ini_error(const char *text, const char *msg_part)
{
	expect_ini_error_len(text, strlen(text), msg_part);
}

static void test_ini_errors_name_line_and_key(void **state)
{
	expect_ini_error("[profile]\nname = x\n\n[hotswap]\n; comment\n\ntarget = gfx90a\n",
	                 "profiles/x.ini:7: key 'target': expected auto or one of gfx942, gfx950");
	expect_ini_error("[profile]\nname = x\n[hotswap]\ncolour = red\n",
	                 "profiles/x.ini:4: key 'colour': unknown key in [hotswap]");
	expect_ini_error("[profile]\nname = x\n[extra]\nk = v\n",
	                 "profiles/x.ini:3: unknown section '[extra]'");
	expect_ini_error("[profile]\nname = x\nthis line is wrong\n",
	                 "profiles/x.ini:3: syntax error");
	expect_ini_error("[profile]\nname = y\n", "'y' does not match the file name 'x'");
	expect_ini_error("[profile]\ndescription = d\n", "has no 'name' key");
	expect_ini_error("[profile]\nname = x\n[hotswap]\nstrict = yes\nstrict = no\n",
	                 "profiles/x.ini:5: key 'strict': duplicate key");
	struct strbuf longline = STRBUF_INIT;
	strbuf_addstr(&longline, "[profile]\nname = x\ndescription = ");
	for (int i = 0; i < 300; i++)
		strbuf_addch(&longline, 'd');
	strbuf_addstr(&longline, "\n");
	expect_ini_error(longline.buf, "profiles/x.ini:3: line is longer than");
	strbuf_release(&longline);
	/* A NUL used to end the text there; everything after it vanished without a word. */
	static const char nul[] = "[profile]\nname = x\n\0\n[env]\nA = 1\n";
	expect_ini_error_len(nul, sizeof(nul) - 1, "profiles/x.ini:3: NUL byte at column 1");
	static const char nul_in_value[] = "[profile]\nname = x\ndescription = a\0b\n";
	expect_ini_error_len(nul_in_value, sizeof(nul_in_value) - 1,
	                     "profiles/x.ini:3: NUL byte at column 16");
	expect_ini_error("[profile]\nname = x\n; caf\xe9\n",
	                 "profiles/x.ini:3: invalid UTF-8 at column 6 (byte 0xe9)");
	expect_ini_error("[profile]\nname = x\n[env]\nA = 1\nB = 2\nA = 3\n",
	                 "profiles/x.ini:6: env 'A': duplicate key");
}

/* [env] with many entries loads them all, in order (in linear time: bench/profiles). */
static void test_ini_long_env(void **state)
{
	struct strbuf text = STRBUF_INIT;
	struct profile p;
	struct diag err = DIAG_INIT;
	strbuf_addstr(&text, "[profile]\nname = x\n[env]\n");
	for (int i = 0; i < 5000; i++)
		strbuf_addf(&text, "K%d = v%d\n", i, i);
	profile_init(&p, "");
	assert_int_equal(profile_parse_ini(&p, text.buf, text.len, "x.ini", "x", &err), 0);
	assert_int_equal(p.env.nr, 5000);
	assert_string_equal(p.env.v[4999], "K4999=v4999");
	/* --set of an existing variable replaces it where it is. */
	assert_int_equal(profile_set_env(&p, "K7", "new", &err), 0);
	assert_string_equal(p.env.v[7], "K7=new");
	assert_int_equal(p.env.nr, 5000);
	/* A refused value leaves the old one. */
	assert_int_equal(profile_set_env(&p, "K8", "a ;b", &err), -1);
	assert_string_equal(p.env.v[8], "K8=v8");
	profile_release(&p);
	strbuf_release(&text);
	diag_release(&err);
}

static void test_name_set(void **state)
{
	struct name_set set = NAME_SET_INIT;
	char name[32];
	for (int i = 0; i < 10000; i++) {
		snprintf(name, sizeof(name), "N%d", i);
		assert_true(name_set_add(&set, name));
	}
	for (int i = 0; i < 10000; i += 997) {
		snprintf(name, sizeof(name), "N%d", i);
		assert_false(name_set_add(&set, name));
	}
	assert_int_equal(set.nr, 10000);
	assert_true(name_set_add(&set, ""));
	assert_false(name_set_add(&set, ""));
	name_set_release(&set);
	name_set_release(&set); /* released twice is fine */
}

/* profile_from_json() on a C string (the tests' documents hold no NUL). */
static int json_in(struct profile *p, const char *text, const char *origin, struct diag *err)
{
	return profile_from_json(p, text, strlen(text), origin, err);
}

static void test_json_ours_and_reference(void **state)
{
	struct profile p;
	struct diag err = DIAG_INIT;
	profile_init(&p, "");
	assert_int_equal(json_in(&p,
	                         "{\"name\":\"a\",\"emulator\":\"native\",\"env\":{\"K\":\"V\"},"
	                         "\"hotswap\":{\"strict\":false,\"target\":\"gfx942\"}}",
	                         "a.json", &err),
	                 0);
	assert_string_equal(profile_get(&p, PK_EMULATOR), "native");
	assert_string_equal(profile_get(&p, PK_STRICT), "false");
	assert_string_equal(p.env.v[0], "K=V");
	profile_release(&p);

	profile_init(&p, "");
	assert_int_equal(
	    json_in(&p,
	            "{\"name\":\"mi350x\",\"description\":\"ref\",\"emulator\":"
	            "{\"emulator\":\"hotswap\",\"plugins\":{},\"exec_mode\":\"Functional\","
	            "\"options\":{\"entry_trampolines\":true},\"topology\":{\"num_nodes\":1,"
	            "\"gpus_per_node\":1,\"agent\":\"mi350x\"}}}",
	            "ref.json", &err),
	    0);
	assert_string_equal(profile_get(&p, PK_TARGET), "gfx950");
	assert_string_equal(profile_get(&p, PK_ENTRY_TRAMPOLINES), "true");
	profile_release(&p);

	profile_init(&p, "");
	assert_int_equal(json_in(&p, "{\"name\":\"a\",\"colour\":1}", "a.json", &err), -1);
	assert_non_null(strstr(err.msg.buf, "unknown key 'colour'"));
	assert_int_equal(json_in(&p, "{\"name\":\"a\",\n\"emulator\":{\"emulator\":\"rocjitsu\"}}",
	                         "a.json", &err),
	                 -1);
	assert_non_null(strstr(err.msg.buf, "'rocjitsu' is not a backend"));
	assert_int_equal(json_in(&p, "{\n\"name\": \n", "b.json", &err), -1);
	assert_non_null(strstr(err.msg.buf, "b.json:"));
	profile_release(&p);
	diag_release(&err);
}

static void expect_json_error_len(const char *text, size_t len, const char *msg_part)
{
	struct profile p;
	struct diag err = DIAG_INIT;
	profile_init(&p, "");
	assert_int_equal(profile_from_json(&p, text, len, "in.json", &err), -1);
	if (!strstr(err.msg.buf, msg_part))
		fail_msg("expected '%s' in '%s'", msg_part, err.msg.buf);
	profile_release(&p);
	diag_release(&err);
}

static void expect_json_error(const char *text, const char *msg_part)
{
	expect_json_error_len(text, strlen(text), msg_part);
}

/* What cJSON would pass on silently: \u0000 cutting a string, raw NULs, bad UTF-8, duplicates. */
static void test_json_text_rules(void **state)
{
	struct profile p;
	struct diag err = DIAG_INIT;
	expect_json_error("{\"name\": \"a\",\n\"description\": \"x\\u0000y\"}",
	                  "in.json:2: key 'description': \\u0000 (a NUL byte) in a string");
	expect_json_error("{\"name\": \"a\", \"env\": {\"A\": \"1\", \"B\": \"\\u0000\"}}",
	                  "in.json:1: key 'B': \\u0000");
	expect_json_error("{\"na\\u0000me\": \"a\"}", "in.json:1: key 'na\\u0000me': \\u0000");
	static const char raw_nul[] = "{\"name\": \"a\0\"}";
	expect_json_error_len(raw_nul, sizeof(raw_nul) - 1, "in.json:1: NUL byte at column 12");
	expect_json_error("{\"name\": \"caf\xe9\"}", "in.json:1: invalid UTF-8 at column 14");
	expect_json_error("{\"name\": \"a\", \"env\": {\"A\": \"1\", \"A\": \"2\"}}",
	                  "in.json: env 'A': duplicate key");
	/* An escaped backslash followed by u0000 is text. */
	profile_init(&p, "");
	assert_int_equal(
	    json_in(&p, "{\"name\": \"a\", \"description\": \"\\\\u0000\"}", "in.json", &err), 0);
	assert_string_equal(profile_get(&p, PK_DESCRIPTION), "\\u0000");
	profile_release(&p);
	diag_release(&err);
}

/* The XDG spec: a relative XDG_* is ignored, for config and data as for the cache. */
static void test_relative_xdg_ignored(void **state)
{
	char *dir;
	unsetenv("MIRAGE_CONFIG");
	unsetenv("MIRAGE_DATA");
	setenv("HOME", "/home/u", 1);
	setenv("XDG_CONFIG_HOME", "relative/config", 1);
	setenv("XDG_DATA_HOME", "relative/data", 1);
	dir = mirage_config_dir();
	assert_string_equal(dir, "/home/u/.config/mirage");
	free(dir);
	assert_string_equal(mirage_config_dir_source(), "HOME");
	dir = mirage_data_dir();
	assert_string_equal(dir, "/home/u/.local/share/mirage");
	free(dir);
	assert_string_equal(mirage_data_dir_source(), "HOME");
	setenv("XDG_CONFIG_HOME", "/x/config", 1);
	dir = mirage_config_dir();
	assert_string_equal(dir, "/x/config/mirage");
	free(dir);
	assert_string_equal(mirage_config_dir_source(), "XDG_CONFIG_HOME");
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("XDG_DATA_HOME");
}

/* The store lock: one holder at a time, a bounded wait, planted lock files refused. */
static void test_store_lock(void **state)
{
	char dir[] = "/tmp/mirage-profiles-XXXXXX";
	struct profile_lock a = PROFILE_LOCK_INIT, b = PROFILE_LOCK_INIT;
	struct diag err = DIAG_INIT;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(setenv("MIRAGE_CONFIG", dir, 1), 0);
	char *lock = xstrfmt("%s/profiles/.lock", dir), *victim = xstrfmt("%s/victim", dir);

	assert_int_equal(profile_lock_store(&a, 1000, &err), 0); /* makes profiles/ */
	assert_true(a.fd >= 0);
	/* flock() conflicts between two open file descriptions, even in one process. */
	assert_int_equal(profile_lock_store(&b, 100, &err), -1);
	assert_non_null(strstr(err.msg.buf, "the profiles are busy: another process has held '"));
	assert_non_null(strstr(err.msg.buf, "/profiles/.lock' for 0.1 s"));
	assert_non_null(strstr(err.hint.buf, "let the other 'mirage profile' command finish"));
	assert_int_equal(b.fd, -1);
	profile_unlock_store(&a);
	profile_unlock_store(&a); /* twice is fine */
	assert_int_equal(profile_lock_store(&b, 100, &err), 0);
	profile_unlock_store(&b);

	assert_int_equal(unlink(lock), 0);
	assert_int_equal(symlink(victim, lock), 0);
	assert_int_equal(profile_lock_store(&a, 100, &err), -1);
	assert_non_null(strstr(err.msg.buf, "is a symbolic link"));
	assert_int_equal(access(victim, F_OK), -1); /* not created through the link */
	assert_int_equal(unlink(lock), 0);
	assert_int_equal(mkfifo(lock, 0600), 0);
	assert_int_equal(profile_lock_store(&a, 100, &err), -1);
	assert_non_null(strstr(err.msg.buf, "is not a regular file"));
	assert_int_equal(unlink(lock), 0);
	assert_int_equal(mkdir(lock, 0700), 0);
	assert_int_equal(profile_lock_store(&a, 100, &err), -1);
	assert_non_null(strstr(err.msg.buf, "/profiles/.lock' is a directory"));
	assert_non_null(strstr(err.hint.buf, "mirage makes it again"));
	assert_int_equal(rmdir(lock), 0);

	char *profiles = xstrfmt("%s/profiles", dir);
	assert_int_equal(rmdir(profiles), 0);
	assert_int_equal(rmdir(dir), 0);
	free(profiles);
	free(lock);
	free(victim);
	diag_release(&err);
}

/* The README's key table (key, flag, default) is checked against the key table, so the two never
 * drift. */
static void test_readme_lists_every_key(void **state)
{
	const char *src = getenv("MIRAGE_SRC");
	struct strbuf readme = STRBUF_INIT, row = STRBUF_INIT;
	assert_non_null(src);
	char *path = xstrfmt("%s/README.md", src);
	assert_int_equal(strbuf_read_file(&readme, path), 0);
	for (size_t i = 0; i < PK_COUNT; i++) {
		const struct profile_key *k = &profile_keys[i];
		strbuf_reset(&row);
		strbuf_addf(&row, "| `%s` `[%s]` | `--%s%s` | ", k->name, k->section,
		            k->type == PKEY_BOOL ? "[no-]" : "", k->flag);
		if (*k->def)
			strbuf_addf(&row, "`%s` |", k->def);
		else
			strbuf_addstr(&row, "empty |");
		if (!strstr(readme.buf, row.buf))
			fail_msg("README.md has no row starting '%s'", row.buf);
	}
	free(path);
	strbuf_release(&readme);
	strbuf_release(&row);
}

/* The store's lookup helpers: a bad name, a missing profile, a broken file that can still go. */
static void test_store_load_typed_exists_delete(void **state)
{
	char dir[] = "/tmp/mirage-profiles-XXXXXX";
	struct profile p;
	struct diag err = DIAG_INIT;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(setenv(MIRAGE_ENV_CONFIG, dir, 1), 0);

	assert_int_equal(profile_load_typed("a/b", &p, &err), PROFILE_BAD_NAME);
	assert_non_null(strstr(err.msg.buf, "invalid profile name 'a/b'"));
	profile_release(&p); /* initialised even when the name is bad */
	assert_int_equal(profile_load_typed("ghost", &p, &err), -1);
	assert_non_null(strstr(err.msg.buf, "profile 'ghost' not found in '"));
	assert_non_null(strstr(err.hint.buf, "makes one"));
	profile_release(&p);
	assert_int_equal(profile_exists("ghost", &err), -1);
	assert_non_null(strstr(err.msg.buf, "profile 'ghost' not found in '"));
	assert_int_equal(profile_delete("ghost", &err), -1);
	assert_non_null(strstr(err.msg.buf, "profile 'ghost' not found in '"));

	profile_init(&p, "one");
	assert_int_equal(profile_create(&p, &err), 0);
	profile_release(&p);
	/* A name is looked up by the rule of create: mixed case is refused, not folded. */
	assert_int_equal(profile_load_typed("ONE", &p, &err), PROFILE_BAD_NAME);
	assert_non_null(strstr(err.msg.buf, "invalid profile name 'ONE'"));
	profile_release(&p);
	assert_int_equal(profile_load_typed("one", &p, &err), 0);
	assert_string_equal(p.name, "one");
	profile_release(&p);
	assert_int_equal(profile_exists("one", &err), 0);

	char *path = profile_path("one");
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("[profile]\nname = one\n[gpu]\n", f);
	fclose(f);
	assert_int_equal(profile_load_typed("one", &p, &err), -1);
	profile_release(&p);
	assert_int_equal(profile_exists("one", &err), 0);
	assert_int_equal(profile_delete("one", &err), 0);
	assert_int_equal(access(path, F_OK), -1);
	free(path);

	char *profiles = xstrfmt("%s/profiles", dir), *lock = xstrfmt("%s/.lock", profiles);
	assert_int_equal(unlink(lock), 0); /* delete took the store lock */
	free(lock);
	assert_int_equal(rmdir(profiles), 0);
	assert_int_equal(rmdir(dir), 0);
	free(profiles);
	diag_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_defaults_are_valid),
	    cmocka_unit_test(test_validation_messages),
	    cmocka_unit_test(test_name_rule),
	    cmocka_unit_test(test_ini_round_trip),
	    cmocka_unit_test(test_ini_errors_name_line_and_key),
	    cmocka_unit_test(test_ini_long_env),
	    cmocka_unit_test(test_name_set),
	    cmocka_unit_test(test_json_ours_and_reference),
	    cmocka_unit_test(test_json_text_rules),
	    cmocka_unit_test(test_relative_xdg_ignored),
	    cmocka_unit_test(test_store_lock),
	    cmocka_unit_test(test_readme_lists_every_key),
	    cmocka_unit_test(test_store_load_typed_exists_delete),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
