"""Inputs for tests/raise/minmax3_num.s and the bytes its kernels must store, from the ISA's rules.

  minmax3_num_expect.py inputs all|med3 FILE [LANE WIDTH A B C]
  minmax3_num_expect.py judge KERNEL IN OUT

The rules, written here from their definitions and not from mirage's code: v_min_num /
v_max_num are IEEE 754-2019's minimumNumber / maximumNumber (-0 below +0; a NaN, quiet or
signalling, loses to a number; two NaNs give a NaN); min3, max3, minmax and maxmin compose them
in the ISA's order; med3 is the ISA's pseudocode (a NaN among the three: min3; else the maximum
of the two left when the first operand equal, as floats compare, to the maximum of the three is
taken out).  neg flips and abs clears the sign bit; clamp bounds to [0, 1] (NaN, -0 and negatives
give +0).  A NaN result matches any NaN.  `inputs med3` leaves out the lanes where med3's rule
and the median of the three in the order -0 < +0 differ (zeros of both signs): the raiser makes
those a run-time fault, which emulate_minmax3_num.sh checks with LANE WIDTH A B C (f32 or f16
bits of lane LANE's a, b, c, or of the low halves of A, B, C).
"""
import math
import random
import struct
import sys

F32 = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000,
       0xffc00001, 0x7f800001, 0xff800005, 0x00000001, 0x807fffff, 0x7f7fffff, 0xff7fffff,
       0x40200000, 0xbf400000]
F16 = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x7c01, 0xfc05, 0x0001,
       0x83ff, 0x7bff, 0xfbff, 0x4100, 0xba00]
Z, NZ, ONE, MONE, INF, NINF, QN, NQN, SN, NSN, DEN, NDEN, MAX, NMAX = range(14)
# Every order of signed zeros, a NaN (quiet, signalling, negative) in each position, two and
# three NaNs, infinities, denormals, the largest finite values, ties.
TRIPLES = [(x, y, z) for x in (Z, NZ) for y in (Z, NZ) for z in (Z, NZ)] + [
    (QN, ONE, MONE), (ONE, QN, MONE), (ONE, MONE, QN), (SN, ONE, MONE), (ONE, SN, MONE),
    (ONE, MONE, SN), (NQN, Z, NZ), (NSN, NZ, Z), (QN, SN, ONE), (QN, NQN, SN), (INF, NINF, QN),
    (DEN, NDEN, Z), (MAX, NMAX, INF), (NINF, MAX, NMAX), (ONE, ONE, MONE), (NZ, ONE, Z)]
SIGN = {16: 0x8000, 32: 0x80000000}
FMT = {16: ("<e", "<H"), 32: ("<f", "<I")}


def value(bits, w):
    return struct.unpack(FMT[w][0], struct.pack(FMT[w][1], bits))[0]


def to_bits(x, w):
    return struct.unpack(FMT[w][1], struct.pack(FMT[w][0], x))[0]


def is_nan(bits, w):
    return bits is None or math.isnan(value(bits, w))


def pick(a, b, w, is_max):
    """minimumNumber / maximumNumber of the bits a and b; None is a NaN."""
    if is_nan(a, w) and is_nan(b, w):
        return None
    if is_nan(a, w):
        return b
    if is_nan(b, w):
        return a
    x, y = value(a, w), value(b, w)
    if x == y == 0:  # -0 < +0: the sign bit decides
        neg_a = a & SIGN[w]
        return (b if neg_a else a) if is_max else (a if neg_a else b)
    return (a if x > y else b) if is_max else (a if x < y else b)


def mn(a, b, w):
    return pick(a, b, w, False)


def mx(a, b, w):
    return pick(a, b, w, True)


def med3_rule(a, b, c, w):
    if is_nan(a, w) or is_nan(b, w) or is_nan(c, w):
        return mn(mn(a, b, w), c, w)
    m = mx(mx(a, b, w), c, w)
    if value(m, w) == value(a, w):
        return mx(b, c, w)
    if value(m, w) == value(b, w):
        return mx(a, c, w)
    return mx(a, b, w)


def med3_ordered(a, b, c, w):
    return mx(mn(a, b, w), mn(mx(a, b, w), c, w), w)


def ambiguous(a, b, c, w):
    if is_nan(a, w) or is_nan(b, w) or is_nan(c, w):
        return False
    return med3_rule(a, b, c, w) != med3_ordered(a, b, c, w)


def neg(x, w):
    return x ^ SIGN[w]


def ab(x, w):
    return x & ~SIGN[w]


def clamp(x, w):
    if is_nan(x, w) or value(x, w) <= 0:
        return 0
    return to_bits(1.0, w) if value(x, w) >= 1 else x


def lane_words(rnd, t):
    """a, b, c (f32) and A, B, C (two f16 halves each) of lane t."""
    def draw(table, w):
        if rnd.randrange(3):
            return rnd.choice(table)
        return to_bits(rnd.uniform(-100, 100), w)  # a random finite value
    if t < len(TRIPLES):
        f32 = [F32[i] for i in TRIPLES[t]]
        lo = [F16[i] for i in TRIPLES[t]]
    else:
        f32 = [draw(F32, 32) for _ in range(3)]
        lo = [draw(F16, 16) for _ in range(3)]
    hi = [F16[i] for i in TRIPLES[(t * 7 + 3) % len(TRIPLES)]] if t % 2 else [draw(F16, 16) for _ in range(3)]
    return f32 + [lo[k] | hi[k] << 16 for k in range(3)]


