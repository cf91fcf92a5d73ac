"""Inputs for tests/raise/f16_round.s and the bytes its kernels must store, from the ISA's rules.

  f16_round_expect.py inputs round|conv|pk FILE [LANE WORD]
  f16_round_expect.py judge KERNEL IN OUT

The rules, written here from their definitions (Python's float arithmetic, struct's 'e' for f16)
and not from mirage's code: floor, ceil, trunc and rndne (round half to even) give an integer
value with the input's sign when it is zero, and keep infinities and NaN; fract is x - floor(x)
rounded once to f16 (NaN for infinities); frexp_mant / frexp_exp are C's frexp, the mantissa the
input and the exponent 0 for infinities and NaN; ldexp is x * 2**e, e the signed 16-bit source,
rounded once to f16; cvt_i16 / cvt_u16 truncate toward zero and saturate; cvt_pk_f16_f32 rounds
each f32 to the nearest f16 (ties to even), cvt_pk_rtz_f16_f32 toward zero (a finite value past
65504 gives 65504).  neg flips and abs clears the sign bit; clamp bounds to [0, 1] (NaN, -0 and
negatives give +0).  A NaN result matches any NaN.  A 16-bit result keeps the destination's high
half.  `inputs conv` leaves out what the raiser makes a run-time fault (a NaN converted to an
integer, an f16 fract that rounds to 1.0), which emulate_f16_round.sh checks with LANE WORD (lane
LANE's first input dword).
"""
import math
import random
import struct
import sys

# Signed zeros, +-1, halves that round both ways (0.5, 1.5, 2.5, -0.5, -2.5, 3.5), the largest
# finite, infinities, quiet and signalling NaNs, denormals, the largest non-integer and the
# smallest integer-only magnitudes (1023.5, 1024, 2048.5 is not one), 16-bit bounds (32767 is not
# an f16: 32752, 32768, 65504), negatives.
F16 = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0x3e00, 0x4100, 0xb800, 0xc100, 0x4300, 0x7bff,
       0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x7c01, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x63ff,
       0x6400, 0x77ff, 0x7800, 0xf800, 0xf801, 0x3555, 0xb555, 0x4b80, 0xcb80, 0x2e66]
EXPONENTS = [0, 1, -1, 2, -2, 15, -15, 24, -24, 30, -30, 40, -40, 100, -100, 0x7fff, -0x8000, 5]
F32 = [0x00000000, 0x80000000, 0x3f800000, 0x477fe000, 0x477ff000, 0x477fefff, 0x477ff001,
       0x47800000, 0xc77ff000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0x33800000,
       0x33000000, 0x33000001, 0xb3000000, 0x38800000, 0x387fc000, 0x3f801000, 0x3f803000,
       0x3f801001, 0xbf801000, 0x7f7fffff, 0x00000001, 0x3eaaaaab, 0xc0490fdb, 0x38801000]


def h2f(bits):
    return struct.unpack("<e", struct.pack("<H", bits & 0xffff))[0]


def f2h(x):
    """The f16 nearest x (ties to even), bits; infinity past the largest finite's half-ulp."""
    if math.isnan(x):
        return 0x7e00
    if abs(x) >= 65520:
        return 0xfc00 if x < 0 else 0x7c00
    return struct.unpack("<H", struct.pack("<e", x))[0]


