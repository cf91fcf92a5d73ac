#!/usr/bin/env bash
# gfx12's float three-operand min/max forms, v_{min3,max3,minmax,maxmin,med3}_num_{f32,f16}
# (tests/raise/minmax3_num.s, assembled here by llvm-mc-22), run by `mirage emulate` on gfx1250 and
# through the gfx942 and gfx950 translations, deterministic and shuffled, against the ISA's rules
# as tests/raise/minmax3_num_expect.py writes them (IEEE 754-2019 minimumNumber/maximumNumber
# composed; med3 by the ISA's pseudocode), with neg, abs, clamp and op_sel: signed zeros in every
# order, NaNs (quiet and signalling) in each position, infinities, denormals, the largest finite
# values and random ones; and two two-operand v_{min,max}_num_f32 in a row, which LLVM joins into
# gfx9's v_min3_f32 in the translation (a signalling NaN there gave NaN before the raiser quieted
# the sources).  Where med3's pseudocode and the ordered median differ (zeros of both
# signs) the hardware's result is no rule we hold: an active lane there stops the run with a
# fault at the instruction (in the translation, the trap), an inactive lane does not.
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
# shellcheck source=kernel_asm.sh
source "$(dirname "$0")/kernel_asm.sh"
assemble_fixture "$MIRAGE_SRC/tests/raise/minmax3_num.s" minmax3_num
EXPECT="$MIRAGE_SRC/tests/raise/minmax3_num_expect.py"

translate_fixture minmax3_num

# launch CO KERNEL IN OUT_DWORDS_PER_LANE: l.json
launch() {
	cat >l.json <<JSON
{"code_object": "$1", "kernel": "$2", "grid": [32], "workgroup": [32],
 "buffers": {"in": {"size": 768, "init": "file:$3"},
             "out": {"size": $((128 * $4)), "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "in"}, {"buffer": "out"}]}
JSON
}

python3 "$EXPECT" inputs all all.bin || fail "the inputs"
python3 "$EXPECT" inputs med3 med3.bin || fail "the med3 inputs"
for co in minmax3_num.co minmax3_num.gfx942.co minmax3_num.gfx950.co; do
	for k in minmax3_num:all.bin:11 med3_num:med3.bin:4 med3_num_half:med3.bin:1 chain_num:all.bin:2; do
		IFS=: read -r kernel in n <<<"$k"
		for schedule in deterministic shuffle:7; do
			launch "$co" "$kernel" "$in" "$n"
			rm -f out.bin
			run_capture "$MIRAGE_BIN" emulate l.json --schedule "$schedule"
			assert_eq "$RUN_STATUS" 0 "$co $kernel, $schedule: mirage emulate runs it ($(head -c 300 "$RUN_STDERR_FILE"))"
			python3 "$EXPECT" judge "$kernel" "$in" out.bin || fail "$co $kernel, $schedule: a result differs from the rule"
			ok "$co $kernel, $schedule: every result is the ISA's"
		done
	done
done

# med3 where its rule and the ordered median differ, in an active lane: a fault at the
# instruction.  The first v_med3_num_f32 and the first v_med3_num_f16, as llvm-objdump-22 prints
# their offsets.
at_of() {
	"$LLVM_OBJDUMP" -d --mcpu=gfx1250 minmax3_num.co |
		awk -v m="$1" '/<med3_num>:/ {k = 1} k && $1 == m {sub(/^.*\/\/ 0*/, ""); sub(/:.*/, ""); print tolower($0); exit}'
}
for case in "32:80000000:80000000:00000000:v_med3_num_f32" "32:bf800000:80000000:00000000:v_med3_num_f32" \
	"16:8000:8000:0000:v_med3_num_f16"; do
	IFS=: read -r w a b c m <<<"$case"
	python3 "$EXPECT" inputs med3 bad.bin 5 "$w" "$a" "$b" "$c" || fail "the inputs with ($a, $b, $c)"
	launch minmax3_num.co med3_num bad.bin 4
	run_capture "$MIRAGE_BIN" emulate l.json
	assert_ne "$RUN_STATUS" 0 "med3 f$w of ($a, $b, $c) in lane 5: the run stops"
	assert_contains "$RUN_STDERR" "a lane's operand is one whose result is not modelled" "f$w ($a, $b, $c): the fault says why"
	at=$(at_of "$m")
	assert_contains "$RUN_STDERR" "instruction at 0x$at:" "f$w ($a, $b, $c): the fault names the instruction at 0x$at"
	launch minmax3_num.gfx942.co med3_num bad.bin 4
	run_capture "$MIRAGE_BIN" emulate l.json
	assert_ne "$RUN_STATUS" 0 "gfx942, f$w ($a, $b, $c) in lane 5: the run stops"
	assert_contains "$RUN_STDERR" "the wave ends in the trap handler" "gfx942, f$w ($a, $b, $c): in the trap handler"
done
# Zeros of both signs where both rules agree, also as med3(-a, b, |c|): (+0, -0, -1) gives -0,
# (-0, +0, 1) +0.
for case in "00000000:80000000:bf800000" "80000000:00000000:3f800000"; do
	IFS=: read -r a b c <<<"$case"
	python3 "$EXPECT" inputs med3 agree.bin 5 32 "$a" "$b" "$c" || fail "the inputs"
	launch minmax3_num.co med3_num agree.bin 4
	run_capture "$MIRAGE_BIN" emulate l.json
	assert_eq "$RUN_STATUS" 0 "med3 of ($a, $b, $c): no fault ($(head -c 300 "$RUN_STDERR_FILE"))"
	python3 "$EXPECT" judge med3_num agree.bin out.bin || fail "med3 of ($a, $b, $c)"
done
# An inactive lane's operands may be anything: med3_num_half runs in lanes 0 to 15 only.
python3 "$EXPECT" inputs med3 half.bin 20 32 80000000 80000000 00000000 || fail "the inputs"
launch minmax3_num.co med3_num_half half.bin 1
run_capture "$MIRAGE_BIN" emulate l.json
assert_eq "$RUN_STATUS" 0 "an ambiguous med3 in an inactive lane: no fault ($(head -c 300 "$RUN_STDERR_FILE"))"
python3 "$EXPECT" judge med3_num_half half.bin out.bin || fail "med3_num_half with an inactive lane's zeros"

# omod has no rule we hold here: refused, never dropped.
kernel m3omod "s_load_b64 s[2:3], s[0:1], 0x0; s_wait_kmcnt 0; v_min3_num_f32 v0, v0, v0, v0 mul:2; v_mov_b32 v1, 0; global_store_b32 v1, v0, s[2:3]; s_endpgm"
run_capture "$MIRAGE_BIN" raise m3omod.co --json
assert_eq "$RUN_STATUS" 1 "v_min3_num_f32 with omod is refused"
assert_contains "$RUN_STDOUT" "omod" "as an unmodelled omod"
done_testing
