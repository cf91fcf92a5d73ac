#!/usr/bin/env python3
"""Writes the OpenCL C kernels of the builtin differential test
(tests/builtins/README.md).

gen.py OUT_DIR [--set default|sweep]

One source per family (OUT_DIR/<family>.cl, many kernels), the input buffers
(OUT_DIR/in/<sha1>.bin, shared between kernels with the same inputs) and
OUT_DIR/manifest.json: per kernel its family, its inputs (element type,
vector width, file), the number of work-items and its cases (one builtin
expression each, with its output buffers, their element types and how
they are compared).  Lane j of work-item i reads input tuple i * width + j:
a vector builtin sees the same edge tuples as the scalar one, spread
over its lanes.  "default" is every scalar type with one vector width per
builtin and type (2, 4, 3, 8, 16 in turn, so each builtin family meets
them all); "sweep" every width the builtin takes.
"""
import argparse
import hashlib
import itertools
import json
import math
import os
import struct

WG = 64  # work-items per workgroup, as the kernels' GID macro assumes

# name: (bits, kind) where kind is 's' signed, 'u' unsigned, 'f' float.
TYPES = {
    'char': (8, 's'), 'uchar': (8, 'u'), 'short': (16, 's'),
    'ushort': (16, 'u'), 'int': (32, 's'), 'uint': (32, 'u'),
    'long': (64, 's'), 'ulong': (64, 'u'), 'float': (32, 'f'),
    'double': (64, 'f'),
}
INTS = ['char', 'uchar', 'short', 'ushort', 'int', 'uint', 'long', 'ulong']
FLOATS = ['float', 'double']
PACK = {'char': 'b', 'uchar': 'B', 'short': 'h', 'ushort': 'H', 'int': 'i',
        'uint': 'I', 'long': 'q', 'ulong': 'Q', 'float': 'I', 'double': 'Q'}
WIDTHS = [2, 4, 3, 8, 16]


def unsigned_of(t):
    return t if t.startswith('u') else 'u' + t


def signed_of(t):
    return t[1:] if t.startswith('u') else t


def same_size_int(t, signed=True):
    """The integer type of t's size (relational results, select masks)."""
    n = {8: 'char', 16: 'short', 32: 'int', 64: 'long'}[TYPES[t][0]]
    return n if signed else 'u' + n


def int_range(t):
    bits, kind = TYPES[t]
    if kind == 's':
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def wrap(t, v):
    """v as a value of integer type t (two's complement)."""
    bits, kind = TYPES[t]
    v &= (1 << bits) - 1
    if kind == 's' and v >> (bits - 1):
        v -= 1 << bits
    return v


# --- edge values -----------------------------------------------------------

POWERS = {8: range(1, 8), 16: [1, 4, 7, 8, 9, 12, 14, 15],
          32: [1, 7, 8, 15, 16, 23, 24, 30, 31],
          64: [1, 8, 16, 31, 32, 33, 48, 52, 53, 62, 63]}


