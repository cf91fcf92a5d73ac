#!/usr/bin/env bash
# The translator's coverage over the real-kernel corpus that corpus.sh built (docs/translate.md):
# `mirage --json rewrite OBJ -o OUT --target T` on every object, summed up as kernels
# translated (proven, or in whole-wave mode) and refusals by reason and mnemonic; then, for
# every object that translated whole, `mirage --json raise OUT` (the gfx942 table) on the
# output: the share of its kernels that raise again.
#
# usage: translate_coverage.sh [--objects DIR] [--mirage PATH] [--limit N]
#                             [--target gfx942|gfx950]...
#   --objects DIR  the corpus objects (default: build/corpus/objects in the source tree)
#   --mirage PATH  the mirage to ask (default: build/bin/mirage in the source tree)
#   --limit N      only the first N objects (sorted by name)
#   --target T     a target to translate for, repeatable (default: gfx942)
# Exit 0 with the summary on stdout; 1 when there is no object to look at; 2 on a bad
# command line.
set -euo pipefail

targets=()
corpus_option() {
	case $1 in
	--target) targets+=("$2") ;;
	*) return 1 ;;
	esac
}
# shellcheck source=corpus_lib.sh
source "$(dirname "$0")/corpus_lib.sh"
corpus_args "$@"
[ ${#targets[@]} -gt 0 ] || targets=(gfx942)
corpus_objects
for t in "${targets[@]}"; do
	mkdir -p "$tmp/$t"
	for co in "${cos[@]}"; do
		b=$(basename "$co" .co)
		# Exit 1 means some kernel was refused: the JSON says which, so it is not an error here.
		"$mirage" --json rewrite "$co" -o "$tmp/$t/$b.out.co" --target "$t" \
			>"$tmp/$t/$b.json" 2>/dev/null || true
		if [ -s "$tmp/$t/$b.out.co" ]; then
			"$mirage" --json raise "$tmp/$t/$b.out.co" >"$tmp/$t/$b.raise.json" 2>/dev/null || true
		fi
	done
done
python3 - "$tmp" "${#cos[@]}" "${targets[@]}" <<'PY'
import collections, glob, json, os, sys
tmp, nobjects, targets = sys.argv[1], sys.argv[2], sys.argv[3:]
def share(n, d):
    return f"{n} ({100.0 * n / max(d, 1):.1f}%)"
for t in targets:
    kernels = proven = whole_wave = shipped = again = 0
    reasons, raise_reasons = collections.Counter(), collections.Counter()
    for path in sorted(glob.glob(f"{tmp}/{t}/*.json")):
        if path.endswith(".raise.json"):
            continue
        try:
            doc = json.load(open(path))
        except ValueError:
            reasons["mirage rewrite printed no JSON"] += 1
            continue
        for k in doc.get("kernel_results", []):
            kernels += 1
            if not k.get("translated"):
                reasons[f'{k.get("reason", "?")} {k.get("mnemonic", "")}'.strip()] += 1
            elif k.get("whole_wave"):
                whole_wave += 1
            else:
                proven += 1
        rpath = path[: -len(".json")] + ".raise.json"
        if os.path.exists(rpath):
            try:
                rdoc = json.load(open(rpath))
            except ValueError:
                rdoc = {"kernels": [{"reason": "mirage raise printed no JSON"}]}
            for k in rdoc.get("kernels", []):
                shipped += 1
                if k.get("raised"):
                    again += 1
                else:
                    raise_reasons[f'{k.get("reason", "?")} {k.get("mnemonic", "")}'.strip()] += 1
    print(f"{t}: objects: {nobjects}, kernels: {kernels}")
    print(f"  translated: {share(proven + whole_wave, kernels)}: proven {proven}, "
          f"in whole-wave mode {whole_wave}")
    for why, n in reasons.most_common():
        print(f"  refused {n}: {why}")
    print(f"  raised again ({t} output, the gfx942 table): {share(again, shipped)} of the "
          f"{shipped} kernels in objects that translated whole")
    for why, n in raise_reasons.most_common():
        print(f"    not raised {n}: {why}")
PY
