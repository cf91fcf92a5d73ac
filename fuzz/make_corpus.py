#!/usr/bin/env python3
"""Regenerates the fuzz seed corpora from the build's fixture code objects.

corpus/rewrite: each seed is one selector byte (see fuzz_rewrite.c: flags, ISA
pair, NULL opts, unknown flag) followed by a code object.
corpus/mc_decode: raw gfx1250 instruction bytes (fixture .text sections, the stub).
Run after `cmake --build BUILD --target fixtures`:
    fuzz/make_corpus.py BUILD/tests/fixtures fuzz/corpus
"""
import os
import struct
import sys

ENTRY, STRICT, STUBS, NO_B0A0 = 1, 2, 4, 8
PAIR_B0B0, PAIR_DEFAULT, PAIR_NATIVE, PAIR_B0A0 = 0x00, 0x10, 0x20, 0x30
NULL_OPTS, UNKNOWN_FLAG = 0x40, 0x80

# Every fixture with the usual entry-trampoline call; some again with other shapes.
EXTRA = {
    "hello": [PAIR_DEFAULT | ENTRY | STRICT | STUBS, PAIR_B0A0 | ENTRY, NULL_OPTS,
              UNKNOWN_FLAG | ENTRY | STUBS, PAIR_B0B0 | NO_B0A0 | ENTRY],
    "multi": [PAIR_DEFAULT | ENTRY | STRICT | STUBS | NO_B0A0, PAIR_B0A0 | STRICT],
    "prologue": [PAIR_B0A0 | ENTRY | STUBS],
    "gfx942": [PAIR_NATIVE],
    "data_only": [NULL_OPTS | PAIR_DEFAULT],
    "hello_stripped": [PAIR_B0B0 | ENTRY],
    "meta127": [PAIR_DEFAULT | ENTRY | STUBS],
}
MAX_BYTES = 200 * 1024


def text_section(elf):
    """The bytes of .text of a little-endian ELF64, found through the section headers."""
    shoff, = struct.unpack_from("<Q", elf, 40)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 58)
    def shdr(i):
        return struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize)
    stroff = shdr(shstrndx)[4]
    for i in range(shnum):
        name, _, _, _, off, size = shdr(i)[:6]
        if elf[stroff + name:elf.index(b"\0", stroff + name)] == b".text":
            return elf[off:off + size]
    sys.exit("no .text section")


def stub(n, delta):
    """The entry stub of docs/rewriter.md for scratch pair s[n:n+1] (n=106: vcc)."""
    b = bytes([0x00, 0x40, 0x17, 0xee, 0, 0, 4, 0, 0, 0, 0, 0]) + bytes([0, 0, 0, 0x7e])
    b += bytes([0x00, 0x47, 0x80 | n, 0xbe])
    b += bytes([n, 0xff, n, 0x80]) + struct.pack("<I", delta & 0xffffffff)
    b += bytes([n + 1, 0xff, n + 1, 0x82]) + struct.pack("<I", delta >> 32)
    b += bytes([n, 0x48, 0x80, 0xbe])
    return b + bytes([0, 0, 0x9f, 0xbf]) * 54


def write_corpus(out, seeds):
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(out):
        os.unlink(os.path.join(out, f))
    total = 0
    for name, data in sorted(seeds.items()):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        total += len(data)
    print(f"{len(seeds)} seeds, {total} bytes in {out}")
    return total


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make_corpus.py FIXTURE_DIR CORPUS_DIR")
    src, corpus = sys.argv[1], sys.argv[2]
    seeds = {}
    fixtures = sorted(f for f in os.listdir(src) if f.endswith(".co"))
    if not fixtures:
        sys.exit(f"no .co files in {src}: build the fixtures target first")
    for name in fixtures:
        data = open(os.path.join(src, name), "rb").read()
        base = name[:-3]
        for sel in [PAIR_B0B0 | ENTRY | STUBS] + EXTRA.get(base, []):
            seeds[f"{base}-{sel:02x}"] = bytes([sel]) + data

    hello = open(os.path.join(src, "hello.co"), "rb").read()
    sel = bytes([PAIR_B0B0 | ENTRY | STUBS])
    for n in (0, 4, 16, 52, 63, 64, 120, 512):
        seeds[f"trunc{n}"] = sel + hello[:n]

    def patched(offset, value):
        b = bytearray(hello)
        b[offset:offset + len(value)] = value
        return sel + bytes(b)

    seeds["elf32"] = patched(4, b"\x01")
    seeds["bigendian"] = patched(5, b"\x02")
    seeds["x86_64"] = patched(18, struct.pack("<H", 62))
    seeds["osabi_sysv"] = patched(7, b"\x00")
    seeds["phoff_past_end"] = patched(32, struct.pack("<Q", len(hello) + 8))
    seeds["shoff_past_end"] = patched(40, struct.pack("<Q", len(hello) - 8))
    seeds["phnum_huge"] = patched(56, struct.pack("<H", 0xffff))
    seeds["shnum_zero"] = patched(60, struct.pack("<H", 0))
    seeds["shstrndx_bad"] = patched(62, struct.pack("<H", 0xfff0))

    total = write_corpus(os.path.join(corpus, "rewrite"), seeds)

    mc = {"stub-s8": stub(8, 0x1234), "stub-vcc": stub(106, (1 << 64) - 20)}
    # Neighbours of encodings LLVM 22 crashes on (hs_mc.c works around them): mutations start here.
    mc["llvm22-crashers"] = bytes.fromhex(
        "0207026eff000000" "02070270ff000000"  # v_fmamk_f16 / v_fmaak_f16, K = 0xff
        "ff4f84be34120000" "ff5784be34120000"  # SOP1 barrier ops with a literal
        "001033cc04208204" "000033cc0009801c"  # v_wmma_f32_16x16x128_f8f6f4, SGPR A / B
    )
    for name in ("hello", "multi", "prologue", "dynamic"):
        mc[f"text-{name}"] = text_section(open(os.path.join(src, name + ".co"), "rb").read())
    total += write_corpus(os.path.join(corpus, "mc_decode"), mc)
    if total > MAX_BYTES:
        sys.exit(f"corpora are {total} bytes, over the {MAX_BYTES} limit")


if __name__ == "__main__":
    main()
