/*
 * The cache sidecar's reader and writer, judged by cJSON (a JSON library we did not write):
 * what sidecar_format writes, cJSON reads back field for field; what cJSON prints (the
 * sidecars of earlier versions), sidecar_parse reads the same; text that breaks JSON's grammar
 * (RFC 8259) or a sidecar's shape is refused with the offset of the fault.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "sidecar.h"

/* Strings a sidecar may carry: quotes, backslashes, every control character, UTF-8. */
static const char *const awkward[] = {
    "plain",
    "",
    "a \"quoted\" \\ back\\slash / slash",
    "\b\f\n\r\t\x01\x1f\x7f",
    "gfx942:sramecc+:xnack-",
    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
};

static void test_written_text_reads_back_in_cjson(void **state)
{
	struct sidecar_item items[sizeof(awkward) / sizeof(awkward[0]) + 3];
	char names[sizeof(awkward) / sizeof(awkward[0])][16];
	size_t n = 0;
	char *text;
	cJSON *doc;

	(void)state;
	for (size_t i = 0; i < sizeof(awkward) / sizeof(awkward[0]); i++) {
		snprintf(names[i], sizeof(names[i]), "s%zu", i);
		items[n++] = (struct sidecar_item){names[i], awkward[i], 0};
	}
	items[n++] = (struct sidecar_item){"zero", NULL, 0};
	items[n++] = (struct sidecar_item){"size", NULL, 124760};
	items[n++] = (struct sidecar_item){"big", NULL, UINT64_C(9007199254740992)};
	text = sidecar_format(items, n);
	assert_non_null(text);
	doc = cJSON_Parse(text);
	assert_non_null(doc);
	assert_int_equal(cJSON_GetArraySize(doc), n);
	for (size_t i = 0; i < n; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, items[i].name);
		assert_non_null(v);
		if (items[i].str) {
			assert_true(cJSON_IsString(v));
			assert_string_equal(v->valuestring, items[i].str);
		} else {
			assert_true(cJSON_IsNumber(v));
			assert_true(v->valuedouble == (double)items[i].uint);
		}
	}
	/* And our own reader agrees. */
	struct sidecar s;
	char why[160];
	uint64_t u;
	assert_int_equal(sidecar_parse(&s, text, strlen(text), why, sizeof(why)), 0);
	for (size_t i = 0; i < n; i++) {
		if (items[i].str) {
			assert_string_equal(sidecar_str(&s, items[i].name), items[i].str);
		} else {
			assert_true(sidecar_uint(&s, items[i].name, &u));
			assert_true(u == items[i].uint);
		}
	}
	sidecar_free(&s);
	cJSON_Delete(doc);
	free(text);
}

/* What cJSON_Print wrote (the sidecars already on users' disks) reads the same here. */
static void test_cjson_printed_text_reads_the_same(void **state)
{
	cJSON *o = cJSON_CreateObject();
	struct sidecar s;
	char why[160], *text;
	uint64_t u;

	(void)state;
	for (size_t i = 0; i < sizeof(awkward) / sizeof(awkward[0]); i++) {
		char name[16];
		snprintf(name, sizeof(name), "s%zu", i);
		cJSON_AddStringToObject(o, name, awkward[i]);
	}
	cJSON_AddNumberToObject(o, "output_size", 124760);
	cJSON_AddNumberToObject(o, "kernels", 64);
	cJSON_AddNumberToObject(o, "fraction", 1.5);
	cJSON_AddNumberToObject(o, "negative", -3);
	cJSON_AddBoolToObject(o, "flag", 1);
	cJSON_AddNullToObject(o, "nothing");
	for (int pretty = 0; pretty < 2; pretty++) {
		text = pretty ? cJSON_Print(o) : cJSON_PrintUnformatted(o);
		assert_non_null(text);
		assert_int_equal(sidecar_parse(&s, text, strlen(text), why, sizeof(why)), 0);
		for (size_t i = 0; i < sizeof(awkward) / sizeof(awkward[0]); i++) {
			char name[16];
			snprintf(name, sizeof(name), "s%zu", i);
			assert_string_equal(sidecar_str(&s, name), awkward[i]);
		}
		assert_true(sidecar_uint(&s, "output_size", &u) && u == 124760);
		assert_true(sidecar_uint(&s, "kernels", &u) && u == 64);
		/* Numbers that are not plain non-negative integers are not sizes. */
		assert_false(sidecar_uint(&s, "fraction", &u));
		assert_false(sidecar_uint(&s, "negative", &u));
		assert_false(sidecar_uint(&s, "flag", &u));
		assert_null(sidecar_str(&s, "nothing"));
		assert_null(sidecar_str(&s, "output_size"));
		assert_null(sidecar_str(&s, "absent"));
		sidecar_free(&s);
		cJSON_free(text);
	}
	cJSON_Delete(o);
}

