#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# loops_show.py -- prints the loops, streams, access formulas and
# inferred structures of a memprof output file as stable text, for the
# `post:` step of the regression tests of the loop analyses.
#
# Usage:
#   loops_show.py FILE [--loops SRC] [--accesses SRC] [--trips SRC] [--unnamed] [--struct NAME]...
#
#   --loops SRC    the loops whose file is SRC, by first line:
#                  "loop L1-L2 fn=F depth=D entries=E iterations=I
#                   streams=S flagged=B"
#                  and under each its formulas:
#                  "  formula WHERE VAR FORMULA base=B"
#   --accesses SRC the same loops, their accesses alone:
#                  "loop L1-L2 depth=D accesses=N"
#   --trips SRC    the same loops, their trip counts alone (for programs
#                  whose streams depend on a library's internals):
#                  "loop L1-L2 fn=F depth=D entries=E iterations=I"
#   --unnamed      "loops without a function: N" (PLT stubs and code
#                  without a symbol must have none)
#   --classes      "loops of CLASS: OBJECT, ..." per class, the objects
#                  sorted (whose code each loop is), with the number of
#                  loops for the program's ("N in OBJECT": the others'
#                  depend on the C library's paths)
#   --struct NAME  "NAME struct size=S split=TEXT" then one line per field
#                  "  field OFFSET NAME size=Z share=P%" (share rounded
#                  to a percent) and one per field pair with affinity
#                  > 0: "  affinity A B W" (W to 2 decimals), and the
#                  what-if replay of the split when there is one:
#                  "  what_if accesses=N L1 B->A cycles B->A"; or
#                  "NAME struct -" when there is none.
#
# A missing file or variable prints "loops_show: error ..." and exits 1.

import os
import sys

# memprof_reader.py is in the parent directory, or beside this script
# when the tests run in a build tree other than the source tree.
sys.dont_write_bytecode = True
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "annotate"))
from memprof_reader import FormatError, read_file  # noqa: E402


def fail(msg):
    print("loops_show: error: " + msg)
    sys.stderr.write("loops_show: " + msg + "\n")
    sys.exit(1)


def show_trips(doc, src):
    loops = [l for l in doc.loops or [] if l.file == src]
    for l in sorted(loops, key=lambda l: (l.first_line, l.last_line, l.depth)):
        print("loop %d-%d fn=%s depth=%d entries=%d iterations=%d"
              % (l.first_line, l.last_line, l.function, l.depth, l.entries,
                 l.iterations))


def show_accesses(doc, src):
    loops = [l for l in doc.loops or [] if l.file == src]
    for l in sorted(loops, key=lambda l: (l.first_line, l.last_line, l.depth)):
        print("loop %d-%d depth=%d accesses=%d"
              % (l.first_line, l.last_line, l.depth, l.accesses))


def show_unnamed(doc):
    print("loops without a function: %d"
          % sum(1 for l in doc.loops or [] if l.function in (None, "", "???")))


def show_loops(doc, src):
    loops = [l for l in doc.loops or [] if l.file == src]
    for l in sorted(loops, key=lambda l: (l.first_line, l.last_line, l.depth)):
        print("loop %d-%d fn=%s depth=%d entries=%d iterations=%d streams=%d flagged=%s"
              % (l.first_line, l.last_line, l.function, l.depth, l.entries,
                 l.iterations, l.streams, l.flagged))
        for f in sorted(l.formulas, key=lambda f: (f.where, f.base)):
            print("  formula %s %s %s base=%d" % (f.where, f.variable, f.formula, f.base))


def show_classes(doc):
    by = {}
    for l in doc.loops or []:
        objs = by.setdefault(l.class_ or "program", {})
        objs[l.object] = objs.get(l.object, 0) + 1
    for cls in sorted(by):
        print("loops of %s: %s" % (cls, ", ".join(
            ("%d in %s" % (n, o)) if cls == "program" else str(o)
            for o, n in sorted(by[cls].items(), key=lambda x: str(x[0])))))


def field_name(doc_fields, off):
    for f in doc_fields:
        if f.offset == off:
            return f.name if f.name is not None else "+%d" % off
    return "?"


def show_struct(doc, name):
    v = [v for v in doc.variables if v.name == name]
    if not v:
        fail("no variable %r" % name)
    s = v[0].struct
    if s is None:
        print("%s struct -" % name)
        return
    print("%s struct size=%d split=%s" % (name, s.size, s.split))
    for f in s.fields:
        print("  field %d %s size=%d share=%d%%" % (f.offset, f.name, f.size,
                                                  round(100 * f.share)))
    wi = s.what_if
    if wi:
        print("  what_if accesses=%d L1 %d->%d cycles %d->%d"
              % (wi.accesses, wi.before["L1"], wi.after["L1"],
                 wi.before["cycles"], wi.after["cycles"]))
    for a, b, w in s.affinity:
        if w > 0:
            print("  affinity %s %s %.2f" % (field_name(s.fields, s.fields[a].offset),
                                             field_name(s.fields, s.fields[b].offset), w))


def main(argv):
    if len(argv) < 2:
        fail("usage: loops_show.py FILE [options]")
    try:
        doc = read_file(argv[1], program="loops_show")
    except FormatError as e:
        fail("cannot read %s" % e)
    args = argv[2:]
    i = 0
    while i < len(args):
        if args[i] == "--unnamed":
            show_unnamed(doc)
            i += 1
            continue
        if args[i] == "--classes":
            show_classes(doc)
            i += 1
            continue
        if args[i] == "--loops" and i + 1 < len(args):
            show_loops(doc, args[i + 1])
        elif args[i] == "--accesses" and i + 1 < len(args):
            show_accesses(doc, args[i + 1])
        elif args[i] == "--trips" and i + 1 < len(args):
            show_trips(doc, args[i + 1])
        elif args[i] == "--struct" and i + 1 < len(args):
            show_struct(doc, args[i + 1])
        else:
            fail("bad argument %r" % args[i])
        i += 2


if __name__ == "__main__":
    main(sys.argv)
