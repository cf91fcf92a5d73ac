#!/usr/bin/env bash
# gfx12's scalar float ops (tests/raise/sfloat.s, assembled here by llvm-mc-22): s_{add,sub,mul,
# min_num,max_num,fmac,minimum,maximum}_f{32,16}, s_fmaak/s_fmamk_f32, the rounding
# ops at f32 and f16, the conversions (f32/f16 both ways, cvt_hi, cvt_pk_rtz, to and from
# integers) and the 28 compares, on 1700 records of edge values (signed zeros, halves, f32 and
# f16 denormals, infinities, quiet and signalling NaNs, the largest finite values, the values
# that round or overflow on the way to f16) and random ones, every input loaded into SGPRs by
# s_load.  `mirage emulate` runs them on gfx1250 and through the gfx942 and gfx950 translations
# (where LLVM computes them with VALU ops), deterministic and shuffled, against what
# sfloat_expect.py computes from IEEE 754-2019's rules by exact arithmetic: a 16-bit result's
# high half 0, the ISA's rule for scalar F16 instructions; a NaN judged as a class.  Then the
# forms refused (the high half of a constant) and the float-mode refusal at a scalar float op.
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
# shellcheck source=kernel_asm.sh
source "$(dirname "$0")/kernel_asm.sh"
expect=$MIRAGE_SRC/tests/integration/sfloat_expect.py
assemble_fixture "$MIRAGE_SRC/tests/raise/sfloat.s" sfloat

count=1700
python3 "$expect" inputs in.bin "$count" || fail "the inputs"
python3 -c "import struct; open('n.bin', 'wb').write(struct.pack('<I', $count))" || fail "the count"
launch() { # launch CO KERNEL DWORDS_PER_RECORD > launch file
	cat <<JSON
{"code_object": "$1", "kernel": "$2", "grid": [32], "workgroup": [32],
 "buffers": {"in": {"size": $((32 * count)), "init": "file:in.bin"},
             "out": {"size": $((4 * $3 * count)), "init": "zero", "output": "out.bin"},
             "n": {"size": 4, "init": "file:n.bin"}},
 "args": [{"buffer": "in"}, {"buffer": "out"}, {"buffer": "n"}]}
JSON
}

translate_fixture sfloat

# run CO KERNEL DWORDS SCHEDULE: emulate, then judge every result.
run() {
	rm -f out.bin
	launch "$1" "$2" "$3" >l.json
	run_capture "$MIRAGE_BIN" emulate l.json --schedule "$4"
	assert_eq "$RUN_STATUS" 0 "$1 $2, $4: mirage emulate runs it ($(head -c 300 "$RUN_STDERR_FILE"))"
	run_capture python3 "$expect" judge "$2" in.bin out.bin "$count"
	assert_eq "$RUN_STATUS" 0 "$1 $2, $4: $(head -c 1500 "$RUN_STDOUT_FILE")"
}
for co in sfloat.co sfloat.gfx942.co sfloat.gfx950.co; do
	for schedule in deterministic shuffle:7; do
		run "$co" sfloat 40 "$schedule"
	done
done
# The judge bites: one bit of one result flipped is found.
python3 -c '
d = bytearray(open("out.bin", "rb").read()); d[4 * 40 * 40 + 4 * 18] ^= 1
open("out.bin", "wb").write(d)' || fail "corrupting a result"
run_capture python3 "$expect" judge sfloat in.bin out.bin "$count"
assert_eq "$RUN_STATUS" 1 "a corrupted s_add_f16 result is found ($RUN_STDOUT)"
assert_contains "$RUN_STDOUT" "record 40 " "and named"

# s_minimum/s_maximum_f{32,16} (IEEE minimum and maximum, a NaN wins): LLVM computes them for
# gfx950 with v_{minimum3,maximum3}_f32 and v_pk_{minimum3,maximum3}_f16, which no table has a
# row for yet, so gfx950 refuses them.
for co in sfloat.co sfloat.gfx942.co; do
	run "$co" sfloat_ieee 8 deterministic
done
run_capture "$MIRAGE_BIN" raise sfloat.gfx950.co --json
assert_contains "$RUN_STDOUT" '"detail":	"format VOP3P opcode 0x1c"' \
	"gfx950: sfloat_ieee's v_pk_maximum3_f16 has no row (an unknown instruction, not a wrong value)"

# s_cvt_hi_f32_f16 of a constant: the high half of an inline constant or a literal is no rule
# we hold: refused.
for src in 0.5 0x12345678; do
	kernel cvthi "s_load_b64 s[2:3], s[0:1], 0x0; s_wait_kmcnt 0; s_cvt_hi_f32_f16 s4, $src; v_mov_b32 v0, s4; v_mov_b32 v1, 0; global_store_b32 v1, v0, s[2:3]; s_endpgm"
	run_capture "$MIRAGE_BIN" raise cvthi.co --json
	assert_eq "$RUN_STATUS" 1 "s_cvt_hi_f32_f16 of $src is refused"
	assert_contains "$RUN_STDOUT" "the high half of a constant source" "as a form not modelled"
done

# The float mode: a scalar float op in a kernel whose RSRC1 flushes denormals is refused on the
# CPU at that op, as a vector one is.
kernel ftz "s_load_b64 s[2:3], s[0:1], 0x0; s_wait_kmcnt 0; s_mul_f16 s4, s4, s4; v_mov_b32 v0, s4; v_mov_b32 v1, 0; global_store_b32 v1, v0, s[2:3]; s_endpgm" \
	".amdhsa_float_denorm_mode_32 3; .amdhsa_float_denorm_mode_16_64 0"
run_capture "$MIRAGE_BIN" raise ftz.co --binding host --json
assert_eq "$RUN_STATUS" 1 "a flush-mode kernel with s_mul_f16 is refused on the CPU"
assert_contains "$RUN_STDOUT" '"reason":	"float-mode"' "as float-mode"
assert_contains "$RUN_STDOUT" '"mnemonic":	"s_mul_f16"' "at s_mul_f16"
done_testing
