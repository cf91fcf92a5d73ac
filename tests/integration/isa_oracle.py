#!/usr/bin/env python3
"""Compares mirage's ISA decoder (tests/tools/isa_dump) with LLVM 22, the owner of the encoding.

  isa_oracle.py rows                 every table row's samples: llvm-mc-22 -show-encoding bytes,
                                     decoded our way; size, mnemonic, registers, literal, offsets
  isa_oracle.py fields SEED TMPDIR   every sample's encoding with random bytes after the first
                                     dword (registers, modifiers, offsets, literals), one per
                                     function, against llvm-objdump-22; encodings LLVM rejects
                                     (it requires unused fields to be zero) are counted, not failed
  isa_oracle.py corpus OBJ...        every instruction of each object's .text against
                                     llvm-objdump-22 -d: size and mnemonic for every record we
                                     decode as a known row, plus registers; prints the share decoded

Environment: LLVM_MC, LLVM_OBJDUMP, TEST_TOOLS (where isa_dump lives); ISA (gfx1250, the
default, gfx942 or gfx950: the table under test, passed to isa_dump --isa and to LLVM as -mcpu; a corpus
object's own table is the one its e_flags name, and it must be ISA's); ISA_ORACLE_SELFTEST=1
makes `rows` compare each sample with its neighbour's decode (the test that the check bites).  Exit 0 when everything
agrees, 1 on any disagreement (each printed), 2 on usage.

How LLVM's text is normalised (docs/isa-decoder.md says the same):
- mnemonics: the encoding suffixes _e32, _e64, _dpp, _e64_dpp are cut from both sides and
  checked separately (_e32 = VOP1/VOP2/VOPC, _e64 = VOP3, _dpp = a DPP record);
- VOPD: both halves' mnemonics and registers are compared (split at "::");
- registers: vN, v[a:b], sN, s[a:b], ttmpN, vcc(_lo/_hi), exec(_lo/_hi), m0, src_* in order;
  objdump's "vN /*vM*/" (s_set_vgpr_msb banking) counts as vM; null and off are not compared;
- "offset:N" / "offset0:" / "offset1:" compared by value where LLVM prints them (not swizzles);
- a literal we decode must appear among the numbers LLVM prints (the whole value, its high
  half for 64-bit operands, or cut to 32 or 16 bits: LLVM prints a 64-bit literal of a
  narrower operand that way);
- misaligned scalar tuples (s[5:6]) decode aligned, as LLVM does (it adds a warning).
"""
import collections
import os
import re
import subprocess
import sys

SUFFIXES = ("_e64_dpp", "_e32", "_e64", "_dpp", "_sdwa")
REG = re.compile(r"(?<![\w.])(?:(?:v|s|a|ttmp)(?:\d+|\[\d+:\d+\])|vcc(?:_lo|_hi)?|exec(?:_lo|_hi)?|m0|"
                 r"flat_scratch(?:_lo|_hi)?|xnack_mask(?:_lo|_hi)?|src_\w+)(?![\w(])")
ISA = os.environ.get("ISA", "gfx1250")
# What a zero word (padding between functions, which objdump prints as "...") decodes to.
ZERO_WORD = {"gfx1250": "<unknown VOP2 opcode 0x0>", "gfx942": "v_cndmask_b32_e32 v0, s0, v0, vcc",
             "gfx950": "v_cndmask_b32_e32 v0, s0, v0, vcc"}
MSB = re.compile(r"\S+ /\*(v[^*]+)\*/")
OFFSET = re.compile(r"\b(offset[01]?):(-?0x[0-9a-fA-F]+|-?\d+)")
NUMBER = re.compile(r"-?0x[0-9a-fA-F]+|-?\d+")
E32_FORMATS = {"VOP1", "VOP2", "VOPC"}


def tool(name):
    path = os.environ.get(name)
    if not path:
        sys.exit("isa_oracle.py: %s is not set" % name)
    return path


def split_mnemonic(text):
    """'v_add_f32_e64 v1, v2' -> ('v_add_f32', '_e64', 'v1, v2')."""
    head, _, rest = text.strip().partition(" ")
    for suf in SUFFIXES:
        if head.endswith(suf):
            return head[: -len(suf)], suf, rest
    return head, "", rest


