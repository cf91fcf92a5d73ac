#!/usr/bin/env bash
# The packed 16-bit integer shifts, min/max and multiply-adds (v_pk_{lshl,lshr,ashr}rev_*16,
# v_pk_{max,min}_{i,u}16, v_pk_mad_{u,i}16, and op_sel/op_sel_hi on one of them) and the
# 32-bit v_maxmin_i32/v_minmax_u32 (the ISA: max of the first two, then min with the third;
# and the other way round), from
# tests/raise/pk16.s assembled here by llvm-mc-22, run by `mirage emulate` on edge values
# (0, 1, 0x7fff, 0x8000, 0xffff, shift amounts past 15, random halves) against bytes this
# script computes from the ISA's rules for each half.  A clamp or neg_lo on them is refused
# as unsupported-form, never dropped.
# shellcheck source=lib.sh
source "$TEST_LIB"
# shellcheck source=kernel_asm.sh
source "$MIRAGE_SRC/tests/integration/kernel_asm.sh"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
assemble_fixture "$MIRAGE_SRC/tests/raise/pk16.s" pk16

python3 - <<'PY' || fail "the inputs and the expected bytes"
import random, struct
W = 32
edge = [0, 1, 2, 15, 16, 17, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff, 0x1234, 0x00ff, 0xff00]
rnd = random.Random(16)
def half():
    return rnd.choice(edge) if rnd.random() < 0.6 else rnd.randrange(1 << 16)
ins = [[half() | half() << 16 for _ in range(3)] for _ in range(W)]
open("in.bin", "wb").write(b"".join(struct.pack("<3I", *v) for v in ins))

def lo(x): return x & 0xffff
def hi(x): return x >> 16
def s16(x): return x - 0x10000 if x & 0x8000 else x
def s32(x): return x - (1 << 32) if x >> 31 else x
def per_half(f, *srcs):
    # The ISA's packed rule: the low result half from the low source halves, the high from
    # the high ones (op_sel and op_sel_hi at their defaults).
    return (f(*(lo(s) for s in srcs)) & 0xffff) | (f(*(hi(s) for s in srcs)) & 0xffff) << 16

out = []
for a, b, c in ins:
    r = [
        per_half(lambda x, y: y << (x & 15), a, b),                   # v_pk_lshlrev_b16
        per_half(lambda x, y: y >> (x & 15), a, b),                   # v_pk_lshrrev_b16
        per_half(lambda x, y: s16(y) >> (x & 15), a, b),              # v_pk_ashrrev_i16
        per_half(lambda x, y: max(s16(x), s16(y)), a, b),             # v_pk_max_i16
        per_half(lambda x, y: min(s16(x), s16(y)), a, b),             # v_pk_min_i16
        per_half(max, a, b),                                          # v_pk_max_u16
        per_half(min, a, b),                                          # v_pk_min_u16
        per_half(lambda x, y, z: x * y + z, a, b, c),                 # v_pk_mad_u16
        per_half(lambda x, y, z: s16(x) * s16(y) + s16(z), a, b, c),  # v_pk_mad_i16
        # op_sel:[1,0] op_sel_hi:[0,1]: the low half takes a's high half and b's low one,
        # the high half a's low half and b's high one.
        (max(s16(hi(a)), s16(lo(b))) & 0xffff) | (max(s16(lo(a)), s16(hi(b))) & 0xffff) << 16,
        min(max(s32(a), s32(b)), s32(c)) & 0xffffffff,                # v_maxmin_i32
        max(min(a, b), c),                                            # v_minmax_u32
    ]
    out.append(struct.pack("<12I", *r))
open("expect.bin", "wb").write(b"".join(out))
PY
cat >launch.json <<'JSON'
{"code_object": "pk16.co", "kernel": "pk16", "grid": [32], "workgroup": [32],
 "buffers": {"in": {"size": 384, "init": "file:in.bin"},
             "out": {"size": 1536, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "in"}, {"buffer": "out"}]}
JSON
for sched in deterministic shuffle:5; do
	rm -f out.bin
	run_capture "$MIRAGE_BIN" emulate launch.json --schedule "$sched"
	assert_eq "$RUN_STATUS" 0 "$sched: mirage emulate runs the packed ops ($(head -c 300 "$RUN_STDERR_FILE"))"
	python3 - <<'PY' || fail "$sched: a packed result differs from the ISA's rule"
import struct, sys
names = ["v_pk_" + n for n in ("lshlrev_b16", "lshrrev_b16", "ashrrev_i16", "max_i16", "min_i16",
                               "max_u16", "min_u16", "mad_u16", "mad_i16", "max_i16 op_sel")]
names += ["v_maxmin_i32", "v_minmax_u32"]
got, want = open("out.bin", "rb").read(), open("expect.bin", "rb").read()
bad = [(i // 12, names[i % 12], g, w) for i, (g, w) in
       enumerate(zip(struct.iter_unpack("<I", got), struct.iter_unpack("<I", want))) if g != w]
if bad:
    sys.exit("%d differ, first: lane %d %s: 0x%08x, want 0x%08x" % (len(bad), bad[0][0], bad[0][1], bad[0][2][0], bad[0][3][0]))
PY
	ok "$sched: every packed shift, min/max, multiply-add and maxmin/minmax matches the ISA's rule"
done

# A modifier the raiser does not model refuses the instruction: pk16.s with one added.
for mod in clamp "neg_lo:[1,0]" "neg_hi:[0,1]"; do
	sed "s/^\tv_pk_max_i16 v13, v2, v3\$/& $mod/" "$MIRAGE_SRC/tests/raise/pk16.s" >refuse.fixture.s
	grep -qF "v_pk_max_i16 v13, v2, v3 $mod" refuse.fixture.s || fail "the $mod variant was not written"
	assemble_fixture refuse.fixture.s refuse
	run_capture "$MIRAGE_BIN" raise refuse.co --json
	assert_eq "$RUN_STATUS" 1 "v_pk_max_i16 $mod: refused (exit 1)"
	assert_contains "$RUN_STDOUT" "unsupported-form" "v_pk_max_i16 $mod: as unsupported-form"
done
done_testing
