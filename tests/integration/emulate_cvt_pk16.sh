#!/usr/bin/env bash
# v_cvt_pk_{i,u}16_f32 (tests/raise/cvt_pk16.s, assembled here by llvm-mc-22) run by `mirage
# emulate` on gfx1250 and through the gfx942 and gfx950 translations, against the rule this
# script computes: each source truncated toward zero into its 16-bit half (LLVM's fptosi and
# fptoui, which LLVM selects them for), with the neg and abs source modifiers (the variants
# integration/raise_mod_bits leaves to this test, since its random values do not fit); edge values
# (the last fitting ones on both sides, -0, a denormal, halves) and random ones.  A lane whose
# value does not fit (or is a NaN) has no rule we hold: the run stops at the instruction with
# a fault that says so (in the translation, the trap a kernel's own s_trap is); an inactive
# lane's value may be anything.  Deterministic and shuffled.
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
# shellcheck source=kernel_asm.sh
source "$(dirname "$0")/kernel_asm.sh"
assemble_fixture "$MIRAGE_SRC/tests/raise/cvt_pk16.s" cvt_pk16

# inputs NAME BAD_LANE BAD_VALUE: 32 lanes of (a, b) in range into NAME, lane BAD_LANE's a
# replaced by BAD_VALUE (a float's bits) unless BAD_LANE is -1.
inputs() {
	python3 - "$@" <<'PY' || fail "the inputs"
import random, struct, sys
name, bad_lane, bad_bits = sys.argv[1], int(sys.argv[2]), int(sys.argv[3], 16)
f = lambda x: struct.unpack("<I", struct.pack("<f", x))[0]
# |a| and |b| stay below 32768 so that -a, |a| and |b| fit both forms too.
edge = [0.0, -0.0, 1.5, -1.5, 0.99, -0.99, 32767.99, -32767.99, 32767.0, -32767.0,
        1e-40, -1e-40, 12345.678, -20000.5, 0.5, 2.5]
rnd = random.Random(1250)
words = []
for t in range(32):
    a = edge[t] if t < 16 else rnd.uniform(-32767.99, 32767.99)
    b = edge[(t * 7 + 3) % 16] if t < 16 else rnd.uniform(-32767.99, 32767.99)
    words += [f(a), f(b)]
if bad_lane >= 0:
    words[2 * bad_lane] = bad_bits
open(name, "wb").write(struct.pack("<64I", *words))
PY
}
inputs in.bin -1 0
cat >launch.json <<'JSON'
{"code_object": "cvt_pk16.co", "kernel": "cvt_pk16", "grid": [32], "workgroup": [32],
 "buffers": {"in": {"size": 256, "init": "file:in.bin"},
             "out": {"size": 512, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "in"}, {"buffer": "out"}]}
JSON

judge() {
	python3 - <<'PY'
import math, struct, sys
raw_in, raw_out = open("in.bin", "rb").read(), open("out.bin", "rb").read()
def pack(x, y, lo, hi):
    tx, ty = math.trunc(x), math.trunc(y)
    assert lo <= tx <= hi and lo <= ty <= hi
    return (tx & 0xffff) | (ty & 0xffff) << 16
bad = []
for t in range(32):
    a, b = struct.unpack_from("<2f", raw_in, 8 * t)
    got = struct.unpack_from("<4I", raw_out, 16 * t)
    want = [pack(a, b, -32768, 32767), pack(-a, -b, -32768, 32767), pack(abs(a), abs(b), 0, 65535),
            pack(-abs(a), abs(b), -32768, 32767)]
    for n, g, w in zip(["i16(a, b)", "i16(-a, -b)", "u16(|a|, |b|)", "i16(-|a|, |b|)"], got, want):
        if g != w:
            bad.append("lane %d %s of (%r, %r): 0x%08x, want 0x%08x" % (t, n, a, b, g, w))
if bad:
    sys.exit("%d differ, first: %s" % (len(bad), bad[0]))
PY
}

translate_fixture cvt_pk16
for co in cvt_pk16.co cvt_pk16.gfx942.co cvt_pk16.gfx950.co; do
	sed "s/\"cvt_pk16.co\"/\"$co\"/" launch.json >l.json
	for schedule in deterministic shuffle:7; do
		rm -f out.bin
		run_capture "$MIRAGE_BIN" emulate l.json --schedule "$schedule"
		assert_eq "$RUN_STATUS" 0 "$co, $schedule: mirage emulate runs it ($(head -c 300 "$RUN_STDERR_FILE"))"
		judge || fail "$co, $schedule: a result differs from the rule"
		ok "$co, $schedule: every conversion is the truncation toward zero"
	done
done

