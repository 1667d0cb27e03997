#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Cross-check of memprof's cache model against Cachegrind.

For each workload, runs Cachegrind and memprof with the same geometry
(D1 = L1, LL = L2, no L3, one core, no prefetcher: Cachegrind has none)
and compares the total data misses:
D1mr+D1mw against memprof's L1 misses, DLmr+DLmw against its L2 misses.
They must agree within --tolerance percent (1 by default).  Also checks
a property of the model: the blocked matrix multiply has fewer L1
capacity misses on b than the naive one.  Prints PASS/FAIL lines and
a final 'N passed, N failed' line; exits 1 on any failure.

The models differ in ways that stay well below 1% on these workloads:
Cachegrind also puts instruction fetches in its LL (they can evict data
lines), and runs the C library's malloc while memprof replaces it
(different allocator metadata accesses)."""
import argparse, json, os, subprocess, sys, tempfile

GEOMETRY = {"L1": "32768,8,64", "LL": "1048576,16,64"}


def cachegrind_misses(vg, prog, args, tmp):
    out = os.path.join(tmp, "cg.out")
    subprocess.run([vg, "--tool=cachegrind", "--cache-sim=yes",
                    "--I1=32768,8,64", "--D1=" + GEOMETRY["L1"],
                    "--LL=" + GEOMETRY["LL"], "--cachegrind-out-file=" + out,
                    prog] + args, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    events = summary = None
    for line in open(out):
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("summary:"):
            summary = [int(x) for x in line.split()[1:]]
    d = dict(zip(events, summary))
    return d["D1mr"] + d["D1mw"], d["DLmr"] + d["DLmw"], d["Ir"]


def memprof_run(vg, prog, args, tmp):
    out = os.path.join(tmp, "mp.json")
    # --prefetch=none: Cachegrind models no prefetcher; said explicitly so
    # that the comparison stays exact whatever memprof's default.
    subprocess.run([vg, "--tool=memprof", "--L1=" + GEOMETRY["L1"],
                    "--L2=" + GEOMETRY["LL"], "--L3=none", "--cores=1",
                    "--prefetch=none",
                    "--memprof-out-file=" + out, prog] + args, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return json.load(open(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--valgrind", default="valgrind")
    ap.add_argument("--dir", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--tolerance", type=float, default=1.0)
    opts = ap.parse_args()
    vg = os.path.abspath(opts.valgrind) if os.sep in opts.valgrind else opts.valgrind
    passed = failed = 0

    def report(ok, what):
        nonlocal passed, failed
        print(("PASS " if ok else "FAIL ") + what)
        if ok:
            passed += 1
        else:
            failed += 1

    runs = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, prog, args in [("matmul naive", "xc_matmul", []),
                                 ("matmul blocked", "xc_matmul", ["blocked"]),
                                 ("linked list", "xc_list", []),
                                 ("one-set thrash", "xc_thrash", [])]:
            path = os.path.join(opts.dir, prog)
            cg_d1, cg_ll, cg_ir = cachegrind_misses(vg, path, args, tmp)
            doc = memprof_run(vg, path, args, tmp)
            runs[name] = doc
            mp_d1 = doc["totals"]["cache"]["L1"]["misses"]
            mp_ll = doc["totals"]["cache"]["L2"]["misses"]
            mp_ir = doc["totals"].get("instructions", 0)
            for level, cg, mp in (("D1", cg_d1, mp_d1), ("LL", cg_ll, mp_ll),
                                  ("instructions (MPKI's base):", cg_ir, mp_ir)):
                diff = 100.0 * (mp - cg) / cg if cg else (0.0 if mp == 0 else 100.0)
                report(abs(diff) <= opts.tolerance,
                       f"{name}: {level}{'' if level.endswith(':') else ' misses'} "
                       f"cachegrind {cg} memprof {mp} "
                       f"({diff:+.2f}%)")

    def capacity_b(doc):
        # a static local: gcc names its symbol b.<n>
        b = [v for v in doc["variables"]
             if v["kind"] == "global" and (v["name"] == "b" or v["name"].startswith("b."))]
        return b[0]["cache"]["L1"]["capacity"] if b else None

    naive, blocked = capacity_b(runs["matmul naive"]), capacity_b(runs["matmul blocked"])
    report(naive is not None and blocked is not None and blocked < naive,
           f"blocked matmul: L1 capacity misses of b {blocked} < naive {naive}")
    thrash = [v for v in runs["one-set thrash"]["variables"] if v["name"] == "big"]
    report(bool(thrash) and thrash[0]["cache"]["L1"]["conflict"] > 0,
           "one-set thrash: big has L1 conflict misses "
           f"({thrash[0]['cache']['L1']['conflict'] if thrash else None})")
    sets = runs["one-set thrash"]["totals"]["cache"]["L1"].get("conflict_sets", [])
    report(bool(sets) and sets[0]["variables"][0]["name"] == "big",
           "one-set thrash: the hottest L1 conflict set names big "
           f"({sets[0]['variables'][0]['name'] if sets else None})")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
