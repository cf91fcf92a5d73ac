#!/usr/bin/env bash
# The LDS d16 forms (tests/raise/ds_d16.s, assembled here by llvm-mc-22) run by `mirage
# emulate` on gfx1250 and through the gfx942 and gfx950 translations, against the rule this
# script computes (docs/raiser.md, "The IR", d16 memory forms): a d16 load puts the byte
# (zero- or sign-extended to 16 bits) or the 16-bit word into the low half of its VGPR, or the
# high half for _hi, and keeps the other half; ds_store_b16_d16_hi stores bits 31:16 of the
# data VGPR, ds_store_b8_d16_hi bits 23:16.  A lane EXEC leaves out neither loads (its VGPR
# keeps its value) nor stores (its LDS bytes keep theirs).  Random LDS bytes; deterministic and
# shuffled schedules.
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
# shellcheck source=kernel_asm.sh
source "$(dirname "$0")/kernel_asm.sh"
assemble_fixture "$MIRAGE_SRC/tests/raise/ds_d16.s" ds_d16

python3 -c '
import random
rnd = random.Random(1616)
b = bytearray(rnd.getrandbits(8) for _ in range(512))
# bytes with the sign bit set and clear, and the words 0x8000 and 0x7fff, where lanes read them
b[3], b[4], b[16 + 2], b[16 + 3] = 0x80, 0x7f, 0x00, 0x80
b[32 + 8], b[32 + 9] = 0xff, 0x7f
open("in.bin", "wb").write(bytes(b))' || fail "the inputs"
cat >launch.json <<'JSON'
{"code_object": "ds_d16.co", "kernel": "ds_d16", "grid": [32], "workgroup": [32],
 "buffers": {"in": {"size": 512, "init": "file:in.bin"},
             "out": {"size": 2048, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "in"}, {"buffer": "out"}]}
JSON

judge() {
	python3 - <<'PY'
import struct, sys
lds = bytearray(open("in.bin", "rb").read()) + bytearray(512)
out = open("out.bin", "rb").read()
u32 = lambda a: struct.unpack_from("<I", lds, a)[0]
sx8 = lambda x: (x - 0x100 if x & 0x80 else x) & 0xffff
lo = lambda keep, v: (keep & 0xffff0000) | (v & 0xffff)
hi = lambda keep, v: (keep & 0xffff) | (v & 0xffff) << 16
want = [[0] * 9 for _ in range(32)]
for t in range(32):
    v2, v3, v5 = u32(16 * t), u32(16 * t + 4), u32(16 * t + 12)
    b, h = 16 * t + ((5 * t + 3) & 7), 16 * t + 2 * ((3 * t + 1) & 3)
    want[t][0] = lo(v5, lds[b])
    want[t][1] = hi(v5, lds[b + 1])
    want[t][2] = lo(v5, sx8(lds[b]))
    want[t][3] = hi(v5, sx8(lds[b + 2]))
    want[t][4] = lo(v5, lds[h] | lds[h + 1] << 8)
    want[t][5] = hi(v5, lds[h + 2] | lds[h + 3] << 8)
    # the stores: bits 31:16 at 512 + 4t, then bits 23:16 over its low byte
    want[t][6] = ((v2 >> 16) & 0xffff) | ((v2 >> 16) & 0xff) << 16
    # lanes 0 to 23 only: the load into v2's copy, the byte of v3 at 640 + 4t + 1
    want[t][7] = hi(v2, lds[h] | lds[h + 1] << 8) if t < 24 else v2
    want[t][8] = ((v3 >> 16) & 0xff) << 8 if t < 24 else 0
names = ["u8_d16", "u8_d16_hi", "i8_d16", "i8_d16_hi", "u16_d16", "u16_d16_hi",
         "store_b16_d16_hi + store_b8_d16_hi", "u16_d16_hi under v_cmpx",
         "store_b8_d16_hi under v_cmpx"]
bad = []
for t in range(32):
    got = struct.unpack_from("<9I", out, 64 * t)
    for k in range(9):
        if got[k] != want[t][k]:
            bad.append("lane %d %s: 0x%08x, want 0x%08x" % (t, names[k], got[k], want[t][k]))
if bad:
    sys.exit("%d differ, first: %s" % (len(bad), "; ".join(bad[:4])))
PY
}

translate_fixture ds_d16
for co in ds_d16.co ds_d16.gfx942.co ds_d16.gfx950.co; do
	sed "s/\"ds_d16.co\"/\"$co\"/" launch.json >l.json
	for schedule in deterministic shuffle:7; do
		rm -f out.bin
		run_capture "$MIRAGE_BIN" emulate l.json --schedule "$schedule"
		assert_eq "$RUN_STATUS" 0 "$co, $schedule: mirage emulate runs it ($(head -c 300 "$RUN_STDERR_FILE"))"
		judge || fail "$co, $schedule: a result differs from the rule"
		ok "$co, $schedule: every d16 load and store is the rule's"
	done
done
done_testing
