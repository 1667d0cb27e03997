#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# stride_ref.py -- an independent check of memprof's stride histograms
# (Balle & Steely) for global variables of a test program.
#
# Usage:
#   stride_ref.py --json FILE [--var NAME]... [--valgrind CMD]
#                 [--trace LACKEY_LOG] PROG [ARG...]
#
# It runs PROG under Valgrind's own Lackey tool (`--tool=lackey
# --trace-mem=yes`), which prints every data access of the program as
#     " L addr,size"   a load
#     " S addr,size"   a store
#     " M addr,size"   a modify: counted as a load, then a store
# keeps the accesses whose address falls inside a global's range (from
# `nm -S PROG`; the accesses of Valgrind's and the loader's start-up fall
# outside it), recomputes the histograms from their definition and
# compares them with the variable's "strides" object in memprof's JSON
# output FILE (made by a run of the same program; read by memprof_reader):
#   - for each kind (loads, stores) and k = 1..K: histogram k counts the
#     magnitude of addr - (address of the k-th previous access of the same
#     kind to the variable), in the bins 0..127 (one per byte), [128,255],
#     [256,511], ..., [16384,32767], [32768,inf); a negative difference is
#     also counted in negative[k];
#   - filtered mode: an access enters histogram k+1 only if its stride in
#     histogram k was >= the threshold; all mode: every histogram it can;
#   - classes of the first-histogram strides: 0 -> zero, |s| == the size
#     of the access -> unit, |s| < line -> within_line, else beyond_line;
#   - dominant: the most frequent first-histogram stride (loads and stores
#     together), its count, share and size in lines.  memprof finds it with
#     an 8-slot space-saving counter, exact when there are at most 8
#     distinct strides; with more it is reported, not compared.
# K, the mode, the threshold and the line size are read from the JSON's
# config.  The program is single-threaded (one history per kind).
#
# A position-independent executable is loaded at an address chosen at run
# time: its load bias is read from Valgrind's own debug-info trace
# (--trace-symtab=yes, restricted to PROG), in the same log as the
# accesses.  --trace FILE reads such a log instead of running Lackey.
# The Valgrind command is --valgrind CMD, else $MEMPROF_VALGRIND, else
# the build tree's vg-in-place (../../vg-in-place from this script) if it
# exists, else valgrind.
#
# Output, one line per variable:
#     NAME: match (R loads, W stores; K histograms, MODE[ >= T])
# or  NAME: DIFFERS, then one indented line per difference, or
#     NAME: absent in memprof output / not a symbol of PROG.
# Exit status 0 when everything matches, 1 otherwise, 2 on bad usage.

import os
import re
import shlex
import struct
import subprocess
import sys
import tempfile

# memprof_reader.py is in the parent directory, or beside this script
# when the tests run in a build tree other than the source tree.
sys.dont_write_bytecode = True
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "annotate"))
from memprof_reader import FormatError, read_file  # noqa: E402

FINE = 128
WIDE = [(128 << i, (256 << i) - 1) for i in range(8)] + [(32768, None)]
CLASSES = ("zero", "unit", "within_line", "beyond_line")
TOP_SLOTS = 8
USAGE = ("usage: stride_ref.py --json FILE [--var NAME]... [--valgrind CMD] "
         "[--trace LACKEY_LOG] PROG [ARG...]\n")


class Failure(Exception):
    pass


def bin_of(m):
    """(lo, hi) of the bin of stride magnitude m; hi None for infinity."""
    if m < FINE:
        return (m, m)
    for lo, hi in WIDE:
        if hi is None or m <= hi:
            return (lo, hi)
    raise AssertionError(m)


# ---------------------------------------------------------------------------
# The program: symbols and load base

ET_DYN = 3


def elf_type(path):
    with open(path, "rb") as f:
        head = f.read(64)
    if head[:4] != b"\x7fELF":
        raise Failure("%s: not an ELF file" % path)
    if head[4] != 2 or head[5] != 1:
        raise Failure("%s: only 64-bit little-endian ELF is handled" % path)
    e_type, = struct.unpack_from("<H", head, 16)
    return e_type


def symbols(prog):
    """name -> list of (link-time address, size) of defined data symbols."""
    try:
        out = subprocess.run(["nm", "-S", "--defined-only", prog],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             check=True).stdout.decode()
    except (OSError, subprocess.CalledProcessError) as e:
        raise Failure("nm -S %s failed: %s" % (prog, e))
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 4 or parts[2] not in "bBdDrRgGsSvV":
            continue
        syms.setdefault(parts[3], []).append((int(parts[0], 16),
                                              int(parts[1], 16)))
    return syms


BIAS = re.compile(r"^PT_LOAD\[\d+\]:\s+acquired as \w+, bias 0x([0-9a-fA-F]+)")


def load_base(log):
    """The load bias of the program, from the debug-info reader's trace
    (--trace-symtab) in the Lackey log: "PT_LOAD[i]: acquired as rw, bias
    0x108000" (0 for a non-PIE executable)."""
    with open(log, "r", errors="replace") as f:
        for line in f:
            m = BIAS.match(line)
            if m:
                return int(m.group(1), 16)
    return None