def halves(text):
    """VOPD text has two instructions joined by '::'."""
    return [h.strip() for h in text.split("::")]


def registers(ops):
    return REG.findall(MSB.sub(r"\1", ops))


def offsets(ops):
    if "swizzle" in ops:
        return {}
    return {k: int(v, 0) for k, v in OFFSET.findall(ops) if int(v, 0) != 0}


def numbers(ops):
    out = set()
    for n in NUMBER.findall(ops):
        v = int(n, 0)
        out.add(v & 0xFFFFFFFFFFFFFFFF)
        out.add(v & 0xFFFFFFFF)
        out.add(v & 0xFFFF)
    return out


def compare(llvm_text, size_llvm, ours):
    """ours = (size, format, text).  Returns a list of disagreements (empty when equal)."""
    size, fmt, text = ours
    problems = []
    if size != size_llvm:
        problems.append("size %d, llvm %d" % (size, size_llvm))
    lh, oh = halves(llvm_text), halves(text)
    if len(lh) != len(oh):
        return problems + ["halves %d vs %d" % (len(oh), len(lh))]
    for l_part, o_part in zip(lh, oh):
        lm, lsuf, lops = split_mnemonic(l_part)
        om, _, oops = split_mnemonic(o_part)
        if lm != om:
            problems.append("mnemonic %s, llvm %s" % (om, lm))
            continue
        if lsuf == "_e32" and fmt not in E32_FORMATS:
            problems.append("llvm says _e32, format %s" % fmt)
        if lsuf in ("_e64", "_e64_dpp") and fmt != "VOP3":
            problems.append("llvm says %s, format %s" % (lsuf, fmt))
        if (lsuf == "_sdwa") != o_part.split(" ")[0].endswith("_sdwa"):
            problems.append("llvm says '%s', ours '%s'" % (l_part.split(" ")[0], o_part.split(" ")[0]))
        lops = lops.split("//")[0]
        if registers(lops) != registers(oops):
            problems.append("registers %s, llvm %s" % (registers(oops), registers(lops)))
        lo, oo = offsets(lops), offsets(oops)
        if lo != oo:
            problems.append("offsets %s, llvm %s" % (oo, lo))
        for lit in re.findall(r"(?<![\w:])0x[0-9a-f]+", oops):
            v = int(lit, 16)
            # LLVM prints a 64-bit literal of a narrower operand cut to the operand's size.
            if not ({v, v >> 32, v & 0xFFFFFFFF, v & 0xFFFF} & numbers(lops)):
                problems.append("literal %s not in llvm's '%s'" % (lit, lops.strip()))
    return problems


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def isa_dump(*args, stdin=None):
    rc, out, err = run([os.path.join(tool("TEST_TOOLS"), "isa_dump"), "--isa", ISA] + list(args), stdin)
    return rc, out, err


def rows():
    assembled = assemble_samples()
    samples = [a[:3] for a in assembled]
    encoded = [a[3:] for a in assembled]
    stdin = "".join("%d %s\n" % (i, " ".join("%02x" % b for b in e[1])) for i, e in enumerate(encoded))
    rc, out, err = isa_dump("--bytes", stdin=stdin)
    decoded = {}
    for line in out.splitlines():
        i, size, fmt, text = line.split(" ", 3)
        decoded[int(i)] = (int(size) if size != "error" else -1, fmt, text)
    if os.environ.get("ISA_ORACLE_SELFTEST"):
        # Proves the comparison bites: each sample checked against its neighbour's decode.
        keys = sorted(decoded)
        decoded = {k: decoded[keys[(n + 1) % len(keys)]] for n, k in enumerate(keys)}
    bad = 0
    for i, (sample, (llvm_text, enc)) in enumerate(zip(samples, encoded)):
        ours = decoded.get(i)
        if ours is None or ours[0] < 0:
            problems = ["not decoded: %s" % (ours,)]
        else:
            problems = compare(llvm_text, len(enc), ours)
            if int(sample[0]) != 0 and ours[2].startswith("<unknown"):
                problems.append("decoded as unknown")
        if problems:
            bad += 1
            print("row %s (%s): '%s' -> ours '%s': %s" % (sample[0], sample[1], llvm_text,
                                                         ours[2] if ours else "-", "; ".join(problems)))
    print("# %s: %d samples of %d rows pinned against llvm-mc-22, %d disagree" %
          (ISA, len(samples), len({s[0] for s in samples}), bad))
    return 1 if bad else 0


