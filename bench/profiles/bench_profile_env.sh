#!/usr/bin/env bash
# Benchmark: cost of a long [env] table.  For each size N, times
#   mirage profile show P            (load + parse)
#   mirage profile edit P --set ...  (lock, load, parse, change, write)
# on a profile with N [env] entries, against the same command on a profile
# with none (the baseline: start-up) in the same run, and prints the cost per
# entry.  Linear parsing keeps the per-entry cost flat as N grows: the last
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

# best_us CMD...: the fastest of $reps runs, in microseconds.
best_us() {
	local best=-1 start end us
	for ((r = 0; r < reps; r++)); do
		start=${EPOCHREALTIME/./}
		"$@" >/dev/null
		end=${EPOCHREALTIME/./}
		us=$((end - start))
		((best < 0 || us < best)) && best=$us
	done
	echo "$best"
}

make_profile base 0
rows="0 $(best_us "$mirage" profile show base) $(best_us "$mirage" profile edit base --set description=x)"
for n in "${sizes[@]}"; do
	make_profile "p$n" "$n"
	rows+=$'\n'"$n $(best_us "$mirage" profile show "p$n") $(best_us "$mirage" profile edit "p$n" --set description=x)"
done
python3 - <<PY
rows = [tuple(map(int, l.split())) for l in """$rows""".splitlines()]
(_, bs, be), sized = rows[0], rows[1:]
print(f"{'entries':>8} {'show ms':>9} {'us/entry':>9} {'edit ms':>9} {'us/entry':>9}")
print(f"{0:>8} {bs / 1e3:>9.2f} {'baseline':>9} {be / 1e3:>9.2f} {'baseline':>9}")
per = []
for n, s, e in sized:
    per.append((n, (s - bs) / n, (e - be) / n))
    print(f"{n:>8} {s / 1e3:>9.2f} {per[-1][1]:>9.3f} {e / 1e3:>9.2f} {per[-1][2]:>9.3f}")
(n0, s0, e0), (n1, s1, e1) = per[0], per[-1]
r = lambda a, b: f"{b / a:.2f}x" if a > 0 else "n/a"
print(f"per-entry cost at {n1} over {n0} entries: show {r(s0, s1)}, edit {r(e0, e1)}"
      f"  (linear ~1, quadratic ~{n1 / n0:.0f})")
PY
