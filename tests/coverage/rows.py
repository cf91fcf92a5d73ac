#!/usr/bin/env python3
"""The decoder rows' coverage by the raiser: which rows have semantics, which are refused and why.

  rows.py OUT_DIR [ISA...]        (ISA: gfx1250, gfx942, gfx950; all three by default)

For each table, every sample of every row (isa_dump --samples: the ISA_ROW SAMPLES strings) is
assembled by llvm-mc-22 -mcpu=ISA, put in a kernel of its own (one object per table, the
kernels' scaffolding by tests/fixtures/expand.py) and raised by one `mirage --json raise`.
A sample that needs a context gets it around it, never in it:

- a branch (the row's ISA_F_BRANCH) gets s_nop lines before and after it, as many as its
  offset needs to land inside the kernel, then s_endpgm;
- a call with an offset (ISA_F_CALL too) is followed by s_endpgm up to its target, where a
  device function returns (s_set_pc_i64 / s_setpc_b64 s[30:31]);
- the split barrier's halves (CONTEXT below) get the other half.

A row is "raised" when every sample raises, "refused" when none does (counted by the refusal's
reason code: `unsupported-instruction` is a row with no semantics), "in part" when some do, and
"not assembled" when llvm-mc-22 takes none of its samples alone.  OUT_DIR/rows.md gets the
tables' Markdown (tests/kernels/README.md, "Coverage"), OUT_DIR/rows-line.md the one line the
top-level README gives; tests/coverage/sections.py puts them there.

Environment: LLVM_MC, LD_LLD, MIRAGE_BIN, TEST_TOOLS (isa_dump).  Exit 0 when every table was
raised, 1 when a tool failed (the message says which), 2 on usage.
"""
import collections
import json
import os
import re
import subprocess
import sys
import textwrap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
import expand  # noqa: E402 (tests/fixtures/expand.py: the kernels' scaffolding)

TABLES = ("gfx1250", "gfx942", "gfx950")
# The row flags read here (isa/include/mirage/isa.h, ISA_F_*).
F_BRANCH, F_CALL = 0x0002, 0x0020
# A function's return, per table (the callee of a call sample).
RETURN = {"gfx1250": "s_set_pc_i64 s[30:31]"}
RETURN_GFX9 = "s_setpc_b64 s[30:31]"
# Samples that need other instructions around them: mnemonic -> (before, after).  The raiser
# refuses half of gfx1250's split barrier without the other (docs/raiser.md).
CONTEXT = {
    "s_barrier_signal": ([], ["s_barrier_wait -1"]),
    "s_barrier_signal_isfirst": ([], ["s_barrier_wait -1"]),
    "s_barrier_wait": (["s_barrier_signal -1"], []),
}


def tool(name):
    path = os.environ.get(name)
    if not path:
        sys.exit("rows.py: %s is not set" % name)
    return path


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def isa_dump(isa, mode):
    """The tab-separated lines of `isa_dump --isa ISA MODE`."""
    rc, out, err = run([os.path.join(tool("TEST_TOOLS"), "isa_dump"), "--isa", isa, mode])
    if rc:
        sys.exit("rows.py: isa_dump --isa %s %s failed: %s" % (isa, mode, err.strip()))
    return [line.split("\t") for line in out.splitlines()]


def assemble(isa, lines):
    """{index: [bytes]} of the lines llvm-mc-22 accepts alone (it reports each rejected line)."""
    rc, out, err = run([tool("LLVM_MC"), "-triple=amdgcn-amd-amdhsa", "-mcpu=" + isa, "-show-encoding"],
                       "\n".join(lines) + "\n")
    bad = {int(m.group(1)) - 1 for m in re.finditer(r"<stdin>:(\d+):\d+: error", err)}
    encs = [[int(b, 16) for b in m.group(1).split(",")]
            for m in re.finditer(r"; encoding: \[(.*?)\]", out)]
    good = [i for i in range(len(lines)) if i not in bad]
    if len(encs) != len(good):
        sys.exit("rows.py: llvm-mc-22 printed %d encodings for %d accepted lines" % (len(encs), len(good)))
    return dict(zip(good, encs))


