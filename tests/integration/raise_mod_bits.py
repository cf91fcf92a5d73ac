#!/usr/bin/env python3
"""Every modifier bit of every VALU row is modelled or refused (docs/raiser.md "Modifiers").

  raise_mod_bits.py TMPDIR

For each VALU row sample of the table $ISA (gfx1250, gfx942 or gfx950), this makes one variant
per modifier the assembler allows on it: clamp, omod (mul:2), neg and abs on each source,
op_sel on each source and the destination, op_sel_hi / neg_lo / neg_hi (VOP3P), DPP controls
and masks, and (gfx9) SDWA selects.  llvm-mc-22 assembles them (a variant it rejects is no
encoding of the row, and is dropped); each becomes a kernel of one object, and `mirage raise
--json` raises them all.  Then:

- a variant whose row raises must either be refused with `unsupported-form` naming the
  modifier, or run: every raised variant of one VGPR-operand form is run by `mirage emulate`
  on edge values next to the plain instruction, and its bytes must be those the hardware's
  documented rule for the modifier gives from the plain instruction's (neg flips and abs
  clears the source's sign bit, op_sel moves a source's high half down or the result up,
  clamp bounds a float result to [0, 1] and saturates an integer add or subtract);
- a raised variant that cannot be run that way (other operand forms, DPP, SDWA) must belong to
  a modifier whose semantics another test checks (DPP and SDWA: integration/emulate_crosslane*
  and emulate_gfx9_forms), else the test fails;
- MOD_BITS_SELFTEST=1 corrupts one expectation, so the run must fail (the check bites).

Environment: LLVM_MC, LD_LLD, MIRAGE_BIN, TEST_TOOLS (isa_dump), ISA.  Exit 0 when every
variant is modelled or refused, 1 otherwise (each problem printed), 2 on usage.
"""
import collections
import json
import os
import random
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
import expand  # noqa: E402 (tests/fixtures/expand.py: the kernels' scaffolding)

ISA = os.environ.get("ISA", "gfx1250")
GFX9 = ISA != "gfx1250"
WAVE = 64 if GFX9 else 32
SUFFIX = re.compile(r"_(e32|e64|dpp|sdwa|e64_dpp)$")
VGPR = re.compile(r"^v(\d+)$")
REGISTER = re.compile(r"^(v\d+|s\d+|vcc(_lo)?|exec(_lo)?|m0)$")
TYPES = re.compile(r"_([fiub])(16|32|64)")
# Checked by their own tests, not here (the text says why in docs/raiser.md).
ELSEWHERE = {"dpp": "integration/emulate_crosslane*", "sdwa": "integration/emulate_gfx9_forms"}
# v_fma_mix*'s op_sel_hi chooses each source's type, not a half: the kernel suite's f16 builds
# (tests/kernels, against host C and POCL) run the forms LLVM emits.
MIX = "the kernel suite's f16 kernels (tests/kernels)"
# Rows whose result is defined only for some operand values (a lane outside the range faults at
# run time, docs/raiser.md): the random edge values here would stop the run, so their modifiers
# (source modifiers, and clamp and op_sel where the row has them) are run on values that fit by
# their own test.
RANGE_CHECKED = {"v_cvt_pk_i16_f32": "integration/emulate_cvt_pk16",
                 "v_cvt_pk_u16_f32": "integration/emulate_cvt_pk16",
                 "v_med3_num_f32": "integration/emulate_minmax3_num",
                 "v_med3_num_f16": "integration/emulate_minmax3_num",
                 "v_cvt_i16_f16": "integration/emulate_f16_round",
                 "v_cvt_u16_f16": "integration/emulate_f16_round",
                 "v_fract_f16": "integration/emulate_f16_round"}


def tool(name):
    path = os.environ.get(name)
    if not path:
        sys.exit("raise_mod_bits.py: %s is not set" % name)
    return path


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


# ---- variants ----------------------------------------------------------------------------