def s2f(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def is_nan16(bits):
    return bits is None or ((bits & 0x7c00) == 0x7c00 and bits & 0x3ff)


def signed_zero(r, x):
    return math.copysign(0.0, x) if r == 0 else r


def rounding(fn, bits):
    x = h2f(bits)
    if math.isnan(x) or math.isinf(x):
        return None if math.isnan(x) else bits
    return f2h(signed_zero(float(fn(x)), x))


def rndne(x):
    return round(x)  # Python rounds half to even


def fract(bits):
    x = h2f(bits)
    if math.isnan(x) or math.isinf(x):
        return None
    return f2h(x + -signed_zero(float(math.floor(x)), x))  # the ISA's S0 + -floor(S0)


def frexp(bits):
    x = h2f(bits)
    if math.isnan(x) or math.isinf(x):
        return bits if not math.isnan(x) else None, 0
    m, e = math.frexp(x)
    return f2h(m), e & 0xffff


def ldexp(bits, e16):
    x = h2f(bits)
    e = e16 - 0x10000 if e16 & 0x8000 else e16
    if math.isnan(x):
        return None
    if math.isinf(x) or x == 0:
        return bits
    return f2h(math.ldexp(x, max(-100, min(100, e))))


def to_int(bits, lo, hi):
    x = h2f(bits)
    assert not math.isnan(x)
    if math.isinf(x):
        return (hi if x > 0 else lo) & 0xffff
    return max(lo, min(hi, math.trunc(x))) & 0xffff


def neg(b):
    return b ^ 0x8000


def ab(b):
    return b & 0x7fff


def clamp(b):
    if is_nan16(b) or h2f(b) <= 0:
        return 0
    return 0x3c00 if h2f(b) >= 1 else b


def rtz(x):
    """The f16 toward zero of the f32 value x, bits: the magnitude's bits below the f16's last
    place cut (at the denormals' fixed place below 2**-14)."""
    if math.isnan(x):
        return None
    sign = 0x8000 if math.copysign(1.0, x) < 0 else 0
    a = abs(x)
    if math.isinf(a):
        return sign | 0x7c00
    if a >= 65504:
        return sign | 0x7bff
    place = 2.0 ** (math.frexp(a)[1] - 11) if a >= 2.0 ** -14 else 2.0 ** -24
    return sign | f2h(math.floor(a / place) * place)


def rne(x):
    return None if math.isnan(x) else f2h(x)


def conv_faults(bits):
    """Whether f16_conv's ops fault on the f16 bits: a NaN, or a fract that rounds to 1.0."""
    x = h2f(bits)
    return math.isnan(x) or (not math.isinf(x) and f2h(x - math.floor(x)) == 0x3c00)


def inputs(kind, path, bad=None):
    rnd = random.Random(1625)
    words = []
    for t in range(32):
        if kind == "pk":
            pick = lambda: rnd.choice(F32) ^ (rnd.randrange(2) << 31) if rnd.randrange(3) else \
                struct.unpack("<I", struct.pack("<f", rnd.uniform(-70000, 70000) * rnd.choice([1, 1e-5, 1e-8])))[0]
            words += [F32[t % len(F32)] if t < len(F32) else pick(), pick()]
            continue
        while True:
            lo = F16[t] if t < len(F16) else (rnd.choice(F16) if rnd.randrange(2) else f2h(rnd.uniform(-3000, 3000)))
            hi = F16[(t * 7 + 5) % len(F16)] if t % 2 else f2h(rnd.uniform(-70, 70) * rnd.choice([1, 1e-3]))
            if kind != "conv" or not (conv_faults(lo) or conv_faults(hi) or conv_faults(neg(lo))):
                break
            t += 37  # a fault-free draw instead
        elo = EXPONENTS[t % len(EXPONENTS)] & 0xffff
        ehi = rnd.randrange(-40, 41) & 0xffff
        words += [lo | hi << 16, elo | ehi << 16]
    if bad:
        words[2 * bad[0]] = bad[1]
    with open(path, "wb") as f:
        f.write(struct.pack("<64I", *words))


def expected(kernel, a, b):
    """The lane's dwords, each a list of (shift, width, bits or None for a NaN)."""
    lo, hi = a & 0xffff, a >> 16
    elo, ehi = b & 0xffff, b >> 16

    def pair(f):  # f on the low half (the high one kept), then on the high half alone
        return [[(0, 16, f(lo)), (16, 16, hi)], [(0, 16, f(hi)), (16, 16, 0)]]

    def low(v):
        return [(0, 16, v), (16, 16, hi)]

    if kernel == "f16_round":
        out = []
        for fn in (math.floor, math.ceil, math.trunc, rndne):
            out += pair(lambda x, fn=fn: rounding(fn, x))
        out += pair(lambda x: frexp(x)[0]) + pair(lambda x: frexp(x)[1])
        out += [low(ldexp(lo, elo)), [(0, 16, ldexp(hi, ehi)), (16, 16, 0)]]
        out += [low(rounding(math.floor, neg(ab(lo)))), low(clamp(rounding(rndne, neg(lo)))),
                low(frexp(neg(lo))[0]), low(clamp(ldexp(neg(ab(lo)), elo))),
                low(rounding(math.trunc, ab(lo))), low(fract(ab(lo))),
                [(0, 16, fract(ab(hi))), (16, 16, 0)], [(0, 32, 0)]]
        return out
    if kernel == "f16_conv":
        return (pair(fract) + pair(lambda x: to_int(x, -32768, 32767)) +
                pair(lambda x: to_int(x, 0, 65535)) +
                [low(to_int(neg(lo), -32768, 32767)), low(to_int(ab(lo), 0, 65535)),
                 low(clamp(fract(neg(lo))))])
    if kernel == "f16_conv_half":
        return [low(to_int(lo, -32768, 32767))]
    x, y = s2f(a), s2f(b)
    return [[(0, 16, rne(x)), (16, 16, rne(y))], [(0, 16, rne(-x)), (16, 16, rne(abs(y)))],
            [(0, 16, rtz(x)), (16, 16, rtz(y))], [(0, 16, rtz(-abs(x))), (16, 16, rtz(-y))]]


def judge(kernel, inp, out):
    raw_in, raw_out = open(inp, "rb").read(), open(out, "rb").read()
    n = {"f16_round": 22, "f16_conv": 9, "f16_conv_half": 1, "cvt_pk_f16": 4}[kernel]
    bad = []
    for t in range(32):
        a, b = struct.unpack_from("<2I", raw_in, 8 * t)
        got = struct.unpack_from("<%dI" % n, raw_out, 4 * n * t)
        # an inactive lane stores nothing
        want = [[(0, 32, 0)]] if kernel == "f16_conv_half" and t >= 16 else expected(kernel, a, b)
        for k, parts in enumerate(want):
            for shift, w, bits in parts:
                g = got[k] >> shift & ((1 << w) - 1)
                ok = is_nan16(g) if bits is None else g == bits
                if not ok:
                    bad.append("lane %d dword %d bits %d..: 0x%x, want %s (inputs %08x %08x)" % (
                        t, k, shift, g, "a NaN" if bits is None else hex(bits), a, b))
    if bad:
        sys.exit("%s: %d differ, first: %s" % (kernel, len(bad), bad[0]))


if __name__ == "__main__":
    if sys.argv[1] == "inputs":
        inputs(sys.argv[2], sys.argv[3],
               (int(sys.argv[4]), int(sys.argv[5], 16)) if len(sys.argv) > 4 else None)
    else:
        judge(sys.argv[2], sys.argv[3], sys.argv[4])
