#!/usr/bin/env python3
"""The builtin kernels' coverage: per generated kernel (tests/builtins/gen.py) and level, raised
for gfx1250, correct against POCL, translated for gfx942 and gfx950, and round-tripped.

  builtins.py write OUT.md REPORT.json...
  builtins.py check README.md [--line TOP_README.md] REPORT.json...

REPORT.json are `tests/builtins/run.py --kernel-report` files (several runs are merged: a run
gives the levels and stages it ran, for the kernels it ran).  `write` puts the Markdown of the
section (tests/kernels/README.md, "Coverage", between `<!-- coverage:builtins begin ... -->`
and `<!-- coverage:builtins end -->`) into OUT.md and the README's line into OUT-line.md
(OUT's name with `-line` before `.md`); tests/coverage/sections.py writes them in.

`check` compares what the reports give with the section checked in to README.md: the parts the
reports give and no others.  A table cell is compared when the reports judged every kernel it
counts at that level and stage; an exception line (below a table) is compared on the stages
the reports ran for its kernel.  So `integration/builtins_diff`, which runs less than
`coverage-update`, checks what it runs.  It prints each difference and exits 1; exit 0 when
every part it could compare is the same, 2 on usage or a bad section.  With --line, also that
TOP_README.md's line (between `<!-- coverage:builtins-line begin ... -->` and `end`) is the one
the checked-in section's total rows give.

Per level (O0, O2, O3), per family of gen.py's kernels:

- raised: kernels every case of which `mirage emulate` ran for gfx1250 (whole or split);
- correct: kernels every case of which gives POCL's bytes (gen.py's comparisons); the cases;
- gfx942, gfx950: kernels every case of which was translated for the target and ran;
- round trip: kernels every case of which gives, through each target run, the gfx1250 run's
  verdict against POCL (a match, or the same listed mismatch) and the gfx1250 run's bytes, or
  bytes that differ only in a NaN's sign or payload (not modelled, docs/raiser.md; listed).

Every case that is not all of these is listed with its reason: a refusal (the raiser's or the
translator's), a mismatch (named as libclc's when tests/builtins/xfail.txt lists it, with the
line's reason), a fault, a round trip that differs.  Deterministic: sorted, no timings.
"""
import json
import re
import sys
import textwrap

LEVELS = ("O0", "O2", "O3")
STAGES = ("gfx1250", "gfx942", "gfx950")
TARGETS = STAGES[1:]
COLUMNS = ("raised", "correct", "cases correct", "gfx942", "gfx950", "round trip")
UNKNOWN = "?"
NOT_RUN = "—"


def load(paths):
    """(manifest kernels in order, {level: {stage: {kernel: verdict}}}, the runs named)."""
    manifest, levels, scopes, sets = None, {}, [], set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        sets.add(doc.get("set") or "?")
        if manifest is None:
            manifest = doc["manifest"]
        elif [k["name"] for k in doc["manifest"]] != [k["name"] for k in manifest]:
            sys.exit("builtins.py: %s is of another gen.py set than %s" % (path, paths[0]))
        for lv, stages in doc["levels"].items():
            for stage, st in stages.items():
                have = levels.setdefault(lv, {}).setdefault(stage, {})
                for name, v in st["kernels"].items():
                    if "not_run" not in v:  # run.py's scope left it out
                        have.setdefault(name, v)  # the first report that ran it
        scope = doc["scope"]
        stages = sorted({t for st in doc["levels"].values() for t in st} - {"gfx1250"})
        scopes.append("`run.py --levels %s --targets %s%s%s`" % (
            ",".join(sorted(doc["levels"])), ",".join(stages) or "''",
            " --filter '%s'" % scope["filter"] if scope.get("filter") else "",
            " --rt-filter '%s'" % scope["rt_filter"] if scope.get("rt_filter") else ""))
    return manifest or [], levels, "%s of gen.py's %s set" % (" and ".join(scopes),
                                                               "/".join(sorted(sets)))


def case_ok(v):
    return v["status"] == "match"


