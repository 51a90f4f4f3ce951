#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Patch coverage: every hunk of every patch, judged on both kernels.

make coverage (scripts/coverage.sh) boots a baseline and a patched kernel
with gcov and saves what guest/gcov_dump.c sent over the serial port.
This decodes those .gcda files, turns them into line counts with
llvm-cov-19 gcov (the gcov of the compiler that built the kernels),
and follows each patch's hunks to the two trees that ran:
  patched side: the lines the hunk adds, carried forward through the
                later patches to the patched tree;
  baseline side: the lines it removes, carried back through the earlier
                patches to the baseline tree.
A side is executed when one of those lines with code ran; a side whose
lines hold no code (a call's second line, a declaration, a signature's
second line) is judged by the other lines of the C statement each
belongs to (back to the line after one that ends a statement, opens or
closes a block, or is a label; on to the line that ends it), never by a
neighbouring statement; with no code there either it is "no code".
OUT/hunks.tsv names, per hunk and kernel, the lines that decided it.
A hunk is
  executed      on both kernels (or on the patched one, for a file the
                series adds);
  no code       neither side has code to count (declarations only);
  not built     its file is not compiled into the booted kernels;
  not executed  it has code on a kernel that did not run it.
Every hunk not executed and not "no code" must match an entry of
config/coverage-unreached (PATH[:WORD] then the reason; WORD: the hunk's
text holds it), and every entry must match one.  config/expect/coverage
holds floors: hunks executed (count, and share of the hunks with code),
changed lines executed per kernel, and the patched share over the whole
series (the changed lines of objects not built counted as not run).
Writes OUT/table.md, OUT/hunks.tsv and OUT/lines.tsv; the last line of
its output is the summary; exit status 1 when a check failed.
"""
import argparse
import base64
import collections
import fnmatch
import os
import re
import subprocess
import sys
import tempfile

LLVM_COV = os.environ.get("LLVM_COV", "llvm-cov-19")
COMMENTS = re.compile(r"//.*$|/\*.*?\*/")
BLOCK_HEAD = re.compile(r"(\}\s*)?(else\s+)?(if|for|while|switch)\b")


def ends_statement(text):
    """Whether a source line ends a C statement, opens or closes a block,
    is a label or case, a preprocessor line, or blank: the next line
    starts a statement of its own.  A bare if/for/while/switch/else
    head counts too, so a body is not judged by its condition."""
    t = COMMENTS.sub("", text).strip()
    return (t == "" or t.startswith("#") or t.endswith((";", "{", "}", ":"))
            or re.fullmatch(r"(\}\s*)?else", t) is not None
            or (t.endswith(")") and BLOCK_HEAD.match(t) is not None))


def span(lines):
    """A set of line numbers as "12,14-16" ("-" when empty)."""
    out, run = [], []
    for ln in sorted(lines):
        if run and ln == run[-1] + 1:
            run.append(ln)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [ln]
    if run:
        out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ",".join(out) or "-"


def code_like(text):
    """A changed line that would hold code if compiled: not blank, not a
    comment, not a lone brace (the whole-series share counts these in
    the objects no kernel built)."""
    t = COMMENTS.sub("", text).strip()
    return t not in ("", "{", "}", "};") and not t.startswith(("*", "/*", "#"))


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True,
                          capture_output=True, text=True).stdout


# --- the series: hunks per patch, and the line maps between trees ------

Hunk = collections.namedtuple(
    "Hunk", "patch path os ol ns nl head text")


def parse_diff(text, patch):
    """The -U0 hunks of one commit's diff, per file."""
    out = collections.defaultdict(list)
    path = None
    cur = None
    for line in text.splitlines():
        if line.startswith("diff --git "):
            path = None
        elif line.startswith("+++ "):
            p = line[4:]
            if p.startswith("b/"):
                path = p[2:]
        elif line.startswith("--- ") and path is None:
            p = line[4:]
            oldpath = p[2:] if p.startswith("a/") else None
            if oldpath:
                path = oldpath  # a deleted file keeps its old name
        elif line.startswith("@@ ") and path:
            m = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)", line)
            os_, ol, ns, nl = (int(m.group(1)), int(m.group(2) or 1),
                               int(m.group(3)), int(m.group(4) or 1))
            cur = {"os": os_, "ol": ol, "ns": ns, "nl": nl,
                   "head": m.group(5).strip(), "text": []}
            out[path].append(cur)
        elif cur is not None and line[:1] in ("+", "-") and not line.startswith(("+++", "---")):
            cur["text"].append(line)
    return {p: [Hunk(patch, p, h["os"], h["ol"], h["ns"], h["nl"], h["head"],
                     "\n".join(h["text"])) for h in hs]
            for p, hs in out.items()}