def split_sample(sample):
    """'v_add_f32_e64 v1, v2, v3 clamp' -> ('v_add_f32', ['v1', 'v2', 'v3'], ['clamp'])."""
    head, ops, mods = parse(sample)
    # a sample's own operand modifiers (gfx942's -v18, |v5|) are dropped: the variants add theirs
    ops = [o.strip("|").lstrip("-") if re.match(r"^(-|\|)+[vs]", o) else o for o in ops]
    return SUFFIX.sub("", head), ops, mods


def parse(text):
    """'m a, b, c x y' -> ('m', ['a', 'b', 'c'], ['x', 'y']): operands are joined by ', '; a
    modifier (op_sel:[1,0]) has no space in it."""
    tokens = text.split()
    head, ops, mods, more = tokens[0], [], [], True
    for t in tokens[1:]:
        if more:
            ops.append(t.rstrip(","))
            more = t.endswith(",")
        else:
            mods.append(t)
    return head, ops, mods


def vop3p(mnemonic):
    return mnemonic.startswith(("v_pk_", "v_fma_mix", "v_dot")) or "_mix" in mnemonic


def variants(mnemonic, ops, mods):
    """[(kind, detail, text)]: one modifier each, on the VOP3 (or DPP/SDWA) form."""
    out = []
    base = " ".join(mods)
    e64 = mnemonic if vop3p(mnemonic) else mnemonic + "_e64"

    def text(m, operands=None, extra=""):
        parts = " ".join(x for x in (base, extra) if x)
        return ("%s %s %s" % (m, ", ".join(operands or ops), parts)).strip()

    if any(m.startswith(("clamp", "mul:", "div:", "op_sel", "neg_", "row_", "quad_", "dpp8")) for m in mods):
        return []  # the sample already has modifiers: its plain form is another sample
    out.append(("clamp", "", text(e64, extra="clamp")))
    if not vop3p(mnemonic):
        out.append(("omod", "mul:2", text(e64, extra="mul:2")))
    for i in range(1, len(ops)):
        if REGISTER.match(ops[i]):
            neg = list(ops)
            neg[i] = "-" + ops[i]
            out.append(("neg", str(i), text(e64, neg)))
            if not vop3p(mnemonic):
                ab = list(ops)
                ab[i] = "|%s|" % ops[i]
                out.append(("abs", str(i), text(e64, ab)))
    nsrc = len(ops) - 1
    if vop3p(mnemonic):
        for k in range(nsrc):
            one = ",".join("1" if j == k else "0" for j in range(nsrc))
            hi0 = ",".join("0" if j == k else "1" for j in range(nsrc))
            out.append(("op_sel", str(k), text(e64, extra="op_sel:[%s]" % one)))
            out.append(("op_sel_hi", str(k), text(e64, extra="op_sel_hi:[%s]" % hi0)))
            out.append(("neg_lo", str(k), text(e64, extra="neg_lo:[%s]" % one)))
            out.append(("neg_hi", str(k), text(e64, extra="neg_hi:[%s]" % one)))
    else:
        for k in range(nsrc + 1):
            one = ",".join("1" if j == k else "0" for j in range(nsrc + 1))
            out.append(("op_sel", str(k if k < nsrc else 3), text(e64, extra="op_sel:[%s]" % one)))
    if not vop3p(mnemonic):
        dpp = ["row_shr:1", "row_shr:1 row_mask:0x5", "row_shr:1 bank_mask:0x3",
               "row_shr:1 bound_ctrl:1", "quad_perm:[1,0,3,2]", "row_mirror"]
        dpp += ["wave_shr:1", "row_bcast:15"] if GFX9 else ["row_share:1", "row_xmask:1",
                                                            "row_shr:1 fi:1", "dpp8:[1,0,3,2,5,4,7,6]"]
        for c in dpp:
            out.append(("dpp", c, text(mnemonic, extra=c)))
        if GFX9:
            for c in ("src0_sel:BYTE_1", "src0_sel:WORD_1", "dst_sel:WORD_1 dst_unused:UNUSED_PAD",
                      "dst_sel:BYTE_0 dst_unused:UNUSED_SEXT", "src1_sel:BYTE_2"):
                out.append(("sdwa", c, text(mnemonic + "_sdwa", extra=c)))
    return out