# ---------------------------------------------------------------------------
# The trace

ACCESS = re.compile(r"^ ([LSM]) ([0-9a-fA-F]+),(\d+)$")


def run_lackey(valgrind, prog, args):
    fd, log = tempfile.mkstemp(prefix="stride_ref.", suffix=".lackey")
    os.close(fd)
    cmd = shlex.split(valgrind) + [
        "--tool=lackey", "--trace-mem=yes", "--log-file=" + log,
        "--trace-symtab=yes",
        "--trace-symtab-patt=*/" + os.path.basename(prog), prog] + args
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    except OSError as e:
        os.unlink(log)
        raise Failure("cannot run %s: %s" % (cmd[0], e))
    if p.returncode != 0:
        os.unlink(log)
        raise Failure("%s exited with status %d: %s"
                      % (" ".join(cmd), p.returncode,
                         p.stderr.decode(errors="replace").strip()))
    return log


def read_trace(log, ranges):
    """ranges: name -> (lo, hi).  Returns name -> list of (is_write,
    addr, size), in program order; M gives a load then a store."""
    acc = {name: [] for name in ranges}
    spans = sorted((lo, hi, name) for name, (lo, hi) in ranges.items())
    with open(log, "r", errors="replace") as f:
        for line in f:
            if not line.startswith(" "):
                continue
            m = ACCESS.match(line.rstrip("\n"))
            if not m:
                continue
            addr = int(m.group(2), 16)
            for lo, hi, name in spans:
                if lo <= addr < hi:
                    size = int(m.group(3))
                    kind = m.group(1)
                    if kind in "LM":
                        acc[name].append((False, addr, size))
                    if kind in "SM":
                        acc[name].append((True, addr, size))
                    break
    return acc


# ---------------------------------------------------------------------------
# The histograms, from the definition

def reference(accesses, K, filtered, threshold, line):
    hist = {kind: [dict() for _ in range(K)] for kind in ("load", "store")}
    neg = {kind: [0] * K for kind in ("load", "store")}
    classes = dict((c, 0) for c in CLASSES)
    firsts = {}
    seen = {"load": [], "store": []}
    for is_write, addr, size in accesses:
        kind = "store" if is_write else "load"
        prev = seen[kind]
        for k in range(1, K + 1):
            if k > len(prev):
                break
            s = addr - prev[-k]
            m = abs(s)
            b = bin_of(m)
            hist[kind][k - 1][b] = hist[kind][k - 1].get(b, 0) + 1
            if s < 0:
                neg[kind][k - 1] += 1
            if k == 1:
                if m == 0:
                    classes["zero"] += 1
                elif m == size:
                    classes["unit"] += 1
                elif m < line:
                    classes["within_line"] += 1
                else:
                    classes["beyond_line"] += 1
                firsts[s] = firsts.get(s, 0) + 1
            if filtered and m < threshold:
                break
        prev.append(addr)
    return hist, neg, classes, firsts


def hist_text(h):
    return " ".join("%d-%s:%d" % (lo, "inf" if hi is None else hi, n)
                    for (lo, hi), n in sorted(h.items(),
                                              key=lambda x: x[0][0])) or "-"


def compare(name, got, accesses, cfg):
    """got: the variable's Strides (memprof_reader)."""
    K, filtered, threshold, line = cfg
    hist, neg, classes, firsts = reference(accesses, K, filtered,
                                           threshold, line)
    diffs = []
    for kind in ("load", "store"):
        lists = got.hists(kind)
        if len(lists) != K:
            diffs.append("%s: memprof has %r histograms, expected %d"
                         % (kind, len(lists), K))
            continue
        for k in range(K):
            mine = {}
            for lo, hi, n in lists[k]:
                mine[(lo, hi)] = n
            if mine != hist[kind][k]:
                diffs.append("%s %d: memprof %s, reference %s"
                             % (kind, k + 1, hist_text(mine),
                                hist_text(hist[kind][k])))
        gneg = got.negative.get(kind)
        if gneg != neg[kind]:
            diffs.append("negative %s: memprof %s, reference %s"
                         % (kind, gneg, neg[kind]))
    gclasses = dict((c, getattr(got.classes, c)) for c in CLASSES)
    if gclasses != classes:
        diffs.append("classes: memprof %s, reference %s"
                     % (gclasses, classes))
    n_first = sum(firsts.values())
    dom = got.dominant
    note = None
    if not firsts:
        if dom is not None:
            diffs.append("dominant: memprof %s x%s, reference none"
                         % (dom.bytes, dom.count))
    elif dom is None:
        diffs.append("dominant: memprof none, reference has %d strides"
                     % n_first)
    elif len(firsts) > TOP_SLOTS:
        note = ("dominant not compared: %d distinct strides (memprof %d x%d)"
                % (len(firsts), dom.bytes, dom.count))
    else:
        best = max(firsts.values())
        tied = sorted(s for s, n in firsts.items() if n == best)
        if dom.bytes not in tied or dom.count != best:
            diffs.append("dominant: memprof %s x%s, reference %s x%d"
                         % (dom.bytes, dom.count,
                            "/".join(str(s) for s in tied), best))
        else:
            share = best / n_first
            lines = dom.bytes / line
            if abs((-1 if dom.share is None else dom.share) - share) > 1e-6 \
                    or abs((1e300 if dom.lines is None else dom.lines)
                           - lines) > 1e-6:
                diffs.append("dominant share/lines: memprof %s/%s, "
                             "reference %.6f/%.6f"
                             % (dom.share, dom.lines,
                                share, lines))
    n_loads = sum(1 for w, _, _ in accesses if not w)
    n_stores = len(accesses) - n_loads
    if diffs:
        out = ["%s: DIFFERS (%d loads, %d stores)" % (name, n_loads,
                                                      n_stores)]
        out.extend("    " + d for d in diffs)
    else:
        out = ["%s: match (%d loads, %d stores; %d histograms, %s)"
               % (name, n_loads, n_stores, K,
                  "filtered >= %d" % threshold if filtered else "all")]
    if note:
        out.append("    " + note)
    return out, not diffs


