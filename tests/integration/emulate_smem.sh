#!/usr/bin/env bash
# Scalar loads read global memory only (mx.smem, docs/raiser.md): an s_load from an address in
# the raiser's private aperture (src_private_base) is outside every buffer of the launch, and
# `mirage emulate` stops there naming the access, where a flat load of the same address would
# read the lane's scratch.  From a kernel assembled here by llvm-mc-22 for gfx1250.
# shellcheck source=lib.sh
source "$TEST_LIB"
# shellcheck source=kernel_asm.sh
source "$MIRAGE_SRC/tests/integration/kernel_asm.sh"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
kernel smem "s_mov_b64 s[4:5], src_private_base; s_load_b32 s6, s[4:5], 0x0; s_wait_kmcnt 0
s_load_b64 s[2:3], s[0:1], 0x0; v_mov_b32 v1, s6; v_mov_b32 v2, 0; s_wait_kmcnt 0
global_store_b32 v2, v1, s[2:3]; s_endpgm"
cat >launch.json <<'JSON'
{"code_object": "smem.co", "kernel": "k", "grid": [32], "workgroup": [32],
 "buffers": {"out": {"size": 4, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "out"}]}
JSON
run_capture "$MIRAGE_BIN" emulate launch.json
assert_eq "$RUN_STATUS" 1 "an s_load of a private-aperture address faults: exit 1"
at=$("$LLVM_OBJDUMP" -d --mcpu=gfx1250 smem.co | grep -m1 's_load_b32 s6' |
	sed -E 's|.*// 0*([0-9A-Fa-f]+):.*|0x\1|' | tr 'A-F' 'a-f')
assert_contains "$RUN_STDERR" "kernel k: instruction at $at: 4-byte access at 0x1000000000000000 is outside every buffer of the launch" \
	"the message names the s_load ($at) and the address"
[ ! -e out.bin ] && ok "no output written after the fault" || fail "no output written after the fault"
done_testing
