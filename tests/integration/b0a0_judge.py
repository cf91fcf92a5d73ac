"""Judges a B0->A0 rewrite with LLVM's tools: llvm-objdump-22 -d of input and output.

usage: b0a0_judge.py OBJDUMP OBJCOPY IN OUT EXPECT
EXPECT holds, per site, the input instruction's text, then its pool sequence (one
instruction a line, the s_branch back last, written 's_branch back'), then a blank line.
Checks: no B0-only mnemonic left at a patched site; each moved site's s_branch reaches a
trampoline (in the pool, or in a NOP sled of .text) whose instructions are exactly the
expected ones and whose branch back lands at site + size (computed from the encoding); a
site beyond s_branch reach jumps with s_add_pc_i64 (its target computed from the literal:
PC of the next instruction + literal); a sled trampoline overwrites only s_nop words of the
input; no other .text byte changed.  Prints 'ok <n> sites (<s> in sleds, <l> long jumps)'
or the first failure, and exits 1 on failure.
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


def branch_target(addr, words):
    """Where an s_branch or an s_add_pc_i64 at addr goes (None: neither)."""
    if words[0] >> 16 == 0xBFA0:  # s_branch simm16: PC + 4 + 4 * simm16
        simm = words[0] & 0xFFFF
        if simm >= 0x8000:
            simm -= 0x10000
        return addr + 4 + 4 * simm
    if words[0] in (0xBE804BFF, 0xBE804BFE):  # s_add_pc_i64 lit32 / lit64
        lit = words[1] | (words[2] << 32 if len(words) > 2 else 0)
        return (addr + 4 * len(words) + lit) & (2**64 - 1)
    return None


def is_jump(text):
    return text.startswith("s_branch") or text.startswith("s_add_pc_i64")


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
    code = dict(pool)
    code.update(by_addr)  # a trampoline lives in the pool or in a sled of .text
    old = {ad: w for ad, t, w in ta}
    changed = []  # [addr, addr + size) of every patched site and sled trampoline
    sleds = longs = 0
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
        if not is_jump(new[0]):
            continue  # in place
        want = next((e for e in left if e[0] == text), None)
        if want is None:
            sys.exit("fail: site 0x%x '%s' has no expected sequence" % (ad, text))
        left.remove(want)
        longs += new[0].startswith("s_add_pc_i64")
        pc = start = branch_target(ad, new[1])
        in_sled = start in by_addr
        for i, ins in enumerate(want[1:]):
            if pc not in code:
                sys.exit("fail: site 0x%x: no trampoline instruction at 0x%x" % (ad, pc))
            t, w = code[pc]
            if ins == "s_branch back":
                if not is_jump(t) or branch_target(pc, w) != ad + sz:
                    sys.exit("fail: site 0x%x: branch back at 0x%x lands at 0x%s, not 0x%x"
                             % (ad, pc, "%x" % branch_target(pc, w) if is_jump(t) else "?",
                                ad + sz))
                pc += len(w) * 4
                break
            if t != ins:
                sys.exit("fail: site 0x%x: trampoline 0x%x is '%s', expected '%s'"
                         % (ad, pc, t, ins))
            pc += len(w) * 4
        if in_sled:
            sleds += 1
            # A sled held only s_nop in the input.
            for x in range(start, pc, 4):
                if x not in old or old[x][0] >> 16 != 0xBF80:
                    sys.exit("fail: site 0x%x: its trampoline at 0x%x overwrote a "
                             "non-s_nop word" % (ad, x))
            changed.append((start, pc))
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
    print("ok %d sites (%d in sleds, %d long jumps)" % (len(changed) - sleds, sleds, longs))


main()
