#!/usr/bin/env python3
"""The inputs of tests/raise/sfloat.s and what each of its results must be, computed here from
IEEE 754-2019's rules with exact rational arithmetic (Python's fractions), never by mirage.

  sfloat_expect.py inputs IN COUNT    writes COUNT records of 8 dwords: a b c A B C i 0
  sfloat_expect.py judge KERNEL IN OUT COUNT
                                      checks OUT, KERNEL's results (sfloat: 40 dwords a record,
                                      sfloat_ieee: 8), against the rules; exit 1 naming the first
                                      difference

A float result is the nearest value of its format (ties to even; toward zero for
cvt_pk_rtz), exactly; a NaN result is judged as a class (any NaN), the hardware's payload being
no rule we hold; a 16-bit result's high half must be 0 (the ISA's rule for scalar F16
instructions).
"""
import math
import random
import struct
import sys
from fractions import Fraction

F32 = (24, -126, 127)  # precision (with the hidden bit), minimum and maximum exponent
F16 = (11, -14, 15)
NAN = "nan"
CONDS = ["lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt"]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def decode(bits, fmt):
    """A float's bits as NAN, (sign, 'inf') or (sign, Fraction)."""
    p, emin, emax = fmt
    width = 32 if fmt == F32 else 16
    sign = bits >> (width - 1) & 1
    exp_bits = width - p
    e = bits >> (p - 1) & ((1 << exp_bits) - 1)
    m = bits & ((1 << (p - 1)) - 1)
    if e == (1 << exp_bits) - 1:
        return NAN if m else (sign, "inf")
    if e == 0:
        v = Fraction(m, 1 << (p - 1)) * Fraction(2) ** emin
    else:
        v = Fraction(m + (1 << (p - 1)), 1 << (p - 1)) * Fraction(2) ** (e - (1 << (exp_bits - 1)) + 1)
    return (sign, v)


def encode(sign, v, fmt, toward_zero=False):
    """The bits of the format's value nearest the exact v >= 0 (or "inf"), sign applied."""
    p, emin, emax = fmt
    width = 32 if fmt == F32 else 16
    exp_bits = width - p
    top = sign << (width - 1)
    inf = top | ((1 << exp_bits) - 1) << (p - 1)
    if v == "inf":
        return inf
    if v == 0:
        return top
    e = v.numerator.bit_length() - v.denominator.bit_length()
    if Fraction(2) ** e > v:
        e -= 1
    e = max(e, emin)
    q = Fraction(2) ** (e - (p - 1))
    n = v / q
    i = math.floor(n)
    if not toward_zero and (n - i > Fraction(1, 2) or (n - i == Fraction(1, 2) and i % 2)):
        i += 1
    r = i * q
    biggest = (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax
    if r > biggest:
        return inf if not toward_zero else encode(sign, biggest, fmt)
    if r < Fraction(2) ** emin:
        return top | int(r / Fraction(2) ** (emin - (p - 1)))
    e = r.numerator.bit_length() - r.denominator.bit_length()
    if Fraction(2) ** e > r:
        e -= 1
    m = int(r / Fraction(2) ** (e - (p - 1))) - (1 << (p - 1))
    return top | (e + (1 << (exp_bits - 1)) - 1) << (p - 1) | m


def signed(x):
    """A decoded non-NaN value as a signed Fraction or +-inf float, for comparisons."""
    s, v = x
    if v == "inf":
        return -math.inf if s else math.inf
    return -v if s else v


def result(sign_value, fmt, toward_zero=False):
    if sign_value == NAN:
        return NAN
    return encode(sign_value[0], sign_value[1], fmt, toward_zero)


def exact_sum(terms, all_zero_sign):
    """terms: signed Fractions; the exact sum as (sign, |v|), a zero sum of nonzero terms +0."""
    s = sum(terms, Fraction(0))
    if s == 0:
        return (all_zero_sign, Fraction(0))
    return (1 if s < 0 else 0, abs(s))


def add(x, y):
    if x == NAN or y == NAN:
        return NAN
    if x[1] == "inf" or y[1] == "inf":
        if x[1] == "inf" and y[1] == "inf" and x[0] != y[0]:
            return NAN
        return x if x[1] == "inf" else y
    zero_sign = 1 if (x[1] == 0 and y[1] == 0 and x[0] and y[0]) else 0
    return exact_sum([signed(x), signed(y)], zero_sign)


def neg(x):
    return NAN if x == NAN else (1 - x[0], x[1])


def mul(x, y):
    if x == NAN or y == NAN:
        return NAN
    s = x[0] ^ y[0]
    if x[1] == "inf" or y[1] == "inf":
        if x[1] == 0 or y[1] == 0:
            return NAN
        return (s, "inf")
    return (s, x[1] * y[1])


def fma(x, y, z):
    if NAN in (x, y, z):
        return NAN
    p = mul(x, y)
    if p == NAN:
        return NAN
    if p[1] == "inf" or z[1] == "inf":
        return add(p, z)
    if p[1] == 0 and z[1] == 0:
        return (p[0] & z[0], Fraction(0))
    return exact_sum([signed(p), signed(z)], 0)


def less(x, y):
    """x < y with -0 below +0 (both non-NaN)."""
    if x[1] == 0 and y[1] == 0:
        return x[0] and not y[0]
    return signed(x) < signed(y)


def min_num(x, y, maximum):
    if x == NAN and y == NAN:
        return NAN
    if x == NAN:
        return y
    if y == NAN:
        return x
    first = less(y, x) if maximum else less(x, y)
    return x if first or (not less(x, y) and not less(y, x)) else y


def min_ieee(x, y, maximum):
    if x == NAN or y == NAN:
        return NAN
    return min_num(x, y, maximum)


def rounding(x, how):
    if x == NAN or x[1] == "inf" or x[1] == 0:
        return x
    v = signed(x)
    if how == "ceil":
        i = math.ceil(v)
    elif how == "floor":
        i = math.floor(v)
    elif how == "trunc":
        i = math.trunc(v)
    else:
        i = round(v)  # Fraction's round(): to nearest, ties to even
    return (x[0], abs(Fraction(i)))  # a zero keeps the operand's sign


def to_int(x, unsigned):
    if x == NAN:
        return 0
    lo, hi = (0, 2**32 - 1) if unsigned else (-(2**31), 2**31 - 1)
    if x[1] == "inf":
        return (lo if x[0] else hi) & 0xFFFFFFFF
    return min(max(math.trunc(signed(x)), lo), hi) & 0xFFFFFFFF


def from_int(i):
    return (1 if i < 0 else 0, abs(Fraction(i)))


def compare(x, y, cond):
    unordered = x == NAN or y == NAN
    if unordered:
        return cond in ("u", "nge", "nlg", "ngt", "nle", "neq", "nlt")
    a, b = signed(x), signed(y)
    return {"lt": a < b, "eq": a == b, "le": a <= b, "gt": a > b, "lg": a != b, "ge": a >= b,
            "o": True, "u": False, "nge": a < b, "nlg": a == b, "ngt": a <= b, "nle": a > b,
            "neq": a != b, "nlt": a >= b}[cond]


def h16(bits):
    return struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0]


