#!/usr/bin/env bash
# The translator's benchmark, ratios in one run: `mirage raise` time per machine instruction
# over the kernel suite's objects, `mirage emulate` of every suite launch against the host-C
# reference of the same kernel on the same launch (wall time, best of N runs each), and the
# translation to gfx942/gfx950 against a cp of each object.
# usage: bench_emulate.sh BUILD_DIR SOURCE_DIR [RUNS]
set -euo pipefail
build=$1 src=$2 runs=${3:-3}
mirage=$build/bin/mirage bin=$build/tests/kernels/bin tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s%N; }
# best CMD...: the fastest of $runs runs, in nanoseconds.
best() {
	local b=0 t0 t
	for _ in $(seq "$runs"); do
		t0=$(now)
		"$@" >/dev/null 2>&1
		t=$(($(now) - t0))
		if [ "$b" -eq 0 ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b"
}
total_ns=0 total_insts=0
for co in "$build"/tests/kernels/gfx1250/O*/*.co; do
	n=$("$mirage" raise "$co" --json | sed -n 's/.*"instructions":[^0-9]*\([0-9]*\).*/\1/p' |
		awk '{s += $1} END {print s + 0}')
	t=$(best "$mirage" raise "$co" --json)
	total_ns=$((total_ns + t)) total_insts=$((total_insts + n))
done
printf 'raise: %d instructions in %.1f ms (process start included): %.2f us per instruction\n' \
	"$total_insts" "$(echo "$total_ns / 1000000" | bc -l)" \
	"$(echo "$total_ns / 1000 / $total_insts" | bc -l)"
printf '%-28s %12s %12s %8s\n' launch "emulate ms" "host-C ms" ratio
for launch in "$src"/tests/kernels/launch/*.json; do
	full=$(basename "$launch" .json) k=${full%%.*}
	mkdir -p "$tmp/$full/host"
	cp "$launch" "$tmp/$full/l.json"
	cp "$build/tests/kernels/gfx1250/O2/$k.co" "$tmp/$full/$k.co"
	te=$(best "$mirage" emulate "$tmp/$full/l.json")
	th=$(best "$bin/host_ref_$k" "$launch" --output-dir "$tmp/$full/host")
	printf '%-28s %12.1f %12.1f %8.1f\n' "$full" "$(echo "$te / 1000000" | bc -l)" \
		"$(echo "$th / 1000000" | bc -l)" "$(echo "$te / $th" | bc -l)"
done

# Translation (gfx1250 -> gfx942 / gfx950, docs/translate.md): translate_object in-process per
# object (raise, proofs, O2, codegen, ld.lld, validation; best of $runs), against a `cp` of the
# same object, per kernel and per instruction.  Only objects whose every kernel translates.
drive=$build/tests/tools/translate_drive lib=$build/lib/mirage/libmirage_translate.so
for target in gfx942 gfx950; do
	tt=0 tc=0 kernels=0 insts=0 objects=0
	for co in "$build"/tests/kernels/gfx1250/O*/*.co; do
		out=$("$drive" "$lib" "$co" "$target" "$tmp/t.co" "$tmp/t.tsv" "$runs") || continue
		read -r ms n k <<<"$out"
		c=$(best cp "$co" "$tmp/copy.co")
		tt=$(echo "$tt + $ms" | bc -l) tc=$((tc + c))
		kernels=$((kernels + k)) insts=$((insts + n)) objects=$((objects + 1))
	done
	printf 'translate %s: %d objects, %d kernels, %d instructions: %.1f ms per kernel, %.1f us per instruction; cp %.2f ms per object (%.0fx)\n' \
		"$target" "$objects" "$kernels" "$insts" "$(echo "$tt / $kernels" | bc -l)" \
		"$(echo "$tt * 1000 / $insts" | bc -l)" "$(echo "$tc / 1000000 / $objects" | bc -l)" \
		"$(echo "$tt * 1000000 / $tc" | bc -l)"
done
