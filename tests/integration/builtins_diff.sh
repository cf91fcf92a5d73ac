# The builtin differential test (tests/builtins/README.md): tests/builtins/gen.py's kernels
# (the OpenCL C 1.2 integer and float builtins, every scalar type and one vector width per
# builtin and type) built for gfx1250 by clang-22 with libclc-22, run by mirage emulate and by
# POCL on the same edge-value inputs and compared (integers exact, floats bit-exact with NaN
# as a class).  Two runs, each of every kernel translated for gfx942 and for gfx950 and
# emulated again (the round trip): at -O2 and -O3; and at -O0 (libclc's calls not inlined:
# calls, raised inline, docs/raiser.md "Calls"; the private stack, 64-bit constants built in
# SGPR pairs).  Every vector width is the sweep's (README: `cmake --build build --target
# builtins_sweep`), too slow for the default suite.  The two runs are the ones
# `coverage-update` makes for the builtins part of the coverage report
# (tests/kernels/README.md, "Builtin kernels"): tests/coverage/builtins.py checks every figure
# and exception line of it.  A refusal
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
	cp "$TEST_TMP/$name.json" "$MIRAGE_BUILD/tests/builtins/kernels-$name.json" 2>/dev/null
}

run o2o3 --levels O2,O3 --targets gfx942,gfx950 --self-check --kernel-report "$TEST_TMP/o2o3.json"
assert_contains "$TEST_TMP/o2o3.log" "self-check: ok: a flipped bit" "a corrupted reference byte is reported"
assert_contains "$TEST_TMP/o2o3.log" "is reported as an XPASS" "an xfail entry that passes is reported"
for stage in gfx1250 gfx942 gfx950; do
	for lv in O2 O3; do
		assert_contains "$TEST_TMP/o2o3.log" "builtins: $stage -$lv: 200 kernels" "a summary for $stage -$lv, every kernel"
	done
done
assert_eq "$rc" 0 "-O2, -O3: every mismatch is in xfail.txt and every xfail still fails (report: build/tests/builtins/report-o2o3.txt)"

run o0 --levels O0 --targets gfx942,gfx950 --kernel-report "$TEST_TMP/o0.json"
for stage in gfx1250 gfx942 gfx950; do
	assert_contains "$TEST_TMP/o0.log" "builtins: $stage -O0: 200 kernels" "a summary for $stage -O0, every kernel"
done
assert_eq "$rc" 0 "-O0: every mismatch is in xfail.txt and every xfail still fails (report: build/tests/builtins/report-o0.txt)"

# The sweep's k_binary_long16 at -O2, where clang-22 needs VGPRs above v255 from the first
# instruction on and folds their bank into the prologue's MODE write (imm32[19:12]): the
# decoder that read that write as no bank change had every lane but one store nothing
# (integration/emulate_vgpr_banks has the rule alone).
run_capture "$PYTHON" "$src/gen.py" --set sweep "$TEST_TMP/gen-sweep"
assert_eq "$RUN_STATUS" 0 "gen.py writes the sweep's kernels"
"$PYTHON" "$src/run.py" --gen "$TEST_TMP/gen-sweep" --work "$TEST_TMP/banks" --mirage "$MIRAGE_BIN" \
	--pocl-batch "$POCL_BATCH" --clang "$CLANG" --lld "$LD_LLD" --objdump "$LLVM_OBJDUMP" \
	--xfail "$src/xfail.txt" --jobs 2 --levels O2 --targets gfx942 --filter '^k_binary_long16$' \
	>"$TEST_TMP/banks.log" 2>&1
assert_eq "$?" 0 "k_binary_long16 at -O2 gives POCL's bytes on gfx1250 and through gfx942 ($(tail -n 3 "$TEST_TMP/banks.log"))"
prologue=$("$LLVM_OBJDUMP" -d "$TEST_TMP/banks/obj/O2/int_long.co" --disassemble-symbols=k_binary_long16 |
	grep -m1 -o 's_setreg_imm32_b32 hwreg(HW_REG_WAVE_MODE, 25, 1), 0x[0-9a-f]*')
imm=${prologue##*, }
assert_ne "$((${imm:-0} >> 12 & 0xff))" 0 "its prologue sets a VGPR bank (${prologue:-no MODE write})"

# The coverage report's builtins part (tests/kernels/README.md, "Builtin kernels") is what these
# runs give, on every figure and exception line.
check=$MIRAGE_SRC/tests/coverage/builtins.py
readme=$MIRAGE_SRC/tests/kernels/README.md
run_capture "$PYTHON" "$check" check "$readme" --line "$MIRAGE_SRC/README.md" "$TEST_TMP/o2o3.json" "$TEST_TMP/o0.json"
sed 's/^/# /' "$RUN_STDOUT_FILE" | head -60
assert_eq "$RUN_STATUS" 0 "tests/kernels/README.md's section builtins and README.md's line are this build's (else: cmake --build $MIRAGE_BUILD --target coverage-update, and commit it)"
# The check bites: one changed figure of the -O2 table is reported, naming it.
sed '/^#### -O2$/,/^#### /s/^| \*\*total\*\* | \([0-9]*\) | \([0-9]*\) | \([0-9]*\) |/| **total** | \1 | \2 | 1\3 |/' \
	"$readme" >"$TEST_TMP/changed.md"
run_capture "$PYTHON" "$check" check "$TEST_TMP/changed.md" "$TEST_TMP/o2o3.json" "$TEST_TMP/o0.json"
assert_eq "$RUN_STATUS" 1 "a changed figure of the section is reported"
assert_contains "$RUN_STDOUT" "-O2 **total** raised: checked in 1" "and the difference names the level, the row and the column"
done_testing
