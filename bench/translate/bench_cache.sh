#!/usr/bin/env bash
# Translation at load time, cold and from the cache: `mirage run --profile mi300 -- hsa_client
# OBJECT` on a gfx942 stand-in agent, where the intercept translates each gfx1250 object of the
# kernel suite (-O2) as the loader receives it.  Per object, best of RUNS: a cold run (empty
# cache: the translation), a warm run (the cache hit), the same client with the object loaded
# untranslated on a gfx1250 agent (everything but the translation), and a `cp` of the object,
# all in this one run.
# usage: bench_cache.sh BUILD_DIR [RUNS]
set -euo pipefail
build=$(cd "$1" && pwd) runs=${2:-3}
mirage=$build/bin/mirage client=$build/tests/standin/hsa_client
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-cache.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export MIRAGE_CONFIG=$tmp/config XDG_CACHE_HOME=$tmp/cache
"$mirage" profile create mi300 --target gfx942 >/dev/null
"$mirage" profile create native --target gfx1250 --stepping a0 >/dev/null

now() { date +%s%N; }
# best NAME CMD...: the fastest of $runs runs of CMD, in ns; CLEAR=1 empties the cache first.
best() {
	local b= t0 t
	for _ in $(seq "$runs"); do
		[ -z "${CLEAR:-}" ] || rm -rf "$XDG_CACHE_HOME"
		t0=$(now)
		"$@" >/dev/null 2>&1 || { echo "bench_cache: failed: $*" >&2; exit 1; }
		t=$(($(now) - t0))
		[ -n "$b" ] && [ "$b" -le "$t" ] || b=$t
	done
	echo "$b"
}

printf '%-16s %8s %10s %10s %10s %10s\n' object kernels 'cold ms' 'cache ms' 'native ms' 'cp ms'
tc=0 tw=0 tn=0 tp=0 n=0 kernels=0
for co in "$build"/tests/kernels/gfx1250/O2/*.co; do
	name=$(basename "$co" .co)
	# only objects whose every kernel translates (the others are refused at load)
	"$mirage" rewrite "$co" -o "$tmp/probe.co" --target gfx942 >/dev/null 2>&1 || continue
	k=$("$mirage" --json inspect "$co" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["kernels"]))')
	c=$(CLEAR=1 STANDIN_AGENT_GFX=gfx942 best "$mirage" run -p mi300 -- "$client" "$co")
	w=$(STANDIN_AGENT_GFX=gfx942 best "$mirage" run -p mi300 -- "$client" "$co")
	nat=$(STANDIN_AGENT_GFX=gfx1250 best "$mirage" run -p native -- "$client" "$co")
	p=$(best cp "$co" "$tmp/copy.co")
	printf '%-16s %8d %10.1f %10.1f %10.1f %10.2f\n' "$name" "$k" "$(echo "$c / 1000000" | bc -l)" \
		"$(echo "$w / 1000000" | bc -l)" "$(echo "$nat / 1000000" | bc -l)" "$(echo "$p / 1000000" | bc -l)"
	tc=$((tc + c)) tw=$((tw + w)) tn=$((tn + nat)) tp=$((tp + p)) n=$((n + 1)) kernels=$((kernels + k))
done
[ "$n" -gt 0 ] || { echo "bench_cache: no object translates" >&2; exit 1; }
printf 'load-time translation, %d objects, %d kernels: cold %.1f ms per object (%.1f ms per kernel over the untranslated load), cache hit %.1f ms (%.2fx the untranslated load); cp %.2f ms\n' \
	"$n" "$kernels" "$(echo "$tc / 1000000 / $n" | bc -l)" "$(echo "($tc - $tn) / 1000000 / $kernels" | bc -l)" \
	"$(echo "$tw / 1000000 / $n" | bc -l)" "$(echo "$tw / $tn" | bc -l)" "$(echo "$tp / 1000000 / $n" | bc -l)"
