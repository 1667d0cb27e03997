#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""MPI test: memprof on the ranks of an MPI program run by OpenMPI's
mpirun, one output file per rank, and memprof_annotate's per-rank view
of their merge.

    run.py [--valgrind=PATH] [--annotate=PATH] [--dir=BUILD_DIR]

--valgrind  the valgrind command (./vg-in-place from the build tree)
--annotate  memprof_annotate (the built script in the source tree)
--dir       where the client is built and run (build-mpi by default);
            emptied first (only if empty or made by this script)

imbalance.c (see there) sweeps its global array grid once on rank 0
and four times on rank 1; it runs as

    mpirun --oversubscribe -np 2 valgrind --tool=memprof
           --memprof-out-file=DIR/mp.%q{OMPI_COMM_WORLD_RANK} ./imbalance

(as root with OMPI_ALLOW_RUN_AS_ROOT=1 and
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1, which CI needs), after a native run
of the same (when that fails, mpirun cannot run here: skipped).  The
checks: the run succeeds and writes mp.0 and mp.1; each file gives grid
the bytes derived in imbalance.c (24N on rank 0, 72N on rank 1,
N = 4096), read with the reader, not the annotator; and
memprof_annotate mp.1 mp.0
(ranks taken from the names, not the order) shows in its per-rank view
grid's min 98,304, mean 196,608, max 294,912, max/mean 1.50 at rank 1.
Only grid is checked: the runtime's variables (OpenMPI's) come and go
with its version and memprof's classing.

