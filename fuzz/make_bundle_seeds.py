#!/usr/bin/env python3
"""Writes the bundle fuzzer's seeds into DIR (fuzz/CMakeLists.txt runs it at configure
time, so no binary seed is checked in): an uncompressed bundle, CCOB v1/v2/v3 zlib of it,
two bundles back to back with padding, and the header of each alone."""
import hashlib
import os
import struct
import sys
import zlib


def bundle(entries):
    head = b'__CLANG_OFFLOAD_BUNDLE__' + struct.pack('<Q', len(entries))
    size = len(head) + sum(24 + len(i) for i, _ in entries)
    off = (size + 4095) // 4096 * 4096
    table, body = b'', bytearray()
    for ident, payload in entries:
        table += struct.pack('<QQQ', off, len(payload), len(ident)) + ident
        body += b'\0' * (off - size - len(body)) + payload
        off = (off + len(payload) + 4095) // 4096 * 4096
    return head + table + bytes(body)


def ccob(raw, version):
    z = zlib.compress(raw)
    h = hashlib.md5(raw).digest()[:8]
    if version == 1:
        return b'CCOB' + struct.pack('<HHI', 1, 0, len(raw)) + h + z
    if version == 2:
        return b'CCOB' + struct.pack('<HHII', 2, 0, 24 + len(z), len(raw)) + h + z
    return b'CCOB' + struct.pack('<HHQQ', 3, 0, 32 + len(z), len(raw)) + h + z


out = sys.argv[1]
os.makedirs(out, exist_ok=True)
elf = b'\x7fELF' + bytes(60) + b'gfx1250 code'
plain = bundle([(b'host-x86_64-unknown-linux-gnu-', b''),
                (b'hipv4-amdgcn-amd-amdhsa--gfx1250', elf),
                (b'hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-', elf)])
seeds = {'plain': plain, 'v1': ccob(plain, 1), 'v2': ccob(plain, 2), 'v3': ccob(plain, 3),
         'fatbin': plain + bytes(4096 - len(plain) % 4096) + ccob(plain, 2),
         'header': plain[:120], 'ccob-header': ccob(plain, 3)[:32]}
for name, data in seeds.items():
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)
