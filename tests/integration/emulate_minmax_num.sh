#!/usr/bin/env bash
# gfx12's minimum/maximum-number forms (v_{min,max}_num_f32, _f64, _f16 and v_pk_{min,max}_num_f16)
# from tests/raise/minmax_num.s, assembled here by llvm-mc-22, run by `mirage emulate` on edge
# values against IEEE 754-2019's minimumNumber/maximumNumber as this script computes them:
# -0 < +0, a quiet NaN loses to a number, two NaNs give a NaN (compared as a class).  At both
# compile tiers of the host JIT (docs/emulate.md, "Compile tiers"): llvm.maxnum, which the
# raiser once used, leaves the sign of a zero result to the backend, and the two tiers gave
# max(-0, +0) different signs.
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
"$LLVM_MC" -triple amdgcn-amd-amdhsa -mcpu=gfx1250 -filetype=obj \
	"$MIRAGE_SRC/tests/raise/minmax_num.s" -o minmax_num.o || fail "llvm-mc-22 assembles minmax_num.s"
"$LD_LLD" -shared minmax_num.o -o minmax_num.co || fail "ld.lld links minmax_num.co"

python3 - <<'PY' || fail "the inputs"
import random, struct
rnd = random.Random(2019)
f32 = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7fc00000, 0xffc00001, 0x7f800000,
       0xff800000, 0x00000001, 0x80000001]
f16 = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x7e00, 0xfe01, 0x7c00, 0xfc00, 0x0001, 0x8001]
f64 = [0, 1 << 63, 0x3ff0000000000000, 0xbff0000000000000, 0x7ff8000000000000,
       0xfff8000000000001, 0x7ff0000000000000, 0xfff0000000000000, 1, (1 << 63) | 1]
lanes = []
# Every signed-zero pair and every NaN-number pair in the first lanes, then random edge pairs.
pairs = [(0, 1), (1, 0), (0, 0), (1, 1), (4, 2), (2, 4), (4, 5), (5, 3), (8, 9), (9, 0)]
for t in range(32):
    i, j = pairs[t] if t < len(pairs) else (rnd.randrange(10), rnd.randrange(10))
    k, l = rnd.randrange(10), rnd.randrange(10)
    a = f16[i] | f16[k] << 16 if t % 2 else f32[i]
    b = f16[j] | f16[l] << 16 if t % 2 else f32[j]
    lanes.append(struct.pack("<2I2Q", a, b, f64[i], f64[j]))
open("in.bin", "wb").write(b"".join(lanes))
PY
cat >launch.json <<'JSON'
{"code_object": "minmax_num.co", "kernel": "minmax_num", "grid": [32], "workgroup": [32],
 "buffers": {"in": {"size": 768, "init": "file:in.bin"},
             "out": {"size": 1152, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "in"}, {"buffer": "out"}]}
JSON
for tier in opt quick; do
	rm -f out.bin
	MIRAGE_JIT_TIER=$tier run_capture "$MIRAGE_BIN" emulate launch.json
	assert_eq "$RUN_STATUS" 0 "$tier tier: mirage emulate runs the kernel ($(head -c 300 "$RUN_STDERR_FILE"))"
	python3 - <<'PY' || fail "$tier tier: a result differs from IEEE 754-2019's rule"
import math, struct, sys
FMT = {16: "<e", 32: "<f", 64: "<d"}
def num(bits, w):
    return struct.unpack(FMT[w], bits.to_bytes(w // 8, "little"))[0]
def pick(a, b, w, is_max):
    """The bits minimumNumber/maximumNumber gives, or None for a NaN (any NaN)."""
    x, y = num(a, w), num(b, w)
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
    checks = [("v_max_num_f32", o[0], pick(a, b, 32, True), 32),
              ("v_min_num_f32", o[1], pick(a, b, 32, False), 32),
              ("v_max_num_f16", o[2] & 0xffff, pick(a & 0xffff, b & 0xffff, 16, True), 16),
              ("v_max_num_f64", o[5], pick(da, db, 64, True), 64),
              ("v_min_num_f64", o[6], pick(da, db, 64, False), 64)]
    for half in (0, 16):
        ha, hb = a >> half & 0xffff, b >> half & 0xffff
        checks.append(("v_pk_max_num_f16[%d]" % half, o[3] >> half & 0xffff, pick(ha, hb, 16, True), 16))
        checks.append(("v_pk_min_num_f16[%d]" % half, o[4] >> half & 0xffff, pick(ha, hb, 16, False), 16))
    for name, got, want, w in checks:
        if not same(got, want, w):
            bad.append("lane %d %s: 0x%x, want %s" % (t, name, got, "a NaN" if want is None else hex(want)))
if bad:
    sys.exit("%d differ, first: %s" % (len(bad), bad[0]))
PY
	ok "$tier tier: every min/max-number result is IEEE 754-2019's, signed zeros and NaNs included"
done
done_testing
