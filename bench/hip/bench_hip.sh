#!/usr/bin/env bash
# Benchmark: what the intercept's HIP hooks (docs/hip.md) add to starting a HIP program, in
# one run.  A generated program with 64 gfx1250 kernels, built by clang-22 and linked to the
# stand-in HIP runtime, only registers its fat binary (clang's constructor) and exits.  Times
# N runs of it
#   untouched:  no hooks, the runtime registers the gfx1250 fat binary as it is (baseline)
#   hooked:     mirage run's environment, target gfx942, the translation in the disk cache
#               (one warm-up run made it): the hooks add a gfx942 entry from the cache
# and N runs of /bin/true with and without the shim in LD_PRELOAD, each pair interleaved, and
# prints the medians and their ratios.
# usage: bench_hip.sh BUILD_DIR CLANG [N]
set -euo pipefail
build=${1:?usage: bench_hip.sh BUILD_DIR CLANG [N]}
clang=${2:?usage: bench_hip.sh BUILD_DIR CLANG [N]}
n=${3:-200}
standin=$build/tests/standin/hip
mirage=$build/bin/mirage
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/config XDG_CACHE_HOME=$tmp/cache
export MIRAGE_SYSFS_ROOT=$tmp/no-sysfs HOTSWAP_HOME=$build/hotswap
unset LD_PRELOAD HSA_TOOLS_LIB
for v in $(env | sed -n 's/^\(HSA_HOTSWAP_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done

python3 - "$tmp/app.hip" <<'PY'
import sys
src = ["#define __global__ __attribute__((global))",
       "struct dim3 { unsigned x, y, z; };",
       'extern "C" int hipLaunchKernel(const void *, dim3, dim3, void **, unsigned long, void *);']
for k in range(64):
    src.append(f'extern "C" __global__ void k{k}(float *c, const float *a, unsigned n) '
               f'{{ unsigned i = __builtin_amdgcn_workgroup_id_x() * 64 + '
               f'__builtin_amdgcn_workitem_id_x(); if (i < n) c[i] = a[i] * {k + 1}.0f + {k}.0f; }}')
src.append("int main() { return 0; }")
open(sys.argv[1], "w").write("\n".join(src) + "\n")
PY
"$clang" -x hip --offload-arch=gfx1250 -nogpulib -nogpuinc -no-hip-rt -O2 "$tmp/app.hip" \
	-o "$tmp/app" -L"$standin" -lamdhip64 -Wl,-rpath,"$standin"

"$mirage" profile create bench --target gfx942 >/dev/null
# The environment mirage would exec with, as env -i arguments, and the same without the hooks.
mapfile -t hooked < <("$mirage" --json run --profile bench --dry-run -- "$tmp/app" |
	python3 -c 'import json,sys; [print(f"{k}={v}") for k,v in json.load(sys.stdin)["env"].items()]')
mapfile -t plain < <(printf '%s\n' "${hooked[@]}" | grep -v '^LD_PRELOAD=\|^HSA_TOOLS_LIB=')
shim=$(printf '%s\n' "${hooked[@]}" | sed -n 's/^LD_PRELOAD=//p')

# pair NAME_A NAME_B -- CMD_A... -- CMD_B...: n runs of each, interleaved (so drift on a busy
# machine hits both alike); prints the two medians in ms.
pair() {
	local a=() b=() t0 t1 t2 i
	shift 3
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	while [ "$1" != -- ]; do b+=("$1"); shift; done
	for ((i = 0; i < n; i++)); do
		t0=$EPOCHREALTIME
		"${a[@]}" >/dev/null 2>&1
		t1=$EPOCHREALTIME
		"${b[@]}" >/dev/null 2>&1
		t2=$EPOCHREALTIME
		echo "$t0 $t1 $t2"
	done | python3 -c '
import statistics, sys
rows = [list(map(float, l.split())) for l in sys.stdin]
print(statistics.median(r[1] - r[0] for r in rows) * 1e3, statistics.median(r[2] - r[1] for r in rows) * 1e3)'
}

# The warm-up: translates the 64 kernels once into the cache, then the page cache is warm.
env -i "${hooked[@]}" HSA_HOTSWAP_CACHE_DEBUG=1 "$tmp/app" 2>"$tmp/warm.log"
grep -q "hotswap_cache: miss (gfx1250 -> gfx942) kernels=64" "$tmp/warm.log" || {
	echo "bench_hip: the warm-up did not translate the 64 kernels:" >&2
	cat "$tmp/warm.log" >&2
	exit 1
}
env -i "${plain[@]}" "$tmp/app"
# Keep the script for a profiler: bench_hip.sh BUILD CLANG N --keep prints the commands.
if [ "${4:-}" = --keep ]; then
	trap - EXIT
	printf 'env -i'; printf ' %q' "${hooked[@]}" "$tmp/app"; echo
fi

read -r base_ms hooked_ms < <(pair untouched hooked -- env -i "${plain[@]}" "$tmp/app" -- \
	env -i "${hooked[@]}" "$tmp/app" --)
read -r true_ms true_shim_ms < <(pair true preloaded -- env -i /bin/true -- \
	env -i "LD_PRELOAD=$shim" /bin/true --)
python3 - "$n" "$base_ms" "$hooked_ms" "$true_ms" "$true_shim_ms" <<'PY'
import sys
n = int(sys.argv[1])
base, hooked, t, ts = map(float, sys.argv[2:])
print(f"runs each (interleaved; medians):             {n}")
print(f"64-kernel gfx1250 fat binary, untouched:      {base:.3f} ms per run (baseline)")
print(f"the same through the HIP hooks, warm cache:   {hooked:.3f} ms per run")
print(f"ratio hooked/untouched:                       {hooked / base:.2f}x  (the hooks add {hooked - base:.3f} ms)")
print(f"/bin/true:                                    {t:.3f} ms per run (baseline)")
print(f"/bin/true with the shim preloaded:            {ts:.3f} ms per run")
print(f"ratio preloaded/plain:                        {ts / t:.2f}x")
PY
