#!/usr/bin/env bash
# v_cndmask_b32_e64's abs and neg source modifiers (clang's fabs at -O0 on gfx942 is
# `v_cndmask_b32_e64 v3, v10, |v10|, s[0:1]`; the raiser once dropped them), on gfx1250
# (wave32) and gfx942 (wave64), each kernel assembled here by llvm-mc-22 and run by
# `mirage emulate` against bytes this script computes.  Lane t selects, by t < 16, |-3.0| or
# -(100t) into out[2t], and -(-3.0) or |100t with the sign bit set| into out[2t + 1].
# shellcheck source=lib.sh
source "$TEST_LIB"
# shellcheck source=kernel_asm.sh
source "$MIRAGE_SRC/tests/integration/kernel_asm.sh"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1

# check CPU WAVE MASK LOAD WAIT STORE: the kernel for CPU, one wave of WAVE lanes, its lane
# mask in MASK, the kernarg loaded by LOAD, waited for by WAIT, out written by STORE.
check() {
	local cpu=$1 wave=$2 mask=$3 body
	body="$4 s[2:3], s[0:1], 0x0; v_mul_u32_u24 v1, 100, v0; v_mov_b32 v2, 0xc0400000"
	body+="; v_or_b32 v3, 0x80000000, v1; v_cmp_gt_u32_e64 $mask, 16, v0"
	body+="; v_cndmask_b32_e64 v4, -v1, |v2|, $mask; v_cndmask_b32_e64 v5, |v3|, -v2, $mask"
	body+="; v_lshlrev_b32 v6, 3, v0; $5; $6; s_endpgm"
	CPU=$cpu KERNEL_VGPRS=8 kernel "mods.$cpu" "$body"
	python3 - "$wave" >"expect.$cpu.bin" <<'PY' || fail "the expected bytes"
import struct, sys
W = int(sys.argv[1])
out = []
for t in range(W):
    v1 = 100 * t
    out += [0x40400000 if t < 16 else v1 ^ 0x80000000, 0x40400000 if t < 16 else v1]
sys.stdout.buffer.write(struct.pack("<%dI" % len(out), *out))
PY
	cat >"launch.$cpu.json" <<JSON
{"code_object": "mods.$cpu.co", "kernel": "k", "grid": [$wave], "workgroup": [$wave],
 "buffers": {"out": {"size": $((8 * wave)), "init": "zero", "output": "out.$cpu.bin"}},
 "args": [{"buffer": "out"}]}
JSON
	run_capture "$MIRAGE_BIN" emulate "launch.$cpu.json"
	assert_eq "$RUN_STATUS" 0 "$cpu: mirage emulate runs the kernel"
	cmp -s "out.$cpu.bin" "expect.$cpu.bin" && ok "$cpu: abs and neg applied on both sources" ||
		fail "$cpu: abs and neg applied on both sources"
}
check gfx1250 32 s4 s_load_b64 "s_wait_kmcnt 0" "global_store_b64 v6, v[4:5], s[2:3]"
check gfx942 64 's[4:5]' s_load_dwordx2 "s_waitcnt lgkmcnt(0)" "global_store_dwordx2 v6, v[4:5], s[2:3]"
done_testing
