#!/usr/bin/env bash
# One launch file of the kernel suite ($LAUNCH, kernel $KERNEL) run by `mirage emulate` on the
# $TARGET object (gfx1250, wave32; or gfx942, wave64) built at -$OPT, compared with the host-C
# reference and (where installed) POCL as tests/kernels/check/$KERNEL.json says, their
# sub-groups as wide as the target's waves; then a shuffled schedule gives the same bytes
# (the suite's kernels are race-free).
# shellcheck source=lib.sh
source "$TEST_LIB"
# shellcheck source=emulate_lib.sh
source "$MIRAGE_SRC/tests/integration/emulate_lib.sh"

bin=$KERNELS_BIN
target=${TARGET:-gfx1250}
co=$MIRAGE_BUILD/tests/kernels/$target/$OPT/$KERNEL.co
sub_group=32
[ "$target" = gfx1250 ] || sub_group=64
[ -f "$co" ] || fail "$co is built"

emulate_object "$TEST_TMP/emu" "$co"
assert_eq "$RUN_STATUS" 0 "mirage emulate runs $KERNEL -$OPT ($target)"
assert_eq "$RUN_STDOUT" "" "mirage emulate prints nothing on stdout without --json"

host_reference "$TEST_TMP/host" "$sub_group"
compare_outputs "$TEST_TMP/host" "$TEST_TMP/emu" \
	"mirage emulate agrees with host C on every output buffer"

# The golden rows (tests/integration/suite_golden.list): every output buffer, and
# `mirage raise --json` of the object (run where it is, so that no build path enters it).
key="emulate $target $OPT $(basename "$LAUNCH" .json)"
for f in "$TEST_TMP/emu"/*.bin; do
	echo "$key $(basename "$f") $(sha256sum <"$f" | cut -d' ' -f1)"
done >"$TEST_TMP/golden.rows"
(cd "$TEST_TMP/emu" && "$MIRAGE_BIN" raise "$KERNEL.co" --json) >"$TEST_TMP/raise.json"
echo "$key raise:$? $(sha256sum <"$TEST_TMP/raise.json" | cut -d' ' -f1)" >>"$TEST_TMP/golden.rows"
golden_check "$MIRAGE_SRC/tests/integration/suite_golden.list" "$key" "$TEST_TMP/golden.rows" \
	"the outputs and raise --json of $KERNEL -$OPT ($target)"

emulate_object "$TEST_TMP/shuffled" "$co" --schedule shuffle:12345
assert_eq "$RUN_STATUS" 0 "mirage emulate --schedule shuffle:12345 runs"
same_bytes "$TEST_TMP/emu" "$TEST_TMP/shuffled" "shuffled schedule gives the same"

if [ -x "$bin/pocl_ref" ] && [ "$OPT" = O2 ]; then
	export POCL_CACHE_DIR=$MIRAGE_BUILD/tests/kernels/pocl-cache
	mkdir -p "$TEST_TMP/pocl"
	run_capture env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$bin/pocl_ref" \
		"$LAUNCH" --output-dir "$TEST_TMP/pocl" --source "$MIRAGE_SRC/tests/kernels/$KERNEL.cl" \
		--prelude "$MIRAGE_SRC/tests/kernels/prelude/pocl.h" --sub-group-size "$sub_group"
	if [ "$RUN_STATUS" -eq 77 ]; then
		skip "POCL: $(head -n1 "$RUN_STDERR_FILE")"
	else
		assert_eq "$RUN_STATUS" 0 "pocl_ref runs the launch"
		compare_outputs "$TEST_TMP/pocl" "$TEST_TMP/emu" \
			"mirage emulate agrees with POCL on every output buffer"
	fi
fi
done_testing
