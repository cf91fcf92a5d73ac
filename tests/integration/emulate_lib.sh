# Helpers for the tests that run a launch file of the kernel suite with `mirage emulate`
# (sourced after lib.sh; $LAUNCH is the launch file, $KERNEL its kernel).
# shellcheck shell=bash

KERNELS_BIN=$MIRAGE_BUILD/tests/kernels/bin

# emulate_object DIR CO [ARGS...]: the launch file run on the code object CO (copied beside it
# under the kernel's name, as the launch file names it); outputs land in DIR.
emulate_object() {
	local dir=$1 co=$2
	shift 2
	mkdir -p "$dir"
	cp "$LAUNCH" "$dir/launch.json"
	cp "$co" "$dir/$KERNEL.co"
	run_capture "$MIRAGE_BIN" emulate "$dir/launch.json" "$@"
}

# host_reference DIR SUB_GROUP: the host-C reference's output buffers in DIR, its sub-groups
# SUB_GROUP lanes wide.
host_reference() {
	mkdir -p "$1"
	run_capture "$KERNELS_BIN/host_ref_$KERNEL" "$LAUNCH" --output-dir "$1" --sub-group-size "$2"
	assert_eq "$RUN_STATUS" 0 "host_ref_$KERNEL runs the launch"
}

# compare_outputs REF_DIR DIR DESC: every output buffer of DIR agrees with REF_DIR's as
# tests/kernels/check/$KERNEL.json says (ulps, NaN rules).
compare_outputs() {
	run_capture "$KERNELS_BIN/kernel_compare" "$LAUNCH" \
		"$MIRAGE_SRC/tests/kernels/check/$KERNEL.json" "$1" "$2"
	assert_eq "$RUN_STATUS" 0 "$3"
}

# same_bytes DIR_A DIR_B DESC: every output buffer of DIR_A is byte for byte the one in DIR_B.
same_bytes() {
	local f
	for f in "$1"/*.bin; do
		[ -e "$f" ] || fail "$3: $1 holds output buffers"
		cmp -s "$f" "$2/$(basename "$f")" || fail "$3: $(basename "$f")"
		ok "$3: $(basename "$f")"
	done
}
