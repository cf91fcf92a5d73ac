#!/usr/bin/env bash
# The translator's optimisation pipeline (translate/amdgcn/amdgcn_o2_pipeline.inc,
# docs/translate.md "Compile time") is exactly LLVM 22's default<O2> for gfx942 and for gfx950
# as opt-22 prints it, without its trailing verify and bitcode writer, amdgpu-attributor and
# slp-vectorizer: a new LLVM that changes O2 fails here, not in a slower or different output.
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${LLVM_OPT:-}" ] || fail "opt-22 is found (\$LLVM_OPT: '${LLVM_OPT:-}')"
cd "$TEST_TMP" || exit 1
python3 - "$MIRAGE_SRC/translate/amdgcn/amdgcn_o2_pipeline.inc" >ours.txt <<'PY' ||
import re, sys
text = re.sub(r"/\*.*?\*/", "", open(sys.argv[1]).read(), flags=re.S)
print("".join(re.findall(r'"([^"]*)"', text)))
PY
	fail "the pipeline is read from amdgcn_o2_pipeline.inc"
[ -s ours.txt ] || fail "amdgcn_o2_pipeline.inc holds a pipeline"
echo 'define void @f() { ret void }' >empty.ll
for cpu in gfx942 gfx950; do
	# (opt then fails to parse its own printout, for BitcodeWriterPass: only stdout counts)
	"$LLVM_OPT" -mtriple=amdgcn-amd-amdhsa -mcpu="$cpu" -passes='default<O2>' \
		-print-pipeline-passes empty.ll -o /dev/null >"o2.$cpu.txt" 2>/dev/null
	[ -s "o2.$cpu.txt" ] || fail "opt-22 prints default<O2> for $cpu"
	python3 - "o2.$cpu.txt" >"expected.$cpu.txt" <<'PY' || fail "$cpu: O2 ends in verify,BitcodeWriterPass and has each removed pass once"
import sys
line = open(sys.argv[1]).readline().strip()
tail = ",verify,BitcodeWriterPass"
assert line.endswith(tail), line[-60:]
passes = line[: -len(tail)].split(",")
for dropped in ("amdgpu-attributor", "slp-vectorizer"):
    assert passes.count(dropped) == 1, dropped
print(",".join(p for p in passes if p not in ("amdgpu-attributor", "slp-vectorizer")))
PY
	cmp -s ours.txt "expected.$cpu.txt" && ok "$cpu: LLVM's O2 without amdgpu-attributor and slp-vectorizer" ||
		fail "$cpu: LLVM's O2 without amdgpu-attributor and slp-vectorizer (diff ours.txt expected.$cpu.txt)"
done
done_testing
