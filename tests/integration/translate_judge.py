#!/usr/bin/env python3
"""Judges a translated code object by LLVM's own tools against its gfx1250 source.

usage: translate_judge.py LLVM_READELF OUT SRC TARGET

Checks, printing one line per failure and exiting 1 on any: `llvm-readelf -a` prints no
warning; the ELF header names TARGET (EF_AMDGPU_MACH); every source kernel is in the output
with `.wavefront_size: 64` and the source's `.args`, `.kernarg_segment_size` and
`.kernarg_segment_align` (HIP/CLR fill hidden arguments by walking `.args`).  The metadata is
the YAML `llvm-readelf --notes` decodes, never our own reader's.
"""
import subprocess
import sys

import yaml

CARRIED = (".args", ".kernarg_segment_size", ".kernarg_segment_align")


def readelf(tool, *args):
    p = subprocess.run([tool, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def metadata(tool, path):
    _, out, _ = readelf(tool, "--notes", path)
    start = out.index("---")
    end = out.index("\n...", start)
    doc = yaml.safe_load(out[start:end])
    return {k[".name"]: k for k in doc["amdhsa.kernels"]}


def main():
    tool, out, src, target = sys.argv[1:5]
    bad = []
    rc, text, err = readelf(tool, "-a", out)
    if rc or "warning" in (text + err).lower():
        bad.append(f"llvm-readelf -a {out}: exit {rc}, {err.strip() or 'a warning'}")
    _, head, _ = readelf(tool, "-h", out)
    flags = [l for l in head.splitlines() if l.strip().startswith("Flags:")]
    if not flags or target not in [w.strip() for w in flags[0].split(",")]:
        bad.append(f"{out}: the ELF header's flags ({flags}) do not name {target}")
    got, want = metadata(tool, out), metadata(tool, src)
    for name, sk in want.items():
        k = got.get(name)
        if k is None:
            bad.append(f"{out}: no kernel {name}")
            continue
        if k.get(".wavefront_size") != 64:
            bad.append(f"{name}: .wavefront_size {k.get('.wavefront_size')}, not 64")
        for key in CARRIED:
            if k.get(key) != sk.get(key):
                bad.append(f"{name}: {key} is {k.get(key)!r}, the source's {sk.get(key)!r}")
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