def med3_cases(words):
    """The (a, b, c, width) triples med3_num takes from one lane's words."""
    a, b, c, A, B, C = words
    lo = [x & 0xffff for x in (A, B, C)]
    hi = [x >> 16 for x in (A, B, C)]
    return [(a, b, c, 32), (neg(a, 32), b, ab(c, 32), 32), (lo[0], lo[1], lo[2], 16),
            (hi[0], hi[1], hi[2], 16), (lo[0], neg(hi[1], 16), hi[2], 16)]


def inputs(kind, path, bad=None):
    rnd = random.Random(1250)
    lanes, t = [], 0
    while len(lanes) < 32:
        words = lane_words(rnd, t)
        t += 1
        if kind == "med3" and any(ambiguous(*case) for case in med3_cases(words)):
            continue
        lanes.append(words)
    if bad:
        lane, w, vals = bad
        if w == 32:
            lanes[lane][0:3] = vals
        else:
            lanes[lane][3:6] = [(lanes[lane][3 + k] & 0xffff0000) | vals[k] for k in range(3)]
    with open(path, "wb") as f:
        f.write(b"".join(struct.pack("<6I", *words) for words in lanes))


def expected(kernel, words):
    """The lane's stored dwords, each a list of (shift, width, bits or None for a NaN)."""
    a, b, c, A, B, C = words
    lo = [x & 0xffff for x in (A, B, C)]
    hi = [x >> 16 for x in (A, B, C)]

    def w32(v):
        return [(0, 32, v)]

    def halves(f):
        return [(0, 16, f(*lo)), (16, 16, f(*hi))]

    min3 = lambda x, y, z, w=16: mn(mn(x, y, w), z, w)
    max3 = lambda x, y, z, w=16: mx(mx(x, y, w), z, w)
    minmax = lambda x, y, z, w=16: mx(mn(x, y, w), z, w)
    maxmin = lambda x, y, z, w=16: mn(mx(x, y, w), z, w)
    if kernel == "minmax3_num":
        return [w32(min3(a, b, c, 32)), w32(max3(a, b, c, 32)), w32(minmax(a, b, c, 32)),
                w32(maxmin(a, b, c, 32)), w32(min3(neg(a, 32), ab(b, 32), neg(ab(c, 32), 32), 32)),
                w32(clamp(max3(a, b, c, 32), 32)), halves(min3), halves(max3), halves(minmax),
                halves(maxmin),
                [(0, 16, clamp(maxmin(neg(hi[0], 16), ab(lo[1], 16), hi[2]), 16)), (16, 16, 0)]]
    if kernel == "med3_num":
        return [w32(med3_rule(a, b, c, 32)), w32(clamp(med3_rule(neg(a, 32), b, ab(c, 32), 32), 32)),
                halves(lambda x, y, z: med3_rule(x, y, z, 16)),
                [(0, 16, 0), (16, 16, med3_rule(lo[0], neg(hi[1], 16), hi[2], 16))]]
    if kernel == "chain_num":
        return [w32(min3(a, b, c, 32)), w32(max3(a, b, c, 32))]
    return [w32(med3_rule(a, b, c, 32))]  # med3_num_half, lanes 0 to 15


def judge(kernel, inp, out):
    raw_in, raw_out = open(inp, "rb").read(), open(out, "rb").read()
    n = {"minmax3_num": 11, "med3_num": 4, "med3_num_half": 1, "chain_num": 2}[kernel]
    bad = []
    for t in range(32):
        words = struct.unpack_from("<6I", raw_in, 24 * t)
        got = struct.unpack_from("<%dI" % n, raw_out, 4 * n * t)
        # an inactive lane stores nothing
        want = [[(0, 32, 0)]] if kernel == "med3_num_half" and t >= 16 else expected(kernel, words)
        for k, parts in enumerate(want):
            for shift, w, bits in parts:
                g = got[k] >> shift & ((1 << w) - 1)
                if (bits is None and not is_nan(g, w)) or (bits is not None and g != bits):
                    bad.append("lane %d dword %d bits %d..: 0x%x, want %s (inputs %s)" % (
                        t, k, shift, g, "a NaN" if bits is None else hex(bits),
                        " ".join("%08x" % x for x in words)))
    if bad:
        sys.exit("%s: %d differ, first: %s" % (kernel, len(bad), bad[0]))


if __name__ == "__main__":
    if sys.argv[1] == "inputs":
        extra = None
        if len(sys.argv) > 4:
            extra = (int(sys.argv[4]), int(sys.argv[5]), [int(x, 16) for x in sys.argv[6:9]])
        inputs(sys.argv[2], sys.argv[3], extra)
    else:
        judge(sys.argv[2], sys.argv[3], sys.argv[4])
