#!/usr/bin/env bash
# gfx12's f16 VOP1/VOP2 rounding, exponent and conversion forms (v_floor/ceil/trunc/rndne/fract,
# v_frexp_mant, v_frexp_exp_i16, v_ldexp, v_cvt_i16/u16 of f16) and v_cvt_pk_f16_f32 /
# v_cvt_pk_rtz_f16_f32 (tests/raise/f16_round.s, assembled here by llvm-mc-22), run by `mirage
# emulate` on gfx1250 and through the gfx942 and gfx950 translations, deterministic and shuffled,
# against the rules tests/raise/f16_round_expect.py writes from their definitions (Python's
# arithmetic, struct's 'e'): signed zeros, halves that round both ways, infinities, NaNs,
# denormals, the largest finite values, exponents past the range, values that round at half an
# f16 ulp, random ones; neg, abs and clamp.  What the ISA leaves open (a NaN converted to a 16-bit
# integer, an f16 fract that rounds to 1.0) stops the run with a fault at the instruction in an
# active lane (the trap, in the translation), not in an inactive one.
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
# shellcheck source=kernel_asm.sh
source "$(dirname "$0")/kernel_asm.sh"
assemble_fixture "$MIRAGE_SRC/tests/raise/f16_round.s" f16_round
EXPECT="$MIRAGE_SRC/tests/raise/f16_round_expect.py"

translate_fixture f16_round