def map_lines(lines, hunks, forward):
    """Carry a set of line numbers through one diff (or back through it)."""
    if not hunks:
        return set(lines)
    out = set()
    for ln in lines:
        delta = 0
        hit = None
        for h in hunks:
            a, al, b, bl = (h.os, h.ol, h.ns, h.nl) if forward else (h.ns, h.nl, h.os, h.ol)
            # -U0: a zero-length side names the line before the gap.
            start = a if al else a + 1
            if start <= ln < start + al:
                hit = (b, bl)
                break
            if (start + al) <= ln:
                delta += bl - al
        if hit:
            b, bl = hit
            out.update(range(b, b + bl) if bl else (b, b + 1))
        else:
            out.add(ln + delta)
    return out


class Series:
    """The patched worktree's commits since 'baseline': one per patch."""

    def __init__(self, repo):
        self.repo = repo
        self.files = {}
        self.commits = git(repo, "rev-list", "--reverse", "baseline..HEAD").split()
        self.subjects = [git(repo, "log", "-1", "--format=%s", c).strip()
                         for c in self.commits]
        self.diffs = [parse_diff(git(repo, "diff", "-U0", "--no-color", "-M",
                                     c + "^", c), i + 1)
                      for i, c in enumerate(self.commits)]
        self.added = set()   # files the series creates
        for i, c in enumerate(self.commits):
            for p in git(repo, "diff", "--name-only", "--diff-filter=A",
                         c + "^", c).split():
                self.added.add(p)

    def hunks(self):
        for d in self.diffs:
            for path in sorted(d):
                yield from d[path]

    def near(self, path, lines, before=12, after=2):
        """The patched tree's lines around @lines of @path, as text."""
        if path not in self.files:
            try:
                with open(os.path.join(self.repo, path), errors="replace") as f:
                    self.files[path] = f.read().splitlines()
            except OSError:
                self.files[path] = []
        text = self.files[path]
        lo, hi = max(min(lines) - before, 1), max(lines) + after
        return "\n".join(text[lo - 1:hi])

    def to_patched(self, hunk, lines):
        for d in self.diffs[hunk.patch:]:
            lines = map_lines(lines, d.get(hunk.path, []), True)
        return lines

    def to_baseline(self, hunk, lines):
        for d in reversed(self.diffs[:hunk.patch - 1]):
            lines = map_lines(lines, d.get(hunk.path, []), False)
        return lines


# --- the kernels' counters ----------------------------------------------

def decode_dump(log, objdir, dest):
    """guest/gcov_dump.c's text: the .gcda files, under dest by object path."""
    files = []
    prefix = objdir.strip("/") + "/"
    name = None
    chunks = []
    trailer = None
    with open(log, "rb") as f:
        for raw in f:
            line = raw.decode("ascii", "replace").rstrip("\r\n")
            if name is None:
                m = re.match(r"gcda (\S+) (\d+)$", line)
                if m:
                    name, size, chunks = m.group(1), int(m.group(2)), []
                elif line.startswith("gcov-dump "):
                    trailer = line
            elif line == "end":
                data = base64.b64decode("".join(chunks))
                if len(data) != size or not name.startswith(prefix):
                    raise SystemExit(f"{log}: bad record for {name}")
                rel = name[len(prefix):]
                os.makedirs(os.path.join(dest, os.path.dirname(rel)), exist_ok=True)
                with open(os.path.join(dest, rel), "wb") as out:
                    out.write(data)
                files.append(rel)
                name = None
            else:
                chunks.append(line)
    if name is not None or trailer is None:
        raise SystemExit(f"{os.path.basename(log)}: the dump is incomplete (guest stopped?)")
    return files


