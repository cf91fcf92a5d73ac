"""Judges a B0->A0 rewrite with LLVM's tools: llvm-objdump-22 -d of input and output.

usage: b0a0_judge.py OBJDUMP OBJCOPY IN OUT EXPECT
EXPECT holds, per site, the input instruction's text, then its pool sequence (one
instruction a line, the s_branch back last, written 's_branch back'), then a blank line.
Checks: no B0-only mnemonic left at a patched site; each moved site's s_branch reaches a
trampoline (in the pool, or in a NOP sled of .text) whose instructions are exactly the
expected ones and whose branch back lands at site + size (computed from the encoding); a
site beyond s_branch reach takes the far jump "s_get_pc_i64 s[p:p+1]; s_add_nc_u64
s[p:p+1], s[p:p+1], <literal>; s_set_pc_i64 s[p:p+1]" (its target modelled: the address
after s_get_pc_i64 + the literal), which may carry the adjacent sites after it (their
bodies follow in the same trampoline, and its way back lands past the last of them); the
way back is s_branch or the same far jump on the same pair; no s_add_pc_i64 anywhere in
the output; a sled trampoline overwrites only s_nop words of the input; no other .text
byte changed.  Prints 'ok <n> sites (<s> in sleds, <l> by far jumps through <pairs>)' or
the first failure, and exits 1 on failure.
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


FAR_GET = re.compile(r"^s_get_pc_i64 (s\[\d+:\d+\])$")


def sbranch_target(addr, words):
    """Where an s_branch at addr goes (None: not one)."""
    if words[0] >> 16 != 0xBFA0:  # s_branch simm16: PC + 4 + 4 * simm16
        return None
    simm = words[0] & 0xFFFF
    if simm >= 0x8000:
        simm -= 0x10000
    return addr + 4 + 4 * simm


GATES = []  # [start, end) of every gateway seen (they must have been s_nop)


def far_jump(code, addr):
    """(target, bytes, pair) of the far jump starting at addr in code, or None.

    The model: s_get_pc_i64 gives addr + 4; s_add_nc_u64 adds its literal (32-bit below
    2^31 only, else 64-bit); s_set_pc_i64 jumps there.  The add may sit in a gateway that
    an s_branch right after the s_get_pc_i64 reaches (a site too short for the jump): then
    the jump takes 8 bytes of the site."""
    if addr not in code:
        return None
    t, w = code[addr]
    m = FAR_GET.match(t)
    if not m:
        return None
    pair = m.group(1)
    gate = sbranch_target(addr + 4, code[addr + 4][1]) if addr + 4 in code else None
    add = code.get(addr + 4 if gate is None else gate)
    if not add or not add[0].startswith("s_add_nc_u64 %s, %s, " % (pair, pair)):
        return None
    aw = add[1]
    if len(aw) == 2 and aw[0] & 0xFF00 == 0xFF00 and aw[1] < 2**31:
        lit = aw[1]
    elif len(aw) == 3 and aw[0] & 0xFF00 == 0xFE00:
        lit = aw[1] | aw[2] << 32
    else:
        sys.exit("fail: 0x%x: '%s' is not an add of a literal" % (addr + 4, add[0]))
    end = (addr + 4 if gate is None else gate) + 4 * len(aw)
    if code.get(end, ("",))[0] != "s_set_pc_i64 " + pair:
        return None
    if gate is not None:
        GATES.append((gate, end + 4))
        return (addr + 4 + lit) & (2**64 - 1), 8, pair
    return (addr + 4 + lit) & (2**64 - 1), end + 4 - addr, pair


def jump_at(code, addr):
    """(target, bytes, pair or None) of an s_branch or a far jump at addr, or None."""
    if addr in code:
        t = sbranch_target(addr, code[addr][1])
        if t is not None:
            return t, 4, None
    return far_jump(code, addr)


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
    for sec, rows in b.items():
        for ad, t, w in rows:
            if t.startswith("s_add_pc_i64"):
                sys.exit("fail: %s 0x%x: the output holds '%s'" % (sec, ad, t))
    ta, tb = a[".text"], b[".text"]
    pool = {ad: (t, w) for ad, t, w in b.get(".hotswap.text", [])}
    size = {ta[i][0]: ta[i + 1][0] - ta[i][0] for i in range(len(ta) - 1)}
    text_of = {ad: t for ad, t, w in ta}
    by_addr = {ad: (t, w) for ad, t, w in tb}
    code = dict(pool)
    code.update(by_addr)  # a trampoline lives in the pool or in a sled of .text
    old = {ad: w for ad, t, w in ta}
    changed = []  # [addr, addr + size) of every patched site and sled trampoline
    sleds = fars = nsites = 0
    pairs = set()
    carried = set()  # sites a far jump at an earlier site carries
    left = list(expect)

    def take(ad, text):
        want = next((e for e in left if e[0] == text), None)
        if want is None:
            sys.exit("fail: site 0x%x '%s' has no expected sequence" % (ad, text))
        left.remove(want)
        return want[1:]

    for ad, text, words in ta:
        if not B0_ONLY.match(text) or ad in carried:
            continue
        sz = size.get(ad, len(words) * 4)
        changed.append((ad, ad + sz))
        nsites += 1
        jump = jump_at(by_addr, ad)
        if jump is None:
            new = by_addr.get(ad)
            if new is None:
                sys.exit("fail: no instruction at site 0x%x in the output" % ad)
            if B0_ONLY.match(new[0]):
                sys.exit("fail: 0x%x still holds '%s'" % (ad, new[0]))
            continue  # in place
        start, jlen, pair = jump
        pc = start
        if pair:
            pairs.add(pair)
        in_sled = start in by_addr
        end, seq = ad + sz, take(ad, text)
        # A far jump longer than the site carries the sites after it.
        while pair and end < ad + jlen:
            if not B0_ONLY.match(text_of.get(end, "")):
                sys.exit("fail: site 0x%x: its far jump covers 0x%x, not a site" % (ad, end))
            carried.add(end)
            fars += 1
            nsites += 1
            seq = seq[:-1] + take(end, text_of[end])
            end += size.get(end, 8)
        changed.append((ad, end))
        for ins in seq:
            if ins == "s_branch back":
                back = jump_at(code, pc)
                if back is None or back[0] != end:
                    sys.exit("fail: site 0x%x: way back at 0x%x lands at %s, not 0x%x"
                             % (ad, pc, "0x%x" % back[0] if back else "?", end))
                if back[2] and (not pair or back[2] != pair):
                    pairs.add(back[2])
                    if pair:
                        sys.exit("fail: site 0x%x: way back through %s, not %s"
                                 % (ad, back[2], pair))
                pc += back[1]
                break
            if pc not in code:
                sys.exit("fail: site 0x%x: no trampoline instruction at 0x%x" % (ad, pc))
            t, w = code[pc]
            if t != ins:
                sys.exit("fail: site 0x%x: trampoline 0x%x is '%s', expected '%s'"
                         % (ad, pc, t, ins))
            pc += len(w) * 4
        fars += pair is not None
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
    for lo, hi in GATES:
        for x in range(lo, hi, 4):
            if x not in old or old[x][0] >> 16 != 0xBF80:
                sys.exit("fail: the gateway at 0x%x overwrote a non-s_nop word" % lo)
        changed.append((lo, hi))
    # No other .text byte changed (addresses are relative to .text's first instruction).
    base = ta[0][0]
    x, y = section_bytes(objcopy, src, ".text"), section_bytes(objcopy, dst, ".text")
    if len(x) != len(y):
        sys.exit("fail: .text changed size")
    for i, (p, q) in enumerate(zip(x, y)):
        if p != q and not any(lo <= base + i < hi for lo, hi in changed):
            sys.exit("fail: .text byte at 0x%x changed outside every site" % (base + i))
    print("ok %d sites (%d in sleds, %d by far jumps through %s)"
          % (nsites, sleds, fars,
             " ".join(sorted(pairs)) or "no pair"))


main()
