"""Checks one run of tests/b0a0/cluster_sites.s (launch file cluster.json) from its files,
computed from in.bin on its own (not by mirage):

  cluster_expect.py DIR out          out.bin holds what the loads and async copies must give
  cluster_expect.py DIR first [W]    first.bin: per workgroup and barrier phase, exactly one
                                     wave has isfirst's 1 (with W, that wave is number W)
  cluster_expect.py DIR stale        first.bin is all 0 (a B0->A0 rewrite's plain signal
                                     leaves SCC as it was: 0)
Exit 0 when it holds, else 1 with what differs."""
import struct
import sys

LANES, GROUP, WAVE = 128, 64, 32
d, what = sys.argv[1], sys.argv[2]
inb = open(d + "/in.bin", "rb").read()
first = struct.unpack("<%dI" % (2 * LANES), open(d + "/first.bin", "rb").read())

if what == "out":
    out = open(d + "/out.bin", "rb").read()
    exp = bytearray(LANES * 256)

    def slot_of(lane):  # what the async copies leave in lane's LDS slot
        src, slot = inb[lane * 64:(lane + 1) * 64], bytearray(64)
        for a, b in ((0, 4), (5, 6), (8, 16), (16, 32), (32, 36), (40, 48), (48, 52)):
            slot[a:b] = src[a:b]
        return slot

    for g in range(LANES):
        src, o = inb[g * 64:(g + 1) * 64], g * 256
        # The cluster loads (off and saddr forms) read like global loads.
        for a, b, at in ((0, 4, 0), (4, 12, 4), (16, 32, 16), (32, 36, 32), (48, 64, 48)):
            exp[o + at:o + at + b - a] = src[a:b]
        # Lane 63 - t's LDS slot: the async copies' bytes at their offsets, zero between.
        exp[o + 64:o + 128] = slot_of((g // GROUP) * GROUP + GROUP - 1 - g % GROUP)
        # The exchanges in the own slot: the old words back, the new ones in the slot.
        slot, x = slot_of(g), g ^ 0xabcd0000
        exp[o + 128:o + 136] = slot[8:12] + slot[32:36]
        exp[o + 136:o + 152] = slot[16:24] + slot[48:56]
        slot[8:12], slot[32:36] = struct.pack("<I", g), struct.pack("<I", x)
        slot[16:24] = struct.pack("<II", g, x)
        slot[48:56] = struct.pack("<II", ~g & 0xffffffff, 0x12345678)
        exp[o + 192:o + 256] = slot
    if bytes(exp) != out:
        bad = next(i for i in range(len(out)) if out[i] != exp[i])
        sys.exit("out.bin: byte %d (lane %d, +%d) is 0x%02x, expected 0x%02x"
                 % (bad, bad // 256, bad % 256, out[bad], exp[bad]))
elif what == "first":
    want = int(sys.argv[3]) if len(sys.argv) > 3 else None
    for wg in range(LANES // GROUP):
        for phase in (0, 1):
            waves = []
            for w in range(GROUP // WAVE):
                vals = {first[2 * (wg * GROUP + w * WAVE + i) + phase] for i in range(WAVE)}
                if len(vals) != 1 or vals - {0, 1}:
                    sys.exit("workgroup %d phase %d wave %d: lanes disagree: %s" % (wg, phase, w, vals))
                waves.append(vals.pop())
            if sum(waves) != 1 or (want is not None and waves[want] != 1):
                sys.exit("workgroup %d phase %d: isfirst per wave %s" % (wg, phase, waves))
elif what == "stale":
    if any(first):
        sys.exit("first.bin is not all 0: %s" % sorted(set(first)))
else:
    sys.exit("usage: cluster_expect.py DIR out|first [WAVE]|stale")