# launch CO KERNEL IN OUT_DWORDS_PER_LANE: l.json
launch() {
	cat >l.json <<JSON
{"code_object": "$1", "kernel": "$2", "grid": [32], "workgroup": [32],
 "buffers": {"in": {"size": 256, "init": "file:$3"},
             "out": {"size": $((128 * $4)), "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "in"}, {"buffer": "out"}]}
JSON
}

for k in round conv pk; do
	python3 "$EXPECT" inputs "$k" "$k.bin" || fail "the $k inputs"
done
for co in f16_round.co f16_round.gfx942.co f16_round.gfx950.co; do
	for k in f16_round:round.bin:22 f16_conv:conv.bin:9 f16_conv_half:conv.bin:1 cvt_pk_f16:pk.bin:4; do
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

# What the ISA leaves open, in an active lane: a fault at the instruction, as llvm-objdump-22
# prints its offset.
at_of() {
	"$LLVM_OBJDUMP" -d --mcpu=gfx1250 f16_round.co |
		awk -v m="$1" '/<f16_conv>:/ {k = 1} k && $1 ~ "^"m {sub(/^.*\/\/ 0*/, ""); sub(/:.*/, ""); print tolower($0); exit}'
}
for case in "00007e00:v_cvt_i16_f16:a NaN" "0000fe01:v_cvt_i16_f16:a negative NaN" \
	"00007c01:v_cvt_i16_f16:a signalling NaN" "00008001:v_fract_f16:fract(-2^-24)" \
	"0000a000:v_fract_f16:fract(-2^-7 ... -0.0078125)"; do
	IFS=: read -r word m what <<<"$case"
	python3 "$EXPECT" inputs conv bad.bin 5 "$word" || fail "the inputs with $what"
	launch f16_round.co f16_conv bad.bin 9
	run_capture "$MIRAGE_BIN" emulate l.json
	if [ "$m" = v_fract_f16 ] && [ "$word" = 0000a000 ]; then
		# -2^-7: 1 - 2^-7 is an f16, no fault, and the result is that
		assert_eq "$RUN_STATUS" 0 "$what in lane 5: no fault ($(head -c 300 "$RUN_STDERR_FILE"))"
		python3 "$EXPECT" judge f16_conv bad.bin out.bin || fail "$what"
		continue
	fi
	assert_ne "$RUN_STATUS" 0 "$what in lane 5: the run stops"
	assert_contains "$RUN_STDERR" "a lane's operand is one whose result is not modelled" "$what: the fault says why"
	at=$(at_of "$m")
	assert_contains "$RUN_STDERR" "instruction at 0x$at:" "$what: the fault names the instruction at 0x$at"
	launch f16_round.gfx942.co f16_conv bad.bin 9
	run_capture "$MIRAGE_BIN" emulate l.json
	assert_ne "$RUN_STATUS" 0 "gfx942, $what in lane 5: the run stops"
	assert_contains "$RUN_STDERR" "the wave ends in the trap handler" "gfx942, $what: in the trap handler"
done
# An inactive lane's NaN converts to nothing: f16_conv_half converts in lanes 0 to 15 only.
python3 "$EXPECT" inputs conv half.bin 20 00007e00 || fail "the inputs"
launch f16_round.co f16_conv_half half.bin 1
run_capture "$MIRAGE_BIN" emulate l.json
assert_eq "$RUN_STATUS" 0 "a NaN in an inactive lane: no fault ($(head -c 300 "$RUN_STDERR_FILE"))"
python3 "$EXPECT" judge f16_conv_half half.bin out.bin || fail "f16_conv_half with an inactive lane's NaN"

# v_fract_f32 and _f64 of a small negative value, where x - floor(x) rounds to 1.0: the ISA
# clamps the result to the largest float below 1 (0x3f7fffff, 0x3fefffffffffffff); -0 gives +0,
# -2.5 gives 0.5.  On gfx1250 and through the gfx942 translation.
body="s_load_b64 s[2:3], s[0:1], 0x0; s_wait_kmcnt 0; v_mov_b32 v0, 0"
for x in 0xb2000000:0 0x80000000:4 0xc0200000:8; do
	body+="; v_mov_b32 v1, ${x%:*}; v_fract_f32 v2, v1; v_mov_b32 v0, ${x#*:}; global_store_b32 v0, v2, s[2:3]"
done
body+="; v_mov_b32 v4, 0; v_mov_b32 v5, 0xbc300000; v_fract_f64 v[6:7], v[4:5]; v_mov_b32 v0, 16; global_store_b64 v0, v[6:7], s[2:3]; s_endpgm"
KERNEL_VGPRS=8 kernel fract32 "$body" ".amdhsa_float_denorm_mode_32 3"
translate_fixture fract32 gfx942
for co in fract32.co fract32.gfx942.co; do
	cat >f.json <<JSON
{"code_object": "$co", "kernel": "k", "grid": [32], "workgroup": [32],
 "buffers": {"out": {"size": 24, "init": "zero", "output": "f.bin"}},
 "args": [{"buffer": "out"}]}
JSON
	run_capture "$MIRAGE_BIN" emulate f.json
	assert_eq "$RUN_STATUS" 0 "$co: fract32 runs ($(head -c 300 "$RUN_STDERR_FILE"))"
	assert_eq "$(od -An -v -tx4 -w24 f.bin | tr -s ' ' | sed 's/^ //')" "3f7fffff 00000000 3f000000 00000000 ffffffff 3fefffff" \
		"$co: fract(-2^-27), fract(-0), fract(-2.5) at f32 and fract(-2^-60) at f64"
done

# Bits with no rule we hold here: refused, never dropped.
for m in "v_floor_f16_e64 v0, v0 mul:2:omod" "v_cvt_i16_f16_e64 v0, v0 clamp:clamp" "v_cvt_pk_f16_f32 v0, v0, v0 clamp:clamp"; do
	inst=${m%:*}
	kernel f16bit "s_load_b64 s[2:3], s[0:1], 0x0; s_wait_kmcnt 0; $inst; v_mov_b32 v1, 0; global_store_b32 v1, v0, s[2:3]; s_endpgm"
	run_capture "$MIRAGE_BIN" raise f16bit.co --json
	assert_eq "$RUN_STATUS" 1 "$inst is refused"
	assert_contains "$RUN_STDOUT" "${m##*:}" "$inst: as an unmodelled ${m##*:}"
done
done_testing