def exceptions(manifest, levels):
    """{(level, kernel, case, text): [stages]}: every case that is not raised, correct,
    translated and round-tripped, by what it is, with the stages it is that on."""
    out = {}
    for lv in LEVELS:
        st = levels.get(lv, {})
        base = st.get("gfx1250", {})
        for k in manifest:
            name = k["name"]
            for label in k["cases"]:
                for stage in STAGES:
                    v = st.get(stage, {}).get(name, {}).get("cases", {}).get(label)
                    if v is None:
                        continue
                    text = None
                    if v["status"] == "refused":
                        text = "refused: " + v["why"]
                    elif v["status"] in ("mismatch", "fault"):
                        if v["xfail"]:
                            text = "%s, %slisted in xfail.txt: %s" % (
                                v["status"], "libclc's own answer, " if "libclc" in v["xfail"]
                                else "", v["xfail"])
                        else:
                            text = "%s (not listed in xfail.txt): %s" % (v["status"], v["why"])
                    elif v["status"] == "unjudged":
                        text = "not judged (POCL did not run it)"
                    elif stage != "gfx1250":
                        b = base.get(name, {}).get("cases", {}).get(label)
                        if b is not None and b["status"] != v["status"]:
                            text = "gfx1250 gives %s" % b["status"]
                    differs = {"nan": "outputs differ from the gfx1250 run's only in a NaN's "
                               "sign or payload (not modelled, docs/raiser.md)",
                               "bytes": "outputs differ from the gfx1250 run's bytes"}.get(
                                   v.get("differs"))
                    if differs:
                        text = differs if text is None else text + "; " + differs
                    if text is not None:
                        text = re.sub(r"\s+", " ", text)
                        out.setdefault((lv, name, label, text), []).append(stage)
    return out


def translated(x):
    """A case of a target stage went through the translator and ran."""
    return x["status"] != "refused" and not (x["why"] or "").startswith("translate:")


def round_trips(x, b):
    """A case of a target stage (x) gives the gfx1250 run's (b) verdict, a match or the same
    listed mismatch, and its bytes (or bytes that differ only in a NaN)."""
    return (x["status"] == b["status"] and x.get("differs") in (None, "nan") and
            (x["status"] == "match" or x["status"] == "mismatch" and bool(x["xfail"])))


def kernel_cells(k, st, complete):
    """{column: (ok, counted), "not run", or None (not known: not in these reports, which are
    not complete)} of kernel k at one level."""
    name, cells = k["name"], {}
    base = st.get("gfx1250", {}).get(name)
    if base is None:
        return dict.fromkeys(COLUMNS, "not run" if complete else None)
    cs = base["cases"]
    cells["raised"] = (int(all(v["status"] != "refused" for v in cs.values())), 1)
    cells["correct"] = (int(all(case_ok(v) for v in cs.values())), 1)
    cells["cases correct"] = (sum(case_ok(v) for v in cs.values()), len(cs))
    rt = "not run"
    for t in TARGETS:
        v = st.get(t, {}).get(name)
        if v is None:
            cells[t] = "not run" if complete else None
            if cells[t] is None:
                rt = None
            continue
        tc = v["cases"]
        cells[t] = (int(all(translated(x) for x in tc.values())), 1)
        if rt is not None:
            ok = all(round_trips(x, cs[label]) for label, x in tc.items())
            rt = (int(ok and (rt == "not run" or rt[0] == 1)), 1)
    cells["round trip"] = rt
    return cells


def table(manifest, st, complete=True):
    """[(family, {column: text})] with the total last; a cell None when not known.  A cell
    counts kernels (cases correct: cases); "N of M" when only M of the family's kernels ran
    that stage, NOT_RUN when none did."""
    fams = sorted({k["family"] for k in manifest})
    rows = []
    for fam in fams + [None]:
        ks = [k for k in manifest if fam is None or k["family"] == fam]
        row = {"kernels": str(len(ks)), "cases": str(sum(len(k["cases"]) for k in ks))}
        cells = [kernel_cells(k, st, complete) for k in ks]
        for col in COLUMNS:
            vals = [c[col] for c in cells]
            run = [v for v in vals if v != "not run"]
            if any(v is None for v in vals):
                row[col] = None
            elif not run:
                row[col] = NOT_RUN
            else:
                ok, n = sum(v[0] for v in run), sum(v[1] for v in run)
                row[col] = "%d/%d" % (ok, n) if col == "cases correct" else "%d" % ok
                if len(run) < len(vals) and col != "cases correct":
                    row[col] += " of %d" % len(run)
        rows.append(("**total**" if fam is None else fam, row))
    return rows


