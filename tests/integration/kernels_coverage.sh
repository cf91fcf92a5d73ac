#!/usr/bin/env bash
# tests/kernels/corpus/coverage.sh, the README's coverage report: its summary over real objects
# (all, or the first --limit N), and its errors (no objects, a bad command line) with message
# and exit code.
# shellcheck source=/dev/null
. "$TEST_LIB"

COV=$MIRAGE_SRC/tests/kernels/corpus/coverage.sh

mkdir -p "$TEST_TMP/empty" "$TEST_TMP/objs"
run_capture bash "$COV" --objects "$TEST_TMP/empty" --mirage "$MIRAGE_BIN"
assert_eq "$RUN_STATUS" 1 "no objects: exit 1"
assert_contains "$RUN_STDERR" "coverage.sh: no code objects in '$TEST_TMP/empty'" "no objects: named"
assert_contains "$RUN_STDERR" "hint: build some first" "no objects: the fix"

run_capture bash "$COV" --frobnicate
assert_eq "$RUN_STATUS" 2 "a bad flag: exit 2"
assert_contains "$RUN_STDERR" "usage: coverage.sh" "a bad flag: the usage"

# The bundled example (two kernels that raise) and a gfx942 fixture (refused as a whole).
cp "$MIRAGE_BUILD/examples/vector_add.co" "$TEST_TMP/objs/a.co"
run_capture bash "$COV" --objects "$TEST_TMP/objs" --mirage "$MIRAGE_BIN"
assert_eq "$RUN_STATUS" 0 "a summary: exit 0"
assert_contains "$RUN_STDOUT" "objects: 1, kernels: 2," "a summary: counts the kernels"
assert_contains "$RUN_STDOUT" "raised: 2 (100.0%)" "a summary: the share raised"
cp "$FIXTURES/gfx942.co" "$TEST_TMP/objs/b.co"
run_capture bash "$COV" --objects "$TEST_TMP/objs" --mirage "$MIRAGE_BIN"
assert_eq "$RUN_STATUS" 0 "a refusal is counted, not an error"
assert_contains "$RUN_STDOUT" "objects: 2," "two objects"
run_capture bash "$COV" --objects "$TEST_TMP/objs" --mirage "$MIRAGE_BIN" --limit 1
assert_contains "$RUN_STDOUT" "objects: 1, kernels: 2," "--limit 1: the first object by name"
run_capture bash "$COV" --limit some
assert_eq "$RUN_STATUS" 2 "a bad --limit: exit 2"
assert_contains "$RUN_STDERR" "coverage.sh: --limit takes a number" "a bad --limit: named"

# translate_coverage.sh shares the command line and the object list (corpus_lib.sh).
TCOV=$MIRAGE_SRC/tests/kernels/corpus/translate_coverage.sh
run_capture bash "$TCOV" --objects "$TEST_TMP/empty" --mirage "$MIRAGE_BIN"
assert_eq "$RUN_STATUS" 1 "translate_coverage, no objects: exit 1"
assert_contains "$RUN_STDERR" "translate_coverage.sh: no code objects in '$TEST_TMP/empty'" \
	"translate_coverage, no objects: named"
run_capture bash "$TCOV" --target
assert_eq "$RUN_STATUS" 2 "translate_coverage, a flag without its value: exit 2"
assert_contains "$RUN_STDERR" "usage: translate_coverage.sh" "translate_coverage: the usage"
# Two suite kernels: saxpy -O2 proves containment, -O0 is translated in whole-wave mode.
mkdir -p "$TEST_TMP/suite"
cp "$MIRAGE_BUILD/tests/kernels/gfx1250/O2/saxpy.co" "$TEST_TMP/suite/saxpy.O2.co"
cp "$MIRAGE_BUILD/tests/kernels/gfx1250/O0/saxpy.co" "$TEST_TMP/suite/saxpy.O0.co"
run_capture bash "$TCOV" --objects "$TEST_TMP/suite" --mirage "$MIRAGE_BIN"
assert_eq "$RUN_STATUS" 0 "translate_coverage: a summary, exit 0"
assert_contains "$RUN_STDOUT" "gfx942: objects: 2, kernels: 2" "translate_coverage: the counts"
assert_contains "$RUN_STDOUT" "translated: 2 (100.0%): proven 1, in whole-wave mode 1" \
	"translate_coverage: proven and whole-wave"
assert_contains "$RUN_STDOUT" "raised again (gfx942 output, the gfx942 table): 2 (100.0%)" \
	"translate_coverage: the outputs raise again"
done_testing
