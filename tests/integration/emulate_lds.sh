#!/usr/bin/env bash
# LDS as the hardware allocates it (docs/emulate.md, "LDS"): a workgroup gets its static and
# dynamic LDS rounded up to the processor's allocation block (gfx1250 2048 bytes, gfx942 512),
# so an access past the declared bytes but inside the block reads and writes the workgroup's
# LDS: the 22-byte `local short loc[11]` whose 8-byte store at 16 ends at byte 24, which
# faulted before.  An access past the allocation faults, naming both sizes; MIRAGE_LDS_BOUND=
# declared faults past the declared bytes instead.  Kernels assembled here by llvm-mc-22.
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
# shellcheck source=kernel_asm.sh
source "$(dirname "$0")/kernel_asm.sh"

# lds_kernel NAME ADDR: an 8-byte LDS store of 0x55667788_11223344 at ADDR, the high dword
# read back and stored to the output by every lane (gfx1250, or gfx942 when CPU says so).
lds_kernel() {
	if [ "${CPU:-gfx1250}" = gfx942 ]; then
		kernel "$1" "s_load_dwordx2 s[2:3], s[0:1], 0x0; v_mov_b32 v0, 0x11223344; v_mov_b32 v1, 0x55667788; v_mov_b32 v2, $2; ds_write_b64 v2, v[0:1]; s_waitcnt lgkmcnt(0); ds_read_b32 v3, v2 offset:4; v_mov_b32 v1, 0; s_waitcnt lgkmcnt(0); global_store_dword v1, v3, s[2:3]; s_endpgm"
	else
		kernel "$1" "s_load_b64 s[2:3], s[0:1], 0x0; v_mov_b32 v0, 0x11223344; v_mov_b32 v1, 0x55667788; v_mov_b32 v2, $2; ds_store_b64 v2, v[0:1]; s_wait_dscnt 0; ds_load_b32 v3, v2 offset:4; v_mov_b32 v1, 0; s_wait_kmcnt 0; s_wait_dscnt 0; global_store_b32 v1, v3, s[2:3]; s_endpgm"
	fi
	cat >"$1.json" <<-JSON
		{"code_object": "$1.co", "kernel": "k", "grid": [64], "workgroup": [64],
		 "buffers": {"out": {"size": 4, "init": "zero", "output": "$1.out"}},
		 "args": [{"buffer": "out"}]}
	JSON
}

export KERNEL_LDS=22
lds_kernel granule 16
run_capture "$MIRAGE_BIN" emulate granule.json
assert_eq "$RUN_STATUS" 0 "an 8-byte store ending at byte 24 of 22 declared runs: $RUN_STDERR"
assert_eq "$(od -An -tx4 granule.out | tr -d ' ')" 55667788 "and reads back what it stored there"
MIRAGE_LDS_BOUND=declared run_capture "$MIRAGE_BIN" emulate granule.json
assert_eq "$RUN_STATUS" 1 "MIRAGE_LDS_BOUND=declared faults past the declared bytes"
assert_contains "$RUN_STDERR" "8-byte LDS access at 0x10 is outside the workgroup's 22 bytes" \
	"the fault names the declared size"
lds_kernel past 2044
run_capture "$MIRAGE_BIN" emulate past.json
assert_eq "$RUN_STATUS" 1 "a store ending past gfx1250's 2048-byte block faults"
assert_contains "$RUN_STDERR" "8-byte LDS access at 0x7fc is outside the workgroup's 2048 bytes (its 22 bytes of LDS, allocated in the processor's blocks)" \
	"the fault names the allocation and the declared size"
lds_kernel last 2040
run_capture "$MIRAGE_BIN" emulate last.json
assert_eq "$RUN_STATUS" 0 "a store ending at byte 2048 runs: $RUN_STDERR"

# gfx942 allocates in 512-byte blocks.
export CPU=gfx942
lds_kernel g942 504
run_capture "$MIRAGE_BIN" emulate g942.json
assert_eq "$RUN_STATUS" 0 "gfx942: a store ending at byte 512 of 22 declared runs: $RUN_STDERR"
assert_eq "$(od -An -tx4 g942.out | tr -d ' ')" 55667788 "gfx942: and reads back what it stored"
lds_kernel p942 508
run_capture "$MIRAGE_BIN" emulate p942.json
assert_eq "$RUN_STATUS" 1 "gfx942: a store ending past byte 512 faults"
assert_contains "$RUN_STDERR" "outside the workgroup's 512 bytes (its 22 bytes of LDS" "gfx942: 512-byte blocks"
done_testing