Prints "PASS what", "FAIL what" or "SKIP what (why)" per check, then
"N passed, N failed, N skipped"; without mpicc or mpirun (Debian's
libopenmpi-dev and openmpi-bin, which auto/memprof-deps.sh --test
installs) everything is skipped.  Exits 1 when a check failed."""

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(TOP, "memprof", "annotate"))
sys.dont_write_bytecode = True
from memprof_reader import read_file  # noqa: E402

N = 4096                        # imbalance.c's N
RANK_BYTES = {0: 24 * N, 1: 72 * N}
CHECKS = ("run", "rank files", "per-rank view")
TIMEOUT = 900                   # two ranks under memprof take about a minute


class Report:
    def __init__(self):
        self.counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}

    def say(self, verdict, what, why=None):
        self.counts[verdict] += 1
        print("%s %s%s" % (verdict, what, " (%s)" % why if why else ""))
        sys.stdout.flush()


def grid_bytes(path):
    """grid's bytes (read and written) in one rank's file."""
    f = read_file(path)
    found = [v for v in f.variables if v.name == "grid"]
    if len(found) != 1:
        raise ValueError("%s: %d variables named grid" % (path, len(found)))
    v = found[0]
    return (v.read_bytes or 0) + (v.write_bytes or 0)


def ranks_row(text, name):
    """The cells of name's row in the report's per-rank view, or None."""
    m = re.search(r"^-- Ranks, by .*?\n(.*?)(?:\n\n-|\Z)", text,
                  re.S | re.M)
    if m is None:
        return None
    for line in m.group(1).splitlines():
        cells = line.split()
        if len(cells) >= 7 and cells[6] == name:
            return cells
    return None


def run(opts, report):
    mpicc, mpirun = shutil.which("mpicc"), shutil.which("mpirun")
    if mpicc is None or mpirun is None:
        for what in CHECKS:
            report.say("SKIP", what, "no mpicc or mpirun: install Debian's "
                       "openmpi-bin and libopenmpi-dev")
        return
    exe = os.path.join(opts.dir, "imbalance")
    build = subprocess.run([mpicc, "-g", "-O1", "-o", exe,
                            os.path.join(HERE, "imbalance.c")],
                           capture_output=True, text=True)
    if build.returncode != 0:
        for what in CHECKS:
            report.say("FAIL", what, "mpicc failed: %s"
                       % build.stderr.strip()[-300:])
        return
    # In a container, the shared-memory transport's single copy needs
    # ptrace rights that it may lack: OpenMPI's advice is to turn it off.
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_vader_single_copy_mechanism="none")
    launch = [mpirun, "--oversubscribe", "-np", "2"]
    # Natively first: an mpirun that cannot run here is no fault of
    # memprof's.
    try:
        native = subprocess.run(launch + [exe], cwd=opts.dir, env=env,
                                capture_output=True, text=True,
                                timeout=120)
        ok = native.returncode == 0 and "checksum" in native.stdout
        why = "exit %d: %s" % (native.returncode,
                               native.stderr.strip()[-300:])
    except subprocess.TimeoutExpired:
        ok, why = False, "over 120 s"
    if not ok:
        for what in CHECKS:
            report.say("SKIP", what, "mpirun fails natively here (%s)" % why)
        return
    out = os.path.join(opts.dir, "mp.%q{OMPI_COMM_WORLD_RANK}")
    cmd = launch + [opts.valgrind, "--tool=memprof", "--min-var-size=4096",
                    "--memprof-out-file=" + out, exe]
    try:
        r = subprocess.run(cmd, cwd=opts.dir, env=env, capture_output=True,
                           text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        for what in CHECKS:
            report.say("FAIL", what, "mpirun took over %d s" % TIMEOUT)
        return
    with open(os.path.join(opts.dir, "mpirun.log"), "w") as log:
        log.write(r.stdout + r.stderr)
    files = [os.path.join(opts.dir, "mp.%d" % k) for k in (0, 1)]
    if r.returncode != 0 or "checksum" not in r.stdout \
            or not all(os.path.isfile(p) for p in files):
        for what in CHECKS:
            report.say("FAIL", what, "mpirun exited %d, files %s; see %s"
                       % (r.returncode, [os.path.basename(p) for p in files
                                         if os.path.isfile(p)],
                          os.path.join(opts.dir, "mpirun.log")))
        return
    report.say("PASS", "run")

    try:
        got = dict((k, grid_bytes(p)) for k, p in enumerate(files))
    except Exception as e:
        report.say("FAIL", "rank files", str(e))
    else:
        report.say("PASS" if got == RANK_BYTES else "FAIL", "rank files",
                   None if got == RANK_BYTES else
                   "grid's bytes per rank %s, expected %s"
                   % (got, RANK_BYTES))

    a = subprocess.run([sys.executable, opts.annotate, "--sort=bytes",
                        "--threshold=0", "--show=0", files[1], files[0]],
                       capture_output=True, text=True)
    row = ranks_row(a.stdout, "grid")
    low, high = min(RANK_BYTES.values()), max(RANK_BYTES.values())
    want = ["{:,}".format(low), "{:,}".format((low + high) // 2),
            "{:,}".format(high), "1.50", "1", "global", "grid"]
    if a.returncode == 0 and row is not None and row[:7] == want:
        report.say("PASS", "per-rank view")
    else:
        report.say("FAIL", "per-rank view", "exit %d, grid's row %s, "
                   "expected %s%s" % (a.returncode, row, want,
                                      "; " + a.stderr.strip()
                                      if a.stderr.strip() else ""))


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--valgrind", default=os.path.join(TOP, "vg-in-place"))
    ap.add_argument("--annotate",
                    default=os.path.join(TOP, "memprof_annotate"))
    ap.add_argument("--dir", default="build-mpi")
    opts = ap.parse_args()
    opts.valgrind = os.path.abspath(opts.valgrind) \
        if os.sep in opts.valgrind \
        else shutil.which(opts.valgrind) or opts.valgrind
    opts.annotate = os.path.abspath(opts.annotate)
    opts.dir = os.path.abspath(opts.dir)
    marker = os.path.join(opts.dir, ".memprof-mpi")
    if os.path.isdir(opts.dir) and os.listdir(opts.dir) \
            and not os.path.exists(marker):
        print("run.py: %s is not empty and not a directory of this test: "
              "not emptying it" % opts.dir, file=sys.stderr)
        return 2
    shutil.rmtree(opts.dir, ignore_errors=True)
    os.makedirs(opts.dir)
    open(marker, "w").close()
    report = Report()
    run(opts, report)
    c = report.counts
    print("%d passed, %d failed, %d skipped"
          % (c["PASS"], c["FAIL"], c["SKIP"]))
    return 1 if c["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
