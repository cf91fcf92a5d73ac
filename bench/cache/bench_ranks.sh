#!/usr/bin/env bash
# Benchmark: what a parallel job's ranks pay for one translation (docs/intercept.md, "One
# translation across processes").  A gfx1250 code object of K kernels (OpenCL C built by
# clang-22 and ld.lld-22 here) is loaded on a gfx942 stand-in agent under `mirage run
# --profile mi300 -- hsa_client OBJ`, each time with an empty cache:
#   one rank:   one process alone (baseline)
#   four ranks: four processes at once, sharing the cache: one translates, three wait
# R rounds, the two interleaved; prints the median wall times and their ratio.
# usage: bench_ranks.sh BUILD_DIR CLANG LLD [K] [R]
set -euo pipefail
build=$(cd "${1:?usage: bench_ranks.sh BUILD_DIR CLANG LLD [K] [R]}" && pwd)
clang=${2:?usage: bench_ranks.sh BUILD_DIR CLANG LLD [K] [R]}
lld=${3:?usage: bench_ranks.sh BUILD_DIR CLANG LLD [K] [R]}
kernels=${4:-64} rounds=${5:-3}
mirage=$build/bin/mirage client=$build/tests/standin/hsa_client
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-ranks.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/config XDG_CACHE_HOME=$tmp/cache
export MIRAGE_SYSFS_ROOT=$tmp/no-sysfs HOTSWAP_HOME=$build/hotswap STANDIN_AGENT_GFX=gfx942
unset LD_PRELOAD HSA_TOOLS_LIB
for v in $(env | sed -n 's/^\(HSA_HOTSWAP_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done

# shellcheck source=../lib/axpb_object.sh
source "$(dirname "$0")/../lib/axpb_object.sh"
axpb_object "$tmp" "$clang" "$lld" "$kernels"
"$mirage" profile create mi300 --target gfx942 >/dev/null

now() { date +%s%N; }
# ranks N: N processes at once on an empty cache; prints the wall time in ns.
ranks() {
	local t0 pids=() i
	rm -rf "$XDG_CACHE_HOME"
	t0=$(now)
	for ((i = 0; i < $1; i++)); do
		STANDIN_RECORD_DIR=$tmp/rec.$i HSA_HOTSWAP_CACHE_DEBUG=1 \
			"$mirage" run -p mi300 -- "$client" "$tmp/k.co" >/dev/null 2>"$tmp/rank.$i.err" &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		wait "${pids[i]}" || { echo "bench_ranks: rank $i failed: $(head -c 400 "$tmp/rank.$i.err")" >&2; exit 1; }
	done
	echo $(($(now) - t0))
}
mkdir -p "$tmp"/rec.{0,1,2,3}
ones=() fours=()
for ((r = 0; r < rounds; r++)); do
	ones+=("$(ranks 1)")
	fours+=("$(ranks 4)")
	misses=$(cat "$tmp"/rank.*.err | grep -c "hotswap_cache: miss (gfx1250 -> gfx942) kernels=$kernels" || true)
	[ "$misses" = 1 ] || { echo "bench_ranks: $misses translations among four ranks, not one" >&2; exit 1; }
done
python3 - "$kernels" "$rounds" "${ones[*]}" "${fours[*]}" <<'PY'
import statistics, sys
k, r = int(sys.argv[1]), int(sys.argv[2])
one = statistics.median(map(int, sys.argv[3].split())) / 1e6
four = statistics.median(map(int, sys.argv[4].split())) / 1e6
print(f"a {k}-kernel gfx1250 object, cold cache, {r} rounds (medians):")
print(f"one rank alone:                     {one:.1f} ms (baseline)")
print(f"four ranks at once, one cache:      {four:.1f} ms (one translates, three wait)")
print(f"ratio four/one:                     {four / one:.2f}x")
PY
