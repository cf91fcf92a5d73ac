# The builtin differential test (tests/builtins/README.md): tests/builtins/gen.py's kernels
# (the OpenCL C 1.2 integer and float builtins, every scalar type and one vector width per
# builtin and type) built for gfx1250 by clang-22 with libclc-22, run by mirage emulate and by
# POCL on the same edge-value inputs and compared (integers exact, floats bit-exact with NaN
# as a class).  Three runs: every kernel at -O2, with the scalar kernels translated for gfx942
# and emulated again; every kernel at -O0 (libclc's calls not inlined: calls, the private
# stack, 64-bit constants built in SGPR pairs; most take the host JIT's quick tier,
# docs/emulate.md "Compile tiers"); and the uchar, int, uint, ulong, float and double kernels at
# -O2 translated for gfx950.  gfx950 on every kernel, the -O0 round trip and every vector
# width are the sweep's (README: `cmake --build build --target builtins_sweep`), too slow for
# the default suite.  A refusal
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

# run NAME ARGS...: one run.py run into $TEST_TMP/NAME; its log is $TEST_TMP/NAME.log and its
# exit status $rc (77: skipped).
run() {
	local name=$1
	shift
	"$PYTHON" "$src/run.py" --gen "$TEST_TMP/gen" --work "$TEST_TMP/$name" --mirage "$MIRAGE_BIN" \
		--pocl-batch "$POCL_BATCH" --clang "$CLANG" --lld "$LD_LLD" --objdump "$LLVM_OBJDUMP" --xfail "$src/xfail.txt" \
		--jobs 2 "$@" | tee "$TEST_TMP/$name.log"
	rc=${PIPESTATUS[0]}
	[ "$rc" != 77 ] || skip_all "$(grep -m1 'skip' "$TEST_TMP/$name.log")"
	mkdir -p "$MIRAGE_BUILD/tests/builtins"
	cp "$TEST_TMP/$name/report.txt" "$MIRAGE_BUILD/tests/builtins/report-$name.txt" 2>/dev/null
}
scalar='_(u?(char|short|int|long)|float|double)$'

run o2 --levels O2 --targets gfx942 --rt-filter "$scalar" --self-check
assert_contains "$TEST_TMP/o2.log" "self-check: ok: a flipped bit" "a corrupted reference byte is reported"
assert_contains "$TEST_TMP/o2.log" "is reported as an XPASS" "an xfail entry that passes is reported"
for stage in gfx1250 gfx942; do
	assert_contains "$TEST_TMP/o2.log" "builtins: $stage -O2: " "a summary for $stage -O2"
done
assert_eq "$rc" 0 "-O2: every mismatch is in xfail.txt and every xfail still fails (report: build/tests/builtins/report-o2.txt)"

run o0 --levels O0 --targets ''
assert_contains "$TEST_TMP/o0.log" "builtins: gfx1250 -O0: 200 kernels" "a summary for gfx1250 -O0, every kernel"
assert_eq "$rc" 0 "-O0: every mismatch is in xfail.txt and every xfail still fails (report: build/tests/builtins/report-o0.txt)"

run gfx950 --levels O2 --targets gfx950 --filter '_(uchar|u?int|ulong|float|double)$'
assert_contains "$TEST_TMP/gfx950.log" "builtins: gfx950 -O2: " "a summary for gfx950 -O2"
assert_eq "$rc" 0 "gfx950: every mismatch is in xfail.txt and every xfail still fails (report: build/tests/builtins/report-gfx950.txt)"
done_testing
