#!/usr/bin/env bash
# One launch file of the kernel suite ($LAUNCH, kernel $KERNEL) through both CPU references,
# host C and POCL, and their outputs compared as tests/kernels/check/$KERNEL.json says; for
# the sub-group kernel also with 64-wide sub-groups (gfx942's waves, --sub-group-size 64).
# shellcheck source=lib.sh
source "$TEST_LIB"

host=$KERNELS_BIN/host_ref_$KERNEL
pocl=$KERNELS_BIN/pocl_ref
check=$KERNELS_SRC/check/$KERNEL.json
[ -x "$host" ] || fail "$host is not built"

mkdir -p "$TEST_TMP/host" "$TEST_TMP/pocl"
# POCL caches built programs by source and options; one cache in the build tree spares the
# rebuild on every run (each test has a fresh HOME).
export POCL_CACHE_DIR=$KERNELS_OUT/pocl-cache
run_capture "$host" "$LAUNCH" --output-dir "$TEST_TMP/host"
[ "$RUN_STATUS" -eq 0 ] || fail "host_ref_$KERNEL runs the launch"
ok "host_ref_$KERNEL runs the launch"
run_capture "$host" "$LAUNCH" --output-dir "$TEST_TMP/host" --sub-group-size 48
assert_eq "$RUN_STATUS" 2 "--sub-group-size 48 is a usage error"
assert_contains "$RUN_STDERR" "host_ref: --sub-group-size: '48' is not 32 or 64 (the wave sizes)" \
	"the message names the option and the value"

[ -x "$pocl" ] || skip_all "pocl_ref is not built (no OpenCL headers/library: scripts/setup.sh installs pocl-opencl-icd and ocl-icd-opencl-dev)"
# POCL's compiler (LLVM 15) leaks what it allocates for a build: no leak check on pocl_ref
# (host_ref runs the same ref_common.c with it).
run_capture env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$pocl" "$LAUNCH" --output-dir "$TEST_TMP/pocl" --source "$KERNELS_SRC/$KERNEL.cl" \
	--prelude "$KERNELS_SRC/prelude/pocl.h"
if [ "$RUN_STATUS" -eq 77 ]; then
	skip "POCL: $(head -n1 "$RUN_STDERR_FILE")"
	done_testing
	exit 0
fi
[ "$RUN_STATUS" -eq 0 ] || fail "pocl_ref runs the launch"
ok "pocl_ref runs the launch"

run_capture "$KERNELS_BIN/kernel_compare" "$LAUNCH" "$check" "$TEST_TMP/host" "$TEST_TMP/pocl"
[ "$RUN_STATUS" -eq 0 ] || fail "host C and POCL agree on every output buffer"
ok "host C and POCL agree on every output buffer"

if [ "$KERNEL" = subgroup ]; then
	mkdir -p "$TEST_TMP/host64" "$TEST_TMP/pocl64"
	run_capture "$host" "$LAUNCH" --output-dir "$TEST_TMP/host64" --sub-group-size 64
	assert_eq "$RUN_STATUS" 0 "host_ref_$KERNEL runs the launch with 64-wide sub-groups"
	run_capture env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$pocl" "$LAUNCH" \
		--output-dir "$TEST_TMP/pocl64" --source "$KERNELS_SRC/$KERNEL.cl" \
		--prelude "$KERNELS_SRC/prelude/pocl.h" --sub-group-size 64
	assert_eq "$RUN_STATUS" 0 "pocl_ref runs the launch with 64-wide sub-groups"
	run_capture "$KERNELS_BIN/kernel_compare" "$LAUNCH" "$check" "$TEST_TMP/host64" "$TEST_TMP/pocl64"
	assert_eq "$RUN_STATUS" 0 "host C and POCL agree with 64-wide sub-groups"
	cmp -s "$TEST_TMP/host/out.bin" "$TEST_TMP/host64/out.bin" &&
		fail "64-wide sub-groups give other results than 32-wide ones"
	ok "64-wide sub-groups give other results than 32-wide ones"
fi
done_testing
