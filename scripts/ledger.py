#!/usr/bin/env python3
"""The ledger: every pipeline's last run, and what it was run on.

  ledger.py start PIPELINE FILE             (results_init: the inputs a run starts with)
  ledger.py watch PID FILE                  (results_init: the config files a run reads)
  ledger.py record PIPELINE P F S SECONDS [--inputs FILE] [--scripts FILE] [--config FILE]
                                            (finish() calls it)
  ledger.py status                          (make status)
  ledger.py results [--check]               (make results; make check's test)
  ledger.py rows [--full|--names]           (config/pipelines for the shell and make)
  ledger.py counts PIPELINE [--newer FILE]  (a record's closing counts: .ci/run)

A record is ledger/<pipeline>.<tree>.<arch>.json, one per row of
config/pipelines, written by the pipeline itself when it ends: its counts,
verdict, date, and the commit and digests of the inputs it started with.  A record whose series
digest differs from the one of the tree it stands for is STALE; one whose
other inputs changed says which.  The results page (docs/results.md) and
two blocks of README.md are written from the ledger; --check compares the
committed ones with what HEAD's ledger and inputs give, so a commit that
changes an input without regenerating them fails make check.
Python 3 standard library only, like the kernel's kunit.py.
"""

import datetime
import hashlib
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = "docs/results.md"
README = "README.md"

# The inputs a record names by digest: the series is the tree's own
# (config/tree's series key); the others are the same for every tree.
INPUTS = {
    "config": ["config"],
    "guest": ["guest"],
    "harness": ["scripts", "host", "tests", "dkms", "Makefile", ".ci"],
}
# The harness files a record covers only when its run started them: the
# top-level shell scripts (scripts/*.sh, tests/*.sh), each logged by
# the bash that ran it (scripts/lib/ledger-env.sh, BASH_ENV).  Every
# other harness file (lib/, the host tests test-host sources, Python,
# awk, C, Makefile, dkms/) is in every record's digest.
# The config files a record covers: those its run opened (ledger.py
# watch, inotify on config/ while the run goes, started by results_init
# and stopped by finish), config_read in the record.  A record without
# that list (older, or a run where inotify was not there) covers all.
WATCHED = "config"


def per_run(path):
    d, _, name = path.rpartition("/")
    return d in ("scripts", "tests") and name.endswith(".sh")


# What a pipeline's record must hold.
FIELDS = ("pipeline", "tree", "arch", "toolchain", "commit", "date",
          "seconds", "passed", "failed", "skipped", "verdict", "digests")


def git(*args, text=True):
    return subprocess.run(["git", "-C", ROOT, *args], check=True,
                          capture_output=True, text=text).stdout


