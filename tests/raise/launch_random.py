"""The launch file's "random:SEED" fill (splitmix64), for the cross-lane models."""
import struct


def rnd(seed, n):
    out, s = b"", seed
    while len(out) < n:
        s = (s + 0x9e3779b97f4a7c15) & 0xFFFFFFFFFFFFFFFF
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        out += struct.pack("<Q", z ^ (z >> 31))
    return out[:n]
