"""Writes what gfx9_fields.s must store for one 64-lane wave (twenty-five rows of 64 dwords)."""
import struct, sys

M = 0xFFFFFFFF
X = 0x9ABCDEF1
S = 0x4000000380000001
res = [[0] * 64 for _ in range(25)]
for l in range(64):
    off, w = l & 15, (l >> 2) & 31
    field = (X >> off) & ((1 << w) - 1)
    res[0][l] = field  # v_bfe_u32: width 0 gives 0
    res[1][l] = (field - (1 << w) if w and field >> (w - 1) else field) & M  # v_bfe_i32
    res[2][l] = 100 + (63 - l)  # ds_bpermute_b32 from lane 63 - l, across the halves
    res[3][l] = 100 + (l ^ 2)  # swizzle "pppip": lane ^ 2 within its 32-lane group
    res[4][l] = (S >> l) & M  # v_lshrrev_b64 of s[4:5] by the lane
    res[5][l] = S >> l >> 32
    res[6][l] = (l - 1) & M  # v_lshl_add_u64 (lane, 0) + -1: 64 bits of -1
    res[7][l] = M if l == 0 else 0
    res[8][l] = 0x40400000 if l < 32 else 0xC0400000  # |-3.0| where s[6:7] is set, else -3.0
    res[9][l] = 100 + l if l < 32 else 0x40400000  # v6, else -(-3.0)
    res[10][l] = 100 + l  # stored from a0
    res[11][l] = res[0][l]  # loaded into a1: row 0
    res[12][l], res[13][l] = 0x5555, 0x7777  # op_sel:[1,0]: src0's high dword, src1's low
    res[14][l], res[15][l] = 100 + l, l  # op_sel:[0,1]: src0's low dword, src1's high
    res[16][l] = (3 << 2) + 5  # s_lshl2_add_u32
    res[17][l] = 1 | 4  # -5 < -2 (signed), not -5 > 3, 0xfffffffb >= 0x400, not <= 0x400
    res[18][l] = 0xAB  # bits 23:16 of 0xab1234, one byte
    v18 = (5 * l - 100) & M
    b = v18 & 0xFF
    res[19][l] = max(b - 256 if b >> 7 else b, 0)  # v_max_i16 of sext(byte 0) and 0, high half 0
    res[20][l] = (((v18 + 1) & 0xFFFF) << 16) | 0x5678  # the sum into WORD_1, the low half kept
    # v_mad_i64_i32: sext(v18) * sext(0x9abcdef1) + 0x8000000000000007 (signed), mod 2^64
    mad = ((5 * l - 100) * (X - (1 << 32)) + (7 - (1 << 63))) & ((1 << 64) - 1)
    res[21][l], res[22][l] = mad & M, mad >> 32
    # v_swap_b32 v24, v25 where EXEC has the lane (lanes 16-47): the ISA's rule, each exchanges
    active = 16 <= l < 48
    res[23][l], res[24][l] = (2000 + l, 1000 + l) if active else (1000 + l, 2000 + l)
sys.stdout.buffer.write(b"".join(struct.pack("<64I", *r) for r in res))
