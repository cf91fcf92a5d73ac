#!/usr/bin/env bash
# The kernel suite's code objects, built at test-build time for every target and -O level:
# each is an AMDGPU ELF with its kernels' .kd symbols and metadata .args matching the launch
# files (judged by llvm-readelf, not by our reader).
# shellcheck source=lib.sh
source "$TEST_LIB"

for target in $KERNEL_TARGETS; do
	for opt in $KERNEL_OPT_LEVELS; do
		objs=()
		for k in $KERNEL_LIST; do
			objs+=("$KERNELS_OUT/$target/$opt/$k.co")
		done
		missing=0
		for o in "${objs[@]}"; do
			[ -f "$o" ] || { echo "# missing $o"; missing=1; }
		done
		[ $missing -eq 0 ] || fail "$target -$opt: every object is built"
		run_capture "$PYTHON" "$KERNELS_SRC/tools/check_objects.py" "$LLVM_READELF" \
			"$KERNELS_SRC/launch" "${objs[@]}"
		[ "$RUN_STATUS" -eq 0 ] || fail "$target -$opt: .kd and .args of ${#objs[@]} objects"
		ok "$target -$opt: .kd and .args of ${#objs[@]} objects"
	done
done

# The checker can fail: an object checked against the wrong kernel's launch files.
mkdir -p "$TEST_TMP/wrong"
cp "$KERNELS_OUT/gfx1250/O2/saxpy.co" "$TEST_TMP/wrong/int_ops.co"
run_capture "$PYTHON" "$KERNELS_SRC/tools/check_objects.py" "$LLVM_READELF" \
	"$KERNELS_SRC/launch" "$TEST_TMP/wrong/int_ops.co"
assert_eq "$RUN_STATUS" 1 "a mismatched object is reported"
assert_contains "$RUN_STDOUT" "no symbol int_ops.kd"
done_testing