# ---------------------------------------------------------------------------

def parse_args(argv):
    opts = {"json": None, "vars": [], "trace": None,
            "valgrind": os.environ.get("MEMPROF_VALGRIND")}
    i = 0
    while i < len(argv) and argv[i].startswith("--"):
        a = argv[i]
        if a in ("--json", "--var", "--valgrind", "--trace"):
            if i + 1 >= len(argv):
                raise Failure("option %s needs a value" % a)
            key = a[2:]
            if key == "var":
                opts["vars"].append(argv[i + 1])
            else:
                opts[key] = argv[i + 1]
            i += 2
        elif a == "--":
            i += 1
            break
        else:
            raise Failure("unknown option %s" % a)
    if not opts["json"] or i >= len(argv):
        raise Failure("a --json file and a program are needed")
    opts["prog"] = argv[i]
    opts["args"] = argv[i + 1:]
    if not opts["valgrind"]:
        here = os.path.dirname(os.path.abspath(__file__))
        inplace = os.path.join(here, "..", "..", "vg-in-place")
        opts["valgrind"] = inplace if os.path.exists(inplace) else "valgrind"
    return opts


def main(argv):
    try:
        opts = parse_args(argv)
    except Failure as e:
        sys.stderr.write("stride_ref: %s\n%s" % (e, USAGE))
        return 2
    log = None
    try:
        doc = read_file(opts["json"], program="stride_ref")
        sc = doc.config.strides
        if sc is None:
            raise Failure("%s has no config.strides" % opts["json"])
        cfg = (sc.history, sc.mode == "filtered", sc.threshold,
               doc.config.line)
        prog = opts["prog"]
        if "/" not in prog:
            prog = "./" + prog
        e_type = elf_type(prog)
        syms = symbols(prog)
        gnames = [v.name for v in doc.variables if v.kind == "global"]
        names = opts["vars"] or sorted(
            n for n in set(gnames)
            if gnames.count(n) == 1 and len(syms.get(n, ())) == 1)
        log = opts["trace"] or run_lackey(opts["valgrind"], prog,
                                          opts["args"])
        base = load_base(log)
        if base is None:
            if e_type == ET_DYN:
                raise Failure("%s: no load bias of %s in the trace (run "
                              "with --trace-symtab=yes --trace-symtab-patt="
                              "'*/%s')" % (log, prog,
                                           os.path.basename(prog)))
            base = 0
        ranges = {}
        lines = {}
        for name in names:
            if name not in syms:
                lines[name] = ["%s: not a symbol of %s" % (name, prog)]
            elif len(syms[name]) > 1:
                lines[name] = ["%s: %d symbols of that name in %s"
                               % (name, len(syms[name]), prog)]
            else:
                addr, size = syms[name][0]
                ranges[name] = (base + addr, base + addr + size)
        trace = read_trace(log, ranges)
        ok = True
        by_name = {}
        for v in doc.variables:
            if v.kind == "global":
                by_name.setdefault(v.name, []).append(v)
        for name in names:
            if name in lines:
                ok = False
                continue
            found = by_name.get(name, [])
            if len(found) != 1 or found[0].strides is None:
                lines[name] = ["%s: %s in memprof output"
                               % (name, "absent" if not found else
                                  "ambiguous" if len(found) > 1 else
                                  "no strides")]
                ok = False
                continue
            lines[name], good = compare(name, found[0].strides,
                                        trace[name], cfg)
            ok = ok and good
        for name in names:
            sys.stdout.write("".join(l + "\n" for l in lines[name]))
        return 0 if ok else 1
    except (Failure, FormatError, OSError, ValueError, KeyError) as e:
        sys.stdout.write("stride_ref: error\n")
        sys.stderr.write("stride_ref: %s\n" % e)
        return 1
    finally:
        if log and not opts["trace"]:
            os.unlink(log)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
