#!/usr/bin/env bash
# v_permlane16_swap_b32 (tests/raise/permlane16_swap.s and permlane16_swap_gfx950.s, assembled
# here by llvm-mc-22) run by `mirage emulate` on gfx1250, through the gfx942 and gfx950
# translations, and natively on gfx950 (wave64), against the rule this script computes
# (docs/raiser.md, "Cross-lane moves", after LLVM's description of llvm.amdgcn.permlane16.swap
# and the CDNA4 ISA's pseudocode): for each pass p (one on wave32, two on wave64) and lane
# i < 16, src0's lane 32p + i and vdst's lane 32p + i + 16 swap; the other lanes of both keep
# their values.  With vdst = src0 the register's rows swap.  What an inactive lane does is not
# documented: a swap with one is a run-time fault naming the instruction (in a translation,
# a trap).  Random values; deterministic and shuffled schedules.
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
# shellcheck source=kernel_asm.sh
source "$(dirname "$0")/kernel_asm.sh"
assemble_fixture "$MIRAGE_SRC/tests/raise/permlane16_swap.s" swap
assemble_fixture "$MIRAGE_SRC/tests/raise/permlane16_swap_gfx950.s" swap950

python3 -c '
import random
open("in.bin", "wb").write(bytes(random.Random(1616).getrandbits(8) for _ in range(512)))' ||
	fail "the inputs"
# launch CO WAVE: one wave of WAVE lanes of kernel swap
launch() {
	cat >l.json <<JSON
{"code_object": "$1", "kernel": "swap", "grid": [$2], "workgroup": [$2],
 "buffers": {"in": {"size": 512, "init": "file:in.bin"},
             "out": {"size": 2048, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "in"}, {"buffer": "out"}]}
JSON
}

# judge WAVE
judge() {
	python3 - "$1" <<'PY'
import struct, sys
wave = int(sys.argv[1])
v = struct.unpack("<128I", open("in.bin", "rb").read())
out = open("out.bin", "rb").read()
def swap(d, s):
    d, s = list(d), list(s)
    for p in range(wave // 32):
        for i in range(16):
            l = 32 * p + i
            s[l], d[l + 16] = d[l + 16], s[l]
    return d, s
a, b = list(v[:wave]), list(v[wave:2 * wave])
d, s = swap(a, b)
# one register: vdst and src0 are the same cells
r = list(a)
for p in range(wave // 32):
    for i in range(16):
        l = 32 * p + i
        r[l], r[l + 16] = r[l + 16], r[l]
want = [[d[t], s[t], r[t], d[t], s[t]] for t in range(wave)]
names = ["vdst", "src0", "vdst = src0", "e64 fi bound_ctrl: vdst", "e64 fi bound_ctrl: src0"]
bad = []
for t in range(wave):
    got = struct.unpack_from("<5I", out, 32 * t)
    for k in range(5):
        if got[k] != want[t][k]:
            bad.append("lane %d %s: 0x%08x, want 0x%08x" % (t, names[k], got[k], want[t][k]))
if bad:
    sys.exit("%d differ, first: %s" % (len(bad), "; ".join(bad[:4])))
PY
}

translate_fixture swap
for run in swap.co:32 swap.gfx942.co:32 swap.gfx950.co:32 swap950.co:64; do
	co=${run%%:*} wave=${run#*:}
	launch "$co" "$wave"
	for schedule in deterministic shuffle:7; do
		rm -f out.bin
		run_capture "$MIRAGE_BIN" emulate l.json --schedule "$schedule"
		assert_eq "$RUN_STATUS" 0 "$co, $schedule: mirage emulate runs it ($(head -c 300 "$RUN_STDERR_FILE"))"
		judge "$wave" || fail "$co, $schedule: a result differs from the rule"
		ok "$co, $schedule: every lane of both registers is the rule's"
	done
done

# An inactive lane: the run stops at the swap, which the fault names.
for run in swap.co:32:gfx1250 swap950.co:64:gfx950 swap.gfx942.co:32:gfx942; do
	IFS=: read -r co wave cpu <<<"$run"
	launch "$co" "$wave"
	sed -i 's/"kernel": "swap"/"kernel": "swap_partial"/' l.json
	run_capture "$MIRAGE_BIN" emulate l.json
	assert_ne "$RUN_STATUS" 0 "$co, lanes left out of EXEC: the run stops"
	if [ "$cpu" = gfx942 ]; then
		assert_contains "$RUN_STDERR" "the wave ends in the trap handler" "$co: in the trap handler"
		continue
	fi
	assert_contains "$RUN_STDERR" "a lane of the wave is inactive, for which the instruction's rule is not documented" \
		"$co: the fault says why"
	at=$("$LLVM_OBJDUMP" -d --mcpu="$cpu" "$co" | awk '/<swap_partial>:/ {k = 1} k && /v_permlane16_swap_b32/ {sub(/^.*\/\/ 0*/, ""); sub(/:.*/, ""); print tolower($0); exit}')
	assert_contains "$RUN_STDERR" "instruction at 0x$at:" "$co: the fault names the swap at 0x$at"
done
done_testing
