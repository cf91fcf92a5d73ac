#!/usr/bin/env bash
# The builtin differential test (tests/builtins/README.md): tests/builtins/gen.py's kernels
# (the OpenCL C 1.2 integer and float builtins, every scalar type and one vector width per
# builtin and type) built for gfx1250 at -O2 with libclc-22, run by mirage emulate and by
# POCL on the same edge-value inputs and compared (integers exact, floats bit-exact with NaN
# as a class); then the scalar kernels translated for gfx942 and emulated again.  -O0, gfx950
# and every vector width are the sweep's (README: `cmake --build build --target
# builtins_sweep`), too slow for the default suite.  A refusal
# is counted, not failed; a mismatch or fault fails unless tests/builtins/xfail.txt lists it,
# and a listed case that matches fails until its line is removed.  The self-check: a flipped
# bit of POCL's output is a mismatch and an xfail entry of a matching case is an XPASS.
# shellcheck source=lib.sh
source "$TEST_LIB"

src=$MIRAGE_SRC/tests/builtins
[ -x "$POCL_BATCH" ] || skip_all "no POCL reference (OpenCL headers and libOpenCL)"
[ -f /usr/lib/clc/amdgcn-amd-amdhsa.bc ] || skip_all "no libclc-22 (/usr/lib/clc/amdgcn-amd-amdhsa.bc)"
# POCL's compiled kernels persist under the build tree: it compiles them on the first run only.
export POCL_CACHE_DIR=$MIRAGE_BUILD/tests/builtins/pocl-cache
mkdir -p "$POCL_CACHE_DIR"

run_capture "$PYTHON" "$src/gen.py" "$TEST_TMP/gen"
assert_eq "$RUN_STATUS" 0 "gen.py writes the kernels: ${RUN_STDOUT#gen.py: }"

"$PYTHON" "$src/run.py" --gen "$TEST_TMP/gen" --work "$TEST_TMP/work" --mirage "$MIRAGE_BIN" \
	--pocl-batch "$POCL_BATCH" --clang "$CLANG" --lld "$LD_LLD" --xfail "$src/xfail.txt" \
	--levels O2 --targets gfx942 --rt-filter '_(u?(char|short|int|long)|float|double)$' \
	--self-check --jobs 2 | tee "$TEST_TMP/run.log"
rc=${PIPESTATUS[0]}
[ "$rc" != 77 ] || skip_all "$(grep -m1 'skip' "$TEST_TMP/run.log")"
mkdir -p "$MIRAGE_BUILD/tests/builtins"
cp "$TEST_TMP/work/report.txt" "$MIRAGE_BUILD/tests/builtins/report.txt" 2>/dev/null
assert_contains "$TEST_TMP/run.log" "self-check: ok: a flipped bit" "a corrupted reference byte is reported"
assert_contains "$TEST_TMP/run.log" "is reported as an XPASS" "an xfail entry that passes is reported"
for stage in gfx1250 gfx942; do
	assert_contains "$TEST_TMP/run.log" "builtins: $stage -O2: " "a summary for $stage -O2"
done
assert_eq "$rc" 0 "every mismatch is in xfail.txt and every xfail still fails (report: build/tests/builtins/report.txt)"
done_testing