def assemble_samples():
    """[(row id, mnemonic, sample, llvm text, bytes)] for every sample of the table."""
    rc, out, err = isa_dump("--samples")
    if rc:
        sys.exit("isa_dump --samples failed: " + err)
    samples = [line.split("\t") for line in out.splitlines()]
    asm = "\n".join(s[2] for s in samples) + "\n"
    rc, out, err = run([tool("LLVM_MC"), "-triple=amdgcn-amd-amdhsa", "-mcpu=" + ISA, "-show-encoding"], asm)
    if rc or "error" in err:
        sys.exit("llvm-mc-22 rejected a sample:\n" + err)
    encoded = []
    for line in out.splitlines():
        m = re.match(r"\s*(.*?)\s*; encoding: \[(.*)\]", line)
        if m:
            encoded.append((m.group(1), [int(b, 16) for b in m.group(2).split(",")]))
    if len(encoded) != len(samples):
        sys.exit("llvm-mc printed %d encodings for %d samples" % (len(encoded), len(samples)))
    return [tuple(s) + e for s, e in zip(samples, encoded)]


def fields(seed, tmp):
    import random
    rng = random.Random(seed)
    funcs = []
    for row, mnem, _, _, enc in assemble_samples():
        for _ in range(4):
            b = list(enc)
            for i in range(4, len(b)):
                if rng.random() < 0.3:
                    b[i] = rng.randrange(256)
            funcs.append(b)
    asm = ["\t.text"]
    for i, b in enumerate(funcs):
        asm += ["\t.globl f%d" % i, "\t.type f%d,@function" % i, "f%d:" % i,
                "\t.byte " + ",".join("0x%02x" % x for x in b), "\ts_endpgm"]
    src, obj = os.path.join(tmp, "fields.s"), os.path.join(tmp, "fields.o")
    with open(src, "w") as f:
        f.write("\n".join(asm) + "\n")
    rc, _, err = run([tool("LLVM_MC"), "-triple=amdgcn-amd-amdhsa", "-mcpu=" + ISA, "-filetype=obj", src, "-o", obj])
    if rc:
        sys.exit("llvm-mc-22 failed on the random encodings: " + err)
    rc, out, err = isa_dump(obj)
    ours = {}
    for line in out.splitlines():
        off, size, fmt, text = line.split(" ", 3)
        ours[int(off, 16)] = (int(size), fmt, text)
    # Each function is one random instruction then s_endpgm: compare the first record of each.
    starts, off = [], 0
    for b in funcs:
        starts.append(off)
        off += len(b) + 4
    theirs, crashed = objdump_surviving(obj, starts, off)
    refused = {int(m, 16) for m in re.findall(r"\.text offset 0x([0-9a-f]+): unknown instruction whose size", err)}
    compared = rejected = bad = 0
    for off in starts:
        if off not in theirs:
            continue
        llvm_text, size = theirs[off]
        if llvm_text.startswith(".long") or llvm_text.startswith("<unknown"):
            rejected += 1
            continue
        mine = ours.get(off)
        if mine is None and off in refused:
            continue  # a size we do not guess (e.g. a 64-bit literal on a 32-bit operand)
        if mine is None or mine[2].startswith("<unknown"):
            bad += 1
            print("0x%x: llvm '%s', ours %s" % (off, llvm_text, mine))
            continue
        compared += 1
        problems = compare(llvm_text, size, mine)
        if problems:
            bad += 1
            print("0x%x: llvm '%s' -> ours '%s': %s" % (off, llvm_text, mine[2], "; ".join(problems)))
    if crashed:
        print("# llvm-objdump-22 crashes on %d encodings (left out): offsets %s" %
              (len(crashed), ", ".join("0x%x" % o for o in crashed[:8])))
    print("# fields (%s, seed %d): %d random encodings, %d compared, %d rejected by llvm, %d sizes we do "
          "not guess, %d disagree" % (ISA, seed, len(funcs), compared, rejected, len(refused), bad))
    return 1 if bad else 0


