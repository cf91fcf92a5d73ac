"""Writes what crosslane_wave64.cl must store for an input of one wave64 (gfx942): the GFX9
cross-lane moves (DPP row/wave shifts and broadcasts), readlane/readfirstlane, ballots and
mbcnt at wave64, and SDWA selects."""
import struct, sys

from launch_random import rnd

def sx(x, bits):
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >> (bits - 1) else x

M = 0xFFFFFFFF
v = struct.unpack("<64I", rnd(int(sys.argv[1]), 256))
ballot = sum(1 << l for l in range(64) if v[l] & 1)
res = [[0] * 64 for _ in range(13)]
for l in range(64):
    row, i = l & ~15, l & 15
    res[0][l] = v[(l & ~3) | (3 - (l & 3))]
    res[1][l] = v[l - 1] if i >= 1 else 7
    res[2][l] = v[row - 1] if (l >> 4) in (1, 3) else 7        # row_bcast:15, rows 1 and 3
    res[3][l] = v[31] if l >= 32 else 7                       # row_bcast:31, rows 2 and 3
    res[4][l] = v[l - 1] if l >= 1 else 7                     # wave_shr:1
    res[5][l] = v[(l + 1) & 63]                               # wave_rol:1
    res[6][l] = (v[40] + v[0]) & M
    res[7][l] = bin(ballot & ((1 << l) - 1)).count("1")
    res[8][l] = (ballot >> 32) ^ (ballot & M)
    res[9][l] = v[40] if l >= 40 else 0xDEAD
    res[10][l] = (v[l] & 0xFFFF0000) | ((v[l] + (v[l] >> 16)) & 0xFFFF)
    res[11][l] = (sx(v[l] >> 8, 8) + sx(v[l] >> 16, 16)) & M
    lo, hi = v[l] & 0xFFFF, v[l] >> 16
    res[12][l] = ((lo + hi) & 0xFFFF) | (((hi * lo) & 0xFFFF) << 16)
sys.stdout.buffer.write(b"".join(struct.pack("<64I", *r) for r in res))
