#!/usr/bin/env python3
"""Benchmark: `mirage hotswap install` of a tree with many entries against tar(1).

Packs TREE plus LINKS symlinks and FILES small files (default 40,000 each)
into one .tar.gz, then, in the same run and on the same filesystem, times
RUNS rounds of
  tar -xzf ARCHIVE -C DIR                (baseline: unpack only)
  tar -xzf ARCHIVE -C DIR && sync -f DIR (baseline: unpack, then made durable)
  mirage hotswap install ARCHIVE         (checks, hashes, unpacks, makes durable)
and prints wall, user and system time of the child and the ratios.  On a
shared machine the system time (the filesystem's work) is noisy; user time
is what mirage's own checks cost.
mirage also hashes the archive, copies it privately and checks every entry,
so it is expected to cost a small multiple of tar, not a power of the size.

usage: bench_install.py MIRAGE_BIN TREE [LINKS] [FILES] [RUNS]
"""
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time


def run(argv, env=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run(argv, check=True, env=env, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    mirage, tree = sys.argv[1], sys.argv[2]
    links = int(sys.argv[3]) if len(sys.argv) > 3 else 40000
    files = int(sys.argv[4]) if len(sys.argv) > 4 else 40000
    runs = int(sys.argv[5]) if len(sys.argv) > 5 else 3
    tmp = tempfile.mkdtemp(prefix="mirage-bench-install-")
    try:
        src = os.path.join(tmp, "src", "bench")
        shutil.copytree(tree, src, symlinks=True)
        # A build tree's links to the host's LLVM would be refused (they lead out of the tree).
        for d, _, names in os.walk(src):
            for n in names:
                p = os.path.join(d, n)
                if os.path.islink(p) and os.path.isabs(os.readlink(p)):
                    os.unlink(p)
        # Spread over 100 directories, as a real tree's files are; each symlink names a file
        # next to it, so every entry is checked against every earlier symlink's path.
        for i in range(max(links, files)):
            d = os.path.join(src, "runtime", "bulk", "d%02d" % (i % 100))
            if i < 100:
                os.makedirs(d)
            if i < files:
                with open(os.path.join(d, "f%d" % i), "w") as f:
                    f.write("x")
            if i < links:
                os.symlink("f%d" % (i if i < files else 0), os.path.join(d, "l%d" % i))
        archive = os.path.join(tmp, "bench.tar.gz")
        subprocess.run(["tar", "-czf", archive, "-C", os.path.dirname(src), "bench"], check=True)
        shutil.rmtree(os.path.dirname(src))

        env = dict(os.environ, MIRAGE_DATA=os.path.join(tmp, "data"),
                   MIRAGE_CONFIG=os.path.join(tmp, "config"))
        env.pop("LD_PRELOAD", None)
        results = {"tar": [], "tar+sync": [], "mirage": []}
        for r in range(runs):
            out = os.path.join(tmp, "tar%d" % r)
            os.makedirs(out)
            results["tar"].append(run(["tar", "-xzf", archive, "-C", out]))
            shutil.rmtree(out)
            os.makedirs(out)
            results["tar+sync"].append(run(["sh", "-c", 'tar -xzf "$1" -C "$2" && sync -f "$2"',
                                            "sh", archive, out]))
            shutil.rmtree(out)
            results["mirage"].append(run([mirage, "hotswap", "install", archive,
                                          "--name", "bench%d" % r], env=env))
            shutil.rmtree(os.path.join(tmp, "data", "hotswap", "bench%d" % r))

        def best(key, i):
            return min(x[i] for x in results[key])

        print("entries: %d symlinks + %d files (+ the tree), %d runs, best of each" %
              (links, files, runs))
        for key, label in (("tar", "tar -xzf"), ("tar+sync", "tar -xzf && sync -f"),
                           ("mirage", "mirage hotswap install")):
            print("%-24s wall %7.3f s   user %7.3f s   sys %7.3f s" %
                  (label, best(key, 0), best(key, 1), best(key, 2)))
        for base in ("tar", "tar+sync"):
            print("ratio mirage/%-9s wall %.2fx   user %.2fx   sys %.2fx" %
                  (base, *(best("mirage", i) / max(best(base, i), 1e-3) for i in range(3))))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
