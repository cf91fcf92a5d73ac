#!/usr/bin/env bash
# Relative register indexing through M0 (tests/raise/movrel.s: v_movrels/v_movreld/
# v_movrelsd/v_movrelsd_2_b32 under EXEC, s_movrels/s_movreld_b32/b64), assembled here by
# llvm-mc-22 and run by `mirage emulate`, against bytes this script computes from the ISA's
# definitions; shuffled too.  An M0 that names a VGPR past the kernel's allocation is a fault
# naming the instruction (exit 1), never a read of another register.
# shellcheck source=lib.sh
source "$TEST_LIB"
# shellcheck source=kernel_asm.sh
source "$MIRAGE_SRC/tests/integration/kernel_asm.sh"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1

# build NAME M0: NAME/movrel.co with the last v_movrels_b32 at M0, and its launch file.
build() {
	mkdir -p "$1"
	sed "s/@BAD_M0@/$2/" "$MIRAGE_SRC/tests/raise/movrel.s" >"$1/movrel.fixture.s"
	assemble_fixture "$1/movrel.fixture.s" "$1/movrel"
	cat >"$1/launch.json" <<'JSON'
{"code_object": "movrel.co", "kernel": "movrel", "grid": [32], "workgroup": [32],
 "buffers": {"out": {"size": 1536, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "out"}]}
JSON
}

# Lane t: v[10 + k] = 16t + k; then the moves of movrel.s.
python3 - <<'PY' >expect.bin || fail "the expected bytes"
import struct, sys
out = b""
for t in range(32):
    v = {10 + k: 16 * t + k for k in range(8)}
    s = {20: 100, 21: 101, 22: 102, 23: 103}
    v20 = v[10 + 3]              # v_movrels_b32 v20, v10 (M0 3)
    v[10 + 5] = t                # v_movreld_b32 v10, v0 (M0 5)
    v[21 + 2] = v[10 + 2]        # v_movrelsd_b32 v21, v10 (M0 2)
    v[24 + 4] = v[10 + 1]        # v_movrelsd_2_b32 v24, v10 (M0 0x40001: dst 4, src 1)
    if t < 16:                   # under EXEC = lanes 0..15
        v[10 + 7] = 999          # v_movreld_b32 v10, 999 (M0 7)
    s30 = s[20 + 3]              # s_movrels_b32 s30, s20 (M0 3)
    s[20 + 1] = 77               # s_movreld_b32 s20, 77 (M0 1)
    s32, s33 = s[20 + 2], s[21 + 2]  # s_movrels_b64 s[32:33], s[20:21] (M0 2)
    out += struct.pack("<12I", v20, v[15], v[23], v[28], v[17], s30, s[21], s32, s33, 0, 0, 0)
sys.stdout.buffer.write(out)
PY

build ok 21
for sched in deterministic shuffle:7; do
	rm -f ok/out.bin
	run_capture "$MIRAGE_BIN" emulate ok/launch.json --schedule "$sched"
	assert_eq "$RUN_STATUS" 0 "$sched: mirage emulate runs the relative moves"
	cmp -s ok/out.bin expect.bin || fail "$sched: every relative move matches the ISA's definition"
	ok "$sched: every relative move matches the ISA's definition"
done

# M0 = 22 from v10 names v32: the kernel has v0..v31.
build bad 22
addr=$("$LLVM_OBJDUMP" -d --mcpu=gfx1250 bad/movrel.co | sed -n 's/^\s*v_movrels_b32_e32 v31, v10 .*\/\/ 0*\([0-9A-F]*\):.*/\1/p')
[ -n "$addr" ] || fail "llvm-objdump-22 shows the v_movrels_b32"
run_capture "$MIRAGE_BIN" emulate bad/launch.json
assert_eq "$RUN_STATUS" 1 "an index past the kernel's VGPRs exits 1"
assert_contains "$RUN_STDERR" "mirage: kernel movrel: instruction at 0x$(echo "$addr" | tr 'A-F' 'a-f'): a relative register index (M0) beyond the kernel's registers" \
	"the fault names the instruction"
assert_eq "$([ -e bad/out.bin ] && echo written)" "" "nothing is written after a fault"
done_testing
