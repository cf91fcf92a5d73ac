#!/usr/bin/env bash
# The integer min/max family (tests/raise/int_minmax.s, assembled here by llvm-mc-22) run by
# `mirage emulate` on edge values, against the rules this script computes: v_add_{min,max}_
# {u,i}32 take the minimum or maximum of the saturated sum and the third source (what LLVM
# selects them for: umin/smin/umax/smax of uadd.sat/sadd.sat); v_cls_i32 is the position from
# the top of the first bit that differs from the sign bit, or -1 (LLVM's llvm.amdgcn.sffbh,
# the ISA's V_CLS_I32); v_{min3,max3,med3}_{i,u}16 of the low halves and, with op_sel, of the
# high halves.  Deterministic and shuffled.
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
# shellcheck source=kernel_asm.sh
source "$(dirname "$0")/kernel_asm.sh"
assemble_fixture "$MIRAGE_SRC/tests/raise/int_minmax.s" int_minmax

python3 - <<'PY' || fail "the inputs"
import random, struct
rnd = random.Random(1250)
edge = [0, 1, 2, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0xfffffffe, 0x40000000,
        0xc0000000, 0x00007fff, 0x00008000, 0x7fff8000, 0x8000ffff, 0x0001ffff, 0xffff0001]
rows = []
for t in range(32):
    if t < 16:
        a = edge[t]; b = edge[(t * 7 + 3) % 16]; c = edge[(t * 5 + 1) % 16]
    else:
        a, b, c = (rnd.getrandbits(32) for _ in range(3))
    rows.append(struct.pack("<3I", a, b, c))
open("in.bin", "wb").write(b"".join(rows))
PY
cat >launch.json <<'JSON'
{"code_object": "int_minmax.co", "kernel": "int_minmax", "grid": [32], "workgroup": [32],
 "buffers": {"in": {"size": 384, "init": "file:in.bin"},
             "out": {"size": 1408, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "in"}, {"buffer": "out"}]}
JSON

judge() {
	python3 - <<'PY'
import struct, sys
def s32(x): return x - (1 << 32) if x & 0x80000000 else x
def s16(x): return x - (1 << 16) if x & 0x8000 else x
def sat_u(x): return min(x, 0xffffffff)
def sat_i(x): return max(-(1 << 31), min((1 << 31) - 1, x))
def cls(x):
    sign = x >> 31
    for i in range(1, 32):
        if (x >> (31 - i)) & 1 != sign:
            return i
    return 0xffffffff
def med3(a, b, c): return max(min(a, b), min(max(a, b), c))
def halves(fn, signed, a, b, c):
    out = 0
    for sh in (0, 16):
        x, y, z = (v >> sh & 0xffff for v in (a, b, c))
        if signed:
            x, y, z = s16(x), s16(y), s16(z)
        out |= (fn(x, y, z) & 0xffff) << sh
    return out
raw_in, raw_out = open("in.bin", "rb").read(), open("out.bin", "rb").read()
bad = []
for t in range(32):
    a, b, c = struct.unpack_from("<3I", raw_in, 12 * t)
    got = struct.unpack_from("<11I", raw_out, 44 * t)
    want = [min(sat_u(a + b), c), max(sat_u(a + b), c),
            min(sat_i(s32(a) + s32(b)), s32(c)) & 0xffffffff,
            max(sat_i(s32(a) + s32(b)), s32(c)) & 0xffffffff, cls(a),
            halves(med3, True, a, b, c), halves(med3, False, a, b, c),
            halves(lambda x, y, z: min(x, y, z), True, a, b, c),
            halves(lambda x, y, z: max(x, y, z), False, a, b, c),
            halves(lambda x, y, z: max(x, y, z), True, a, b, c),
            halves(lambda x, y, z: min(x, y, z), False, a, b, c)]
    names = ["v_add_min_u32", "v_add_max_u32", "v_add_min_i32", "v_add_max_i32", "v_cls_i32",
             "v_med3_i16", "v_med3_u16", "v_min3_i16", "v_max3_u16", "v_max3_i16", "v_min3_u16"]
    for n, g, w in zip(names, got, want):
        if g != w:
            bad.append("lane %d %s(0x%x, 0x%x, 0x%x): 0x%x, want 0x%x" % (t, n, a, b, c, g, w))
if bad:
    sys.exit("%d differ, first: %s" % (len(bad), bad[0]))
PY
}

for schedule in deterministic shuffle:7; do
	rm -f out.bin
	run_capture "$MIRAGE_BIN" emulate launch.json --schedule "$schedule"
	assert_eq "$RUN_STATUS" 0 "$schedule: mirage emulate runs the kernel ($(head -c 300 "$RUN_STDERR_FILE"))"
	judge || fail "$schedule: a result differs from the rule"
	ok "$schedule: every add-min/max, cls and 16-bit min3/max3/med3 result is the rule's"
done
# The add-min/max forms' clamp bit has no rule we hold: refused, never dropped.
kernel addclamp "s_load_b64 s[2:3], s[0:1], 0x0; s_wait_kmcnt 0; v_add_min_u32 v0, v0, v0, v0 clamp; v_mov_b32 v1, 0; global_store_b32 v1, v0, s[2:3]; s_endpgm"
run_capture "$MIRAGE_BIN" raise addclamp.co --json
assert_eq "$RUN_STATUS" 1 "v_add_min_u32 with clamp is refused"
assert_contains "$RUN_STDOUT" "clamp is not modelled" "as an unmodelled clamp"
done_testing
