#!/usr/bin/env bash
# Benchmark: parallel translation (docs/translate.md, "Parallel translation").  A gfx1250 code
# object of K kernels (OpenCL C built by clang-22 and ld.lld-22 here) is translated for gfx942
# by `mirage rewrite` with HSA_HOTSWAP_JOBS=1 (baseline) and =2, R rounds interleaved; prints
# the median wall times and their ratio, and fails if the two translations differ by a byte.
# usage: bench_jobs.sh BUILD_DIR CLANG LLD [K] [R]
set -euo pipefail
usage="usage: bench_jobs.sh BUILD_DIR CLANG LLD [K] [R]"
build=$(cd "${1:?$usage}" && pwd)
clang=${2:?$usage}
lld=${3:?$usage}
kernels=${4:-64} rounds=${5:-5}
mirage=$build/bin/mirage
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-jobs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/config XDG_CACHE_HOME=$tmp/cache

# shellcheck source=../lib/axpb_object.sh
source "$(dirname "$0")/../lib/axpb_object.sh"
axpb_object "$tmp" "$clang" "$lld" "$kernels"

now() { date +%s%N; }
# translate JOBS: one `mirage rewrite` on JOBS threads; prints the wall time in ns.
translate() {
	local t0
	t0=$(now)
	HSA_HOTSWAP_JOBS=$1 "$mirage" rewrite "$tmp/k.co" --target gfx942 -o "$tmp/out.$1.co" >/dev/null
	echo $(($(now) - t0))
}
ones=() twos=()
for ((r = 0; r < rounds; r++)); do
	ones+=("$(translate 1)")
	twos+=("$(translate 2)")
	cmp -s "$tmp/out.1.co" "$tmp/out.2.co" ||
		{ echo "bench_jobs: the translations on 1 and 2 threads differ" >&2; exit 1; }
done
python3 - "$kernels" "$rounds" "${ones[*]}" "${twos[*]}" <<'PY'
import statistics, sys
k, r = int(sys.argv[1]), int(sys.argv[2])
one = statistics.median(map(int, sys.argv[3].split())) / 1e6
two = statistics.median(map(int, sys.argv[4].split())) / 1e6
print(f"mirage rewrite --target gfx942 of a {k}-kernel gfx1250 object, {r} rounds (medians):")
print(f"HSA_HOTSWAP_JOBS=1:          {one:.1f} ms (baseline)")
print(f"HSA_HOTSWAP_JOBS=2:          {two:.1f} ms (the same bytes)")
print(f"ratio 2 jobs / 1 job:        {two / one:.2f}x")
PY
