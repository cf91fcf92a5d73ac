"""Writes what crosslane.cl must store for an input of one wave: the ISA's cross-lane moves."""
import struct, sys

from launch_random import rnd

v = struct.unpack("<32I", rnd(int(sys.argv[1]), 128))
res = [[0] * 64 for _ in range(8)]
for l in range(32):
    row, i = l & ~15, l & 15
    res[0][l] = v[(l & ~3) | (3 - (l & 3))]
    res[1][l] = v[l - 1] if i >= 1 else 7
    res[2][l] = v[l + 1] if i <= 14 else 0
    res[3][l] = v[row | (15 - i)]
    res[4][l] = v[(l * 7) & 31]
    res[5][l] = v[l ^ 1]
    sel = (0xFEDCBA9876543210 >> (4 * i)) & 15
    res[6][l] = v[(row ^ 16) | sel]
    res[7][l] = (v[5] + v[0]) & 0xFFFFFFFF
sys.stdout.buffer.write(b"".join(struct.pack("<64I", *r) for r in res))
