#!/usr/bin/env python3
"""Checks the kernel suite's code objects with llvm-readelf: for every launch file of a
kernel, each object of that kernel has the kernel's .kd symbol and metadata whose explicit
(non-hidden) .args match the launch file's args: a buffer for global_buffer, a scalar of the
argument's size for by_value.  Prints one line per problem; exits 1 if there is any.
Usage: check_objects.py READELF LAUNCH_DIR OBJECT...
"""
import json
import os
import re
import subprocess
import sys

SCALAR_SIZE = {"i8": 1, "u8": 1, "i16": 2, "u16": 2, "f16": 2, "i32": 4, "u32": 4, "f32": 4,
               "i64": 8, "u64": 8, "f64": 8}


def metadata_kernels(readelf, obj):
    """{kernel name: [arg dicts]} from llvm-readelf --notes (the YAML it prints)."""
    text = subprocess.run([readelf, "--notes", obj], check=True, capture_output=True,
                          text=True).stdout
    kernels, args, cur, name = {}, None, None, None
    for line in text.splitlines():
        if re.match(r"^  - ", line):          # a new kernel entry
            if name is not None:
                kernels[name] = args
            args, cur, name = [], None, None
        m = re.match(r"^      - \.(\w+):\s*(.*)$", line)   # a new argument
        if m and args is not None:
            cur = {m.group(1): m.group(2).strip("'")}
            args.append(cur)
            continue
        m = re.match(r"^        \.(\w+):\s*(.*)$", line)   # an argument's field
        if m and cur is not None:
            cur[m.group(1)] = m.group(2).strip("'")
            continue
        m = re.match(r"^    \.name:\s*(\S+)", line)
        if m:
            name = m.group(1)
    if name is not None:
        kernels[name] = args
    return kernels


def main():
    readelf, launch_dir, objects = sys.argv[1], sys.argv[2], sys.argv[3:]
    problems = []
    for obj in objects:
        kernel_file = os.path.basename(obj)[:-3]
        symbols = subprocess.run([readelf, "--symbols", "--wide", obj], check=True,
                                 capture_output=True, text=True).stdout
        meta = metadata_kernels(readelf, obj)
        launches = [f for f in sorted(os.listdir(launch_dir))
                    if f == kernel_file + ".json" or f.startswith(kernel_file + ".")]
        if not launches:
            problems.append("%s: no launch file for it in %s" % (obj, launch_dir))
        for f in launches:
            launch = json.load(open(os.path.join(launch_dir, f)))
            k = launch["kernel"]
            if not re.search(r"\s%s\.kd$" % re.escape(k), symbols, re.M):
                problems.append("%s: no symbol %s.kd" % (obj, k))
            if k not in meta:
                problems.append("%s: no metadata for kernel %s" % (obj, k))
                continue
            explicit = [a for a in meta[k] if not a.get("value_kind", "").startswith("hidden_")]
            if len(explicit) != len(launch["args"]):
                problems.append("%s: %s has %d explicit args, %s gives %d" % (
                    obj, k, len(explicit), f, len(launch["args"])))
                continue
            for i, (a, given) in enumerate(zip(explicit, launch["args"])):
                kind = a.get("value_kind")
                if "buffer" in given:
                    ok = kind == "global_buffer"
                else:
                    (t, _), = given.items()
                    ok = kind == "by_value" and int(a.get("size", -1)) == SCALAR_SIZE.get(t)
                if not ok:
                    problems.append("%s: %s arg %d is %s (size %s), %s gives %s" % (
                        obj, k, i, kind, a.get("size"), f, json.dumps(given)))
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
