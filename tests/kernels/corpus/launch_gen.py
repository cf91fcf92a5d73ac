#!/usr/bin/env python3
"""The launch file run.sh gives one corpus kernel, from its code object's metadata.

usage: launch_gen.py NOTES.txt KERNEL CO_PATH DIR GRID

NOTES.txt is `llvm-readelf-22 --notes` of the code object; the kernel's `.args` (value kinds,
sizes, offsets, constness) decide the launch.  Writes DIR/launch.json (the `mirage emulate`
format, translate/launch/launch_file.h), DIR/check.json (every output compared as bytes, for
tools/kernel_compare) and the input files the launch names.  The input policy, the same for
every kernel and deterministic:

- grid: GRID work-items in x; workgroup: the kernel's .reqd_workgroup_size, else
  min(64, .max_flat_workgroup_size) (two waves of 32, so barriers and LDS span waves).
- a kernel with hashcat's argument list (inc_common.h's KERN_ATTR: 24 buffers, then the
  kernel_param_t buffer) gets hashcat's names and:
    pws, combs_buf   GRID candidates: candidate g is 1 + g % 12 letters ('a' + (7g + j) % 26),
                     so every work-item hashes a different password
    bitmaps_buf_*    every byte 0xff (every candidate passes the bitmap filter and reaches
                     the digest search; bitmap_mask 0)
    kernel_param     loop_cnt 2, il_cnt 2, digests_cnt 1, gid_max GRID, everything else 0
    everything else  zero (empty salts, rules, digests; a zero salt is a real, short salt)
- hashcat's helper kernels (amp, gpu_memset, ... of inc_amp.h / inc_shared.h) get their
  argument names by kernel name; pws and pws_buf hold the candidates as above.
- any other global buffer: zero; a by-value argument: gid_max = GRID, loop_cnt / il_cnt 2,
  digests_cnt 1, value 0x5a5a5a5a, else 0 (by name: hashcat's, else the metadata's .name).
- every buffer is BUFFER_BYTES (1 MiB) but kernel_param (its struct, 64 bytes); the outputs
  are the buffers the kernel may write (no .is_const), all compared byte for byte.
"""
import json
import os
import struct
import sys

import yaml

BUFFER_BYTES = 1 << 20
WORKGROUP = 64
LOOP_CNT = 2
IL_CNT = 2
DIGESTS_CNT = 1
VALUE = 0x5A5A5A5A  # gpu_memset's fill
# hashcat's kernel arguments in order (OpenCL/inc_common.h, KERN_ATTR): the 4th is bfs_buf,
# words_buf_s or words_buf_r by attack, named by its first form here.
HASHCAT_ARGS = ["pws", "rules_buf", "combs_buf", "bfs_buf", "tmps", "hooks",
                "bitmaps_buf_s1_a", "bitmaps_buf_s1_b", "bitmaps_buf_s1_c", "bitmaps_buf_s1_d",
                "bitmaps_buf_s2_a", "bitmaps_buf_s2_b", "bitmaps_buf_s2_c", "bitmaps_buf_s2_d",
                "plains_buf", "digests_buf", "hashes_shown", "salt_bufs", "esalt_bufs",
                "d_return_buf", "d_extra0_buf", "d_extra1_buf", "d_extra2_buf", "d_extra3_buf",
                "kernel_param"]
# hashcat's helper kernels (inc_amp.h, inc_shared.h), by kernel name.
HELPER_ARGS = {
    "amp": ["pws", "pws_amp", "rules_buf", "combs_buf", "bfs_buf", "combs_mode", "gid_max"],
    "gpu_decompress": ["pws_idx", "pws_comp", "pws_buf", "gid_max"],
    "gpu_memset": ["buf", "value", "gid_max"],
    "gpu_bzero": ["buf", "gid_max"],
    "gpu_atinit": ["buf", "gid_max"],
    "gpu_utf8_to_utf16": ["pws_buf", "gid_max"],
}
CANDIDATE_BUFFERS = ("pws", "combs_buf", "pws_buf")
PW_BYTES = 260  # pw_t: u32 i[64], u32 pw_len