def assemble(lines):
    """{index: bytes} of the lines llvm-mc-22 accepts (it reports each rejected line)."""
    asm = "\n".join(lines) + "\n"
    rc, out, err = run([tool("LLVM_MC"), "-triple=amdgcn-amd-amdhsa", "-mcpu=" + ISA, "-show-encoding"], asm)
    bad = {int(m.group(1)) - 1 for m in re.finditer(r"<stdin>:(\d+):\d+: error", err)}
    encs = [[int(b, 16) for b in m.group(1).split(",")]
            for m in re.finditer(r"; encoding: \[(.*?)\]", out)]
    good = [i for i in range(len(lines)) if i not in bad]
    if len(encs) != len(good):
        sys.exit("llvm-mc printed %d encodings for %d accepted lines" % (len(encs), len(good)))
    return dict(zip(good, encs))


# ---- objects -----------------------------------------------------------------------------


def kernel_lines(name, vgprs, nargs, code):
    """Kernel NAME in expand.py's lines (docs/HACKING.md, "Fixtures"): VGPRS VGPRs, 16 SGPRs, NARGS
    pointer arguments, then its code."""
    return ["kernel %s vgprs=%d sgprs=16 args=%d" % (name, vgprs, nargs),
            "\t.amdhsa_kernarg_size %d" % (8 * nargs),
            # denormals kept (llvm-mc's default flushes f32), as the rules here compute
            "\t.amdhsa_float_denorm_mode_32 3"] + ["\t" + line for line in code]


def link(path, lines):
    """PATH.co from a fixture's lines (expand.py writes its descriptors and metadata)."""
    with open(path + ".s", "w") as f:
        f.write(expand.expand("\n".join(lines) + "\n", path))
    rc, _, err = run([tool("LLVM_MC"), "-triple=amdgcn-amd-amdhsa", "-mcpu=" + ISA, "-filetype=obj",
                      path + ".s", "-o", path + ".o"])
    if rc:
        sys.exit("llvm-mc-22 could not assemble %s.s:\n%s" % (path, err[:2000]))
    rc, _, err = run([tool("LD_LLD"), "-shared", path + ".o", "-o", path + ".co"])
    if rc:
        sys.exit("ld.lld-22 could not link %s.o:\n%s" % (path, err[:2000]))
    return path + ".co"


def raise_object(tmp, name, encodings):
    """{kernel index: (raised, reason, detail)} for one kernel per encoding (+ s_endpgm)."""
    body = ["\t.amdgcn_target \"amdgcn-amd-amdhsa--%s\"" % ISA, "\t.text"]
    for i, enc in enumerate(encodings):
        body += kernel_lines("k%d" % i, 256, 1, [".byte " + ",".join("0x%02x" % b for b in enc), "s_endpgm"])
    co = link(os.path.join(tmp, name), body)
    rc, out, err = run([tool("MIRAGE_BIN"), "raise", co, "--json"])
    if rc not in (0, 1):
        sys.exit("mirage raise %s failed (%d): %s" % (co, rc, err))
    res = {}
    for k in json.loads(out)["kernels"]:
        i = int(k["kernel"][1:])
        ref = k.get("refusal") or k
        res[i] = (k.get("raised", False), ref.get("reason", ""), ref.get("detail", ""))
    return res


# ---- running -----------------------------------------------------------------------------

F32 = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0xc0200000, 0x7f7fffff, 0x7f800000,
       0xff800000, 0x7fc00000, 0x00000001, 0x807fffff, 0x42c80000, 0xbf400000, 0x3e800000, 0x40400000]
INTS = [0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x7ffffff0, 0x80000010, 0xfffffff0, 0x10, 0x12345678,
        0xffff7fff, 0x80008000, 0x7fff7fff, 0xffffffff, 0x00010001, 0xfffe0002]
F16 = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0xc100, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x83ff,
       0x5640, 0xba00, 0x3400, 0x4200]
