#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The analysis helpers change no number.  Every regression test's program
is run as its .vgtest says, once with the analyses inline
(--analysis-procs=0), then with the reuse distances and the cache
simulation in one helper process (--analysis-procs=1) and in two
(--analysis-procs=2), each with --helper-check=yes, which runs the
helpers' analyses inline as well in the same run and compares every
count at the end: those runs must say "0 differ", whatever the threads'
interleaving.  For a program of one thread, the two output files are
compared too: each variable of the program's (class "program"), field
for field (the runtime's and the loader's are left out: the loader's
stack frames differ between two inline runs already, as they walk the
environment's strings); so are the forked children's files.  A program
of several threads is left to the check: under Valgrind even its access
counts follow the interleaving (a spin loop, which thread binds a
symbol first), which is not the same twice.  The exit status must be
the same either way.

    helper_exact.py --valgrind=VG [--dir=DIR] [TEST.vgtest ...]

Runs from the tests' directory (where vg_regtest runs them); without
tests, every *.vgtest there.  A test that writes no output file either
way (--help, a bad option) passes if both runs end with the same
status; one whose options choose --analysis-procs, or whose prereq or
isa does not hold here, is skipped.  Ends with "N passed, N failed, N
skipped".
"""
import argparse
import glob
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT = 600


def parse_vgtest(path):
    """The keys of a .vgtest file that say how its program runs."""
    t = {"vgopts": [], "args": "", "prog": None, "env": [], "prereq": None, "isa": None}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line or line.startswith("#") or ":" not in line:
                continue
            key, value = line.split(":", 1)
            value = value.strip()
            if key == "vgopts":
                t["vgopts"].append(value)
            elif key in ("prog", "prog-asis"):
                t["prog"] = value if key == "prog-asis" else "./" + value
            elif key == "args":
                t["args"] = value
            elif key == "env":
                t["env"].append(value)
            elif key in ("prereq", "isa"):
                t[key] = value
    return t


def comparable(doc):
    """The program's variables by name and place; none for a program of
    several threads."""
    found = {}
    if doc.get("totals", {}).get("threads", 1) > 1:
        return found
    for v in doc.get("variables", []):
        if v.get("class") == "program":
            found.setdefault("%s %s" % (v.get("name"), v.get("where")), []).append(v)
    return found


def load(path):
    with open(path, encoding="utf-8") as fh:
        return comparable(json.load(fh))


def differences(a, b, where="$", found=None):
    """{path: (value in a, value in b)} of the fields that differ."""
    found = {} if found is None else found
    if type(a) is not type(b):
        found[where] = (a, b)
    elif isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                found["%s.%s" % (where, k)] = (a.get(k), b.get(k))
            else:
                differences(a[k], b[k], "%s.%s" % (where, k), found)
    elif isinstance(a, list):
        if len(a) != len(b):
            found["%s (length)" % where] = (len(a), len(b))
        else:
            for i, (x, y) in enumerate(zip(a, b)):
                differences(x, y, "%s[%d]" % (where, i), found)
    elif a != b:
        found[where] = (a, b)
    return found


def run_once(vg, t, procs, out, check=False):
    """Runs the test's command with its own output file replaced by out
    and --analysis-procs=procs; its exit status, what is compared of the
    output (comparable) and of the forked children's (sorted), and its
    stderr."""
    opts = [o for o in shlex.split(" ".join(t["vgopts"]))
            if not o.startswith("--memprof-out-file=")]
    opts += ["--analysis-procs=%d" % procs, "--memprof-out-file=" + out]
    if check:
        opts.append("--helper-check=yes")
    cmd = "%s %s %s %s" % (shlex.quote(vg), " ".join(shlex.quote(o) for o in opts),
                           t["prog"], t["args"])
    env = dict(os.environ)
    for e in t["env"]:
        k, _, v = e.partition("=")
        env[k] = v
    p = subprocess.run(["/bin/sh", "-c", cmd], cwd=HERE, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=TIMEOUT)
    doc = load(out) if os.path.exists(out) else None
    children = sorted(json.dumps(load(f), sort_keys=True)
                      for f in glob.glob(out + ".*") if f[len(out) + 1:].isdigit())
    return p.returncode, doc, children, p.stderr


CHECK = re.compile(rb"helper check: (\d+) line records' reuses, (\d+) carrier tables, "
                   rb"(\d+) variables' and (\d+) line records' cache counts compared, "
                   rb"(\d+) differ")


def compare(t, procs, rc0, d0, c0, rc1, d1, c1, e1, said):
    """What differs between the inline run and the run with procs
    helpers; the latter's check, if it said it, is added to said."""
    problems = []
    check = CHECK.search(e1)
    reuse = "--reuse=no" not in " ".join(t["vgopts"])
    if reuse and not check:
        problems.append("the helpers' check said nothing: "
                        + e1.decode("utf-8", "replace")[-300:])
    elif check and int(check.group(5)):
        problems.append("the helpers' check: %s" % check.group(0).decode())
    elif check:
        said.append("%s line records' reuses, %s variables' cache counts"
                    % (check.group(1).decode(), check.group(3).decode()))
    if rc0 != rc1:
        problems.append("exit status %d inline, %d with %d helpers" % (rc0, rc1, procs))
    if d0 is None or d1 is None:
        problems.append("an output file only %s" % ("inline" if d1 is None else
                                                    "with %d helpers" % procs))
    else:
        diff = differences(d0, d1)
        if diff:
            k = sorted(diff)[0]
            problems.append("%d fields differ, e.g. %s: %r inline, %r with %d helpers"
                            % (len(diff), k, diff[k][0], diff[k][1], procs))
    if c0 != c1:
        problems.append("the forked children's files differ (%d inline, %d with %d helpers)"
                        % (len(c0), len(c1), procs))
    if b"analysis helper" in e1 and b"ended before" in e1:
        problems.append("a helper died: " + e1.decode("utf-8", "replace")[-300:])
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--valgrind", required=True)
    ap.add_argument("--dir")
    ap.add_argument("tests", nargs="*")
    a = ap.parse_args()
    tests = a.tests or sorted(glob.glob(os.path.join(HERE, "*.vgtest")))
    work = a.dir or tempfile.mkdtemp(prefix="mp-helper-exact-")
    os.makedirs(work, exist_ok=True)
    passed = failed = skipped = 0
    machine = {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine())
    for path in tests:
        name = os.path.basename(path)[:-len(".vgtest")]
        t = parse_vgtest(path)
        if t["prog"] is None or "--analysis-procs" in " ".join(t["vgopts"]) \
                or (t["isa"] and t["isa"] != machine):
            skipped += 1
            continue
        if t["prereq"] and subprocess.run(["/bin/sh", "-c", t["prereq"]], cwd=HERE,
                                          stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL).returncode != 0:
            skipped += 1
            continue
        runs = []
        for procs, tag in ((0, "A"), (1, "B"), (2, "C")):
            out = os.path.join(work, "%s.%s.json" % (name, tag))
            for f in glob.glob(out + "*"):
                os.unlink(f)
            runs.append(run_once(a.valgrind, t, procs, out, check=procs > 0))
        rc0, d0, c0, _ = runs[0]
        if all(d is None and rc == rc0 for rc, d, _, _ in runs):
            passed += 1     # a refused option, --help: refused the same way
            print("PASS %s (no output file either way, exit status %d)" % (name, rc0))
            continue
        problems, said = [], []
        for procs, (rc1, d1, c1, e1) in ((1, runs[1]), (2, runs[2])):
            problems += compare(t, procs, rc0, d0, c0, rc1, d1, c1, e1, said)
        if problems:
            failed += 1
            print("FAIL %s: %s" % (name, "; ".join(problems)))
        else:
            passed += 1
            print("PASS %s%s" % (name, " (checked %s)" % said[0] if said else ""))
    if not a.dir:
        shutil.rmtree(work, ignore_errors=True)
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
