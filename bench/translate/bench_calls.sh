#!/usr/bin/env bash
# Benchmark: translating code whose libclc builtins are calls (docs/raiser.md, "Calls").  The
# builtins test's convert_int and int_int families (tests/builtins/gen.py), built for gfx1250
# against libclc at -O0, where each builtin is a call the raiser raises inline, and at -O2,
# where clang inlined them (the baseline), are translated for gfx942 by `mirage rewrite`, best
# of R each, in one run.  Prints the times and the -O0/-O2 ratio per family; fails if a
# translation fails.  Before calls were raised inline, -O0 convert_int ran out of 8 GB.
# usage: bench_calls.sh BUILD_DIR SOURCE_DIR CLANG LLD [R]
set -euo pipefail
usage="usage: bench_calls.sh BUILD_DIR SOURCE_DIR CLANG LLD [R]"
build=$(cd "${1:?$usage}" && pwd)
src=$(cd "${2:?$usage}" && pwd)
clang=${3:?$usage}
lld=${4:?$usage}
rounds=${5:-3}
mirage=$build/bin/mirage libclc=/usr/lib/clc/amdgcn-amd-amdhsa.bc
[ -f "$libclc" ] || { echo "bench_calls: no libclc-22 ($libclc): apt-get install libclc-22" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-calls.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
python3 "$src/tests/builtins/gen.py" "$tmp/gen" >/dev/null

# best CO: the least wall milliseconds of $rounds translations of CO for gfx942.
best() {
	local b= t t0
	for ((r = 0; r < rounds; r++)); do
		t0=$(date +%s%N)
		"$mirage" rewrite "$1" --target gfx942 -o "$tmp/out.co" >/dev/null 2>"$tmp/err" ||
			{ echo "bench_calls: translating $1: $(tail -n 1 "$tmp/err")" >&2; exit 1; }
		t=$((($(date +%s%N) - t0) / 1000000))
		[ -n "$b" ] && [ "$b" -le "$t" ] || b=$t
	done
	echo "$b"
}

printf '%-12s %10s %10s %8s\n' family 'O2 ms' 'O0 ms' 'O0/O2'
for fam in convert_int int_int; do
	for lv in O0 O2; do
		"$clang" -x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -mcpu=gfx1250 -nogpulib \
			-Xclang -finclude-default-header -Xclang -mlink-builtin-bitcode -Xclang "$libclc" \
			-ffp-contract=off "-$lv" -c "$tmp/gen/$fam.cl" -o "$tmp/$fam.$lv.o"
		"$lld" -shared "$tmp/$fam.$lv.o" -o "$tmp/$fam.$lv.co"
	done
	o2=$(best "$tmp/$fam.O2.co")
	o0=$(best "$tmp/$fam.O0.co")
	printf '%-12s %10d %10d %7.2fx\n' "$fam" "$o2" "$o0" "$(echo "$o0 / $o2" | bc -l)"
done