def simm16(enc):
    """The signed 16-bit immediate of a SOPP/SOPK word (bits 15:0): a branch's dword offset."""
    v = enc[0] | enc[1] << 8
    return v - 0x10000 if v & 0x8000 else v


def kernel_code(isa, name, mnemonic, flags, enc):
    """The lines of kernel NAME running the encoded sample ENC in its context."""
    sample = ".byte " + ",".join("0x%02x" % b for b in enc)
    before, after = CONTEXT.get(mnemonic, ([], []))
    tail = ["s_endpgm"]
    if flags & F_BRANCH and flags & F_CALL and simm16(enc) > 0:
        # the target is the end of the call plus the offset: the callee's first word (the
        # kernel's code up to there is s_endpgm: an extent must end in a terminator)
        tail = ["s_endpgm"] * simm16(enc)
        tail += ["function %s_callee" % name, RETURN.get(isa, RETURN_GFX9)]
    elif flags & F_BRANCH:
        off = simm16(enc)
        before = before + ["s_nop 0"] * max(0, -(off + 1))
        tail = ["s_nop 0"] * max(0, off) + tail
    lines = ["kernel %s vgprs=256 sgprs=100 args=1" % name, "\t.amdhsa_kernarg_size 8"]
    code = before + [sample] + after + tail
    return lines + [x if x.startswith("function ") else "\t" + x for x in code]


def raise_all(isa, out_dir, kernels):
    """{kernel name: (raised, reason, mnemonic, detail)} for the kernels' lines, one object."""
    path = os.path.join(out_dir, "rows-" + isa)
    body = ["\t.amdgcn_target \"amdgcn-amd-amdhsa--%s\"" % isa, "\t.text"]
    for lines in kernels:
        body += lines
    with open(path + ".s", "w") as f:
        f.write(expand.expand("\n".join(body) + "\n", path))
    rc, _, err = run([tool("LLVM_MC"), "-triple=amdgcn-amd-amdhsa", "-mcpu=" + isa, "-filetype=obj",
                      path + ".s", "-o", path + ".o"])
    if rc:
        sys.exit("rows.py: llvm-mc-22 could not assemble %s.s:\n%s" % (path, err[:2000]))
    rc, _, err = run([tool("LD_LLD"), "-shared", path + ".o", "-o", path + ".co"])
    if rc:
        sys.exit("rows.py: ld.lld-22 could not link %s.o:\n%s" % (path, err[:2000]))
    rc, out, err = run([tool("MIRAGE_BIN"), "--json", "raise", path + ".co"])
    if rc not in (0, 1):
        sys.exit("rows.py: mirage raise %s.co failed (exit %d): %s" % (path, rc, err.strip()[:2000]))
    res = {}
    for k in json.loads(out)["kernels"]:
        res[k["kernel"]] = (bool(k.get("raised")), k.get("reason", ""), k.get("mnemonic", ""),
                            k.get("detail", ""))
    return res


class Row:
    def __init__(self, rid, mnemonic, family, flags):
        self.id, self.mnemonic, self.family, self.flags = rid, mnemonic, family, flags
        self.samples = []  # (text, None: not assembled | (raised, reason, mnemonic, detail))

    def status(self):
        done = [v for _, v in self.samples if v is not None]
        if not done:
            return "not assembled"
        raised = sum(1 for v in done if v[0])
        return "raised" if raised == len(done) else "in part" if raised else "refused"

    def refusals(self):
        return [(t, v) for t, v in self.samples if v is not None and not v[0]]


def table_rows(isa, out_dir):
    """The table's rows in id order, each with its samples' verdicts."""
    rows = {int(r[0]): Row(int(r[0]), r[1], r[2], int(r[3], 16)) for r in isa_dump(isa, "--rows")}
    samples = [(int(s[0]), s[2]) for s in isa_dump(isa, "--samples")]
    enc = assemble(isa, [text for _, text in samples])
    kernels, names = [], {}
    for i, (rid, text) in enumerate(samples):
        if i in enc:
            names[i] = "k%d" % i
            kernels.append(kernel_code(isa, names[i], rows[rid].mnemonic, rows[rid].flags, enc[i]))
    res = raise_all(isa, out_dir, kernels)
    for i, (rid, text) in enumerate(samples):
        rows[rid].samples.append((text, res.get(names.get(i))))
    return [rows[k] for k in sorted(rows)]


