#!/usr/bin/env bash
# tests/kernels/corpus/coverage.sh, the README's coverage report: its summary over real objects,
# and its errors (no objects, a bad command line) with message and exit code.
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
done_testing