def int_edges(t):
    """0, +-1, min, max, min+1, max-1, 2^k and +-1 around them, the width
    and the shift counts past it, a few bit patterns."""
    bits, kind = TYPES[t]
    lo, hi = int_range(t)
    vals = [0, 1, 2, 3, lo, hi, lo + 1, hi - 1, bits - 1, bits, bits + 1,
            2 * bits, 0x3f, hi // 2, hi // 2 + 1]
    if kind == 's':
        vals += [-1, -2, -3, lo + 2, -bits, -0x3f]
    for k in POWERS[bits]:
        p = 1 << k
        vals += [p - 1, p, p + 1]
        if kind == 's':
            vals += [-p, -p + 1, -p - 1]
    pat = int('55' * (bits // 8), 16)
    vals += [pat, pat << 1, 0x12345678 & ((1 << bits) - 1)]
    out = []
    for v in vals:
        v = wrap(t, v)
        if v not in out:
            out.append(v)
    return out


def int_edges_small(t):
    """The edges binary and ternary builtins pair: about 24."""
    bits, kind = TYPES[t]
    lo, hi = int_range(t)
    vals = [0, 1, 2, lo, hi, lo + 1, hi - 1, bits - 1, bits, bits + 1,
            0x3f, hi // 2 + 1, 1 << (bits // 2), (1 << (bits // 2)) - 1,
            int('55' * (bits // 8), 16)]
    if kind == 's':
        vals += [-1, -2, -bits, -(1 << (bits // 2)), lo // 2]
    else:
        vals += [hi - 2, hi // 2, (hi + 1) // 4 * 3]
    out = []
    for v in vals:
        v = wrap(t, v)
        if v not in out:
            out.append(v)
    return out


def fbits(t, x):
    """The bit pattern of the Python float x as float or double."""
    if t == 'float':
        return struct.unpack('<I', struct.pack('<f', x))[0]
    return struct.unpack('<Q', struct.pack('<d', x))[0]


def fval(t, b):
    if t == 'float':
        return struct.unpack('<f', struct.pack('<I', b))[0]
    return struct.unpack('<d', struct.pack('<Q', b))[0]


def fparams(t):
    """(mantissa bits, exponent bias, total bits)."""
    return (23, 127, 32) if t == 'float' else (52, 1023, 64)


def float_special(t):
    m, bias, n = fparams(t)
    sign = 1 << (n - 1)
    expmask = ((1 << (n - 1 - m)) - 1) << m
    return {
        'qnan': expmask | (1 << (m - 1)),
        'inf': expmask,
        'min_denorm': 1,
        'max_denorm': (1 << m) - 1,
        'min_normal': 1 << m,
        'max': expmask - 1,
        'sign': sign,
    }


def float_edges(t, small=False):
    """+-0, +-1, +-inf, NaN (both signs), denormals, the smallest and
    largest normals, halves for rounding (0.5, 1.5, 2.5, -2.5, ...),
    powers of two and their neighbours, values near 2^mantissa."""
    sp = float_special(t)
    m, bias, n = fparams(t)
    s = sp['sign']
    bits = [0, s, sp['inf'], s | sp['inf'], sp['qnan'], s | sp['qnan'],
            sp['min_denorm'], s | sp['min_denorm'], sp['max_denorm'],
            sp['min_normal'], s | sp['min_normal'], sp['max'], s | sp['max']]
    nums = [1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.0, -3.5, 0.1,
            -7.25, 100.75, 2.0 ** (m + 1), -(2.0 ** m) - 0.5,
            2.0 ** (m - 1) + 0.5]
    if not small:
        nums += [3.5, 5.5, -0.25, 0.75, 1e10, -1e-10, 2.0 ** 31,
                 -(2.0 ** 31), 2.0 ** 32, 2.0 ** 63, 2.0 ** 64, 65535.5,
                 6.0, 1024.0, 2.0 ** -60, 2.0 ** m - 1.0]
        one = fbits(t, 1.0)
        bits += [one - 1, one + 1, fbits(t, 0.5) - 1, fbits(t, 2.0) - 1,
                 sp['min_normal'] + 1, sp['max_denorm'] - 1, 2]
    for x in nums:
        bits.append(fbits(t, x))
    out = []
    for b in bits:
        if b not in out:
            out.append(b)
    return out


def conversion_edges(src):
    """Float edges plus the bounds of every integer type, and +-0.5
    and +-1 around them, the values that decide saturation and rounding."""
    vals = float_edges(src)
    for it in INTS:
        lo, hi = int_range(it)
        for x in (lo - 1.0, lo - 0.5, lo + 0.5, float(lo), float(hi),
                  hi - 0.5, hi + 0.5, hi + 1.0, hi * 1.0000001):
            b = fbits(src, x) if src == 'double' else fbits(src, _to_f32(x))
            if b not in vals:
                vals.append(b)
    return vals


def _to_f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def edges(t, small=False):
    if TYPES[t][1] == 'f':
        return float_edges(t, small)
    return int_edges_small(t) if small else int_edges(t)


def is_nan(t, b):
    return TYPES[t][1] == 'f' and math.isnan(fval(t, b))


# --- tuples of inputs ------------------------------------------------------

def unary(a):
    return [(x,) for x in a]


def pairs(a, b):
    return list(itertools.product(a, b))


def triples(a, b, c):
    """Every (a, b) pair, with c cycling through its list: each c value
    meets many pairs, and every edge is in every position."""
    return [(x, y, c[(i + 3 * j) % len(c)])
            for (i, x), (j, y) in itertools.product(enumerate(a),
                                                    enumerate(b))]


# --- the test cases --------------------------------------------------------

class Kernel:
    """One kernel: inputs (scalar type, file), one width, cases."""

    def __init__(self, family, name, in_types, width, tuples, cases):
        self.family = family
        self.name = name
        self.in_types = in_types
        self.width = width
        self.tuples = tuples
        self.cases = cases  # dicts: builtin, label, code, outs [(type, cmp)]


def vtype(t, w):
    return t if w == 1 else '%s%d' % (t, w)


def case(builtin, label, code, outs):
    """code assigns y0 (and y1) from x0..x2; outs: (scalar type, cmp)
    per output, all as wide as the kernel's width."""
    return {'builtin': builtin, 'label': label, 'code': code, 'outs': outs}


def expr(builtin, label, e, rtype, cmp='exact'):
    return case(builtin, label, 'y0 = %s;' % e, [(rtype, cmp)])


def fcmp(t):
    return 'float'  # bits exact, NaN as a class


def rel_type(t, w):
    """The element type of a relational builtin's result on t."""
    return 'int' if w == 1 else same_size_int(t)


def integer_kernels(t, widths):
    """OpenCL C 1.2 6.12.3: every integer builtin, gentype t."""
    ks = []
    u = unsigned_of(t)
    e1, e2 = edges(t), edges(t, small=True)
    lo, hi = int_range(t)
    one = [
        ('abs', 'abs(x0)', u), ('clz', 'clz(x0)', t),
        ('popcount', 'popcount(x0)', t),
        ('op_neg', '-x0', t), ('op_not', '~x0', t), ('op_lnot', '!x0', None),
    ]
    two = [
        ('abs_diff', 'abs_diff(x0, x1)', u),
        ('add_sat', 'add_sat(x0, x1)', t), ('sub_sat', 'sub_sat(x0, x1)', t),
        ('hadd', 'hadd(x0, x1)', t), ('rhadd', 'rhadd(x0, x1)', t),
        ('max', 'max(x0, x1)', t), ('min', 'min(x0, x1)', t),
        ('mul_hi', 'mul_hi(x0, x1)', t), ('rotate', 'rotate(x0, x1)', t),
        ('op_add', 'x0 + x1', t), ('op_sub', 'x0 - x1', t),
        ('op_mul', 'x0 * x1', t), ('op_and', 'x0 & x1', t),
        ('op_or', 'x0 | x1', t), ('op_xor', 'x0 ^ x1', t),
        ('op_shl', 'x0 << x1', t), ('op_shr', 'x0 >> x1', t),
        ('op_eq', 'x0 == x1', None), ('op_ne', 'x0 != x1', None),
        ('op_lt', 'x0 < x1', None), ('op_le', 'x0 <= x1', None),
        ('op_gt', 'x0 > x1', None), ('op_ge', 'x0 >= x1', None),
        ('op_land', 'x0 && x1', None),
    ]
    three = [
        ('mad_hi', 'mad_hi(x0, x1, x2)', t),
        ('mad_sat', 'mad_sat(x0, x1, x2)', t),
        ('op_cond', 'x0 > x2 ? x1 : x2', t),
    ]
    for w in widths:
        # The comparisons' result: int for scalars, the signed type of the
        # element's size for vectors (-1 for true).
        cmp_t = 'int' if w == 1 else same_size_int(t)
        tw = vtype(t, w)

        def mk(kname, rows, ins, tuples):
            ks.append(Kernel('int_' + t, 'k_%s_%s' % (kname, tw), ins, w,
                             tuples, [expr(name, name, e, r or cmp_t)
                                      for name, e, r in rows]))

        mk('unary', one, [t], unary(e1))
        mk('binary', two, [t, t], pairs(e2, e2))
        mk('ternary', three, [t, t, t], triples(e2, e2, e2))
        # clamp(x, lo, hi) with lo <= hi (the spec leaves lo > hi undefined)
        tr = [(a, min(b, c), max(b, c)) for a, b, c in triples(e2, e2, e2)]
        mk('clamp', [('clamp', 'clamp(x0, x1, x2)', t)], [t, t, t], tr)
        # division and remainder: no division by zero, nor min / -1
        dv = [(a, b) for a, b in pairs(e2, e2)
              if b != 0 and not (a == lo and b == -1)]
        mk('divrem', [('op_div', 'x0 / x1', t), ('op_rem', 'x0 % x1', t)],
           [t, t], dv)
        if w > 1:
            # the scalar forms: min(gentype, sgentype), clamp, shifts by
            # a scalar count
            ks.append(Kernel('int_' + t, 'k_min_s_%s' % tw, [t, t], w,
                             pairs(e2, e2),
                             [expr('min', 'min(v, s)', 'min(x0, x1.s0)', t),
                              expr('max', 'max(v, s)', 'max(x0, x1.s0)', t),
                              expr('op_shl', 'v << s', 'x0 << x1.s0', t),
                              expr('rotate', 'rotate(v, v.s0)',
                                   'rotate(x0, (%s)x1.s0)' % tw, t)]))
        # upsample(hi, lo): char/short/int and their unsigned kinds
        if TYPES[t][0] < 64:
            wide = {8: 'short', 16: 'int', 32: 'long'}[TYPES[t][0]]
            if TYPES[t][1] == 'u':
                wide = 'u' + wide
            ks.append(Kernel('int_' + t, 'k_upsample_%s' % tw, [t, u], w,
                             [(a, wrap(u, b)) for a, b in pairs(e2, e2)],
                             [expr('upsample', 'upsample',
                                   'upsample(x0, x1)', wide)]))
        # mad24/mul24: int and uint, operands within 24 bits
        if t in ('int', 'uint'):
            def m24(v):
                v &= 0xffffff
                if t == 'int' and v >> 23:
                    v -= 1 << 24
                return v
            tr = [(m24(a), m24(b), c) for a, b, c in triples(e2, e2, e2)]
            ks.append(Kernel('int_' + t, 'k_mul24_%s' % tw, [t, t, t], w, tr,
                             [expr('mul24', 'mul24', 'mul24(x0, x1)', t),
                              expr('mad24', 'mad24', 'mad24(x0, x1, x2)',
                                   t)]))
        # select and bitselect (6.12.6), the mask of the signed/unsigned
        # type of t's size
        mt = same_size_int(t, signed=False)
        sel = [(a, b, wrap(mt, c)) for a, b, c in triples(e2, e2, e2)]
        ks.append(Kernel('int_' + t, 'k_select_%s' % tw, [t, t, mt], w, sel,
                         [expr('select', 'select', 'select(x0, x1, x2)', t),
                          expr('bitselect', 'bitselect',
                               'bitselect(x0, x1, as_%s(x2))' % tw, t)]))
        if TYPES[t][1] == 's':
            ks.append(Kernel('int_' + t, 'k_anyall_%s' % tw, [t], w,
                             unary(e1),
                             [expr('any', 'any', 'any(x0)', 'int'),
                              expr('all', 'all', 'all(x0)', 'int')]))
    # any/all return one int per work-item: their outputs are scalar
    for k in ks:
        if k.name.startswith('k_anyall_'):
            for c in k.cases:
                c['scalar_out'] = True
    return ks


def float_kernels(t, widths):
    """OpenCL C 1.2 6.12.2, 6.12.6: the math and relational builtins whose
    results the spec makes exact (0 ULP or correctly rounded)."""
    ks = []
    e1, e2 = float_edges(t), float_edges(t, small=True)
    it = 'int'
    fam = 'float_' + t
    f = 'float'
    one = ['fabs', 'floor', 'ceil', 'trunc', 'rint', 'round', 'logb']
    two = ['copysign', 'fmin', 'fmax', 'fdim', 'nextafter', 'fmod',
           'remainder']
    ops2 = [('op_add', 'x0 + x1'), ('op_sub', 'x0 - x1'),
            ('op_mul', 'x0 * x1')]
    if t == 'double':
        ops2.append(('op_div', 'x0 / x1'))
    rel1 = ['isnan', 'isinf', 'isfinite', 'isnormal', 'signbit']
    rel2 = ['isequal', 'isnotequal', 'isgreater', 'isgreaterequal', 'isless',
            'islessequal', 'islessgreater', 'isordered', 'isunordered']
    for w in widths:
        tw = vtype(t, w)
        rt = rel_type(t, w)
        iw = vtype(it, w)
        c1 = [expr(b, b, '%s(x0)' % b, t, f) for b in one]
        c1.append(expr('ilogb', 'ilogb', 'ilogb(x0)', it))
        c1.append(case('frexp', 'frexp',
                       '{ %s e; y0 = frexp(x0, &e); y1 = e; }' % iw,
                       [(t, f), (it, 'exact_if_finite')]))
        c1.append(case('modf', 'modf',
                       '{ %s ip; y0 = modf(x0, &ip); y1 = ip; }' % tw,
                       [(t, f), (t, f)]))
        c1.append(case('fract', 'fract',
                       '{ %s ip; y0 = fract(x0, &ip); y1 = ip; }' % tw,
                       [(t, f), (t, f)]))
        c1 += [expr(b, b, '%s(x0)' % b, rt) for b in rel1]
        ks.append(Kernel(fam, 'k_unary_%s' % tw, [t], w, unary(e1), c1))
        # fmin(-0, +0) may be either zero
        c2 = [expr(b, b, '%s(x0, x1)' % b, t,
                   'float_zero' if b in ('fmin', 'fmax') else f)
              for b in two]
        c2 += [expr(b, b, e, t, f) for b, e in ops2]
        c2.append(case('remquo', 'remquo',
                       '{ %s q; y0 = remquo(x0, x1, &q); y1 = q; }' % iw,
                       [(t, f), (it, 'quo7')]))
        c2 += [expr(b, b, '%s(x0, x1)' % b, rt) for b in rel2]
        c2 += [expr(o, o, 'x0 %s x1' % s, rt) for o, s in
               (('op_eq', '=='), ('op_lt', '<'), ('op_ge', '>='),
                ('op_ne', '!='))]
        ks.append(Kernel(fam, 'k_binary_%s' % tw, [t, t], w, pairs(e2, e2),
                         c2))
        ks.append(Kernel(fam, 'k_fma_%s' % tw, [t, t, t], w,
                         triples(e2, e2, e2),
                         [expr('fma', 'fma', 'fma(x0, x1, x2)', t, f)]))
        ldx = [-1, 0, 1, 2, 10, -10, 126, 127, 128, -126, -149, -150, 1023,
               1024, -1022, -1074, -1075, 2000, -2000, 0x7fffffff,
               -0x80000000, 64]
        ks.append(Kernel(fam, 'k_ldexp_%s' % tw, [t, it], w, pairs(e2, ldx),
                         [expr('ldexp', 'ldexp', 'ldexp(x0, x1)', t, f)]))
        mt = same_size_int(t, signed=False)
        sel = [(a, b, c) for a, b, c in
               triples(e2, e2, int_edges_small(mt))]
        ks.append(Kernel(fam, 'k_select_%s' % tw, [t, t, mt], w, sel,
                         [expr('select', 'select', 'select(x0, x1, x2)', t,
                               'bits'),
                          expr('bitselect', 'bitselect',
                               'bitselect(x0, x1, as_%s(x2))' % tw, t,
                               'bits')]))
    return ks


ROUNDINGS = ['', '_rte', '_rtz', '_rtp', '_rtn']


def round_to_int(x, mode):
    if mode in ('', '_rtz'):
        return math.trunc(x)
    if mode == '_rtp':
        return math.ceil(x)
    if mode == '_rtn':
        return math.floor(x)
    return round(x)  # Python rounds halves to even


def conversion_kernels(src, widths):
    """convert_<dst>[_sat][_rte|_rtz|_rtp|_rtn](src) for every dst, and
    as_<type> of the same size.  One kernel per (src, dst, width) and
    input set, one case per modifier."""
    ks = []
    fam = 'convert_' + src
    sk = TYPES[src][1]
    ins = conversion_edges(src) if sk == 'f' else int_edges(src)
    for w in widths:
        sw = vtype(src, w)
        full = []
        for dst in INTS + FLOATS:
            dw = vtype(dst, w)
            if TYPES[dst][1] == 'f':
                mods = ROUNDINGS if src != dst else ['']
                for r in mods:
                    full.append(expr('convert', 'convert_%s%s' % (dst, r),
                                     'convert_%s%s(x0)' % (dw, r), dst,
                                     'float'))
                continue
            mods = ROUNDINGS if sk == 'f' else ['']
            plain = []
            for sat in ('', '_sat'):
                for r in mods:
                    c = expr('convert', 'convert_%s%s%s' % (dst, sat, r),
                             'convert_%s%s%s(x0)' % (dw, sat, r), dst)
                    (full if sat or sk != 'f' else plain).append(c)
            if not plain:
                continue
            # float to integer without _sat: only values whose rounded
            # value fits (the spec leaves the rest undefined)
            lo, hi = int_range(dst)
            fit = []
            for (b,) in unary(ins):
                x = fval(src, b)
                if math.isfinite(x) and all(
                        lo <= round_to_int(x, r) <= hi for r in ROUNDINGS):
                    fit.append((b,))
            ks.append(Kernel(fam, 'k_cvt_%s_%s' % (dw, sw), [src], w, fit,
                             plain))
        # as_<type>: every type of the same size (scalar and vector)
        full += [expr('as_type', 'as_%s' % d, 'as_%s(x0)' % vtype(d, w), d,
                      'bits') for d in INTS + FLOATS
                 if d != src and TYPES[d][0] == TYPES[src][0]]
        ks.append(Kernel(fam, 'k_cvt_%s' % sw, [src], w, unary(ins), full))
    return ks


def widths_for(index, full):
    """Scalar plus one vector width, rotating (default), or all."""
    if full:
        return [1] + WIDTHS
    return [1, WIDTHS[index % len(WIDTHS)]]


def all_kernels(full):
    ks = []
    for i, t in enumerate(INTS):
        ks += integer_kernels(t, widths_for(i, full))
    for i, t in enumerate(FLOATS):
        ks += float_kernels(t, widths_for(i, full))
    for i, t in enumerate(INTS + FLOATS):
        ks += conversion_kernels(t, widths_for(i + 1, full))
    return ks


# --- output ----------------------------------------------------------------

HEADER = """/* Generated by tests/builtins/gen.py: do not edit. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* Workgroups of %d work-items: no get_global_id, whose libclc-22 build
 * reads Mesa's hidden-argument layout, not a ROCm dispatch's. */
#define GID ((uint)get_group_id(0) * %du + (uint)get_local_id(0))
""" % (WG, WG)


def load(t, w, i):
    if w == 1:
        return 'in%d[i]' % i
    return 'vload%d(i, in%d)' % (w, i)


def store(y, w, o):
    if w == 1:
        return 'out%d[i] = %s;' % (o, y)
    return 'vstore%d(%s, i, out%d);' % (w, y, o)


def kernel_source(k, only=None):
    """The kernel, or (only = a case's index) the split kernel of one case:
    NAME__INDEX, its output buffers named as in the whole kernel, built
    only with -DSPLIT_NAME (run.py runs the cases of a refused or faulted
    kernel one by one); -DONLY -DONLY_<kernel> leaves every other kernel
    out."""
    w = k.width
    params = ['__global const %s *in%d' % (t, i)
              for i, t in enumerate(k.in_types)]
    body = ['\tuint i = GID;', '\tif (i >= n)', '\t\treturn;']
    for i, t in enumerate(k.in_types):
        body.append('\t%s x%d = %s;' % (vtype(t, w), i, load(t, w, i)))
    o = 0
    for j, c in enumerate(k.cases):
        if only is not None and j != only:
            o += len(c['outs'])
            continue
        ow = 1 if c.get('scalar_out') else w
        body.append('\t{')
        for m, (rt, _) in enumerate(c['outs']):
            body.append('\t\t%s y%d;' % (vtype(rt, ow), m))
        body.append('\t\t' + c['code'])
        for m, (rt, _) in enumerate(c['outs']):
            params.append('__global %s *out%d' % (rt, o))
            body.append('\t\t' + store('y%d' % m, ow, o))
            o += 1
        body.append('\t}')
    params.append('uint n')
    name = k.name if only is None else '%s__%d' % (k.name, only)
    # -DONLY -DONLY_NAME builds one kernel alone (run.py's -O0 objects)
    alone = '(!defined(ONLY) || defined(ONLY_%s))' % name
    guard = ('#if !defined(SKIP_%s) && !defined(ONLY_SPLIT) && %s' % (
        name, alone) if only is None else
        '#if defined(SPLIT_%s) && !defined(SKIP_%s) && %s' % (
            k.name, name, alone))
    return ('%s\n__kernel void %s(%s)\n{\n%s\n}\n#endif\n' %
            (guard, name, ', '.join(params), '\n'.join(body)))


def pack(t, vals):
    return struct.pack('<%d%s' % (len(vals), PACK[t]), *vals)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('out')
    ap.add_argument('--set', choices=['default', 'sweep'], default='default')
    args = ap.parse_args()
    ks = all_kernels(args.set == 'sweep')
    os.makedirs(os.path.join(args.out, 'in'), exist_ok=True)
    families, manifest, written = {}, [], set()
    for k in ks:
        assert k.tuples, k.name
        # pad to whole vectors by repeating the first tuples
        flat = list(k.tuples)
        while len(flat) % k.width:
            flat.append(flat[len(flat) % len(k.tuples)])
        n = len(flat) // k.width
        inputs = []
        for i, t in enumerate(k.in_types):
            data = pack(t, [tp[i] for tp in flat])
            name = hashlib.sha1(data).hexdigest()[:16] + '.bin'
            if name not in written:
                with open(os.path.join(args.out, 'in', name), 'wb') as fh:
                    fh.write(data)
                written.add(name)
            inputs.append({'type': t, 'file': 'in/' + name})
        cases = []
        o = 0
        for c in k.cases:
            outs = []
            for rt, cmp in c['outs']:
                outs.append({'buffer': 'out%d' % o, 'type': rt, 'cmp': cmp})
                o += 1
            cases.append({'builtin': c['builtin'], 'label': c['label'],
                          'outs': outs, 'scalar_out': bool(
                              c.get('scalar_out'))})
        manifest.append({'name': k.name, 'family': k.family,
                         'width': k.width, 'n': n, 'tuples': len(k.tuples),
                         'inputs': inputs, 'cases': cases})
        families.setdefault(k.family, []).append(kernel_source(k))
        if len(k.cases) > 1:
            for j in range(len(k.cases)):
                families[k.family].append(kernel_source(k, j))
    for fam, srcs in families.items():
        with open(os.path.join(args.out, fam + '.cl'), 'w') as fh:
            fh.write(HEADER + '\n' + '\n'.join(srcs))
    with open(os.path.join(args.out, 'manifest.json'), 'w') as fh:
        json.dump({'set': args.set, 'workgroup': WG,
                   'families': sorted(families), 'kernels': manifest}, fh,
                  indent=1)
    print('gen.py: %d kernels, %d cases in %d families into %s' % (
        len(ks), sum(len(k.cases) for k in ks), len(families), args.out))


if __name__ == '__main__':
    main()