def objdump_surviving(obj, starts, end):
    """objdump_records of obj, leaving out the functions llvm-objdump-22 crashes on (it does
    on some random gfx942 encodings): the address range is halved until the crash is one
    function.  Returns (records, [crashing function offsets])."""
    try:
        return objdump_records(obj), []
    except SystemExit:
        pass
    recs, crashed = {}, []
    todo = [(0, len(starts))]
    while todo:
        lo, hi = todo.pop()
        stop = starts[hi] if hi < len(starts) else end
        try:
            recs.update(objdump_records(obj, starts[lo], stop))
        except SystemExit:
            if hi - lo == 1:
                crashed.append(starts[lo])
            else:
                mid = (lo + hi) // 2
                todo += [(lo, mid), (mid, hi)]
    return recs, sorted(crashed)


def objdump_records(path, start=None, stop=None):
    cmd = [tool("LLVM_OBJDUMP"), "-d", "--mcpu=" + ISA, path]
    if start is not None:
        cmd += ["--start-address=0x%x" % start, "--stop-address=0x%x" % stop]
    rc, out, err = run(cmd)
    if rc:
        raise SystemExit("llvm-objdump-22 failed on %s: %s" % (path, err))
    recs = {}
    for line in out.splitlines():
        m = re.match(r"\s+(.*?)\s*// ([0-9A-Fa-f]+): ((?:[0-9A-Fa-f]{8} ?)+)", line)
        if m:
            words = m.group(3).split()
            recs[int(m.group(2), 16)] = (m.group(1), 4 * len(words))
    return recs


def corpus(paths):
    total = known = 0
    gaps = collections.Counter()
    bad = 0
    for path in paths:
        rc, out, err = isa_dump(path)
        if err:
            print("%s: %s" % (path, err.strip()))
        if rc:
            bad += 1
        ours = {}
        for line in out.splitlines():
            off, size, fmt, text = line.split(" ", 3)
            ours[int(off, 16)] = (int(size), fmt, text)
        theirs = objdump_records(path)
        for off in sorted(theirs):
            llvm_text, size = theirs[off]
            total += 1
            mine = ours.get(off)
            if mine is None:
                print("%s: 0x%x: llvm '%s' has no record of ours (out of step)" % (path, off, llvm_text))
                bad += 1
                break
            if mine[2].startswith("<unknown"):
                gaps[split_mnemonic(halves(llvm_text)[0])[0]] += 1
                if mine[0] != size:
                    print("%s: 0x%x: unknown of size %d, llvm '%s' is %d" % (path, off, mine[0], llvm_text, size))
                    bad += 1
                continue
            known += 1
            problems = compare(llvm_text, size, mine)
            if problems:
                bad += 1
                print("%s: 0x%x: llvm '%s' -> ours '%s': %s" % (path, off, llvm_text, mine[2], "; ".join(problems)))
        # objdump prints "..." for zero padding between functions; we decode it (word 0 is
        # no gfx1250 row, gfx942's v_cndmask_b32 v0, s0, v0): those are the only extras allowed.
        extra = {o for o in set(ours) - set(theirs) if ours[o][2] != ZERO_WORD[ISA]}
        if extra:
            print("%s: records of ours at offsets llvm does not print: %s" % (path, sorted(extra)[:5]))
            bad += 1
    share = 100.0 * known / total if total else 0.0
    print("# corpus (%s): %d objects, %d instructions, %d decoded as known rows (%.2f%%), %d disagreements" %
          (ISA, len(paths), total, known, share, bad))
    if gaps:
        print("# not in the table yet (llvm mnemonic: count): " +
              ", ".join("%s: %d" % kv for kv in gaps.most_common(30)))
    return 1 if bad else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "rows":
        return rows()
    if len(argv) == 4 and argv[1] == "fields":
        return fields(int(argv[2]), argv[3])
    if len(argv) >= 3 and argv[1] == "corpus":
        return corpus(argv[2:])
    print(__doc__.split("\n\n")[0], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