HEAD = ["family", "kernels", "cases"] + list(COLUMNS)


def table_lines(rows):
    lines = ["| " + " | ".join(HEAD) + " |", "|---|" + "---:|" * (len(HEAD) - 1)]
    for fam, row in rows:
        lines.append("| " + " | ".join([fam] + [row[c] if row[c] is not None else UNKNOWN
                                                for c in HEAD[1:]]) + " |")
    return lines


def exc_line(name, label, stages, text):
    return "- `%s` `%s` [%s]: %s" % (name, label, " ".join(stages), text)


EXC = re.compile(r"^- `(\S+)` `(.+?)` \[([a-z0-9 ]+)\]: (.*)$")


def section(manifest, levels, scopes):
    """The section's lines, and the README's line."""
    exc = exceptions(manifest, levels)
    n_cases = sum(len(k["cases"]) for k in manifest)
    lines = ["Written from the runs %s." % scopes, ""]
    line = {}
    for lv in LEVELS:
        st = levels.get(lv)
        if not st:
            continue
        rows = table(manifest, st)
        total = rows[-1][1]
        ran = {s: len(st.get(s, {})) for s in STAGES}
        lines += ["#### -%s" % lv, ""]
        scope = ", ".join("%s %s" % (s, "every kernel" if ran[s] == len(manifest) else
                                     "%d kernels" % ran[s] if ran[s] else "not run")
                          for s in STAGES)
        lines += ["%d kernels, %d cases (%s): **%s raised**, %s correct (%s cases), "
                  "round trip %s." % (len(manifest), n_cases, scope, total["raised"] or UNKNOWN,
                                      total["correct"] or UNKNOWN,
                                      total["cases correct"] or UNKNOWN,
                                      total["round trip"] or UNKNOWN), ""]
        lines += table_lines(rows)
        mine = sorted((key, stages) for key, stages in exc.items() if key[0] == lv)
        lines += ["", "The exceptions at -%s (%d):" % (lv, len(mine)), ""]
        lines += [exc_line(key[1], key[2], stages, key[3]) for key, stages in mine] or ["- none"]
        lines.append("")
        line[lv] = total
    return lines, readme_line(len(manifest), line)


def readme_line(n, totals):
    """The README's line: the total rows' figures {level: {column: text}}."""
    return textwrap.wrap(
        "Builtin kernels (tests/builtins, %d kernels; [the tables and every exception with its "
        "reason](tests/kernels/README.md#builtin-kernels)): %s." % (n, "; ".join(
            "-%s %s raised, %s correct (%s cases), %s" % (
                lv, t["raised"], t["correct"], t["cases correct"],
                "not translated" if t["gfx942"] == t["gfx950"] == NOT_RUN else
                "translated for gfx942 %s and gfx950 %s, %s round trip" % (
                    t["gfx942"], t["gfx950"], t["round trip"]))
            for lv, t in sorted(totals.items()))), 100, break_long_words=False,
        break_on_hyphens=False)


def marked(path, name):
    """The lines of path's section name, or None."""
    with open(path, encoding="utf-8") as f:
        text = f.read().split("\n")
    begin = next((i for i, ln in enumerate(text)
                  if re.match(r"^<!-- coverage:%s begin\b.*-->$" % name, ln)), None)
    end = next((i for i, ln in enumerate(text) if ln == "<!-- coverage:%s end -->" % name),
               None)
    if begin is None or end is None or end < begin:
        return None
    return text[begin + 1:end]