# A value that does not fit, or a NaN, in one active lane: a fault at the instruction.
for case in "40000.0:471c4000" "-32769.0:c7000100" "NaN:7fc00000" "inf:7f800000"; do
	inputs in.bin 5 "${case#*:}"
	run_capture "$MIRAGE_BIN" emulate launch.json
	assert_ne "$RUN_STATUS" 0 "a = ${case%%:*} in lane 5: the run stops"
	assert_contains "$RUN_STDERR" "a lane's operand is one whose result is not modelled" \
		"a = ${case%%:*}: the fault says why"
	RUN_STDERR_GFX1250=$RUN_STDERR
	# In the translation the check is a trap, as a kernel's own s_trap is on the GPU.
	sed 's/"cvt_pk16.co"/"cvt_pk16.gfx942.co"/' launch.json >l.json
	run_capture "$MIRAGE_BIN" emulate l.json
	assert_ne "$RUN_STATUS" 0 "gfx942, a = ${case%%:*} in lane 5: the run stops"
	assert_contains "$RUN_STDERR" "the wave ends in the trap handler" "gfx942, a = ${case%%:*}: in the trap handler"
	# The offset of the first conversion, as llvm-objdump-22 prints it.
	at=$("$LLVM_OBJDUMP" -d --mcpu=gfx1250 cvt_pk16.co | awk '/<cvt_pk16>:/ {k = 1} k && /v_cvt_pk_i16_f32/ {sub(/^.*\/\/ 0*/, ""); sub(/:.*/, ""); print tolower($0); exit}')
	assert_contains "$RUN_STDERR_GFX1250" "instruction at 0x$at:" "a = ${case%%:*}: the fault names the instruction at 0x$at"
done

# v_cvt_pk_u16_f32's own bounds, and neg: -0.99 and 65535.99 fit (0 and 65535), -1 and 65536
# do not.
python3 -c '
import struct
v = [-0.99, 65535.99, 0.99, -65535.99, 65535.0, 0.5, -0.0, 1e-40, 40000.5, 32768.0, -40000.5, -1e-40] * 8
open("u.bin", "wb").write(struct.pack("<96f", *v) + bytes(128))' || fail "the u16 inputs"
sed 's/"cvt_pk16"/"cvt_pk16_u"/; s/in.bin/u.bin/; s/"size": 256/"size": 512/; s/"size": 512,\( "init": "zero"\)/"size": 256,\1/; s/out.bin/u_out.bin/' \
	launch.json >u.json
for co in cvt_pk16.co cvt_pk16.gfx942.co; do
	sed "s/\"cvt_pk16.co\"/\"$co\"/" u.json >l.json
	run_capture "$MIRAGE_BIN" emulate l.json
	assert_eq "$RUN_STATUS" 0 "$co, u16 bounds: mirage emulate runs it ($(head -c 300 "$RUN_STDERR_FILE"))"
	assert_eq "$(python3 -c '
import struct; print(" ".join("%08x" % w for w in struct.unpack("<64I", open("u_out.bin", "rb").read())[:6]))')" \
		"ffff0000 ffff0000 0000ffff 00000000 80009c40 00009c40" \
		"$co: u16 of (-0.99, 65535.99), (65535, 0.5), (40000.5, 32768) and of their negated neighbours"
done
for bad in "1.0, 65536.0, 0.0, 0.0" "-1.0, 0.0, 0.0, 0.0" "0.0, 0.0, 1.0, 0.0" "0.0, 0.0, 0.0, -65536.0"; do
	python3 -c "
import struct
open('u.bin', 'wb').write(struct.pack('<128f', *([$bad] + [0.0] * 124)))" || fail "the u16 input $bad"
	run_capture "$MIRAGE_BIN" emulate u.json
	assert_ne "$RUN_STATUS" 0 "u16 of ($bad): the run stops"
	assert_contains "$RUN_STDERR" "a lane's operand is one whose result is not modelled" "u16 of ($bad): the fault says why"
done

# An inactive lane's value may be anything: cvt_pk16_half converts in lanes 0 to 15 only.
inputs in.bin 20 7fc00000
cat >half.json <<'JSON'
{"code_object": "cvt_pk16.co", "kernel": "cvt_pk16_half", "grid": [32], "workgroup": [32],
 "buffers": {"in": {"size": 256, "init": "file:in.bin"},
             "out": {"size": 128, "init": "zero", "output": "half.bin"}},
 "args": [{"buffer": "in"}, {"buffer": "out"}]}
JSON
run_capture "$MIRAGE_BIN" emulate half.json
assert_eq "$RUN_STATUS" 0 "a NaN in an inactive lane: no fault ($(head -c 300 "$RUN_STDERR_FILE"))"
# The clamp bit has no rule we hold: refused, never dropped.
kernel pkclamp "s_load_b64 s[2:3], s[0:1], 0x0; s_wait_kmcnt 0; v_cvt_pk_i16_f32 v0, v0, v0 clamp; v_mov_b32 v1, 0; global_store_b32 v1, v0, s[2:3]; s_endpgm"
run_capture "$MIRAGE_BIN" raise pkclamp.co --json
assert_eq "$RUN_STATUS" 1 "v_cvt_pk_i16_f32 with clamp is refused"
assert_contains "$RUN_STDOUT" "clamp" "as an unmodelled clamp"
done_testing