def line_counts(tree, objdir, gcda_dir, files, counts):
    """Add each .gcda's line counts (llvm-cov gcov's intermediate format,
    the object's own source and the headers it inlined) to
    counts[path][line]; paths relative to the tree."""
    # Absolute: llvm-cov runs in a scratch folder, and reads a .gcda it
    # cannot find as all zeros, without a word.
    gcda_dir = os.path.abspath(gcda_dir)
    with tempfile.TemporaryDirectory() as tmp:
        for rel in files:
            obj = os.path.join(objdir, rel[:-5])
            src = os.path.basename(obj) + ".c"
            res = subprocess.run(
                [LLVM_COV, "gcov", "-i", "--gcno=" + obj + ".gcno",
                 "--gcda=" + os.path.join(gcda_dir, rel), src],
                cwd=tmp, capture_output=True, text=True)
            out = os.path.join(tmp, src + ".gcov")
            if res.returncode or not os.path.exists(out):
                raise SystemExit(f"llvm-cov gcov failed on {rel}: {res.stderr.strip()[:200]}")
            path = None
            with open(out) as f:
                for line in f:
                    line = line.rstrip("\n")
                    if line.startswith("file:"):
                        # Relative to the object folder, where kbuild compiles.
                        p = os.path.normpath(os.path.join(objdir, line[5:]))
                        path = os.path.relpath(p, tree) if p.startswith(tree + "/") else None
                    elif path and line.startswith("lcount:"):
                        ln, c = line[7:].split(",")[:2]
                        counts[path][int(ln)] += int(c)
            os.unlink(out)


class Kernel:
    def __init__(self, name, tree, objdir, out, logs):
        self.name, self.tree, self.objdir = name, os.path.realpath(tree), os.path.realpath(objdir)
        self.counts = collections.defaultdict(collections.Counter)
        self.src = {}
        self.built = {os.path.relpath(os.path.join(d, f), self.objdir)[:-2] + ".c"
                      for d, _, fs in os.walk(self.objdir) for f in fs if f.endswith(".o")}
        self.boots = []
        for i, log in enumerate(logs):
            dest = os.path.join(out, f"boot{i + 1}")
            files = decode_dump(log, self.objdir, dest)
            self.boots.append((os.path.basename(log), len(files)))
            line_counts(self.tree, self.objdir, dest, files, self.counts)

    def source(self, path):
        """The file's lines in this kernel's tree (cached)."""
        if path not in self.src:
            try:
                with open(os.path.join(self.tree, path), errors="replace") as f:
                    self.src[path] = f.read().split("\n")
            except OSError:
                self.src[path] = []
        return self.src[path]

    def statement(self, path, ln):
        """The lines of the C statement line ln belongs to."""
        src = self.source(path)
        if not 1 <= ln <= len(src):
            return {ln}
        first = ln
        while first > 1 and not ends_statement(src[first - 2]):
            first -= 1
        last = ln
        while last < len(src) and not ends_statement(src[last - 1]):
            last += 1
        return set(range(first, last + 1))

    def side(self, path, lines):
        """(state, the lines that decided it, those that ran) of a set of
        lines: its own lines with code, else those of their statements."""
        data = self.counts.get(path)
        if not data:
            if path.endswith(".c") and path not in self.built:
                return "not built", set(), set()
            return "no code", set(), set()
        exe = {ln for ln in lines if ln in data}
        if not exe and lines:
            stmt = set().union(*(self.statement(path, ln) for ln in lines))
            exe = {ln for ln in stmt if ln in data}
            if not exe:
                return "no code", set(), set()
        ran = {ln for ln in exe if data[ln] > 0}
        return ("executed" if ran else "not executed"), exe, ran

    def changed(self, path, lines):
        """(changed lines with code, of them executed): the hunk's own lines."""
        data = self.counts.get(path, {})
        exe = {ln for ln in lines if ln in data}
        return len(exe), sum(1 for ln in exe if data[ln] > 0)


# --- judging ------------------------------------------------------------

