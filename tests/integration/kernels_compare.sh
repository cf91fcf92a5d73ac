#!/usr/bin/env bash
# kernel_compare, the one output comparer of the kernel suite: integers bit-exact, floats
# bit-exact or within a declared ULP tolerance, any NaN equal to any NaN; exit 0 / 1 / 2.
# Then the references' refusals of a launch file that does not fit the kernel (exit 2).
# shellcheck source=lib.sh
source "$TEST_LIB"

cmp=$KERNELS_BIN/kernel_compare
cd "$TEST_TMP" || exit 1
mkdir -p a b
cat >launch.json <<'JSON'
{"code_object": "k.co", "kernel": "k", "grid": [1], "workgroup": [1],
 "buffers": {"i": {"size": 8, "init": "zero", "output": "i.bin"},
             "f": {"size": 8, "init": "zero", "output": "f.bin"}},
 "args": []}
JSON
# words FILE HEX...: writes each hex word as 4 little-endian bytes.
words() {
	local f=$1 w
	shift
	: >"$f"
	for w in "$@"; do
		w=$(printf '%08x' "0x$w")
		printf "\\x${w:6:2}\\x${w:4:2}\\x${w:2:2}\\x${w:0:2}" >>"$f"
	done
}
echo '{"i": {"type": "u32"}, "f": {"type": "f32", "ulp": 2}}' >check.json

words a/i.bin 1 2
words b/i.bin 1 2
words a/f.bin 3f800000 7fc00000
words b/f.bin 3f800002 7f800001 # 2 ULP apart; a quiet and a signalling NaN
run_capture "$cmp" launch.json check.json a b
assert_eq "$RUN_STATUS" 0 "equal integers, floats within 2 ULP, NaN vs NaN agree"
assert_contains "$RUN_STDOUT" "kernel_compare: 2 output buffer(s) of k agree"

words b/f.bin 3f800003 7fc00000
run_capture "$cmp" launch.json check.json a b
assert_eq "$RUN_STATUS" 1 "3 ULP apart with 2 allowed differs"
assert_contains "$RUN_STDERR" "buffers.f[0] (f32): a 0x3f800000 (1), b 0x3f800003 (1.00000036), 3 ULP apart, 2 allowed"
assert_contains "$RUN_STDERR" "buffers.f: 1 of 2 elements differ"

words b/f.bin 3f800000 3f800000
run_capture "$cmp" launch.json check.json a b
assert_eq "$RUN_STATUS" 1 "a NaN against a number differs"
assert_contains "$RUN_STDERR" "buffers.f[1] (f32): a 0x7fc00000 (nan), b 0x3f800000 (1)"

words b/f.bin 3f800000 7fc00000
words b/i.bin 1 3
run_capture "$cmp" launch.json check.json a b
assert_eq "$RUN_STATUS" 1 "integers differ by one bit"
assert_contains "$RUN_STDERR" "buffers.i[1] (u32): a 0x00000002, b 0x00000003"

echo '{"f": {"type": "f32"}}' >partial.json
run_capture "$cmp" launch.json partial.json a b
assert_eq "$RUN_STATUS" 2 "an output buffer without a type is a usage error"
assert_contains "$RUN_STDERR" "partial.json: i.type: missing (every output buffer needs an element type)"

echo '{"i": {"type": "u32", "ulp": 1}, "f": {"type": "f32"}}' >intulp.json
run_capture "$cmp" launch.json intulp.json a b
assert_eq "$RUN_STATUS" 2 "a ULP tolerance on an integer buffer is refused"
assert_contains "$RUN_STDERR" "intulp.json: i.ulp: a float buffer's tolerance from 0 to 1000000"

rm b/i.bin
run_capture "$cmp" launch.json check.json a b
assert_eq "$RUN_STATUS" 2 "a missing output file is a usage error"
assert_contains "$RUN_STDERR" "buffers.i: cannot read 'b/i.bin': No such file or directory"

words b/i.bin 1
run_capture "$cmp" launch.json check.json a b
assert_eq "$RUN_STATUS" 2 "an output file of the wrong size is refused"
assert_contains "$RUN_STDERR" "buffers.i: 'b/i.bin' has 4 bytes, the buffer 8"

# host_refuses DESC SED-EXPR MESSAGE: saxpy's launch file edited by SED-EXPR is refused by
# host_ref with exit 2 and MESSAGE.
host_refuses() {
	sed "$2" "$KERNELS_SRC/launch/saxpy.json" >edited.json
	run_capture "$KERNELS_BIN/host_ref_saxpy" edited.json --output-dir .
	assert_eq "$RUN_STATUS" 2 "host_ref: $1 is a usage error"
	assert_contains "$RUN_STDERR" "host_ref: edited.json: $3"
}
host_refuses "a bad launch file" 's/"grid": \[4096, 1, 1\]/"grid": [0]/' \
	"grid[0]: expected a positive integer up to 4294967295"
host_refuses "one argument too many" 's/{"u32": 4096}\]/{"u32": 4096}, {"u32": 1}]/' \
	"args: 5 given, kernel 'saxpy' has 4 parameters"
host_refuses "a scalar of the wrong size" 's/{"f32": 2.5}/{"f64": 2.5}/' \
	"args[2]: parameter 'float a' takes 4 bytes, the launch file gives f64"
host_refuses "an unknown kernel" 's/"kernel": "saxpy"/"kernel": "saxpy2"/' \
	"kernel: no kernel 'saxpy2' in this reference"
host_refuses "a scalar for a buffer parameter" 's/{"buffer": "x"}/{"u64": 1}/' \
	"args[1]: parameter '__global const float *x' takes a buffer, the launch file gives u64"
done_testing
