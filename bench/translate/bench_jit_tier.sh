#!/usr/bin/env bash
# The host JIT's two tiers on kernels built at -O0 against libclc, where each builtin is a
# call, and on a huge straight-line kernel at -O2 (docs/emulate.md, "Compile tiers"): `mirage --json emulate` of the same launch with
# MIRAGE_JIT_TIER=opt and with the automatic choice, its JIT and run milliseconds (best of
# RUNS) and their ratios, in one run.  The kernels are tests/builtins/gen.py's.
# usage: bench_jit_tier.sh BUILD_DIR SOURCE_DIR [RUNS] [CLANG] [LLD]
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) runs=${3:-3} clang=${4:-clang-22} lld=${5:-ld.lld-22}
mirage=$build/bin/mirage libclc=/usr/lib/clc/amdgcn-amd-amdhsa.bc
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-jit.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
python3 "$src/tests/builtins/gen.py" "$tmp/gen" >/dev/null

# build FAMILY KERNEL: the kernel alone in a code object, at -O0.
build() {
	"$clang" -x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -mcpu=gfx1250 -nogpulib \
		-Xclang -finclude-default-header -Xclang -mlink-builtin-bitcode -Xclang "$libclc" \
		-ffp-contract=off -O0 -c "$tmp/gen/$1.cl" -DONLY "-DONLY_$2" -o "$tmp/$2.o"
	"$lld" -shared "$tmp/$2.o" -o "$tmp/$2.co"
	"$mirage" emulate --init "$tmp/$2.co" --kernel "$2" -o "$tmp/$2.json" >/dev/null
}
# widen LAUNCH N: the launch with N work-items, buffers grown to match, no outputs.
widen() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
path, n = sys.argv[1], int(sys.argv[2])
j = json.load(open(path))
scale = n // j['grid'][0]
j['grid'][0] = n
for b in j['buffers'].values():
    b['size'] *= scale
    b.pop('output', None)
j['args'][-1] = {'u32': n}
json.dump(j, open(path, 'w'))
EOF
}
# best TIER LAUNCH: "jit_ms run_ms", each the least of $runs runs (TIER auto: no override).
best() {
	local j r bj= br=
	for _ in $(seq "$runs"); do
		if [ "$1" = auto ]; then
			out=$(env -u MIRAGE_JIT_TIER "$mirage" --json emulate "$2")
		else
			out=$(MIRAGE_JIT_TIER=$1 "$mirage" --json emulate "$2")
		fi
		read -r j r < <(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["jit_ms"], d["run_ms"])' <<<"$out")
		if [ -z "$bj" ] || python3 -c "import sys; sys.exit(not $j < $bj)"; then bj=$j; fi
		if [ -z "$br" ] || python3 -c "import sys; sys.exit(not $r < $br)"; then br=$r; fi
	done
	echo "$bj $br"
}

build convert_int k_cvt_int
build convert_double k_cvt_double
# A huge straight-line kernel (no calls): K rounds of multiply, shift and add chained through
# two values, about 14 machine instructions a round; 4,000 rounds pass the instruction bound.
python3 - "$tmp/huge.cl" 4000 <<'GEN'
import sys
rounds = int(sys.argv[2])
body = ["__kernel void huge(__global uint *out, __global const uint *in, uint n) {",
        "  uint i = get_global_id(0); if (i >= n) return;", "  uint x = in[i], y = x ^ 0x5bd1e995u;"]
for j in range(rounds):
    c = (0x9e3779b1 * (j + 1)) & 0xffffffff
    body.append(f"  x = (x * 0x{c:08x}u) ^ (y >> {j % 31 + 1}); y = y + (x << {j * 7 % 31 + 1}) + 0x{c >> 3:08x}u;")
body += ["  out[i] = x ^ y;", "}"]
open(sys.argv[1], "w").write("\n".join(body) + "\n")
GEN
"$clang" -x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -mcpu=gfx1250 -nogpulib \
	-Xclang -finclude-default-header -Xclang -mlink-builtin-bitcode -Xclang "$libclc" -O2 \
	-c "$tmp/huge.cl" -o "$tmp/huge.o"
"$lld" -shared "$tmp/huge.o" -o "$tmp/huge.co"
"$mirage" emulate --init "$tmp/huge.co" -o "$tmp/huge.json" >/dev/null
cp "$tmp/k_cvt_int.json" "$tmp/k_cvt_int.wide.json"
widen "$tmp/k_cvt_int.wide.json" 65536

printf '%-22s %8s %12s %12s %8s %12s %12s %8s\n' launch items 'opt jit ms' 'auto jit ms' ratio \
	'opt run ms' 'auto run ms' ratio
for l in k_cvt_int k_cvt_double k_cvt_int.wide huge; do
	items=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["grid"][0])' "$tmp/$l.json")
	read -r oj or < <(best opt "$tmp/$l.json")
	read -r aj ar < <(best auto "$tmp/$l.json")
	printf '%-22s %8d %12.1f %12.1f %7.3fx %12.1f %12.1f %7.3fx\n' "$l" "$items" "$oj" "$aj" \
		"$(echo "$aj / $oj" | bc -l)" "$or" "$ar" "$(echo "$ar / $or" | bc -l)"
done