def scalar_value(name, grid):
    return {"gid_max": grid, "loop_cnt": LOOP_CNT, "il_cnt": IL_CNT,
            "digests_cnt": DIGESTS_CNT, "value": VALUE}.get(name, 0)


def kernel_param(grid):
    """kernel_param_t (inc_types.h): eleven u32, then pws_pos and gid_max as u64."""
    u32s = [0, 0, 0, 0, 0, LOOP_CNT, IL_CNT, DIGESTS_CNT, 0, 0, 0]
    return struct.pack("<11I4xQQ", *u32s, 0, grid)


def candidates(grid):
    data = bytearray(BUFFER_BYTES)
    for g in range(min(grid, BUFFER_BYTES // PW_BYTES)):
        n = 1 + g % 12
        word = bytes(ord("a") + (7 * g + j) % 26 for j in range(n))
        data[g * PW_BYTES:g * PW_BYTES + n] = word
        struct.pack_into("<I", data, g * PW_BYTES + 256, n)
    return bytes(data)


def metadata(notes_path):
    text = open(notes_path).read()
    start = text.index("---")
    end = text.index("\n...", start)
    return yaml.safe_load(text[start + 3:end])


def main():
    notes, kernel, co, out, grid = sys.argv[1:6]
    grid = int(grid)
    kernels = {k[".name"]: k for k in metadata(notes)["amdhsa.kernels"]}
    if kernel not in kernels:
        sys.exit(f"launch_gen.py: {notes}: no kernel '{kernel}' in the metadata")
    k = kernels[kernel]
    explicit = [a for a in k.get(".args", []) if not a[".value_kind"].startswith("hidden_")]
    hashcat = (len(explicit) == len(HASHCAT_ARGS)
               and all(a[".value_kind"] == "global_buffer" for a in explicit)
               and explicit[-1].get(".type_name") == "kernel_param_t*")
    wg = k.get(".reqd_workgroup_size", [min(WORKGROUP, k.get(".max_flat_workgroup_size", 256))])
    os.makedirs(out, exist_ok=True)
    files = {}
    buffers, args, check = {}, [], {}
    names = HASHCAT_ARGS if hashcat else HELPER_ARGS.get(kernel, [])
    if len(names) != len(explicit):
        names = [a.get(".name", f"arg{i}") for i, a in enumerate(explicit)]
    for i, a in enumerate(explicit):
        name = names[i]
        kind = a[".value_kind"]
        if kind != "global_buffer":
            size = a[".size"]
            value = scalar_value(name, grid)
            if size in (4, 8):
                args.append({f"u{size * 8}": value})
            else:
                args.append({"hex": "00" * size})
            continue
        init = "zero"
        size = BUFFER_BYTES
        if name in CANDIDATE_BUFFERS:
            files.setdefault("candidates.bin", candidates(grid))
            init = "file:candidates.bin"
        elif hashcat and name.startswith("bitmaps_buf_"):
            init = "fill:255"
        elif hashcat and name == "kernel_param":
            files["kernel_param.bin"] = kernel_param(grid)
            init, size = "file:kernel_param.bin", len(files["kernel_param.bin"])
        buf = {"size": size, "init": init}
        if not a.get(".is_const"):
            buf["output"] = f"emulate/{name}.bin"
            check[name] = {"type": "u8"}
        buffers[name] = buf
        args.append({"buffer": name})
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    launch = {"code_object": os.path.abspath(co), "kernel": kernel, "grid": [grid],
              "workgroup": wg, "buffers": buffers, "args": args}
    with open(os.path.join(out, "launch.json"), "w") as f:
        json.dump(launch, f, indent=1)
    with open(os.path.join(out, "check.json"), "w") as f:
        json.dump(check, f, indent=1)


if __name__ == "__main__":
    main()