F64 = [(0, 0), (0, 0x80000000), (0, 0x3ff00000), (0, 0xbff00000), (0, 0x3fe00000), (0, 0xc0040000),
       (0xffffffff, 0x7fefffff), (0, 0x7ff00000), (0, 0xfff00000), (0, 0x7ff80000), (1, 0),
       (0xffffffff, 0x800fffff), (0, 0x40590000), (0, 0xbfe80000)]
LANE = 8  # dwords per lane: sources 0..2 (two each) and the destination's old value (two)


def inputs(seed):
    """WAVE lanes x LANE dwords of edge values: f32, integers, f16 pairs and f64 pairs."""
    rnd = random.Random(seed)
    words = []
    for _ in range(WAVE * LANE // 2):
        kind = rnd.randrange(4)
        if kind == 3:
            words += list(rnd.choice(F64))
            continue
        for _ in range(2):
            words.append(rnd.choice(F32) if kind == 0 else rnd.choice(INTS) if kind == 1
                         else rnd.choice(F16) | rnd.choice(F16) << 16)
    return words


def exec_kernel(name, insts):
    """Kernel NAME (expand.py's lines) that runs instruction j on the lane's LANE input dwords of
    slot j: sources in v[2:3], v[4:5], v[6:7], the destination v[10:11] holding its old value;
    stores v[10:11]."""
    moves = "; ".join("v_mov_b32 v%d, v%d" % (d, 12 + i) for i, d in enumerate((2, 3, 4, 5, 6, 7, 10, 11)))
    if GFX9:
        head = ["s_load_dwordx2 s[2:3], s[0:1], 0x0", "s_load_dwordx2 s[4:5], s[0:1], 0x8",
                "s_waitcnt lgkmcnt(0)", "v_lshlrev_b32 v20, 5, v0", "v_lshlrev_b32 v22, 3, v0"]
        step = ["v_add_u32 v21, %d, v20", "global_load_dwordx4 v[12:15], v21, s[2:3]",
                "global_load_dwordx4 v[16:19], v21, s[2:3] offset:16", "s_waitcnt vmcnt(0)", moves, "%s",
                "v_add_u32 v23, %d, v22", "global_store_dwordx2 v23, v[10:11], s[4:5]"]
    else:
        head = ["s_load_b64 s[2:3], s[0:1], 0x0", "s_load_b64 s[4:5], s[0:1], 0x8", "s_wait_kmcnt 0",
                "v_lshlrev_b32 v20, 5, v0", "v_lshlrev_b32 v22, 3, v0"]
        step = ["v_add_nc_u32 v21, %d, v20", "global_load_b128 v[12:15], v21, s[2:3]",
                "global_load_b128 v[16:19], v21, s[2:3] offset:16", "s_wait_loadcnt 0", moves, "%s",
                "v_add_nc_u32 v23, %d, v22", "global_store_b64 v23, v[10:11], s[4:5]"]
    body = list(head)
    for j, inst in enumerate(insts):
        body += [step[0] % (j * WAVE * LANE * 4)] + step[1:5] + [inst, step[6] % (j * WAVE * 8), step[7]]
    body.append("s_endpgm")
    return kernel_lines(name, 32, 2, [x for b in body for x in b.split("; ")])


def emulate(tmp, name, co, kernel, words, n):
    inp = os.path.join(tmp, name + ".in")
    out = os.path.join(tmp, name + ".out")
    with open(inp, "wb") as f:
        f.write(struct.pack("<%dI" % len(words), *words))
    launch = {"code_object": co, "kernel": kernel, "grid": [WAVE], "workgroup": [WAVE],
              "buffers": {"in": {"size": 4 * len(words), "init": "file:" + inp},
                          "out": {"size": n * WAVE * 8, "init": "zero", "output": out}},
              "args": [{"buffer": "in"}, {"buffer": "out"}]}
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(launch, f)
    rc, _, err = run([tool("MIRAGE_BIN"), "emulate", path])
    if rc:
        sys.exit("mirage emulate %s failed: %s" % (path, err))
    with open(out, "rb") as f:
        data = f.read()
    return struct.unpack("<%dI" % (len(data) // 4), data)


# ---- the documented rules ----------------------------------------------------------------


def types(mnemonic):
    """(destination type, source type) from the mnemonic: v_cvt_f32_f16 -> (f32, f16)."""
    t = ["%s%s" % m for m in TYPES.findall(mnemonic)]
    return (t[0], t[-1]) if t else ("b32", "b32")


def is_nan(bits, w):
    if w == 16:
        return (bits & 0x7c00) == 0x7c00 and bits & 0x3ff
    if w == 64:
        return (bits >> 52 & 0x7ff) == 0x7ff and bits & ((1 << 52) - 1)
    return (bits & 0x7f800000) == 0x7f800000 and bits & 0x7fffff


def clamp_float(bits, w):
    """The result bounded to [0, 1]: NaN, -0 and negatives give +0."""
    fmt, one = {16: ("<e", 0x3c00), 32: ("<f", 0x3f800000), 64: ("<d", 0x3ff0000000000000)}[w]
    if is_nan(bits, w):
        return 0
    v = struct.unpack(fmt, struct.pack({16: "<H", 32: "<I", 64: "<Q"}[w], bits))[0]
    if v <= 0:
        return 0
    return one if v >= 1 else bits


def saturating(mnemonic, a, b):
    """The integer add/sub clamp rule on the low words a, b; None for another op."""
    m = re.match(r"v_(pk_)?(add|sub|subrev)(_nc|_co)?_([ui])(16|32)$", mnemonic)
    if not m:
        return None
    packed, op, _, sign, width = m.groups()

    def one(x, y, w):
        lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if sign == "i" else (0, (1 << w) - 1)
        if sign == "i":
            x = x - (1 << w) if x >> (w - 1) & 1 else x
            y = y - (1 << w) if y >> (w - 1) & 1 else y
        v = x + y if op == "add" else (x - y if op == "sub" else y - x)
        return max(lo, min(hi, v)) & ((1 << w) - 1)

    if packed:
        return one(a & 0xffff, b & 0xffff, 16) | one(a >> 16, b >> 16, 16) << 16
    if width == "16":
        return one(a & 0xffff, b & 0xffff, 16), 16
    return one(a, b, 32), 32


def width_of(mnemonic, operand, role):
    if operand.startswith("v["):
        return 64
    return 16 if types(mnemonic)[role].endswith("16") else 32


def expectation(kind, detail, mnemonic, ops, regs):
    """(transform of one lane's inputs for the plain run, post-processing of its (lo, hi)
    result with the lane's inputs), from the documented rule; None when none applies."""
    mix = mnemonic.startswith("v_fma_mix")  # f32 or f16 sources, an unpacked result
    pk = vop3p(mnemonic) and not mix
    pk32 = pk and (mnemonic.endswith("_f32") or mnemonic == "v_pk_mov_b32")  # two dwords
    if mnemonic == "v_pk_mov_b32" and kind == "op_sel_hi":
        return (lambda lane: lane), None  # its rule reads op_sel only

    def src_word(i):  # the input word of the register operand i was renamed to
        m = re.match(r"v\[?(\d+)", regs[i])
        return int(m.group(1)) - 2 if m else None

    def pre(fn, word):
        return (lambda lane: [fn(w) if j == word else w for j, w in enumerate(lane)]), None

    def flip(word, bitmask, clear=False):
        return pre((lambda w: w & ~bitmask & 0xffffffff) if clear else (lambda w: w ^ bitmask), word)

    first_src = 0 if mnemonic.startswith("v_cmpx_") and not GFX9 else 1
    if kind in ("neg", "abs"):
        i = int(detail)
        w = width_of(mnemonic, ops[i], 1)
        if src_word(i) is None:
            return None
        word = src_word(i) + (1 if w == 64 else 0)
        return flip(word, 0x8000 if w == 16 else 0x80000000, kind == "abs")
    k = int(detail) if kind in ("op_sel", "op_sel_hi", "neg_lo", "neg_hi") else 0
    srcs = [i for i in range(first_src, len(ops)) if re.match(r"v\[?\d", regs[i])]
    if pk:
        if k >= len(srcs):
            return None
        word = src_word(srcs[k])
        if pk32:
            if kind == "op_sel":
                return (lambda lane: [lane[word + 1] if j == word else w for j, w in enumerate(lane)]), None
            if kind == "op_sel_hi":
                return (lambda lane: [lane[word] if j == word + 1 else w for j, w in enumerate(lane)]), None
            if kind == "neg_lo":
                return flip(word, 0x80000000)
            if kind == "neg_hi":
                return flip(word + 1, 0x80000000)
        else:
            if kind == "op_sel":
                return pre(lambda w: (w & 0xffff0000) | w >> 16, word)
            if kind == "op_sel_hi":
                return pre(lambda w: (w & 0xffff) | (w << 16 & 0xffff0000), word)
            if kind == "neg_lo":
                return flip(word, 0x8000)
            if kind == "neg_hi":
                return flip(word, 0x80000000)
    if kind == "op_sel" and detail == "3":
        return (lambda lane: lane), lambda out, lane: ((((out[0] & 0xffff) << 16) | (lane[6] & 0xffff)), out[1])
    if kind == "op_sel":
        if k >= len(srcs):
            return None
        return pre(lambda w: w >> 16, src_word(srcs[k]))
    if kind == "clamp":
        dst = types(mnemonic)[0]
        if dst[0] == "f" and not mnemonic.startswith("v_cmp"):
            if pk and not pk32:
                return (lambda lane: lane), lambda out, lane: (
                    clamp_float(out[0] & 0xffff, 16) | clamp_float(out[0] >> 16, 16) << 16, out[1])
            if pk32:
                return (lambda lane: lane), lambda out, lane: (clamp_float(out[0], 32), clamp_float(out[1], 32))
            if dst == "f64":
                return (lambda lane: lane), lambda out, lane: (
                    clamp_float(out[0] | out[1] << 32, 64) & 0xffffffff, clamp_float(out[0] | out[1] << 32, 64) >> 32)
            if dst == "f16":
                return (lambda lane: lane), lambda out, lane: ((out[0] & 0xffff0000) | clamp_float(out[0] & 0xffff, 16),
                                                               out[1])
            return (lambda lane: lane), lambda out, lane: (clamp_float(out[0], 32), out[1])
        operands = [i for i in range(first_src, len(ops)) if regs[i] != "s8" and regs[i] != "s[8:9]"]
        if saturating(mnemonic, 0, 0) is not None and len(operands) == 2:
            def value(i, lane):  # a source's low dword: its input word, or the constant
                return lane[src_word(i)] if src_word(i) is not None else int(regs[i], 0) & 0xffffffff

            def sat(out, lane):
                r = saturating(mnemonic, value(operands[0], lane), value(operands[1], lane))
                if isinstance(r, tuple):
                    v, w = r
                    return (v if w == 32 else (out[0] & 0xffff0000) | v), out[1]
                return r, out[1]
            return (lambda lane: lane), sat
    return None


def operand_form(mnemonic, ops):
    """(registers for the operands, code after the instruction that leaves its result in
    v[10:11]), or None: a VGPR source k becomes v(2+2k) (v[2+2k:3+2k] when 64-bit), the result
    v10 / v[10:11], an SGPR operand (a carry or a mask) s8 / s[8:9], a constant stays; a
    compare's mask becomes 0 / 1 per lane in v10."""
    mask = "s[8:9]" if GFX9 else "s8"
    if len(ops) > 5 or not all(VGPR.match(o) or REGISTER.match(o) or re.match(r"^(v|s)\[\d+:\d+\]$", o) or
                               re.match(r"^-?[\d.]", o) for o in ops):
        return None

    carry_out = re.search(r"_co_|div_scale|v_mad_co_", mnemonic)
    mask_in = re.search(r"cndmask|_co_ci_", mnemonic)

    def sources(lst, first):
        """The registers for operands lst (operand first.. of the instruction)."""
        regs, k = [], 0
        for pos, o in enumerate(lst, first):
            scalar = REGISTER.match(o) and not VGPR.match(o) or o.startswith("s[")
            if scalar and ((carry_out and pos == 1) or (mask_in and pos == len(ops) - 1)):
                regs.append(mask)  # a carry out or a lane mask in
            elif VGPR.match(o) or o.startswith("v[") or scalar:
                base = 2 + 2 * k
                regs.append("v[%d:%d]" % (base, base + 1) if o.startswith(("v[", "s[")) else "v%d" % base)
                k += 1
            else:
                regs.append(o)
        return regs

    if mnemonic.startswith("v_cmpx_"):
        restore = "s_mov_b64 exec, -1" if GFX9 else "s_mov_b32 exec_lo, -1"
        regs = [mask] + sources(ops[1:], 1) if GFX9 else sources(ops, 0)
        return regs, "v_mov_b32 v10, 1; " + restore
    if mnemonic.startswith("v_cmp_"):
        return [mask] + sources(ops[1:], 1), "v_cndmask_b32_e64 v10, 0, 1, " + mask
    if not ops[0].startswith("v"):
        return None
    return ["v[10:11]" if ops[0].startswith("v[") else "v10"] + sources(ops[1:], 1), ""


def float_result(mnemonic):
    return types(mnemonic)[0][0] == "f" and not mnemonic.startswith("v_cmp")


def equal(got, want, mnemonic):
    """Bit-exact, but a NaN result equals any NaN (its sign and payload are not specified)."""
    if got == want:
        return True
    if not float_result(mnemonic):
        return False
    dst = types(mnemonic)[0]
    if dst == "f64":
        g, w = got[0] | got[1] << 32, want[0] | want[1] << 32
        return bool(is_nan(g, 64) and is_nan(w, 64))
    halves = 16 if dst == "f16" or (vop3p(mnemonic) and not mnemonic.endswith("_f32")) else 32
    for gw, ww in zip(got, want):
        parts = [(gw & 0xffff, ww & 0xffff), (gw >> 16, ww >> 16)] if halves == 16 else [(gw, ww)]
        if not all(g == w or (is_nan(g, halves) and is_nan(w, halves)) for g, w in parts):
            return False
    return True


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    tmp = argv[1]
    rc, out, err = run([os.path.join(tool("TEST_TOOLS"), "isa_dump"), "--isa", ISA, "--samples"])
    if rc:
        sys.exit("isa_dump --samples failed: " + err)
    rows = []
    for line in out.splitlines():
        rid, mnem, sample = line.split("\t")
        if not mnem.startswith("v_") or "::" in sample or mnem.startswith("v_dual_"):
            continue
        rows.append((int(rid), mnem, sample))
    # the plain samples and every variant, assembled in one llvm-mc run
    lines, meta = [], []
    for rid, mnem, sample in rows:
        m, ops, mods = split_sample(sample)
        lines.append(sample)
        meta.append((rid, m, None, None, ops))
        for kind, detail, text in variants(m, ops, mods):
            lines.append(text)
            meta.append((rid, m, kind, detail, ops))
    enc = assemble(lines)
    idx = sorted(enc)
    result = raise_object(tmp, "bits", [enc[i] for i in idx])
    raised_row = {}
    for n, i in enumerate(idx):
        if meta[i][2] is None:
            raised_row[meta[i][0]] = raised_row.get(meta[i][0], False) or result[n][0]
    problems, counts = [], collections.Counter()
    to_run = []
    for n, i in enumerate(idx):
        rid, m, kind, detail, ops = meta[i]
        if kind is None or not raised_row.get(rid):
            continue
        raised, reason, why = result[n]
        if not raised:
            counts[kind + (": refused" if reason == "unsupported-form" else ": refused (%s)" % reason)] += 1
            continue
        if m.startswith("v_fma_mix") and kind != "clamp":
            counts[kind + ": raised (v_fma_mix*), checked by " + MIX] += 1
            continue
        if kind in ELSEWHERE:
            counts[kind + ": raised, checked by " + ELSEWHERE[kind]] += 1
            continue
        if m in RANGE_CHECKED and kind in ("neg", "abs", "clamp", "op_sel"):
            counts[kind + ": raised (" + m + "), checked by " + RANGE_CHECKED[m]] += 1
            continue
        to_run.append((i, lines[i], m, kind, detail, ops))
    # run every raised variant next to its plain form, operands renamed (operand_form)
    runnable = []
    for i, text, m, kind, detail, ops in to_run:
        form = operand_form(m, ops)
        if form is None:
            problems.append("row %s variant '%s' raised, and no rule checks its operand form" % (m, text))
            continue
        regs, after = form

        def rename(t, regs=regs, ops=ops, after=after):
            head, parts, extra = parse(t)
            new = [p.replace(ops[j], regs[j]) if ops[j] in p else regs[j] for j, p in enumerate(parts)]
            return "; ".join(x for x in (("%s %s %s" % (head, ", ".join(new), " ".join(extra))).strip(), after) if x)

        plain = re.sub(r" (clamp|mul:2|(op_sel|op_sel_hi|neg_lo|neg_hi):\[[\d,]+\])", "", text)
        plain = plain.replace("|", "").replace(" -v", " v").replace(" -s", " s")
        rule = expectation(kind, detail, m, ops, regs)
        if rule is None:
            problems.append("row %s variant '%s' raised, and no documented rule gives its result" % (m, text))
            continue
        runnable.append((text, rename(text), rename(plain), m, kind, rule))
    checked = 0
    if runnable:
        ok_mod = assemble([r[1].split("; ")[0] for r in runnable])
        ok_plain = assemble([r[2].split("; ")[0] for r in runnable])
        for j, r in enumerate(runnable):
            if j not in ok_mod or j not in ok_plain:
                problems.append("row %s variant '%s' raised, and its VGPR form does not assemble" % (r[3], r[0]))
        # llvm-mc-22 takes |x| on VOP3SD (div_scale), which has no abs field, and encodes
        # nothing: such a variant is its plain form, no modifier to check
        same = {j for j in ok_mod if j in ok_plain and ok_mod[j] == ok_plain[j]}
        for j in same:
            counts[runnable[j][4] + ": not encoded (the assembler drops it)"] += 1
        runnable = [r for j, r in enumerate(runnable) if j in ok_mod and j in ok_plain and j not in same]
    if runnable:
        n = len(runnable)
        lanes = [[inputs(1000 + j)[LANE * t:LANE * t + LANE] for t in range(WAVE)] for j in range(n)]
        words_mod = [w for j in range(n) for lane in lanes[j] for w in lane]
        words_plain = [w for j, r in enumerate(runnable) for lane in lanes[j] for w in r[5][0](lane)]
        src = ["\t.amdgcn_target \"amdgcn-amd-amdhsa--%s\"" % ISA, "\t.text"]
        src += exec_kernel("mod", [r[1] for r in runnable]) + exec_kernel("plain", [r[2] for r in runnable])
        co = link(os.path.join(tmp, "exec"), src)
        got = emulate(tmp, "mod", co, "mod", words_mod, n)
        base = emulate(tmp, "plain", co, "plain", words_plain, n)
        selftest = bool(os.environ.get("MOD_BITS_SELFTEST"))
        for j, r in enumerate(runnable):
            post = r[5][1] or (lambda out, lane: out)
            checked += 1
            for t in range(WAVE):
                at = 2 * (j * WAVE + t)
                want = tuple(x & 0xffffffff for x in post((base[at], base[at + 1]), lanes[j][t]))
                if selftest and j == 0 and t == 0:
                    want = (want[0] ^ 1, want[1])
                if not equal((got[at], got[at + 1]), want, r[3]):
                    problems.append("row %s '%s', lane %d, inputs %s: got 0x%08x 0x%08x, the rule gives "
                                    "0x%08x 0x%08x" % (r[3], r[1], t, " ".join("0x%08x" % w for w in lanes[j][t]),
                                                       got[at], got[at + 1], want[0], want[1]))
                    break
            counts[r[4] + ": raised, run against the rule"] += 1
    for p in problems:
        print(p)
    for k in sorted(counts):
        print("# %s: %s %d" % (ISA, k, counts[k]))
    print("# %s: %d VALU rows, %d variants llvm-mc-22 accepts, %d run against the rule, %d problems" %
          (ISA, len(rows), len(idx) - len(rows), checked, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
