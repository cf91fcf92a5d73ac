#!/usr/bin/env bash
# ds_bpermute_b32 with lanes EXEC leaves out (they give 0), ds_bpermute_fi_b32 (they give
# their data), ds_permute_b32 (two writers to one lane, lanes nothing writes to, the offset)
# v_permlane64_b32 on wave32 (a move) and v_swap_b32 under EXEC, from tests/raise/permute.s assembled here by
# llvm-mc-22, run by `mirage emulate` against bytes this script computes from the ISA's
# definitions; shuffled too.
# shellcheck source=lib.sh
source "$TEST_LIB"
# shellcheck source=kernel_asm.sh
source "$MIRAGE_SRC/tests/integration/kernel_asm.sh"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
assemble_fixture "$MIRAGE_SRC/tests/raise/permute.s" permute
cat >launch.json <<'JSON'
{"code_object": "permute.co", "kernel": "permute", "grid": [32], "workgroup": [32],
 "buffers": {"out": {"size": 1024, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "out"}]}
JSON

python3 - <<'PY' >expect.bin || fail "the expected bytes"
import struct, sys
W, OLD = 32, 0xdead
data = [100 * t + 5 for t in range(W)]

def bpermute(exec_, src, fetch_inactive=False):
    return [(data[src(t) % W] if fetch_inactive or exec_ >> (src(t) % W) & 1 else 0)
            if exec_ >> t & 1 else OLD for t in range(W)]

def permute(exec_, dst, old):
    got = [0] * W
    for t in range(W):  # in lane order: the higher writer wins
        if exec_ >> t & 1:
            got[dst(t) % W] = data[t]
    return [got[t] if exec_ >> t & 1 else old[t] for t in range(W)]

even = 0x55555555
v2 = bpermute(even, lambda t: 31 - t)
v4 = bpermute(even, lambda t: t + 2)
v5 = bpermute(even, lambda t: 31 - t, fetch_inactive=True)
v6 = permute(0xffffffff, lambda t: t // 2, [0] * W)
v8 = permute(0xffff, lambda t: t + 16, [OLD] * W)
v10 = permute(0xffffffff, lambda t: t + 1, [0] * W)
# v_swap_b32 v15, v1 with v15 = 7, in the lanes of 0xff00ff00; stored as v15 | v1 << 16
swap = [data[t] | 7 << 16 if 0xff00ff00 >> t & 1 else 7 | data[t] << 16 for t in range(W)]
sys.stdout.buffer.write(b"".join(
    struct.pack("<8I", v2[t], v4[t], v5[t], v6[t], v8[t], v10[t], data[t], swap[t]) for t in range(W)))
PY

for sched in deterministic shuffle:11; do
	rm -f out.bin
	run_capture "$MIRAGE_BIN" emulate launch.json --schedule "$sched"
	assert_eq "$RUN_STATUS" 0 "$sched: mirage emulate runs the permutes"
	cmp -s out.bin expect.bin || fail "$sched: every permute matches the ISA's definition"
	ok "$sched: every permute matches the ISA's definition"
done
done_testing
