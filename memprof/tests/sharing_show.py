#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# sharing_show.py -- prints the sharing, NUMA and communication data of a
# memprof output file as stable text, for the `post:` step of the
# regression tests on threads.
#
# Usage:
#   sharing_show.py FILE [--var NAME]... [--numa NAME]... [--pairs SRC]
#                   [--config] [--worst N] [--matrix-threads]
#
#   --var NAME   the variable's sharing block:
#                  NAME sharing shared=S true=T false=F
#                  (or "NAME sharing -" when absent), then for each of
#                  its first N worst lines (--worst, default 1):
#                  "  line kind=K offset=O false_pairs=P true_pairs=Q"
#                  and per thread
#                  "    thread T reads=R writes=W read=[a-b,...] write=[...]
#                   where=[SRC:line,...]"
#                  where keeps only the source lines in the test's own
#                  files (*.c next to this script), so that glibc
#                  internals do not enter the expected output.
#                  Only interleaving-independent numbers are printed:
#                  byte sets, access counts and the classification.
#   --numa NAME  "NAME numa local=L remote=R hit_ratio=H pages=P
#                 first_touch=[thread/socket/pages ...]"
#   --pairs SRC  the communication pairs whose both ends are in SRC, in
#                the file's order: "pair FROM -> TO variable=V count=C
#                true=T false=F" (counts depend on the interleaving: use
#                it for programs that force one)
#   --config     "config sharing=B sockets=S page_size=P"
#   --matrix-threads  "matrix threads=N cells>0"
#   --advice     the advice list: "advice KIND VARIABLE where=[...]" one a
#                line, in the file's order (most important first), for the
#                advice whose source lines include the test's own files
#   --rejected   the same for the advice its replay rejected: "rejected
#                KIND VARIABLE where=[...]" (none: "rejected none")
#   --rejected-reasons  with --rejected (after it), each rejected item's
#                reason on the next line: "  reason ..."
#   --unreplayed  before --advice, after each item of a kind that has
#                replays but made none, why: "  no replay: ..." (the
#                evidence's clause), or "  no replay: no reason given"
#   --replays    after each item of --advice and --rejected with a replay
#                (a loop-interchange's or a tiling's nest, a fusion's
#                loops): "  replay accesses=N complete=B L1 before=X
#                after=Y", for a loop-fusion first "  fused LOOP..."
#                (each FILE:FIRST-LAST), for an item with alternative
#                fixes its fix's first two words, "  holds TEXT" and
#                each alternative's (its replay, what it holds), and
#                for a rejected item "  reason TEXT"
#   --advice-var NAME  every advice item on variable NAME, whatever its
#                source lines: "advice KIND NAME where=[...]" and its fix
#   --advice-kind KIND  every advice item of kind KIND: "advice KIND
#                where=[...]" and its text, evidence and fix
#   --rejected-kind KIND  the same for the rejected items of kind KIND:
#                "rejected KIND where=[...]", its evidence, fix and reason
#   --byte-counts  print the number of bytes read and written instead of
#                 the ranges (for stack lines, whose offsets move with the
#                 environment's size)
#   --from-thread N  only threads N and later in the thread lines
#   --predicted  after the sharing line of --var, the counts predicted for
#                a parallel run (interleaving-independent):
#                "  predicted transfers=T true=U false=F invalidations=I"
#   --placements  after the sharing line of --var, the placements of its
#                 blocks: "  placements step=S evaluated=N current=C
#                 false_at=[a,b,...]" (or "  placements -" when absent)
#   --bytes-only  leave the reads/writes counts out of the thread lines
#                 (for programs whose wait loops spin a varying number of
#                 times: the byte sets stay exact)
#
# A missing file or variable prints "sharing_show: error ..." and exits 1.

import os
import sys

# memprof_reader.py is in the parent directory, or beside this script
# when the tests run in a build tree other than the source tree.
sys.dont_write_bytecode = True
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "annotate"))
from memprof_reader import FormatError, read_file  # noqa: E402


def fail(msg):
    print("sharing_show: error: " + msg)
    sys.stderr.write("sharing_show: " + msg + "\n")
    sys.exit(1)


def ranges(rs):
    return "[" + ",".join("%d-%d" % (a, b) for a, b in rs) + "]"


OPTS = {"byte_counts": False, "from_thread": 0, "predicted": False,
        "placements": False, "replays": False, "unreplayed": False}

