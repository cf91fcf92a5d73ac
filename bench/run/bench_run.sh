#!/usr/bin/env bash
# Benchmark: what `mirage run` adds to starting a workload.  Times N runs of
#   mirage run --profile P -- /bin/true
# against N runs of
#   env -i <the exact environment mirage would give> /bin/true
# in the same script, and prints the ratio.  Both start /bin/true with the
# intercept preloaded, so the difference is mirage itself: reading the
# profile, discovering and checking the tree, resolving the target, building
# the environment, and one extra execve.
# usage: bench_run.sh MIRAGE_BIN [N] [WORKLOAD]
# WORKLOAD defaults to /bin/true; a sanitizer build passes one of its own
# programs, since only those can host its instrumented intercept.
set -euo pipefail
mirage=${1:?usage: bench_run.sh MIRAGE_BIN [N] [WORKLOAD]}
n=${2:-200}
workload=${3:-/bin/true}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export MIRAGE_CONFIG="$tmp/config" MIRAGE_SYSFS_ROOT="$tmp/no-sysfs"
# HOTSWAP_HOME, when set, picks the tree to measure; otherwise discovery finds one.
unset LD_PRELOAD HSA_TOOLS_LIB

"$mirage" profile create bench --target gfx942 >/dev/null
# The environment mirage would exec with, as env -i arguments.
mapfile -t vars < <("$mirage" --json run --profile bench --dry-run -- "$workload" |
	python3 -c 'import json,sys; [print(f"{k}={v}") for k,v in json.load(sys.stdin)["env"].items()]')

time_loop() {
	local start end
	start=$EPOCHREALTIME
	for ((i = 0; i < n; i++)); do "$@" >/dev/null; done
	end=$EPOCHREALTIME
	python3 -c "print(($end - $start) / $n * 1e3)"
}

# Warm the page cache for both paths first.
"$mirage" run --profile bench -- "$workload" >/dev/null
env -i "${vars[@]}" "$workload" >/dev/null

base_ms=$(time_loop env -i "${vars[@]}" "$workload")
mirage_ms=$(time_loop "$mirage" run --profile bench -- "$workload")
echo "workload: $workload"
python3 - "$base_ms" "$mirage_ms" "$n" <<'PY'
import sys
base, mir, n = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
print(f"runs each:                         {n}")
print(f"env -i VARS WORKLOAD:              {base:.3f} ms per run (baseline)")
print(f"mirage run --profile P -- WORKLOAD:  {mir:.3f} ms per run")
print(f"ratio mirage/baseline:             {mir / base:.2f}x  (mirage adds {mir - base:.3f} ms)")
PY
