"""Judges a B0->A0 rewrite with LLVM's tools: llvm-objdump-22 -d of input and output.

usage: b0a0_judge.py OBJDUMP OBJCOPY IN OUT EXPECT
EXPECT holds, per site, the input instruction's text, then its pool sequence (one
instruction a line, the s_branch back last, written 's_branch back'), then a blank line.
Checks: no B0-only mnemonic left at a patched site; each moved site's s_branch reaches a
trampoline whose instructions are exactly the expected ones and whose s_branch back lands
at site + size (computed from the encoding); no other .text byte changed.  Prints
'ok <n> sites' or the first failure, and exits 1 on failure.
"""
import re
import subprocess
import sys

LINE = re.compile(r"^\s+(\S.*?)\s*//\s+([0-9A-F]{12}):\s+([0-9A-F ]+?)\s*(<.*>)?$")
B0_ONLY = re.compile(r"^(ds_\w*2addr\w*|ds_\w*addtid\w*|cluster_load\S* .*, off|"
                     r"s_barrier_signal_isfirst -?\d)")


def disasm(objdump, path):
    """{section: [(addr, text, words)]} from llvm-objdump -d."""
    out = subprocess.run([objdump, "-d", "--mcpu=gfx1250", path], check=True,
                         capture_output=True, text=True).stdout
    secs, cur = {}, None
    for l in out.splitlines():
        m = re.match(r"^Disassembly of section (\S+):", l)
        if m:
            cur = secs.setdefault(m.group(1), [])
            continue
        m = LINE.match(l)
        if m and cur is not None:
            text = re.sub(r"\s+", " ", m.group(1)).replace("_e32", "")
            cur.append((int(m.group(2), 16), text, [int(w, 16) for w in m.group(3).split()]))
    return secs


def section_bytes(objcopy, path, name):
    out = subprocess.run([objcopy, "-O", "binary", "--only-section=" + name, path, "-"],
                         check=True, capture_output=True).stdout
    return out


def branch_target(addr, word):
    simm = word & 0xFFFF
    if simm >= 0x8000:
        simm -= 0x10000
    return addr + 4 + 4 * simm


def main():
    objdump, objcopy, src, dst, expect_path = sys.argv[1:6]
    expect, block = [], []
    for l in open(expect_path).read().splitlines() + [""]:
        if l.strip():
            block.append(re.sub(r"\s+", " ", l.strip()))
        elif block:
            expect.append(block)
            block = []
    a, b = disasm(objdump, src), disasm(objdump, dst)
    ta, tb = a[".text"], b[".text"]
    pool = {ad: (t, w) for ad, t, w in b.get(".hotswap.text", [])}
    size = {ta[i][0]: ta[i + 1][0] - ta[i][0] for i in range(len(ta) - 1)}
    by_addr = {ad: (t, w) for ad, t, w in tb}
    changed = []  # [addr, addr + size) of every patched site
    left = list(expect)
    for ad, text, words in ta:
        if not B0_ONLY.match(text):
            continue
        new = by_addr.get(ad)
        if new is None:
            sys.exit("fail: no instruction at site 0x%x in the output" % ad)
        if B0_ONLY.match(new[0]):
            sys.exit("fail: 0x%x still holds '%s'" % (ad, new[0]))
        sz = size.get(ad, len(words) * 4)
        changed.append((ad, ad + sz))
        if not new[0].startswith("s_branch"):
            continue  # in place
        want = next((e for e in left if e[0] == text), None)
        if want is None:
            sys.exit("fail: site 0x%x '%s' has no expected sequence" % (ad, text))
        left.remove(want)
        pc = branch_target(ad, new[1][0])
        for i, ins in enumerate(want[1:]):
            if pc not in pool:
                sys.exit("fail: site 0x%x: no pool instruction at 0x%x" % (ad, pc))
            t, w = pool[pc]
            if ins == "s_branch back":
                if not t.startswith("s_branch") or branch_target(pc, w[0]) != ad + sz:
                    sys.exit("fail: site 0x%x: branch back at 0x%x lands at 0x%x, not 0x%x"
                             % (ad, pc, branch_target(pc, w[0]), ad + sz))
                break
            if t != ins:
                sys.exit("fail: site 0x%x: pool 0x%x is '%s', expected '%s'" % (ad, pc, t, ins))
            pc += len(w) * 4
    if left:
        sys.exit("fail: expected sites never seen: %s" % [e[0] for e in left])
    # No other .text byte changed (addresses are relative to .text's first instruction).
    base = ta[0][0]
    x, y = section_bytes(objcopy, src, ".text"), section_bytes(objcopy, dst, ".text")
    if len(x) != len(y):
        sys.exit("fail: .text changed size")
    for i, (p, q) in enumerate(zip(x, y)):
        if p != q and not any(lo <= base + i < hi for lo, hi in changed):
            sys.exit("fail: .text byte at 0x%x changed outside every site" % (base + i))
    print("ok %d sites" % len(changed))


main()