class Snapshot:
    """The project as files: the working tree, or a commit's tree."""

    def __init__(self, rev=None):
        self.rev = rev

    def files(self, paths):
        if self.rev:
            out = git("ls-tree", "-r", "-z", "--full-tree", self.rev, "--", *paths)
            return sorted(line.split("\t", 1)[1] for line in out.split("\0") if line)
        out = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *paths)
        return sorted(p for p in out.split("\0") if p and os.path.isfile(os.path.join(ROOT, p)))

    def read(self, path):
        """Bytes of PATH, or None when it does not exist."""
        if self.rev:
            r = subprocess.run(["git", "-C", ROOT, "show", f"{self.rev}:{path}"],
                               capture_output=True, check=False)
            return r.stdout if r.returncode == 0 else None
        try:
            with open(os.path.join(ROOT, path), "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def text(self, path):
        data = self.read(path)
        return None if data is None else data.decode()

    def blobs(self, paths):
        """{file: git blob id} of every file under PATHS."""
        out = {}
        for p in self.files(paths):
            data = self.read(p)
            out[p] = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
        return out

    def digest(self, paths, ran=None):
        """sha256 over each file's path and git blob id: the same value
        for the same contents, whether read from disk or from a commit.
        RAN (harness): the per-run scripts a record's run started; the
        others are left out."""
        return blobs_digest(self.blobs(paths), ran)

    def series_dir(self, tree):
        """The tree's series folder; for a tree without series (7.3,
        upstream), the folder of the fixes it applies (config/tree's
        fixes), so that a changed fix makes its records STALE."""
        keys = {}
        for line in (self.text(f"config/tree/{tree}") or "").splitlines():
            f = line.split(None, 1)
            if len(f) == 2:
                keys.setdefault(f[0], f[1].strip())
        if "series" not in keys:
            raise SystemExit(f"ledger: config/tree/{tree} names no series")
        if keys["series"] == "-" and keys.get("fixes", "-") != "-":
            return keys["fixes"]
        return keys["series"]

    def digests(self, tree, ran=None, read=None):
        """The inputs' digests; RAN: a record's harness_sh (the harness
        digest then covers those of the per-run scripts only); READ: its
        config_read (the config digest then covers those files only)."""
        d = {"series": self.digest([self.series_dir(tree)])}
        for name, paths in INPUTS.items():
            if name == WATCHED and read is not None:
                d[name] = read_digest(self.blobs(paths), read)
            else:
                d[name] = self.digest(paths, ran if name == "harness" else None)
        return d

    def rows(self):
        """config/pipelines: the rows (pipeline, tree, arch, command, full)
        and the narrowing variables."""
        rows, narrowing = [], []
        for line in (self.text("config/pipelines") or "").splitlines():
            f = line.split()
            if not f or f[0].startswith("#"):
                continue
            if f[0] == "narrowing":
                narrowing = f[1:]
                continue
            rows.append((f[0], f[1], f[2], " ".join(f[4:]), f[3] == "yes"))
        return rows, narrowing

    def records(self):
        recs = {}
        for p in self.files(["ledger"]):
            if p.endswith(".json"):
                r = json.loads(self.text(p))
                recs[(r["pipeline"], r["tree"], r["arch"])] = r
        return recs


def changed(rec, now):
    """The inputs whose digest differs from the record's."""
    return [k for k in ("series", "config", "guest", "harness")
            if rec["digests"].get(k) != now.get(k)]


def state(rec, now):
    if rec is None:
        return "NO RECORD"
    ch = changed(rec, now)
    if "series" in ch:
        return "STALE (" + ", ".join(ch) + " changed)"
    if ch:
        return "changed: " + ", ".join(ch)
    return "current"


def blobs_digest(blobs, ran=None):
    h = hashlib.sha256()
    for p in sorted(blobs):
        if ran is None or not per_run(p) or p in ran:
            h.update(f"{p}\0{blobs[p]}\n".encode())
    return h.hexdigest()[:16]


def read_digest(blobs, read):
    """sha256 over the files of READ as BLOBS has them (a file gone
    counts as changed)."""
    h = hashlib.sha256()
    for p in sorted(read):
        h.update(f"{p}\0{blobs.get(p, '-')}\n".encode())
    return h.hexdigest()[:16]


def now_digests(snap, rec, tree, cache):
    """SNAP's digests to hold REC against (its own harness scripts and
    config files)."""
    ran = tuple(rec.get("harness_sh") or ()) if rec and "harness_sh" in rec else None
    read = tuple(rec["config_read"]) if rec and "config_read" in rec else None
    key = (tree, ran, read)
    if key not in cache:
        cache[key] = snap.digests(tree, None if ran is None else set(ran), read)
    return cache[key]


def counts(rec):
    s = f"{rec['passed']} passed, {rec['failed']} failed, {rec['skipped']} skipped"
    return s


def here():
    """The tree and arch this run is for, as lib.sh's profiles name them
    (TREE_NAME, ARCH_NAME; TREE or ARCH when run outside a pipeline)."""
    return (os.environ.get("TREE_NAME") or os.environ.get("TREE") or "6.12",
            os.environ.get("ARCH_NAME") or os.environ.get("ARCH") or "x86_64")


def record_path(pipeline):
    """ledger/<pipeline>.<tree>.<arch>.json for this tree and arch."""
    tree, arch = here()
    d = os.environ.get("LEDGER_DIR") or os.path.join(ROOT, "ledger")
    return os.path.join(d, f"{pipeline}.{tree}.{arch}.json")


def inputs_now(tree):
    """HEAD (with +uncommitted when an input differs from it) and the
    inputs' digests, as the working tree has them now."""
    snap = Snapshot()
    head = git("rev-parse", "--short=12", "HEAD").strip()
    inputs = [snap.series_dir(tree)] + [p for ps in INPUTS.values() for p in ps]
    dirty = bool(git("status", "--porcelain", "--untracked-files=no", "--", *inputs).strip())
    return {"commit": head + ("+uncommitted" if dirty else ""), "digests": snap.digests(tree),
            "harness_blobs": snap.blobs(INPUTS["harness"]),
            "config_blobs": snap.blobs(INPUTS[WATCHED])}


def cmd_start(argv):
    """start PIPELINE FILE: the inputs a run starts with (its commit,
    digests and harness files), written by results_init for a pipeline
    config/pipelines lists; the record names these, not those of the
    tree at its end (a commit made while a run builds is not what it
    ran)."""
    if len(argv) != 2:
        raise SystemExit("usage: ledger.py start PIPELINE FILE")
    pipeline, path = argv
    tree, arch = here()
    rows, _ = Snapshot().rows()
    if os.path.exists(path):
        os.remove(path)
    if not any(r[:3] == (pipeline, tree, arch) for r in rows):
        return 0  # not a pipeline the project claims: no record follows
    with open(path + ".tmp", "w") as out:
        json.dump(inputs_now(tree), out, sort_keys=True)
    os.replace(path + ".tmp", path)
    return 0


def cmd_watch(argv):
    """watch PID FILE: until process PID ends (or SIGTERM), append to
    FILE each file under config/ that is opened, once, as a path of the
    project ("*" if the kernel's queue overflowed: the record then
    covers all of config/).  inotify through ctypes (the standard
    library has no binding); FILE.pid holds the watcher's PID, FILE is
    created once the watches are in place (results_init waits for it).
    Any process's opens count, so a make status run meanwhile widens
    the list, never narrows it."""
    import ctypes
    import select
    import signal
    import struct
    if len(argv) != 2:
        raise SystemExit("usage: ledger.py watch PID FILE")
    pid, path = int(argv[0]), argv[1]
    in_open, in_q_overflow, in_isdir = 0x20, 0x4000, 0x40000000
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
    if fd < 0:
        return 1  # no file: the record covers all of config/
    wds = {}
    for d, _dirs, _files in os.walk(os.path.join(ROOT, WATCHED)):
        wd = libc.inotify_add_watch(fd, os.fsencode(d), in_open)
        if wd >= 0:
            wds[wd] = os.path.relpath(d, ROOT)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    with open(path + ".pid", "w") as fh:
        fh.write(f"{os.getpid()}\n")
    seen = set()
    with open(path, "w") as out:
        def drain():
            while True:
                try:
                    buf = os.read(fd, 65536)
                except BlockingIOError:
                    return
                i = 0
                while i + 16 <= len(buf):
                    wd, mask, _cookie, n = struct.unpack_from("iIII", buf, i)
                    name = buf[i + 16:i + 16 + n].split(b"\0", 1)[0].decode(errors="replace")
                    i += 16 + n
                    if mask & in_q_overflow:
                        rel = "*"
                    elif mask & in_isdir or not name or wd not in wds:
                        continue
                    else:
                        rel = os.path.join(wds[wd], name)
                    if rel not in seen:
                        seen.add(rel)
                        out.write(rel + "\n")
                        out.flush()
        poll = select.poll()
        poll.register(fd, select.POLLIN)
        while not stop:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            except PermissionError:
                pass
            poll.poll(1000)
            drain()
        drain()
    os.close(fd)
    return 0


def scripts_ran(path):
    """The per-run scripts a run's bash processes logged (ledger-env.sh),
    as paths of the project."""
    ran = set()
    with open(path) as fh:
        for line in fh:
            p = line.strip()
            p = os.path.relpath(os.path.normpath(os.path.join(ROOT, p)), ROOT)
            if per_run(p):
                ran.add(p)
    return sorted(ran)


def config_read(path):
    """The config files a run opened (ledger.py watch's list), or None
    when the list is missing or the watch lost events."""
    try:
        with open(path) as fh:
            lines = [line.strip() for line in fh if line.strip()]
    except OSError:
        return None
    if "*" in lines:
        return None
    return sorted(set(lines))


def cmd_record(argv):
    opts = {}
    while len(argv) > 5 and argv[-2] in ("--inputs", "--scripts", "--config"):
        opts[argv[-2]], argv = argv[-1], argv[:-2]
    start, logged, opened = opts.get("--inputs"), opts.get("--scripts"), opts.get("--config")
    if len(argv) != 5:
        raise SystemExit("usage: ledger.py record PIPELINE PASSED FAILED SKIPPED SECONDS"
                         " [--inputs FILE] [--scripts FILE] [--config FILE]")
    pipeline, p, f, s, secs = argv
    snap = Snapshot()
    tree, arch = here()
    rows, narrowing = snap.rows()
    if not any(r[:3] == (pipeline, tree, arch) for r in rows):
        return 0  # not a pipeline the project claims (a test's, a helper's)
    narrowed = [v for v in narrowing if os.environ.get(v)]
    if narrowed and not os.environ.get("LEDGER_PARTIAL"):
        # A run that tested less never replaces the pipeline's record.
        print(f"ledger: no record for {pipeline} ({tree}, {arch}): a partial run ({' '.join(narrowed)})")
        return 0
    now = inputs_now(tree)
    ran, ran_sh, read = now, None, None
    if start:
        try:
            with open(start) as fh:
                ran = json.load(fh)
        except (OSError, ValueError):
            raise SystemExit(f"ledger: no inputs recorded at the start of {pipeline} ({start})")
        if logged and os.path.exists(logged) and "harness_blobs" in ran:
            ran_sh = [p for p in scripts_ran(logged) if p in ran["harness_blobs"]]
            ran["digests"]["harness"] = blobs_digest(ran["harness_blobs"], set(ran_sh))
            now["digests"]["harness"] = blobs_digest(snap.blobs(INPUTS["harness"]), set(ran_sh))
        read = config_read(opened) if opened and "config_blobs" in ran else None
        if read is not None:
            read = [p for p in read if p in ran["config_blobs"]]
            ran["digests"][WATCHED] = read_digest(ran["config_blobs"], read)
            now["digests"][WATCHED] = read_digest(snap.blobs(INPUTS[WATCHED]), read)
        moved = [k for k in ran["digests"] if ran["digests"][k] != now["digests"].get(k)]
        if moved:
            print(f"ledger: {', '.join(moved)} changed while {pipeline} ran: "
                  f"the record names what it started with ({ran['commit']})")
    rec = {
        "pipeline": pipeline, "tree": tree, "arch": arch,
        "toolchain": os.environ.get("TOOLCHAIN") or "clang",
        "commit": ran["commit"],
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "seconds": int(secs), "passed": int(p), "failed": int(f), "skipped": int(s),
        "verdict": "fail" if int(f) else ("partial" if narrowed else "pass"),
        "digests": ran["digests"],
    }
    if ran_sh is not None:
        rec["harness_sh"] = ran_sh
    if read is not None:
        rec["config_read"] = read
    if narrowed:
        rec["narrowed_by"] = narrowed
    path = record_path(pipeline)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as out:
        json.dump(rec, out, indent=1, sort_keys=True)
        out.write("\n")
    os.replace(path + ".tmp", path)
    print(f"ledger: {os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else os.path.basename(path)} ({rec['verdict']}, {rec['commit']})")
    return 0


def age(date):
    then = datetime.datetime.strptime(date, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
    h = (datetime.datetime.now(datetime.timezone.utc) - then).total_seconds() / 3600
    return f"{h:.0f} h" if h < 48 else f"{h / 24:.0f} d"


def cmd_status(_argv):
    snap = Snapshot()
    rows, _ = snap.rows()
    recs = snap.records()
    now = {}
    table = [("pipeline", "tree", "arch", "verdict", "counts", "commit", "age", "inputs")]
    for pipe, tree, arch, _cmd, _full in rows:
        r = recs.get((pipe, tree, arch))
        if r is None:
            table.append((pipe, tree, arch, "-", "-", "-", "-", "NO RECORD"))
            continue
        table.append((pipe, tree, arch, r["verdict"], counts(r), r["commit"], age(r["date"]),
                      state(r, now_digests(snap, r, tree, now))))
    w = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        print("  ".join(c.ljust(w[i]) for i, c in enumerate(row)).rstrip())
    ok = sum(1 for row in table[1:] if row[3] == "pass" and row[7] == "current")
    print(f"{ok} of {len(rows)} rows pass and are current")
    return 0


def page(snap):
    """docs/results.md, from SNAP's ledger and inputs."""
    rows, _ = snap.rows()
    recs = snap.records()
    now = {}
    out = ["# Results", "",
           "Written by `make results` from `ledger/` (each record written by",
           "the pipeline's own run when it ended); do not edit.  One row per",
           "pipeline, tree and arch of `config/pipelines`.  *current*: its",
           "inputs are those of this commit; *changed*: the record was made",
           "before a change to the inputs named; *STALE*: before a change to",
           "the series itself.  `make status` adds each record's age.", "",
           "| pipeline | tree | arch | verdict | passed | failed | skipped | took | commit | date | inputs | rerun |",
           "|---|---|---|---|--:|--:|--:|--:|---|---|---|---|"]
    for pipe, tree, arch, cmd, _full in rows:
        r = recs.get((pipe, tree, arch))
        if r is None:
            out.append(f"| {pipe} | {tree} | {arch} | - | | | | | | | NO RECORD | `{cmd}` |")
            continue
        v = r["verdict"] + (" (" + " ".join(r["narrowed_by"]) + ")" if r.get("narrowed_by") else "")
        out.append(f"| {pipe} | {tree} | {arch} | {v} | {r['passed']} | {r['failed']} | {r['skipped']} "
                   f"| {r['seconds']} s | {r['commit']} | {r['date'][:10]} | {state(r, now_digests(snap, r, tree, now))} | `{cmd}` |")
    return "\n".join(out) + "\n"


# The rows README's results block shows, beside the count of all rows:
# what CI runs, the other tree's comparison, the fixes on every tree
# and upstream at run time.
README_ROWS = (("run", "6.12"), ("check", "6.12"), ("check", "6.1"),
               ("check-fix", "7.3"), ("check-fix", "6.12"), ("check-fix", "6.1"),
               ("upstream-boot", "7.3"))


def summary(snap):
    """README's results block: the rows of README_ROWS (x86_64), and the
    count of rows that pass at this commit's inputs."""
    rows, _ = snap.rows()
    recs = snap.records()
    now = {}
    lines, ok, shown = [], 0, []
    for pipe, tree, arch, cmd, _full in rows:
        r = recs.get((pipe, tree, arch))
        st = state(r, now_digests(snap, r, tree, now))
        if r is not None and r["verdict"] == "pass" and st == "current":
            ok += 1
        if (pipe, tree) in README_ROWS and arch == "x86_64":
            shown.append((README_ROWS.index((pipe, tree)),
                          f"    {cmd:<26} {counts(r) if r else 'no record'}"
                          + (f"  ({r['commit']}, {r['date'][:10]}, {st})" if r else "")))
    lines += [line for _, line in sorted(shown)]
    lines.append("")
    lines.append(f"{ok} of {len(rows)} pipeline x tree x arch rows have a passing record at this")
    lines.append("commit's inputs: every row, with its commit and what changed since, is")
    lines.append("in [docs/results.md](docs/results.md) (`make status` adds each record's age).")
    return "\n".join(lines) + "\n"


def make_help(snap):
    """make help's output, run on SNAP's own Makefile and config."""
    with tempfile.TemporaryDirectory() as d:
        if snap.rev:
            arch = subprocess.run(["git", "-C", ROOT, "archive", snap.rev, "Makefile", "config",
                                   "host", "scripts"], capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", d], input=arch, check=True)
            top = d
        else:
            top = ROOT
        env = {k: v for k, v in os.environ.items() if k not in ("TREE", "ARCH", "BUILD", "MAKEFLAGS", "MAKELEVEL")}
        out = subprocess.run(["make", "-s", "--no-print-directory", "-C", top, "help"], capture_output=True,
                             text=True, check=True, env=env).stdout
    # The entry points; the variables that follow them are config/variables'.
    out = out.split("\nVariables", 1)[0].rstrip("\n") + "\n"
    return ("```text\n" + out + "```\n\n"
            "`make help` goes on with every variable the harness reads (config/variables).\n")


def fill(text, name, body):
    """TEXT with the block between README's markers for NAME replaced."""
    begin = f"<!-- begin: {name}"
    end = f"<!-- end: {name} -->"
    i = text.find(begin)
    j = text.find(end)
    if i < 0 or j < i:
        raise SystemExit(f"ledger: README.md has no '{begin} ...' ... '{end}' block")
    i = text.index("\n", i) + 1
    return text[:i] + body + text[j:]


def generated(snap):
    readme = snap.text(README) or ""
    readme = fill(readme, "results", summary(snap))
    readme = fill(readme, "make help", make_help(snap))
    return {PAGE: page(snap), README: readme}


def cmd_results(argv):
    if argv == ["--check"]:
        # The committed page against HEAD's own ledger and inputs: a
        # record a run just wrote in this clone is not committed yet.
        snap = Snapshot("HEAD")
        bad = 0
        for path, want in generated(snap).items():
            have = snap.text(path)
            if have != want:
                bad += 1
                print(f"results: {path} as committed differs from what make results writes from HEAD's ledger and inputs:")
                import difflib
                sys.stdout.writelines(list(difflib.unified_diff(
                    (have or "").splitlines(True), want.splitlines(True), f"HEAD:{path}", "make results"))[:40])
        if bad:
            print("results: run make results and commit the page with the change")
        return 1 if bad else 0
    if argv:
        raise SystemExit("usage: ledger.py results [--check]")
    for path, text in generated(Snapshot()).items():
        with open(os.path.join(ROOT, path), "w") as f:
            f.write(text)
        print(f"results: wrote {path}")
    return 0


def row_name(pipeline, tree, arch):
    """The name make check-full nests a row under: the pipeline, -TREE
    and -ARCH added for a tree or arch not the default."""
    return (pipeline + ("" if tree == "6.12" else "-" + tree)
            + ("" if arch == "x86_64" else "-" + arch))


def cmd_rows(argv):
    """The one reader of config/pipelines for the shell and make: one
    line per row, "NAME PIPELINE TREE ARCH FULL COMMAND" (FULL yes or -);
    --full: only the rows make check-full runs, "NAME COMMAND"; --names:
    those rows' names, comma-separated (make help)."""
    if argv not in ([], ["--full"], ["--names"]):
        raise SystemExit("usage: ledger.py rows [--full|--names]")
    rows, _ = Snapshot().rows()
    if argv == ["--names"]:
        print(", ".join(row_name(*r[:3]) for r in rows if r[4]))
        return 0
    for pipeline, tree, arch, command, full in rows:
        if argv == ["--full"]:
            if full:
                print(row_name(pipeline, tree, arch), command)
        else:
            print(row_name(pipeline, tree, arch), pipeline, tree, arch,
                  "yes" if full else "-", command)
    return 0


def cmd_counts(argv):
    """The closing counts of PIPELINE's record for the current tree and
    arch, as its closing line says them.  --newer FILE: a record not
    written after FILE (the run died before its finish(); the record is
    an older run's) counts as one failure."""
    if len(argv) not in (1, 3) or (len(argv) == 3 and argv[1] != "--newer"):
        raise SystemExit("usage: ledger.py counts PIPELINE [--newer FILE]")
    path = record_path(argv[0])
    fresh = os.path.exists(path) and (
        len(argv) == 1 or os.path.getmtime(path) > os.path.getmtime(argv[2]))
    if not fresh:
        print("0 passed, 1 failed, 0 skipped")
        return 1
    with open(path) as f:
        print(counts(json.load(f)))
    return 0


def main(argv):
    cmds = {"start": cmd_start, "watch": cmd_watch, "record": cmd_record, "status": cmd_status, "results": cmd_results,
            "rows": cmd_rows, "counts": cmd_counts}
    if len(argv) < 2 or argv[1] not in cmds:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    return cmds[argv[1]](argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
