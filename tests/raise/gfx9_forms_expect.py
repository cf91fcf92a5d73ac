"""Writes what gfx9_forms.s must store for one 64-lane wave (ten rows of 64 dwords)."""
import struct, sys

M = 0xFFFFFFFF
res = [[0] * 64 for _ in range(10)]
for l in range(64):
    v1 = (0x11112222 + l) & M
    v2 = 0x53 * l
    v1 = (v1 & 0xFFFF) | ((v2 & 0xFF) << 16)  # dst_sel:WORD_1 UNUSED_PRESERVE, src0 BYTE_0
    s = ((v1 & 0xFFFF) + (v2 & 0xFF)) & 0xFF  # WORD_0 + BYTE_0 into dst_sel:BYTE_1
    v3 = (s << 8) | (0xFFFF0000 if s & 0x80 else 0)  # UNUSED_SEXT
    res[0][l] = v1
    res[1][l] = v3
    res[2][l] = 1 if l < 40 else 7  # v_cmpx: lanes >= 40 leave EXEC, vcc bit set below
    res[3][l] = M  # vcc_lo after v_cmpx_gt_u32 40, lane
    res[4][l] = 0xFF  # vcc_hi: lanes 32..39
    res[5][l] = (l - 1) & M  # lane + 0xffffffff
    res[6][l] = 1 if l >= 1 else 0  # the carry-in from the SGPR pair
    res[7][l] = M  # carry pair, high half
    res[8][l] = 5  # s_cbranch_vccz taken
    res[9][l] = 0xFFFFFFF0 if l < 33 else 17
sys.stdout.buffer.write(b"".join(struct.pack("<64I", *r) for r in res))