def read_unreached(path):
    entries = []
    for n, line in enumerate(open(path), 1):
        line = line.split("#", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if not line:
            continue
        spec, _, reason = line.partition(" ")
        pat, _, word = spec.partition(":")
        if not reason.strip():
            raise SystemExit(f"{path}:{n}: an entry needs a reason")
        entries.append({"line": n, "pat": pat, "word": word,
                        "reason": reason.strip(), "used": 0})
    return entries


def read_floors(path):
    floors = {}
    for line in open(path):
        f = line.split("#", 1)[0].split()
        if f:
            floors[" ".join(f[:-1])] = float(f[-1])
    return floors


def self_test():
    """The line maps and the side rules on made-up diffs (make check's
    host tests): a wrong map would judge the wrong lines."""
    d = parse_diff("""diff --git a/f.c b/f.c
--- a/f.c
+++ b/f.c
@@ -10,2 +10,3 @@ int f(void)
-a
-b
+A
+B
+C
@@ -20,0 +22,2 @@ int g(void)
+x
+y
@@ -30 +32,0 @@
-gone
""", 1)["f.c"]
    assert [(h.os, h.ol, h.ns, h.nl) for h in d] == [(10, 2, 10, 3), (20, 0, 22, 2), (30, 1, 32, 0)], d
    assert d[0].head == "int f(void)" and d[0].text == "-a\n-b\n+A\n+B\n+C"
    # Before, inside, between and after the hunks, both ways.
    assert map_lines({5}, d, True) == {5}
    assert map_lines({11}, d, True) == {10, 11, 12}
    assert map_lines({15, 20}, d, True) == {16, 21}
    assert map_lines({21}, d, True) == {24}
    assert map_lines({29}, d, True) == {32}
    assert map_lines({30}, d, True) == {32, 33}
    assert map_lines({31}, d, True) == {33}
    assert map_lines({33}, d, False) == {31}
    assert map_lines({23}, d, False) == {20, 21}
    assert map_lines({24}, d, False) == {21}
    assert map_lines({12}, d, False) == {10, 11}
    # A side without code is judged by its own statement, else "no code";
    # rpc_sockname()'s shape: the AF_INET6 bind's second line has no
    # code, its first never ran, the AF_INET case's break three lines up
    # did.  The old rule (code within three lines either side) credited
    # it: broken once here, so the rule cannot come back unseen.
    k = Kernel.__new__(Kernel)
    k.tree = "/nonexistent"
    k.counts = {"f.c": collections.Counter({8: 0, 12: 4, 23: 3, 25: 3, 27: 0, 29: 0}),
                "g.c": collections.Counter({1: 0})}
    k.built = {"f.c", "g.c"}
    k.src = {"f.c": ["x;"] * 20 + ["\tswitch (family) {", "\tcase AF_INET:",
                                   "\t\terr = kernel_bind(sock, a,", "\t\t\t\t  sizeof(x));",
                                   "\t\tbreak;", "\tcase AF_INET6:",
                                   "\t\terr = kernel_bind(sock, a,", "\t\t\t\t  sizeof(y));",
                                   "\t\tbreak;", "\t}"] + ["y;"] * 5}
    assert k.side("f.c", {12})[0] == "executed"
    assert k.side("f.c", {8})[0] == "not executed"
    assert k.side("f.c", {10})[0] == "no code"       # x; its own statement
    assert k.side("f.c", {28}) == ("not executed", {27}, set()), k.side("f.c", {28})
    assert k.side("f.c", {24}) == ("executed", {23}, {23}), k.side("f.c", {24})
    old_rule = {ln for ln in range(28 - 3, 28 + 4) if k.counts["f.c"][ln] > 0}
    assert old_rule == {25}, old_rule                # what credited it before
    assert k.statement("f.c", 28) == {27, 28}
    assert ends_statement("\tif (x)") and ends_statement("\t} else")
    assert ends_statement("\telse") and not ends_statement("\tif (a &&")
    assert span({3, 4, 5, 9}) == "3-5,9" and span(set()) == "-"
    assert code_like("\t\tbreak;") and not code_like("\t/* c */") and not code_like("\t}")
    assert k.side("f.c", {30})[0] == "no code"
    assert k.side("h.c", {1})[0] == "not built"
    assert k.side("h.h", {1})[0] == "no code"
    assert k.changed("f.c", {8, 9, 12}) == (2, 1)
    print("coverage-table self-test: ok")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", nargs="+", required=True,
                    metavar="TREE OBJDIR OUT LOG", help="tree, object folder, scratch folder, dump logs")
    ap.add_argument("--patched", nargs="+", required=True, metavar="TREE OBJDIR OUT LOG")
    ap.add_argument("--series", required=True, help="the patched worktree (commits baseline..HEAD)")
    ap.add_argument("--unreached", required=True)
    ap.add_argument("--floors", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    series = Series(a.series)
    kernels = {}
    for name in ("baseline", "patched"):
        tree, objdir, out, *logs = getattr(a, name)
        kernels[name] = Kernel(name, tree, objdir, out, logs)
    base, pat = kernels["baseline"], kernels["patched"]
    unreached = read_unreached(a.unreached)
    floors = read_floors(a.floors)

    rows = []
    for h in series.hunks():
        new_lines = set(range(h.ns, h.ns + h.nl)) if h.nl else {h.ns, h.ns + 1}
        old_lines = set(range(h.os, h.os + h.ol)) if h.ol else {h.os, h.os + 1}
        p_lines = series.to_patched(h, new_lines)
        p_state, p_by, _ = pat.side(h.path, p_lines)
        b_by = set()
        if h.path in series.added:
            b_state = "-"
        else:
            b_lines = series.to_baseline(h, old_lines)
            b_state, b_by, _ = base.side(h.path, b_lines)
        states = {p_state} | ({b_state} - {"-"})
        if states == {"executed"}:
            verdict = "executed"
        elif states == {"no code"}:
            verdict = "no code"
        elif "not built" in states:
            verdict = "not built"
        else:
            verdict = "not executed"
        # The changed lines themselves (not their neighbours).
        p_exe, p_ran = pat.changed(h.path, series.to_patched(h, set(range(h.ns, h.ns + h.nl))))
        b_exe, b_ran = (0, 0) if h.path in series.added else \
            base.changed(h.path, series.to_baseline(h, set(range(h.os, h.os + h.ol))))
        listed = None
        if verdict in ("not built", "not executed"):
            # WORD may be in the hunk, its function line, or the lines
            # just above it in the patched tree (a label, a condition).
            near = series.near(h.path, p_lines)
            for e in unreached:
                if fnmatch.fnmatchcase(h.path, e["pat"]) and \
                        (not e["word"] or e["word"] in h.head + "\n" + h.text + "\n" + near):
                    listed = e
                    e["used"] += 1
                    break
        # An object no kernel built: its added lines that would hold
        # code count as changed lines not run (the whole-series share).
        nb = sum(1 for ln in h.text.splitlines() if ln.startswith("+") and code_like(ln[1:])) \
            if verdict == "not built" else 0
        rows.append({"h": h, "p": p_state, "b": b_state, "verdict": verdict,
                     "listed": listed, "p_exe": p_exe, "p_ran": p_ran,
                     "b_exe": b_exe, "b_ran": b_ran, "nb_lines": nb,
                     "by": f"patched {span(p_by)}; baseline {span(b_by)}"})

    # Per patch.
    per = collections.OrderedDict()
    for i, s in enumerate(series.subjects, 1):
        per[i] = collections.Counter()
    for r in rows:
        c = per[r["h"].patch]
        c["hunks"] += 1
        c[r["verdict"]] += 1
        if r["listed"]:
            c["listed"] += 1
        elif r["verdict"] in ("not built", "not executed"):
            c["gaps"] += 1
        for k in ("p_exe", "p_ran", "b_exe", "b_ran", "nb_lines"):
            c[k] += r[k]
    tot = collections.Counter()
    for c in per.values():
        tot.update(c)

    with_code = tot["hunks"] - tot["no code"]
    whole = tot["p_exe"] + tot["nb_lines"]
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "hunks.tsv"), "w") as f:
        f.write("patch\tfile\tpatch_hunk\tpatched\tbaseline\tverdict\tdecided_by\tlisted\n")
        for r in rows:
            h = r["h"]
            f.write(f"{h.patch:02d}\t{h.path}\t-{h.os},{h.ol} +{h.ns},{h.nl}\t{r['p']}\t{r['b']}\t"
                    f"{r['verdict']}\t{r['by']}\t{r['listed']['reason'] if r['listed'] else ''}\n")
    with open(os.path.join(a.out, "table.md"), "w") as f:
        f.write("| patch | hunks | executed (both) | no code | not built | not executed | listed unreachable | gaps "
                "| changed lines run, patched | changed lines run, baseline |\n")
        f.write("|---|---|---|---|---|---|---|---|---|---|\n")
        for i, c in per.items():
            f.write(f"| {i:02d} {series.subjects[i - 1][:48]} | {c['hunks']} | {c['executed']} | {c['no code']} | "
                    f"{c['not built']} | {c['not executed']} | {c['listed']} | {c['gaps']} | "
                    f"{c['p_ran']}/{c['p_exe']} | {c['b_ran']}/{c['b_exe']} |\n")
        f.write(f"| all | {tot['hunks']} | {tot['executed']} | {tot['no code']} | {tot['not built']} | "
                f"{tot['not executed']} | {tot['listed']} | {tot['gaps']} | {tot['p_ran']}/{tot['p_exe']} | "
                f"{tot['b_ran']}/{tot['b_exe']} |\n\n")
        f.write(f"Whole series: {tot['executed']} of {with_code} hunks with code executed on both kernels; "
                f"changed lines run on the patched kernel {tot['p_ran']}/{whole}, the {tot['nb_lines']} "
                "changed lines of objects no kernel built counted as not run.\n\n")
        f.write("Hunks not built or not executed, by file (patch:+the hunk's first line in that patch's diff), "
                "with config/coverage-unreached's reason:\n\n")
        byreason = collections.defaultdict(list)
        for r in rows:
            if r["verdict"] in ("not built", "not executed"):
                why = r["listed"]["reason"] if r["listed"] else "NOT LISTED"
                byreason[(r["h"].path, r["verdict"], why)].append(r)
        for (path, verdict, why), rs in sorted(byreason.items()):
            f.write(f"- {path} ({verdict}): "
                    + ", ".join(f"{r['h'].patch:02d}:+{r['h'].ns}" for r in rs) + f": {why}\n")
        f.write("\nBoots (dump files): " + "; ".join(
            f"{k.name} " + ", ".join(f"{b} {n}" for b, n in k.boots) for k in (base, pat)) + "\n")

    failed = []
    for r in rows:
        if r["verdict"] in ("not built", "not executed") and not r["listed"]:
            h = r["h"]
            failed.append(f"gap: patch {h.patch:02d} {h.path} @@ -{h.os},{h.ol} +{h.ns},{h.nl} @@ {h.head[:40]}"
                          f" ({r['verdict']}: patched {r['p']}, baseline {r['b']})")
    for e in unreached:
        if not e["used"]:
            failed.append(f"stale: config/coverage-unreached:{e['line']} {e['pat']}"
                          f"{':' + e['word'] if e['word'] else ''} matches no hunk that was not executed")
    measured = {"hunks executed": tot["executed"],
                "share hunks executed": 100.0 * tot["executed"] / max(with_code, 1),
                "share executed patched whole series": 100.0 * tot["p_ran"] / max(whole, 1),
                "lines executed patched": tot["p_ran"],
                "lines executed baseline": tot["b_ran"],
                "share executed patched": 100.0 * tot["p_ran"] / max(tot["p_exe"], 1),
                "share executed baseline": 100.0 * tot["b_ran"] / max(tot["b_exe"], 1)}
    for k, v in floors.items():
        if k not in measured:
            failed.append(f"floor: unknown key '{k}' in {os.path.basename(a.floors)}")
        elif measured[k] < v:
            failed.append(f"floor: {k} {measured[k]:.1f} < {v:g}")
    for k in measured:
        if k not in floors:
            failed.append(f"floor: no floor for '{k}'")
    for line in failed:
        print(line)
    print("per patch: hunks executed/total, changed lines run patched, baseline")
    for i, c in per.items():
        print(f"  {i:02d} {c['executed']}/{c['hunks']} hunks, {c['p_ran']}/{c['p_exe']}, {c['b_ran']}/{c['b_exe']}"
              f"{', ' + str(c['gaps']) + ' gaps' if c['gaps'] else ''}")
    print(f"whole series: {tot['executed']} of {with_code} hunks with code executed on both kernels "
          f"({measured['share hunks executed']:.1f}%); changed lines run on the patched kernel "
          f"{tot['p_ran']}/{whole} ({measured['share executed patched whole series']:.1f}%), "
          f"counting {tot['nb_lines']} lines of objects not built as not run")
    print(f"{'FAIL' if failed else 'ok'}: {tot['hunks']} hunks: {tot['executed']} executed on both kernels, "
          f"{tot['no code']} no code, {tot['listed']} listed unreachable, {tot['gaps']} gaps; changed lines run "
          f"{tot['p_ran']}/{tot['p_exe']} patched ({measured['share executed patched']:.1f}%), "
          f"{tot['b_ran']}/{tot['b_exe']} baseline ({measured['share executed baseline']:.1f}%)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