/* Escapes as other writers spell them: \u in both cases, surrogate pairs, \/. */
static void test_escapes_decode_as_cjson_decodes_them(void **state)
{
	static const char *const texts[] = {
	    "{\"a\":\"\\u0041\\u00e9\\u20AC\\ud83d\\ude00\\/\"}",
	    "{ \"a\" : \"x\\ty\" ,\"b\":0 }",
	    " \r\n\t{}\n",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct sidecar s;
		char why[160];
		cJSON *doc = cJSON_Parse(texts[i]);
		const cJSON *a;
		assert_non_null(doc);
		assert_int_equal(sidecar_parse(&s, texts[i], strlen(texts[i]), why, sizeof(why)),
		                 0);
		a = cJSON_GetObjectItemCaseSensitive(doc, "a");
		if (a)
			assert_string_equal(sidecar_str(&s, "a"), a->valuestring);
		assert_int_equal(s.n, (size_t)cJSON_GetArraySize(doc));
		sidecar_free(&s);
		cJSON_Delete(doc);
	}
}

/* Every refusal names where the text goes wrong. */
static void test_bad_text_is_refused_with_its_offset(void **state)
{
	static const struct {
		const char *text;
		const char *why;
	} bad[] = {
	    {"", "at byte 0: a JSON object expected"},
	    {"[1]", "at byte 0: a JSON object expected"},
	    {"{\"a\":\"x\"", "at byte 8: ',' or '}' expected"},
	    {"{\"a\":\"x", "at byte 7: the text ends inside a string"},
	    {"{\"a\":{}}", "at byte 5: a nested object"},
	    {"{\"a\":[1]}", "at byte 5: a nested array"},
	    {"{\"a\":1,\"a\":2}", "at byte 10: field 'a' appears twice"},
	    {"{\"a\":01}", "at byte 5: a number with a leading zero"},
	    {"{\"a\":1.}", "at byte 7: a fraction wants a digit"},
	    {"{\"a\":-}", "at byte 6: a number wants a digit"},
	    {"{\"a\":tru}", "at byte 5: not a JSON value"},
	    {"{\"a\":\"\\q\"}", "at byte 7: an unknown escape"},
	    {"{\"a\":\"\\u12\"}", "\\u wants four hex digits"},
	    {"{\"a\":\"\\u0000\"}", "a NUL"},
	    {"{\"a\":\"\\ude00\"}", "a low surrogate without its high one"},
	    {"{\"a\":\"\\ud83dx\"}", "a high surrogate without its low one"},
	    {"{\"a\":\"tab\there\"}", "at byte 9: a control character (0x09)"},
	    {"{\"a\" 1}", "at byte 5: ':' expected after field 'a'"},
	    {"{a:1}", "at byte 1: a field name (a string) expected"},
	    {"{\"a\":1} x", "at byte 8: text after the object"},
	    {"{\"a\":1,}", "at byte 7: a field name"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sidecar s;
		char why[160] = "";
		int rc = sidecar_parse(&s, bad[i].text, strlen(bad[i].text), why, sizeof(why));
		if (rc != -1 || !strstr(why, bad[i].why))
			fail_msg("'%s': rc %d, why '%s', want '%s'", bad[i].text, rc, why,
			         bad[i].why);
		sidecar_free(&s);
	}
}

/* A NUL inside the text, more fields than a sidecar has, and a text cut at every byte. */
static void test_nul_too_many_fields_and_every_truncation(void **state)
{
	static const char with_nul[] = "{\"a\":\"x\0y\"}";
	struct sidecar s;
	char why[160], text[1024], *good;
	size_t n = 0;

	(void)state;
	assert_int_equal(sidecar_parse(&s, with_nul, sizeof(with_nul) - 1, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "at byte 7: a control character (0x00)"));
	sidecar_free(&s);
	n += (size_t)snprintf(text, sizeof(text), "{");
	for (int i = 0; i <= SIDECAR_MAX_FIELDS; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s\"f%d\":%d", i ? "," : "", i,
		                      i);
	snprintf(text + n, sizeof(text) - n, "}");
	assert_int_equal(sidecar_parse(&s, text, strlen(text), why, sizeof(why)), -1);
	assert_non_null(strstr(why, "more than 32 fields"));
	sidecar_free(&s);
	good = sidecar_format(
	    (const struct sidecar_item[]){{"key", "ab\"c", 0}, {"output_size", NULL, 7}}, 2);
	assert_non_null(good);
	for (size_t cut = 0; cut < strlen(good); cut++) {
		assert_int_equal(sidecar_parse(&s, good, cut, why, sizeof(why)), -1);
		sidecar_free(&s);
	}
	free(good);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_written_text_reads_back_in_cjson),
	    cmocka_unit_test(test_cjson_printed_text_reads_the_same),
	    cmocka_unit_test(test_escapes_decode_as_cjson_decodes_them),
	    cmocka_unit_test(test_bad_text_is_refused_with_its_offset),
	    cmocka_unit_test(test_nul_too_many_fields_and_every_truncation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