# The kinds of advice whose fix memprof replays (mp_advice_kind_replayable).
REPLAYABLE = ("loop-interchange", "long-stride", "conflict-sets", "blocking",
              "loop-fusion", "too-many-streams")


def nbytes(rs):
    return "%dB" % sum(b - a + 1 for a, b in rs)


def own_where(ws):
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    for w in ws:
        if w and os.path.exists(os.path.join(here, w.split(":")[0])):
            out.append(w)
    return "[" + ",".join(sorted(set(out), key=lambda s: (s.split(":")[0], int(s.split(":")[1])))) + "]"


def find_var(doc, name):
    for v in doc.variables:
        if v.name == name:
            return v
    fail("no variable %r" % name)


def show_sharing(doc, name, worst, bytes_only):
    v = find_var(doc, name)
    s = v.sharing
    if s is None:
        print("%s sharing -" % name)
        return
    print("%s sharing shared=%d true=%d false=%d"
          % (name, s.shared_lines, s.true_lines, s.false_lines))
    if OPTS["predicted"]:
        print("  predicted transfers=%d true=%d false=%d invalidations=%d"
              % (s.predicted_transfers, s.predicted_true_transfers,
                 s.predicted_false_transfers, s.predicted_invalidations))
    if OPTS["placements"]:
        pl = s.placements
        if pl is None:
            print("  placements -")
        else:
            print("  placements step=%d evaluated=%d current=%d false_at=[%s]"
                  % (pl.step, pl.evaluated, pl.current,
                     ",".join(str(x) for x in pl.false_at)))
    wp = s.what_if_pad
    if wp:
        # The misses before depend on the interleaving the recording saw;
        # after padding only cold misses are left: stable.
        print("  what_if_pad accesses=%d L1 after=%d not_worse=%s"
              % (wp.accesses, wp.after["L1"], wp.after["L1"] <= wp.before["L1"]))
    for w in s.worst_lines[:worst]:
        print("  line kind=%s offset=%s false_pairs=%d true_pairs=%d"
              % (w.kind, w.offset, w.false_pairs, w.true_pairs))
        for t in w.threads:
            if t.thread < OPTS["from_thread"]:
                continue
            counts = "" if bytes_only else " reads=%d writes=%d" % (t.reads, t.writes)
            if OPTS["byte_counts"]:
                rb, wb = nbytes(t.read_bytes), nbytes(t.write_bytes)
            else:
                rb, wb = ranges(t.read_bytes), ranges(t.write_bytes)
            print("    thread %d%s read=%s write=%s where=%s"
                  % (t.thread, counts, rb, wb, own_where(t.where)))


def show_numa(doc, name):
    v = find_var(doc, name)
    n = v.numa
    if n is None:
        print("%s numa -" % name)
        return
    ft = " ".join("%d/%d/%d" % (f.thread, f.socket, f.pages)
                  for f in sorted(n.first_touch, key=lambda f: f.thread))
    print("%s numa local=%d remote=%d hit_ratio=%.4f pages=%d first_touch=[%s]"
          % (name, n.local, n.remote, n.hit_ratio, n.pages, ft))


def show_pairs(doc, src):
    def mine(w):
        return w is not None and w.split(":")[0] == src
    for p in doc.communication or []:
        if mine(p.from_) and mine(p.to):
            print("pair %s -> %s variable=%s count=%d true=%d false=%d"
                  % (p.from_, p.to, p.variable, p.count, p.true, p.false))


# Loop id -> "file:first-last", for the loops of a loop-fusion item.
LOOPS = {}


def print_fixes(adv):
    """With --replays: "  fix FIRST-WORDS", "  holds TEXT", then per
    alternative "  alternative FIRST-WORDS", its replay's L1 misses and
    "    holds TEXT"."""
    if not adv.alternatives:
        return
    print("  fix %s" % " ".join(adv.fix.split()[:2]))
    if adv.holds:
        print("  holds %s" % adv.holds)
    for alt in adv.alternatives:
        print("  alternative %s" % " ".join(alt.fix.split()[:2]))
        if alt.replay is not None:
            print("    replay accesses=%d complete=%s L1 before=%d after=%d"
                  % (alt.replay.accesses, alt.replay.complete,
                     alt.replay.before["L1"], alt.replay.after["L1"]))
        if alt.holds:
            print("    holds %s" % alt.holds)


