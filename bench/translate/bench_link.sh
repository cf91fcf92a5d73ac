#!/usr/bin/env bash
# Benchmark: the fixed cost of one translation (docs/translate.md, "Lowering and linking").  A
# one-kernel gfx1250 object (OpenCL C built by clang-22 and ld.lld-22 here) is translated for
# gfx942 R times in one process by translate_drive, best of R, with the linker spawned
# (MIRAGE_LLD=ld.lld-22: the baseline) and with lld in process (the default where the build has
# liblld-22-dev); `cp` of the same object, best of R, is the yardstick.  Prints the three times
# and the ratios, and fails if the two translations differ by a byte.
# usage: bench_link.sh BUILD_DIR CLANG LLD [R]
set -euo pipefail
usage="usage: bench_link.sh BUILD_DIR CLANG LLD [R]"
build=$(cd "${1:?$usage}" && pwd)
clang=${2:?$usage}
lld=${3:?$usage}
rounds=${4:-20}
drive=$build/tests/tools/translate_drive lib=$build/lib/mirage/libmirage_translate.so
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-link.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/k.cl" <<'CL'
__kernel void k0(__global float *c, __global const float *a, uint n)
{
	uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
	if (i < n)
		c[i] = a[i] * 2.0f + 1.0f;
}
CL
"$clang" -x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -mcpu=gfx1250 -nogpulib -O2 \
	-c "$tmp/k.cl" -o "$tmp/k.o"
"$lld" -shared "$tmp/k.o" -o "$tmp/k.co"

# best MS: translate_drive's best in-process time over the rounds.
spawned=$(MIRAGE_LLD=$(command -v "$lld") "$drive" "$lib" "$tmp/k.co" gfx942 "$tmp/spawned.co" \
	"$tmp/s.tsv" "$rounds" | cut -d' ' -f1)
inproc=$(env -u MIRAGE_LLD "$drive" "$lib" "$tmp/k.co" gfx942 "$tmp/inproc.co" "$tmp/i.tsv" \
	"$rounds" | cut -d' ' -f1)
cmp -s "$tmp/spawned.co" "$tmp/inproc.co" ||
	{ echo "bench_link: the spawned and the in-process link differ" >&2; exit 1; }
best_cp=
for ((r = 0; r < rounds; r++)); do
	t0=$(date +%s%N)
	cp "$tmp/k.co" "$tmp/copy.co"
	t=$(($(date +%s%N) - t0))
	[ -n "$best_cp" ] && [ "$best_cp" -le "$t" ] || best_cp=$t
done
python3 - "$rounds" "$spawned" "$inproc" "$best_cp" <<'PY'
import sys
r, spawned, inproc, cp = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]) / 1e6
print(f"translating a one-kernel gfx1250 object for gfx942 in process, best of {r}:")
print(f"ld.lld-22 spawned:           {spawned:.1f} ms (baseline), {spawned / cp:.0f}x cp")
print(f"lld in process:              {inproc:.1f} ms, {inproc / cp:.0f}x cp (the same bytes)")
print(f"cp of the object:            {cp:.2f} ms")
print(f"ratio in process / spawned:  {inproc / spawned:.2f}x")
PY
