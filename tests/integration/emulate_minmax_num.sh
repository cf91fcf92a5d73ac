#!/usr/bin/env bash
# The float minimum/maximum forms, run by `mirage emulate` on edge values against the rule this
# script computes.  gfx12's v_{min,max}_num_f32, _f64, _f16 and v_pk_{min,max}_num_f16
# (tests/raise/minmax_num.s) are IEEE 754-2019's minimumNumber/maximumNumber: -0 < +0, a NaN
# (quiet or signalling) loses to a number, two NaNs give a NaN (compared as a class).  gfx9's
# v_{min,max}_f32, v_max_f16 and v_{min,max}_f64 (tests/raise/minmax_gfx9.s) are the same but
# in IEEE mode, the descriptor's default: there a signalling-NaN operand gives a NaN (itself
# quieted), as the ISA's pseudocode says.  Both assembled here by llvm-mc-22, at both compile
# tiers of the host JIT (docs/emulate.md, "Compile tiers"): llvm.maxnum, which the raiser once
# used, leaves the sign of a zero result to the backend, and the two tiers gave max(-0, +0)
# different signs.
# shellcheck source=lib.sh
source "$TEST_LIB"
# shellcheck source=kernel_asm.sh
source "$MIRAGE_SRC/tests/integration/kernel_asm.sh"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
for k in minmax_num minmax_gfx9; do
	assemble_fixture "$MIRAGE_SRC/tests/raise/$k.s" "$k"
done

python3 - <<'PY' || fail "the inputs"
import random, struct
rnd = random.Random(2019)
# The last of each: a signalling NaN (quiet bit clear, payload 1).
f32 = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7fc00000, 0xffc00001, 0x7f800000,
       0xff800000, 0x00000001, 0x80000001, 0x7f800001]
f16 = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x7e00, 0xfe01, 0x7c00, 0xfc00, 0x0001, 0x8001, 0x7c01]
f64 = [0, 1 << 63, 0x3ff0000000000000, 0xbff0000000000000, 0x7ff8000000000000,
       0xfff8000000000001, 0x7ff0000000000000, 0xfff0000000000000, 1, (1 << 63) | 1,
       0x7ff0000000000001]
lanes = []
# Every signed-zero pair, every NaN-number pair and signalling NaNs against a number, a quiet
# NaN and themselves in the first lanes, then random edge pairs.
pairs = [(0, 1), (1, 0), (0, 0), (1, 1), (4, 2), (2, 4), (4, 5), (5, 3), (8, 9), (9, 0),
         (10, 2), (3, 10), (10, 4), (4, 10), (10, 10), (10, 1)]
for t in range(32):
    i, j = pairs[t] if t < len(pairs) else (rnd.randrange(11), rnd.randrange(11))
    k, l = rnd.randrange(11), rnd.randrange(11)
    a = f16[i] | f16[k] << 16 if t % 2 else f32[i]
    b = f16[j] | f16[l] << 16 if t % 2 else f32[j]
    lanes.append(struct.pack("<2I2Q", a, b, f64[i], f64[j]))
open("in.bin", "wb").write(b"".join(lanes))
PY
# judge KERNEL ARCH: the results of KERNEL's run (out.bin) against ARCH's rule (gfx12 or gfx9).
judge() {
	KERNEL=$1 ARCH=$2 python3 - <<'PY'
import math, os, struct, sys
FMT = {16: "<e", 32: "<f", 64: "<d"}
QUIET = {16: 1 << 9, 32: 1 << 22, 64: 1 << 51}
gfx9 = os.environ["ARCH"] == "gfx9"
def num(bits, w):
    return struct.unpack(FMT[w], bits.to_bytes(w // 8, "little"))[0]
def snan(bits, w):
    return math.isnan(num(bits, w)) and not bits & QUIET[w]
def pick(a, b, w, is_max):
    """The bits the rule gives, or None for a NaN (any NaN)."""
    x, y = num(a, w), num(b, w)
    if gfx9 and snan(a, w):  # IEEE mode: the first signalling NaN, quieted
        return a | QUIET[w]
    if gfx9 and snan(b, w):
        return b | QUIET[w]
    if math.isnan(x) and math.isnan(y):
        return None
    if math.isnan(x):
        return b
    if math.isnan(y):
        return a
    if x == y == 0:  # -0 < +0: the sign bit decides
        neg_a = a >> (w - 1)
        return (b if neg_a else a) if is_max else (a if neg_a else b)
    return (a if x > y else b) if is_max else (a if x < y else b)
def same(got, want, w):
    return math.isnan(num(got, w)) if want is None else got == want
raw_in, raw_out = open("in.bin", "rb").read(), open("out.bin", "rb").read()
bad = []
for t in range(32):
    a, b, da, db = struct.unpack_from("<2I2Q", raw_in, 24 * t)
    o = struct.unpack_from("<5I2Q", raw_out, 36 * t)
    checks = [("max f32", o[0], pick(a, b, 32, True), 32),
              ("min f32", o[1], pick(a, b, 32, False), 32),
              ("max f16", o[2] & 0xffff, pick(a & 0xffff, b & 0xffff, 16, True), 16),
              ("max f64", o[5], pick(da, db, 64, True), 64),
              ("min f64", o[6], pick(da, db, 64, False), 64)]
    for half in (0, 16):
        if gfx9:  # minmax_gfx9.s leaves the packed results 0
            checks.append(("packed", o[3] | o[4], 0, 32))
            continue
        ha, hb = a >> half & 0xffff, b >> half & 0xffff
        checks.append(("pk max f16[%d]" % half, o[3] >> half & 0xffff, pick(ha, hb, 16, True), 16))
        checks.append(("pk min f16[%d]" % half, o[4] >> half & 0xffff, pick(ha, hb, 16, False), 16))
    for name, got, want, w in checks:
        if not same(got, want, w):
            bad.append("lane %d %s: 0x%x, want %s" % (t, name, got, "a NaN" if want is None else hex(want)))
if bad:
    sys.exit("%s: %d differ, first: %s" % (os.environ["KERNEL"], len(bad), bad[0]))
PY
}

for k in minmax_num:gfx12 minmax_gfx9:gfx9; do
	kernel=${k%:*} arch=${k#*:}
	cat >launch.json <<JSON
{"code_object": "$kernel.co", "kernel": "$kernel", "grid": [32], "workgroup": [32],
 "buffers": {"in": {"size": 768, "init": "file:in.bin"},
             "out": {"size": 1152, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "in"}, {"buffer": "out"}]}
JSON
	for tier in opt quick; do
		rm -f out.bin
		MIRAGE_JIT_TIER=$tier run_capture "$MIRAGE_BIN" emulate launch.json
		assert_eq "$RUN_STATUS" 0 "$kernel, $tier tier: mirage emulate runs the kernel ($(head -c 300 "$RUN_STDERR_FILE"))"
		judge "$kernel" "$arch" || fail "$kernel, $tier tier: a result differs from $arch's rule"
		ok "$kernel, $tier tier: every min/max result is $arch's, signed zeros and NaNs included"
	done
done
done_testing
