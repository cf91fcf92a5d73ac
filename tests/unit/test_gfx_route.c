/*
 * The routes: every pair of the gfx table against the routes docs/translate.md and
 * docs/rewriter.md promise (gfx1250 onto gfx942 and gfx950 by translation, each gfx12.5
 * processor onto itself), so a column edit that opens or closes a route fails here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gfx_route.h"

#include <string.h>

static const struct {
	const char *src, *dst;
	enum gfx_route route;
} promised[] = {
    {"gfx1250", "gfx942", GFX_ROUTE_TRANSLATE},
    {"gfx1250", "gfx950", GFX_ROUTE_TRANSLATE},
    {"gfx1250", "gfx1250", GFX_ROUTE_SAME_ISA},
    {"gfx1251", "gfx1251", GFX_ROUTE_SAME_ISA},
};

static enum gfx_route promise(const char *src, const char *dst)
{
	for (size_t i = 0; i < sizeof(promised) / sizeof(promised[0]); i++)
		if (!strcmp(promised[i].src, src) && !strcmp(promised[i].dst, dst))
			return promised[i].route;
	return GFX_ROUTE_NONE;
}

static void test_every_pair(void **state)
{
	size_t n, found = 0;
	const struct gfx_info *t = gfx_table(&n);
	(void)state;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			enum gfx_route r = gfx_route(&t[i], &t[j]);
			if (r != promise(t[i].name, t[j].name))
				fail_msg("%s -> %s: route %d, promised %d", t[i].name, t[j].name, r,
				         promise(t[i].name, t[j].name));
			found += r != GFX_ROUTE_NONE;
		}
	assert_int_equal(found, sizeof(promised) / sizeof(promised[0]));
}

/* The pairs a new user tried that must not exist (gfx1250 code does not run on a gfx1251). */
static void test_no_route(void **state)
{
	(void)state;
	assert_int_equal(gfx_route_by_name("gfx1250", "gfx1251"), GFX_ROUTE_NONE);
	assert_int_equal(gfx_route_by_name("gfx1251", "gfx942"), GFX_ROUTE_NONE);
	assert_int_equal(gfx_route_by_name("gfx942", "gfx1250"), GFX_ROUTE_NONE);
	assert_int_equal(gfx_route_by_name("gfx942", "gfx942"), GFX_ROUTE_NONE);
	assert_int_equal(gfx_route_by_name("gfx12-5-generic", "gfx942"), GFX_ROUTE_NONE);
	assert_int_equal(gfx_route_by_name(NULL, "gfx942"), GFX_ROUTE_NONE);
	assert_int_equal(gfx_route_by_name("gfx1250", "nosuch"), GFX_ROUTE_NONE);
	assert_int_equal(gfx_route(NULL, NULL), GFX_ROUTE_NONE);
}

static void test_text(void **state)
{
	char buf[256], small[12];
	(void)state;
	assert_string_equal(gfx_routes_text(NULL, buf, sizeof(buf)),
	                    "gfx1250 -> gfx942, gfx1250 -> gfx950, gfx1250 -> gfx1250, "
	                    "gfx1251 -> gfx1251");
	assert_string_equal(gfx_routes_text("gfx1250", buf, sizeof(buf)),
	                    "gfx942, gfx950, gfx1250");
	assert_string_equal(gfx_routes_text("gfx1251", buf, sizeof(buf)), "gfx1251");
	assert_string_equal(gfx_routes_text("gfx942", buf, sizeof(buf)), "none");
	assert_string_equal(gfx_routes_text("nosuch", buf, sizeof(buf)), "none");
	/* Cut short, terminated, never overrun. */
	memset(small, 'x', sizeof(small));
	gfx_routes_text(NULL, small, sizeof(small));
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_memory_equal(small, "gfx1250 -> ", sizeof(small) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_pair),
	    cmocka_unit_test(test_no_route),
	    cmocka_unit_test(test_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