# ---- Markdown ----------------------------------------------------------------------------


def why(row, text, v):
    """A refused sample in words: its reason code, what the raiser says, the instruction it
    stopped at when that is not the sample's own."""
    _, reason, mnemonic, detail = v
    where = "" if not mnemonic or mnemonic == row.mnemonic else " at `%s`" % mnemonic
    return "`%s`: %s%s%s" % (text, reason, where, ": " + detail if detail else "")


def by_reason(rows):
    c = collections.Counter(r.refusals()[0][1][1] for r in rows)
    return ", ".join("%d %s" % (n, reason) for reason, n in sorted(c.items(), key=lambda i: (-i[1], i[0])))


def markdown(isa, rows):
    fams = collections.OrderedDict()
    for r in sorted(rows, key=lambda r: r.family):
        fams.setdefault(r.family, []).append(r)
    st = collections.Counter(r.status() for r in rows)
    nsamples = sum(len(r.samples) for r in rows)
    out = ["#### %s" % isa, "",
           "%d rows (%d samples): **%d raised**, %d in part, %d refused, %d not assembled alone." % (
               len(rows), nsamples, st["raised"], st["in part"], st["refused"], st["not assembled"]), "",
           "| family | rows | raised | in part | refused | not assembled | refused rows by reason |",
           "|---|---:|---:|---:|---:|---:|---|"]
    for fam, rs in fams.items():
        c = collections.Counter(r.status() for r in rs)
        out.append("| %s | %d | %d | %d | %d | %d | %s |" % (
            fam, len(rs), c["raised"], c["in part"], c["refused"], c["not assembled"],
            by_reason([r for r in rs if r.status() == "refused"])))
    out.append("| all | %d | %d | %d | %d | %d | %s |" % (
        len(rows), st["raised"], st["in part"], st["refused"], st["not assembled"],
        by_reason([r for r in rows if r.status() == "refused"])))
    refused = [r for r in rows if r.status() == "refused"]
    bare = [r for r in refused if r.refusals()[0][1][1] == "unsupported-instruction"]
    if bare:
        out += ["", "Rows with no semantics (`unsupported-instruction`), by family:", ""]
        for fam in fams:
            names = sorted(r.mnemonic for r in bare if r.family == fam)
            if names:
                out.append("- %s (%d): %s" % (fam, len(names), ", ".join("`%s`" % n for n in names)))
    other = [r for r in refused if r not in bare]
    if other:
        out += ["", "Rows refused for another reason:", ""]
        for r in sorted(other, key=lambda r: (r.family, r.mnemonic)):
            out.append("- %s %s" % (r.family, "; ".join(why(r, t, v) for t, v in r.refusals())))
    part = [r for r in rows if r.status() == "in part"]
    if part:
        out += ["", "Rows raised in part (the samples refused):", ""]
        for r in sorted(part, key=lambda r: (r.family, r.mnemonic)):
            out.append("- %s %s" % (r.family, "; ".join(why(r, t, v) for t, v in r.refusals())))
    gone = [r for r in rows if r.status() == "not assembled"]
    if gone:
        out += ["", "Rows llvm-mc-22 does not assemble alone: " +
                ", ".join("`%s`" % r.mnemonic for r in sorted(gone, key=lambda r: r.mnemonic))]
    return out


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    out_dir, isas = argv[1], argv[2:] or list(TABLES)
    if any(i not in TABLES for i in isas):
        print("rows.py: the tables are %s" % ", ".join(TABLES), file=sys.stderr)
        return 2
    os.makedirs(out_dir, exist_ok=True)
    md, line = [], []
    for isa in isas:
        rows = table_rows(isa, out_dir)
        md += markdown(isa, rows) + [""]
        st = collections.Counter(r.status() for r in rows)
        line.append("%s %d of %d (%d in part)" % (isa, st["raised"], len(rows), st["in part"]))
    with open(os.path.join(out_dir, "rows.md"), "w") as f:
        f.write("\n".join(md).rstrip("\n") + "\n")
    with open(os.path.join(out_dir, "rows-line.md"), "w") as f:
        f.write(textwrap.fill("Decoder rows the raiser has semantics for (every sample of the row raised): %s."
                              % "; ".join(line), 96, break_on_hyphens=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
