"""Writes what gfx9_gpr_idx.s must store for one 64-lane wave (six rows of 64 dwords)."""
import struct, sys

M = 0xFFFFFFFF


def on(m0, idx, mode):  # s_set_gpr_idx_on: M0[7:0] = index, M0[15:12] = mode
    return (m0 & ~0xF0FF & M) | (idx & 0xFF) | (mode << 12)


m0 = on(M, 3, 1)
m0 = on(m0, 2, 8)
m0 = on(m0, 1, 1 | 8)
m0 = on(m0, 3, 1)
m0 = (m0 & ~0xFF & M) | 1  # s_set_gpr_idx_idx s5
m0 = (m0 & ~0xF000 & M) | (2 << 12)  # s_set_gpr_idx_mode gpr_idx(SRC1)
res = [[0] * 64 for _ in range(6)]
for l in range(64):
    v = [l] + [l + 0x100 * k for k in range(1, 9)]
    res[0][l] = v[1 + 3]  # SRC0 + 3
    v[5 + 2] = l  # DST + 2
    v[2 + 1] = (v[1 + 1] + v[0]) & M  # SRC0 and DST + 1 (src1 v0 not indexed)
    res[3][l] = (v[0] + v[1 + 1]) & M  # SRC1 + 1 after idx and mode
    res[4][l] = m0
    if l < 20:  # the DST + 1 write under v_cmpx's EXEC
        v[7 + 1] = M
    res[1][l] = v[7]
    res[2][l] = v[3]
    res[5][l] = v[8]
sys.stdout.buffer.write(b"".join(struct.pack("<64I", *r) for r in res))
