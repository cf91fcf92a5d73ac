"""Writes what gfx9_long_branch.s must store for one 64-lane wave: 1 + 1 + 10 in every lane."""
import struct, sys

sys.stdout.buffer.write(struct.pack("<64I", *([12] * 64)))
