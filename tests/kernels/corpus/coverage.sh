#!/usr/bin/env bash
# The raiser's coverage over the real-kernel corpus that corpus.sh built: `mirage raise --json`
# on every object, summed up as kernels raised and refusals by reason and mnemonic.
#
# usage: coverage.sh [--objects DIR] [--mirage PATH] [--limit N]
#   --objects DIR  the corpus objects (default: build/corpus/objects in the source tree)
#   --mirage PATH  the mirage to ask (default: build/bin/mirage in the source tree)
#   --limit N      only the first N objects (sorted by name)
# Exit 0 with the summary on stdout; 1 when there is no object to look at; 2 on a bad
# command line.
set -euo pipefail

# shellcheck source=corpus_lib.sh
source "$(dirname "$0")/corpus_lib.sh"
corpus_args "$@"
corpus_objects
for co in "${cos[@]}"; do
	# Exit 1 means some kernel was refused: the JSON says which, so it is not an error here.
	"$mirage" --json raise "$co" >"$tmp/$(basename "$co").json" 2>/dev/null || true
done
python3 - "$tmp" "${#cos[@]}" <<'PY'
import collections, glob, json, sys
kernels = raised = insns = 0
reasons = collections.Counter()
for path in sorted(glob.glob(sys.argv[1] + "/*.json")):
    try:
        doc = json.load(open(path))
    except ValueError:
        reasons["mirage raise printed no JSON"] += 1
        continue
    for k in doc.get("kernels", []):
        kernels += 1
        insns += k.get("instructions", 0)
        if k.get("raised"):
            raised += 1
        else:
            reasons[f'{k.get("reason", "?")} {k.get("mnemonic", "")}'.strip()] += 1
print(f"objects: {sys.argv[2]}, kernels: {kernels}, instructions: {insns}")
print(f"raised: {raised} ({100.0 * raised / max(kernels, 1):.1f}%)")
for why, n in reasons.most_common():
    print(f"  refused {n}: {why}")
PY