# Edge values: signed zeros, ones, halves, the values whose rounding differs by mode, f32 and f16
# denormals, infinities, quiet and signalling NaNs (both signs), the largest and smallest
# normals, values beyond the other format's range, the f16 conversions' ties and overflow.
F32_EDGES = [
    0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x3F000000, 0xBF000000, 0x3FC00000,
    0xBFC00000, 0x40200000, 0xC0200000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000,
    0x80800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001, 0xFFA00000,
    0x7F7FFFFF, 0xFF7FFFFF, 0x4B000001, 0xCB7FFFFF, 0x4F000000, 0xCF000000, 0x4F800000,
    0x477FE000, 0x477FF000, 0x477FEFFF, 0x47800000, 0x3F801000, 0x3F801001, 0x33800000,
    0x337FFFFF, 0x387FE000, 0xB3C00000, 0x40490FDB, 0xC2F6E979,
]
F16_EDGES = [
    0x0000, 0x8000, 0x3C00, 0xBC00, 0x3800, 0xB800, 0x3E00, 0xBE00, 0x4100, 0xC100, 0x0001,
    0x8001, 0x03FF, 0x0400, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0xFE01, 0x7C01, 0xFD00,
    0x6400, 0x63FF, 0xE3FF, 0x5BFF, 0x3555, 0x4248,
]


