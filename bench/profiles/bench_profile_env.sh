#!/usr/bin/env bash
# Benchmark: cost of a long [env] table.  For each size N, times
#   mirage profile show P            (load + parse)
#   mirage profile edit P --set ...  (lock, load, parse, change, write)
# on a profile with N [env] entries, against the same command on a profile
# with none (the baseline: start-up) in the same run, and prints the cost per
# entry, in wall time and in CPU time.  Linear parsing keeps the per-entry cost flat as N grows: the last
# line's ratio (per-entry cost at the largest N over the smallest) is ~1 when
# linear, ~largest/smallest when quadratic.
# usage: bench_profile_env.sh MIRAGE_BIN [REPEATS] [N...]   (default 3; 10000 20000 40000)
set -euo pipefail
mirage=${1:?usage: bench_profile_env.sh MIRAGE_BIN [REPEATS] [N...]}
reps=${2:-3}
shift $(($# >= 2 ? 2 : $#))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 20000 40000)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export MIRAGE_CONFIG="$tmp/config"
unset LD_PRELOAD HSA_TOOLS_LIB

make_profile() { # NAME N
	"$mirage" profile create "$1" --emulator native >/dev/null
	python3 - "$MIRAGE_CONFIG/profiles/$1.ini" "$2" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
with open(path, "a") as f:
    f.write("\n[env]\n")
    f.writelines(f"VAR_{i} = value_{i}\n" for i in range(n))
PY
}

# measure CMD...: "WALL CPU", the fastest of $reps runs of each, in microseconds.  CPU
# (user + system of the child) leaves out waiting for the disk, which an edit's fsync adds.
measure() {
	python3 - "$reps" "$@" <<'PY'
import resource, subprocess, sys, time
reps, cmd = int(sys.argv[1]), sys.argv[2:]
walls, cpus = [], []
for _ in range(reps):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    walls.append(time.perf_counter() - start)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
print(round(min(walls) * 1e6), round(min(cpus) * 1e6))
PY
}

make_profile base 0
rows="0 $(measure "$mirage" profile show base) $(measure "$mirage" profile edit base --set description=x)"
for n in "${sizes[@]}"; do
	make_profile "p$n" "$n"
	rows+=$'\n'"$n $(measure "$mirage" profile show "p$n") $(measure "$mirage" profile edit "p$n" --set description=x)"
done
python3 - <<PY
rows = [tuple(map(int, l.split())) for l in """$rows""".splitlines()]
base, sized = rows[0][1:], rows[1:]
cols = ("show wall", "show cpu", "edit wall", "edit cpu")
print(f"{'entries':>8}" + "".join(f" {c + ' ms':>12} {'us/entry':>9}" for c in cols))
print(f"{0:>8}" + "".join(f" {b / 1e3:>12.2f} {'baseline':>9}" for b in base))
per = []
for n, *t in sized:
    per.append((n, [(x - b) / n for x, b in zip(t, base)]))
    print(f"{n:>8}" + "".join(f" {x / 1e3:>12.2f} {pe:>9.3f}" for x, pe in zip(t, per[-1][1])))
(n0, p0), (n1, p1) = per[0], per[-1]
ratios = ", ".join(f"{c} {b / a:.2f}x" if a > 0 else f"{c} n/a" for c, a, b in zip(cols, p0, p1))
print(f"per-entry cost at {n1} over {n0} entries: {ratios}  (linear ~1, quadratic ~{n1 / n0:.0f})")
PY
