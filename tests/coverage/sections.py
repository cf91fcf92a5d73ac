#!/usr/bin/env python3
"""Generated sections of checked-in Markdown: checks them against a generator's output, or
writes it in.

  sections.py check|write FILE NAME=BODY_FILE...

A section is the lines between `<!-- coverage:NAME begin ... -->` and `<!-- coverage:NAME end -->`
in FILE (each marker a line of its own; what follows `begin` is the marker's comment, kept).
`check` prints a unified diff of each section that differs from its BODY_FILE, named by FILE
and NAME, and exits 1; `write` replaces the sections' lines by the BODY_FILEs'.  A missing
marker is an error (exit 2), as is a usage error.
"""
import difflib
import re
import sys


def span(lines, name):
    """(first, last) line indices of NAME's markers in lines, or None."""
    begin = re.compile(r"^<!-- coverage:%s begin\b.*-->$" % re.escape(name))
    end = "<!-- coverage:%s end -->" % name
    first = next((i for i, ln in enumerate(lines) if begin.match(ln)), None)
    if first is None:
        return None
    last = next((i for i in range(first + 1, len(lines)) if lines[i] == end), None)
    return None if last is None else (first, last)


def under(hunk, old):
    """A hunk's "@@ -A,B +C,D @@" line with the heading it is under in the checked-in section
    (which table's figures changed); any other diff line as it is."""
    m = re.match(r"^@@ -(\d+)", hunk)
    if not m:
        return hunk
    heading = next((ln for ln in reversed(old[:int(m.group(1))]) if ln.startswith("#")), None)
    return hunk.rstrip("\n") + (" under '%s'\n" % heading if heading else "\n")


def main(argv):
    if len(argv) < 4 or argv[1] not in ("check", "write") or not all("=" in a for a in argv[3:]):
        print(__doc__, file=sys.stderr)
        return 2
    mode, path = argv[1], argv[2]
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    stale = []
    for arg in argv[3:]:
        name, body_path = arg.split("=", 1)
        with open(body_path, encoding="utf-8") as f:
            body = f.read().rstrip("\n").split("\n")
        where = span(lines, name)
        if where is None:
            print("sections.py: %s has no section %s (<!-- coverage:%s begin -->, "
                  "<!-- coverage:%s end -->)" % (path, name, name, name), file=sys.stderr)
            return 2
        old = lines[where[0] + 1:where[1]]
        if old == body:
            continue
        stale.append(name)
        if mode == "write":
            lines[where[0] + 1:where[1]] = body
        else:
            for ln in difflib.unified_diff([ln + "\n" for ln in old], [ln + "\n" for ln in body],
                                           "%s (section %s, checked in)" % (path, name),
                                           "%s (generated now)" % body_path, n=1):
                sys.stdout.write(under(ln, old))
    if mode == "write":
        if stale:
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(lines))
        print("sections.py: %s: %s" % (path, "updated " + ", ".join(stale) if stale else "current"))
        return 0
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