def make_inputs(count):
    rnd = random.Random(1250)
    words = []
    n32, n16 = len(F32_EDGES), len(F16_EDGES)
    for r in range(count):
        if r < n32 * n32:
            a, b = F32_EDGES[r % n32], F32_EDGES[r // n32 % n32]
            c = F32_EDGES[(r * 7 + 3) % n32]
        else:
            a, b, c = (f32_bits(rnd.uniform(-1e4, 1e4) * 2.0 ** rnd.randint(-20, 20)) for _ in range(3))
        if r < n16 * n16:
            fa, fb = F16_EDGES[r % n16], F16_EDGES[r // n16 % n16]
            fc = F16_EDGES[(r * 5 + 1) % n16]
        else:
            fa, fb, fc = (rnd.getrandbits(16) for _ in range(3))
        garbage = [rnd.getrandbits(16) << 16 for _ in range(3)]
        i = rnd.choice([0, 1, -1, 2**31 - 1, -(2**31), 16777217, -16777217, 2**24 + 3]) if r % 3 else rnd.getrandbits(32)
        words += [a, b, c, fa | garbage[0], fb | garbage[1], fc | garbage[2], i & 0xFFFFFFFF, 0]
    return words


def expected_sfloat(rec):
    a, b, c = (decode(w, F32) for w in rec[:3])
    A, B, C = (decode(w & 0xFFFF, F16) for w in rec[3:6])
    i = rec[6]
    si = i - (1 << 32) if i >> 31 else i
    k15, km25 = decode(0x3FC00000, F32), decode(0xC0200000, F32)
    out = [
        (result(add(a, b), F32), 32), (result(add(a, neg(b)), F32), 32), (result(mul(a, b), F32), 32),
        (result(min_num(a, b, False), F32), 32), (result(min_num(a, b, True), F32), 32),
        (result(b, F16), 16), (result(B, F32), 32),
        (result(fma(a, b, c), F32), 32), (result(fma(a, b, k15), F32), 32), (result(fma(a, km25, c), F32), 32),
    ]
    out += [(result(rounding(a, h), F32), 32) for h in ("ceil", "floor", "trunc", "rndne")]
    rtz = [result(x, F16, toward_zero=True) for x in (a, b)]
    out += [(result(a, F16), 16), (tuple(rtz), "pk"), (result(A, F32), 32), (result(B, F32), 32)]
    out += [(result(add(A, B), F16), 16), (result(add(A, neg(B)), F16), 16), (result(mul(A, B), F16), 16),
            (result(min_num(A, B, True), F16), 16), (result(min_num(A, B, False), F16), 16),
            (result(fma(A, B, C), F16), 16)]
    out += [(result(rounding(A, h), F16), 16) for h in ("ceil", "floor", "trunc", "rndne")]
    out += [(to_int(a, False), "int"), (to_int(a, True), "int"),
            (result(from_int(si), F32), 32), (result(from_int(i), F32), 32)]
    for x, y in ((a, b), (A, B)):
        out.append((sum(1 << k for k, cond in enumerate(CONDS) if compare(x, y, cond)), "int"))
    out.append((3, "int"))
    half, two, one, k15h = (decode(v, F16) for v in (0x3800, 0x4000, 0x3C00, 0x3E00))
    out += [(result(add(half, A), F16), 16), (result(mul(decode(0xC0800000, F32), b), F32), 32),
            (result(min_num(A, k15h, True), F16), 16), (result(add(B, neg(two)), F16), 16),
            (int(compare(a, decode(0x3F000000, F32), "lt")) | int(compare(A, one, "gt")) << 1, "int")]
    return out


def expected_ieee(rec):
    a, b = (decode(w, F32) for w in rec[:2])
    A, B = (decode(w & 0xFFFF, F16) for w in rec[3:5])
    return [(result(min_ieee(x, y, m), fmt), 16 if fmt == F16 else 32)
            for x, y, fmt in ((a, b, F32), (b, a, F32), (A, B, F16), (B, A, F16)) for m in (False, True)]


def is_nan(bits, width):
    return decode(bits, F32 if width == 32 else F16) == NAN


def check(got, want):
    value, kind = want
    if kind == "int":
        return got == value
    if kind == "pk":
        return check(got & 0xFFFF, (value[0], 16)) and check(got >> 16, (value[1], 16))
    if kind == 16 and got >> 16:
        return False
    if value == NAN:
        return is_nan(got, kind)
    return got == value


def show(want):
    value, kind = want
    if kind == "pk":
        return "(%s, %s)" % tuple(v if v == NAN else "0x%04x" % v for v in value)
    return value if value == NAN else "0x%08x" % value


def main():
    if sys.argv[1] == "inputs":
        words = make_inputs(int(sys.argv[3]))
        open(sys.argv[2], "wb").write(struct.pack("<%dI" % len(words), *words))
        return 0
    kernel, path_in, path_out, count = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
    raw_in, raw_out = open(path_in, "rb").read(), open(path_out, "rb").read()
    per = 40 if kernel == "sfloat" else 8
    bad, checked = [], 0
    for r in range(count):
        rec = struct.unpack_from("<8I", raw_in, 32 * r)
        got = struct.unpack_from("<%dI" % per, raw_out, 4 * per * r)
        want = expected_sfloat(rec) if kernel == "sfloat" else expected_ieee(rec)
        for k, (g, w) in enumerate(zip(got, want)):
            checked += 1
            if not check(g, w):
                bad.append("record %d (in %s) dword %d: 0x%08x, want %s" %
                           (r, " ".join("%08x" % x for x in rec[:7]), k, g, show(w)))
    if bad:
        print("%d of %d differ; first: %s" % (len(bad), checked, "\n".join(bad[:8])))
        return 1
    print("%d results as the rules give" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