def check_line(old, readme):
    """The README's line against the one the checked-in section's total rows give."""
    totals, lv = {}, None
    for ln in old:
        if ln.startswith("#### -"):
            lv = ln[6:]
        elif ln.startswith("| **total** |") and lv:
            totals[lv] = dict(zip(HEAD[1:], [c.strip() for c in ln.strip("|").split("|")][1:]))
    n = next((t["kernels"] for t in totals.values()), "0")
    want = readme_line(int(n), totals)
    have = marked(readme, "builtins-line")
    if have is None:
        return ["%s has no section builtins-line" % readme]
    if have != want:
        return ["%s's builtins-line is not the section's totals: checked in %r, the totals "
                "give %r" % (readme, " ".join(have), " ".join(want))]
    return []


def check(path, manifest, levels, readme=None):
    """Differences between the checked-in section of path (and readme's line) and what the
    reports give, and how many parts were compared."""
    old = marked(path, "builtins")
    if old is None:
        print("builtins.py: %s has no section builtins" % path, file=sys.stderr)
        sys.exit(2)
    diffs, compared = [], 0
    if readme:
        diffs += check_line(old, readme)
        compared += 1
    for lv in LEVELS:
        st = levels.get(lv)
        if not st or "gfx1250" not in st:
            continue
        head = "#### -%s" % lv
        if head not in old:
            diffs.append("-%s: the section has no table for this level" % lv)
            continue
        i = old.index(head)
        nxt = next((j for j in range(i + 1, len(old)) if old[j].startswith("#### ")), len(old))
        part = old[i:nxt]
        # the table, cell by cell where the reports know the cell
        rows = {fam: row for fam, row in table(manifest, st, complete=False)}
        for ln in part:
            if not ln.startswith("| ") or ln.startswith("| family"):
                continue
            cells = [c.strip() for c in ln.strip("|").split("|")]
            fam = cells[0]
            if fam not in rows:
                diffs.append("-%s: a family the reports do not have: %s" % (lv, fam))
                continue
            row = rows.pop(fam)
            for col, have in zip(HEAD[1:], cells[1:]):
                want = row[col]
                if want is None or have == UNKNOWN:
                    continue
                compared += 1
                if have != want:
                    diffs.append("-%s %s %s: checked in %s, now %s" % (lv, fam, col, have, want))
        for fam in rows:
            diffs.append("-%s: the table has no row for %s" % (lv, fam))
        # the exceptions, on the stages the reports ran for each kernel
        ran = {s: set(st.get(s, {})) for s in STAGES}
        now = {}
        for (elv, name, label, what), stages in exceptions(manifest, levels).items():
            if elv == lv:
                now[(name, label, what)] = stages
        was = {}
        for ln in part:
            m = EXC.match(ln)
            if m:
                stages = [s for s in m.group(3).split() if m.group(1) in ran.get(s, ())]
                if stages:
                    was[(m.group(1), m.group(2), m.group(4))] = stages
        for key in sorted(set(now) | set(was)):
            compared += 1
            if now.get(key) != was.get(key):
                diffs.append("-%s exception %s: checked in %s, now %s" % (
                    lv, exc_line(key[0], key[1], was.get(key, []), key[2])[2:],
                    was.get(key, "absent"), now.get(key, "absent")))
    return diffs, compared


def main(argv):
    readme = None
    if len(argv) > 4 and argv[1] == "check" and argv[3] == "--line":
        readme = argv[4]
        argv = argv[:3] + argv[5:]
    if len(argv) < 4 or argv[1] not in ("write", "check"):
        print(__doc__, file=sys.stderr)
        return 2
    manifest, levels, scopes = load(argv[3:])
    if argv[1] == "write":
        lines, line = section(manifest, levels, scopes)
        with open(argv[2], "w", encoding="utf-8") as f:
            f.write("\n".join(lines).rstrip("\n") + "\n")
        with open(re.sub(r"\.md$", "", argv[2]) + "-line.md", "w", encoding="utf-8") as f:
            f.write("\n".join(line) + "\n")
        return 0
    diffs, compared = check(argv[2], manifest, levels, readme)
    for d in diffs:
        print(d)
    print("builtins.py: %s: %d parts compared, %d differ" % (argv[2], compared, len(diffs)))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
