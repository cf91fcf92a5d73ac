#!/usr/bin/env bash
# One launch file of the kernel suite ($LAUNCH, kernel $KERNEL) run by `mirage emulate` on the
# $TARGET object (gfx1250, wave32; or gfx942, wave64) built at -$OPT, compared with the host-C
# reference and (where installed) POCL as tests/kernels/check/$KERNEL.json says, their
# sub-groups as wide as the target's waves; then a shuffled schedule gives the same bytes
# (the suite's kernels are race-free).
# shellcheck source=lib.sh
source "$TEST_LIB"

bin=$MIRAGE_BUILD/tests/kernels/bin
target=${TARGET:-gfx1250}
co=$MIRAGE_BUILD/tests/kernels/$target/$OPT/$KERNEL.co
sub_group=32
[ "$target" = gfx1250 ] || sub_group=64
check=$MIRAGE_SRC/tests/kernels/check/$KERNEL.json
[ -f "$co" ] || fail "$co is built"

# emulate DIR [ARGS...]: the launch file, its object beside it, outputs land in DIR.
emulate() {
	local dir=$1
	shift
	mkdir -p "$dir"
	cp "$LAUNCH" "$dir/launch.json"
	cp "$co" "$dir/$KERNEL.co"
	run_capture "$MIRAGE_BIN" emulate "$dir/launch.json" "$@"
}

emulate "$TEST_TMP/emu"
assert_eq "$RUN_STATUS" 0 "mirage emulate runs $KERNEL -$OPT ($target)"
assert_eq "$RUN_STDOUT" "" "mirage emulate prints nothing on stdout without --json"

mkdir -p "$TEST_TMP/host" "$TEST_TMP/pocl"
run_capture "$bin/host_ref_$KERNEL" "$LAUNCH" --output-dir "$TEST_TMP/host" \
	--sub-group-size "$sub_group"
assert_eq "$RUN_STATUS" 0 "host_ref_$KERNEL runs the launch"
run_capture "$bin/kernel_compare" "$LAUNCH" "$check" "$TEST_TMP/host" "$TEST_TMP/emu"
assert_eq "$RUN_STATUS" 0 "mirage emulate agrees with host C on every output buffer"

emulate "$TEST_TMP/shuffled" --schedule shuffle:12345
assert_eq "$RUN_STATUS" 0 "mirage emulate --schedule shuffle:12345 runs"
for f in "$TEST_TMP"/emu/*.bin; do
	cmp -s "$f" "$TEST_TMP/shuffled/$(basename "$f")" ||
		fail "shuffled schedule gives the same $(basename "$f")"
	ok "shuffled schedule gives the same $(basename "$f")"
done

if [ -x "$bin/pocl_ref" ] && [ "$OPT" = O2 ]; then
	export POCL_CACHE_DIR=$MIRAGE_BUILD/tests/kernels/pocl-cache
	run_capture env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$bin/pocl_ref" \
		"$LAUNCH" --output-dir "$TEST_TMP/pocl" --source "$MIRAGE_SRC/tests/kernels/$KERNEL.cl" \
		--prelude "$MIRAGE_SRC/tests/kernels/prelude/pocl.h" --sub-group-size "$sub_group"
	if [ "$RUN_STATUS" -eq 77 ]; then
		skip "POCL: $(head -n1 "$RUN_STDERR_FILE")"
	else
		assert_eq "$RUN_STATUS" 0 "pocl_ref runs the launch"
		run_capture "$bin/kernel_compare" "$LAUNCH" "$check" "$TEST_TMP/pocl" "$TEST_TMP/emu"
		assert_eq "$RUN_STATUS" 0 "mirage emulate agrees with POCL on every output buffer"
	fi
fi
done_testing