def print_own_advice(label, items, reasons=False):
    """Prints "LABEL KIND VARIABLE where=[...]" for each item about the
    test's own code (in programs this small, the dynamic linker's tables
    can reach 1% of the run), or "LABEL none"; with reasons, each
    item's reason after it."""
    shown = [adv for adv in items if own_where(adv.where) != "[]"]
    for adv in shown:
        print("%s %s %s where=%s" % (label, adv.kind, adv.variable or "-",
                                     own_where(adv.where)))
        r = adv.replay
        if OPTS["replays"] and adv.fused_loops:
            print("  fused %s" % " ".join(LOOPS.get(l, "?") for l in adv.fused_loops))
        if OPTS["replays"] and r is not None:
            print("  replay accesses=%d complete=%s L1 before=%d after=%d"
                  % (r.accesses, r.complete, r.before["L1"], r.after["L1"]))
        if OPTS["replays"]:
            print_fixes(adv)
        if (reasons or OPTS["replays"]) and adv.reason:
            print("  reason %s" % adv.reason)
        if OPTS["unreplayed"] and adv.kind in REPLAYABLE and adv.replayed is False:
            at = adv.evidence.rfind("; no replay: ")
            print("  no replay: %s" % (adv.evidence[at + len("; no replay: "):]
                                       if at >= 0 else "no reason given"))
    if not shown:
        print("%s none" % label)


def print_kind(doc, rejected, kind):
    """--advice-kind / --rejected-kind: each item of kind KIND, with its
    text (advice) or reason (rejected), evidence and fix."""
    for adv in (doc.rejected if rejected else doc.advice) or []:
        if adv.kind != kind:
            continue
        print("%s %s where=%s" % ("rejected" if rejected else "advice", kind, adv.where))
        if not rejected:
            print("  text %s" % adv.text)
        print("  evidence %s" % adv.evidence)
        print("  fix %s" % adv.fix)
        if rejected:
            print("  reason %s" % adv.reason)


def main(argv):
    if len(argv) < 2:
        fail("usage: sharing_show.py FILE [options]")
    try:
        doc = read_file(argv[1], program="sharing_show")
    except FormatError as e:
        fail("cannot read %s" % e)
    for lp in doc.loops or []:
        LOOPS[lp.id] = "%s:%d-%d" % (lp.file, lp.first_line, lp.last_line)
    worst = 1
    bytes_only = "--bytes-only" in argv
    args = [a for a in argv[2:] if a != "--bytes-only"]
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--predicted":
            OPTS["predicted"] = True
            i += 1
            continue
        if a == "--replays":
            OPTS["replays"] = True
            i += 1
            continue
        if a == "--unreplayed":
            OPTS["unreplayed"] = True
            i += 1
            continue
        if a == "--placements":
            OPTS["placements"] = True
            i += 1
            continue
        if a == "--byte-counts":
            OPTS["byte_counts"] = True
            i += 1
            continue
        if a == "--from-thread":
            OPTS["from_thread"] = int(args[i + 1])
            i += 2
            continue
        if a == "--worst":
            worst = int(args[i + 1])
            i += 2
            continue
        if a == "--config":
            c = doc.config
            print("config sharing=%s sockets=%s page_size=%s"
                  % (c.sharing, c.sockets, c.page_size))
        elif a == "--advice":
            if doc.advice is None:
                fail("no advice in the file")
            print_own_advice("advice", doc.advice)
        elif a == "--rejected":
            print_own_advice("rejected", doc.rejected or [],
                             "--rejected-reasons" in args)
        elif a == "--advice-var":
            name = args[i + 1]
            for adv in doc.advice or []:
                if adv.variable == name:
                    print("advice %s %s where=%s" % (adv.kind, name, adv.where))
                    print("  fix %s" % adv.fix)
            i += 2
            continue
        elif a == "--rejected-reasons":
            pass
        elif a in ("--advice-kind", "--rejected-kind"):
            print_kind(doc, a == "--rejected-kind", args[i + 1])
            i += 2
            continue
        elif a == "--matrix-threads":
            m = doc.communication_matrix
            if m is None:
                print("matrix -")
            else:
                print("matrix threads=%d cells>0=%s" % (len(m.threads), len(m.cells) > 0))
        elif a in ("--var", "--numa", "--pairs"):
            if i + 1 >= len(args):
                fail("%s needs an argument" % a)
            arg = args[i + 1]
            {"--var": lambda: show_sharing(doc, arg, worst, bytes_only),
             "--numa": lambda: show_numa(doc, arg),
             "--pairs": lambda: show_pairs(doc, arg)}[a]()
            i += 2
            continue
        else:
            fail("unknown argument %r" % a)
        i += 1


if __name__ == "__main__":
    main(sys.argv)
