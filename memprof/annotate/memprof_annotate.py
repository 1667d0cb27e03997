#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# memprof_annotate -- prints memprof's JSON output (memprof.out.<pid>) as
# text in the manner of cg_annotate / callgrind_annotate.
#
# This file is part of memprof, a Valgrind tool that attributes memory
# accesses to data structures.  It is the command line of the annotator:
# the options, the help, and which of the report, --diff and --callgrind
# runs.  The other modules of this folder do the work; they are listed,
# bottom up, in memprof/annotate/README.md.  It runs as it is (python3
# memprof/annotate/memprof_annotate.py, which finds its modules beside
# it); the build makes the installed memprof_annotate of it and of them
# (bundle.py: one file, as Valgrind's cg_annotate is) and substitutes
# the version for the @-delimited token below.

import argparse
import os
import sys

# Python would write the compiled modules into the source tree.
sys.dont_write_bytecode = True

from memprof_reader import FORMAT_VERSION
from annotate_common import InputError, PROG
from annotate_model import load
from annotate_merge import file_data, merge, merge_paths
from annotate_report import report
from annotate_diff import diff_report
from annotate_callgrind import (CALLGRIND_EVENTS_HELP, CALLGRIND_VIEWS,
                                callgrind_report)

SORT_KEYS = ("accesses", "reads", "writes", "bytes", "lines", "size", "name")
# With a cache simulation (config.levels): more sort keys.  "stall"
# sorts by the memory stall cycles beyond an L1 hit (then cycles),
# "misses" by L1 misses, "ll-misses" by the last level's.
CACHE_SORT_KEYS = ("stall", "cycles", "cpa", "misses", "ll-misses")
# Sort keys of the thread analyses: the mean reuse distance, the shared
# lines (then the transfers), the NUMA remote accesses.  A level's name
# (L1, L2, L3) sorts by that level's misses.
ANALYSIS_SORT_KEYS = ("reuse", "sharing", "remote")
DEFAULT_WIDTH = 100

VERSION = "@VERSION@"
if VERSION.startswith("@"):
    VERSION = "(development version)"

DESCRIPTION = """\
Prints memprof's output (JSON, format version %d) as text: a header, the
totals, the advice, a table of variables sorted by the chosen metric
(descending; 'name' sorts alphabetically), the communication between
threads, then the detail of the top variables; with --auto=yes the
source files annotated line by line.

The table ranks the program's variables (class "program": the
executable and the libraries it links); those of the C runtime, the
dynamic linker, Valgrind's preload and unattributed memory follow it,
one line per object (cycles, accesses, how many variables), unless
--show-runtime=yes ranks them all, with a class column (and lists the
loops of their code in the Loops section).  A file's
variables with the same kind, name, where, function and owner (two
call chains reaching one allocation line) are one row, merged as below.

When several files are given they are merged: variables with the same
(kind, name, where, owner; a stack variable's function too) are
combined: their
reads, writes, bytes, heap blocks and allocated bytes are summed, their
size, thread count and line footprint taken as the largest; per-line
rows with the same (where, fn) are summed likewise.  Every other count
is summed too and the rates recomputed from the sums (see below).  The
files are read one at a time (the memory held does not grow with their
number).  A section "Ranks" follows the variables table: each file is a
rank (of an MPI job: --memprof-out-file=mp.%%q{OMPI_COMM_WORLD_RANK}),
numbered by the number that ends its name when all names end in
different numbers, else by its position from 0; for the sort key's
metric (cycles or accesses for name, cpa and reuse) it gives the ranks'
totals, then per variable of the table the min, mean and max over the
ranks (0 where a rank lacks it), max/mean and the rank of the max.

With --diff BEFORE AFTER the two files are compared: the totals (cycles,
misses per level), the advice (new, still given, gone), and per variable
matched by (kind, name, where, owner) the change of the sort metric,
largest absolute change first, the program's variables only unless
--show-runtime=yes; variables of one file only are 'new' or 'gone'.
Then for the top variables every metric of both runs: accesses, misses
per level, cycles and cpa, dominant stride, mean reuse distances,
sharing and NUMA counts, with the change and the change in percent.

A variable with stride histograms ("strides", Balle & Steely) gets them
after its per-line table: for loads then stores, for k = 1..K (the
stride to the access k steps back), one text bar per nonzero bin, as
wide as the bin's share of that histogram; then its negative first
strides, its dominant stride and the split of its first strides into
classes.  Merging sums the histograms bin by bin, the negative counts
and the classes; the dominant stride is the one with the largest summed
count among the files' dominant strides.

A file with a cache simulation (config.levels and totals.cache) gets the
simulated levels in the header, the per-level accesses, misses and miss
causes in the totals, and the columns stall (the memory stall cycles:
the cycles beyond an L1 hit, what a change of layout can save), cycles,
%% (of all cycles), cpa (cycles per access), L1 misses and last-level
misses in the variables table, which is then sorted by stall cycles,
then cycles, by default: a variable whose accesses all hit L1 ranks
after every one that misses.  The table shows a C++ function's name
without its parameter list (the file's "label"); the threshold
applies to the share of cycles.  Each variable's detail gives its
cycles, where its accesses were served, and per level its hits, misses
by cause, write-backs and reuse (hits per fill, share of fills reused);
its per-line table gets the L1 misses and the cpa.  With a prefetcher
(config.prefetch other than none) the header names it, the totals get
each level's prefetched hits and a line of what it did (lines asked,
issued, useful, useless), and each variable's levels its prefetched
hits and the misses it covered.  Merging sums every count and
recomputes the rates; files with and without a cache simulation, or
with different level names, are not merged.

A file of --sample=lines (memprof followed the cache lines of a sample
of the L1's sets from start to exit) holds whole-run estimates: the
header says so ("Sampled lines"), and right of the sort metric's column,
when it is one of the simulation's (stall, cycles, cpa, the misses of a
level), the variables table gets a column \u00b1: the larger side of the
metric's 95%% interval around the estimate, in percent (\u00b1>100%% when
wider than the estimate).  A variable with too few of its lines in the
sample (the file's estimable false) has "-" for its stall, cycles and
misses, ranks after all others by them, and its detail says so instead
of its cache block; its accesses are exact.  Another's detail gives the
intervals of its stall, cycles and misses.  Merging sums the sampled
lines and the intervals' bounds.  With --diff the header says which run
sampled the lines ("Sampled lines: before 1 in 32, after exact"); a
variable too few of whose lines were in a run's sample has "-" for its
stall, cycles, cpa and misses in that run and for their change, and
ranks after the others by them; and a change of a variable's misses (per
level), cycles or stall cycles that lies within the sampling error is
marked "~" after the change, with a legend under the table or detail:
for each run's estimate x and the larger side h of its 95%% interval
(h = 0 for an exact run), the change is within the error when
|x_after - x_before| <= sqrt(h_before^2 + h_after^2).  Such a change is
one the sample cannot tell from none.  Nothing is marked when neither
run sampled the lines.

A variable with reuse distances ("reuse", MACPO's multicore reuse
distance, in cache lines) gets them after its per-line table, before its
stride histograms: the private and the shared histogram, one text bar
per nonzero bin (0, 1, 2-3, 4-7, ...) as wide as the bin's share of the
histogram, each with its count, mean and median bin; then the cold
count (first touches).  "(estimated: sampled)" marks counts that memprof
scaled by a sampling weight.  "(sampled: windows)" over the stride
histograms and the loops marks counts of the windows of the run that the
detail analyses saw (config.detail, memprof's default --sample=detail);
their shares estimate the run's.  Its per-line table gets the mean private
distance of each line ("private dist").  Merging sums the bins and the
cold counts, weights the files' means by their counts and takes the
median from the merged histogram.

A file with sharing tracking (config.sharing) gets, per shared
variable, its shared lines and transfers (true and false sharing), the
invalidations and coherence misses, and its worst lines: per thread the
bytes it wrote and read and where; its per-line table gets the
transfers, invalidations and coherence misses.  After the variables
table: the communication hot spots (writer line -> next access by
another thread) and the thread x thread matrix of shared lines.  With
NUMA data (two sockets or more) a variable's detail gives its local
and remote accesses, hit ratio and first-touch threads.  Merging sums
the counts, unites worst lines (by address), pairs and matrix cells,
and recomputes the hit ratio.  The advice list follows the totals.

A file with loops (top-level "loops", memprof --loops=yes) gets, after
the variables table, its busiest loops down to the threshold of
accesses: accesses, entries, iterations and their mean per entry, the
most concurrent strided streams in one execution / their mean ('!' when
more than the prefetcher follows), depth, file:first-last and function;
under each loop the access formulas of its instructions (where,
variable, formula, base).  A variable with an inferred structure
("struct") gets a Structure block in its detail: size, the fields
(offset, name or +offset, size, accesses, share of cycles as a bar,
loops), the non-zero field affinities and the suggested split, or a note
when its fields overlap.  Advice on a loop (too-many-streams) is headed
by the loop.  With --auto=yes each shown loop is marked at its first
line.  Merging matches loops by function, file and lines: entries,
iterations and accesses summed, streams the largest; a variable's
structure is the first file's that has one (named in the block).  With
--diff, the loops of both runs (streams and accesses, matched the same
way) and each variable's structure split.

With --callgrind the file(s), merged as above, are written to stdout in
the Callgrind profile format instead, for callgrind_annotate and
KCachegrind/QCachegrind: one cost line per function and source line
(--callgrind-view=code), or with --callgrind-view=data one pseudo-function
per variable, named after it and where it is, whose cost lines are the
source lines that accessed it, its kind (global, heap, stack, other) as
its object.  Events: Acc (accesses), Rd, Wr, then with a cache
simulation the misses of each level (L1miss, L2miss, ...) and Cyc (the
estimated cycles); the summary is the totals.  Accesses without a source
line go to line 0 of file ??? (in the code view, of function ???).  The
options of the text report and --diff are refused with it.""" \
    % FORMAT_VERSION


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise InputError("%s (try --help)" % message)


def threshold_arg(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("bad threshold %r" % text)
    if not 0.0 <= v <= 100.0 or v != v:
        raise argparse.ArgumentTypeError("threshold must be between 0 and "
                                         "100, got %r" % text)
    return v


def is_level_key(text):
    """A cache level's name as a sort key: L1, L2, L3, ..."""
    return len(text) > 1 and text[0] == "L" and text[1:].isdigit()


def sort_arg(text):
    if text not in SORT_KEYS + CACHE_SORT_KEYS + ANALYSIS_SORT_KEYS \
            and not is_level_key(text):
        raise argparse.ArgumentTypeError(
            "unknown sort key %r, expected one of %s or a cache level "
            "(L1, L2, L3)" % (text, ", ".join(SORT_KEYS + CACHE_SORT_KEYS
                                               + ANALYSIS_SORT_KEYS)))
    return text


def count_arg(least):
    def parse(text):
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("bad count %r" % text)
        if v < least:
            raise argparse.ArgumentTypeError(
                "must not be negative" if least == 0 else
                "must be at least %d, got %d" % (least, v))
        return v
    return parse


def view_arg(text):
    if text not in CALLGRIND_VIEWS:
        raise argparse.ArgumentTypeError("expected %s, got %r"
                                         % (" or ".join(CALLGRIND_VIEWS),
                                            text))
    return text


def auto_arg(text):
    if text not in ("yes", "no"):
        raise argparse.ArgumentTypeError("expected yes or no, got %r" % text)
    return text == "yes"


def include_arg(text):
    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError("%r is not a directory" % text)
    return text


def parse_args(argv):
    p = Parser(prog=PROG, description=DESCRIPTION,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sort", type=sort_arg, default=None,
                   metavar="KEY",
                   help="order of the variables table: %s; with a cache "
                        "simulation also %s or a level's name (L1, L2, L3: "
                        "its misses); reuse (mean reuse distance), sharing "
                        "(true plus false shared lines, then transfers), "
                        "remote (NUMA remote accesses) (default: stall, "
                        "the memory stall cycles beyond an L1 hit, with a "
                        "cache simulation, else accesses)"
                   % (", ".join(SORT_KEYS), ", ".join(CACHE_SORT_KEYS)))
    p.add_argument("--threshold", type=threshold_arg, default=None,
                   metavar="PCT",
                   help="hide variables with less than PCT%% of all "
                        "accesses (of all estimated cycles with a cache "
                        "simulation), and loops with less than PCT%% of "
                        "all accesses; with --diff, in both runs "
                        "(default: 0.1)")
    p.add_argument("--show", type=count_arg(0), default=None, metavar="N",
                   help="print the detail of the first N variables "
                        "(default: 10)")
    p.add_argument("--diff", nargs=2, metavar=("BEFORE", "AFTER"),
                   help="compare two files: the totals, the advice, and "
                        "per variable what changed, largest absolute "
                        "change of the sort metric first")
    p.add_argument("--auto", type=auto_arg, default=None,
                   metavar="yes|no",
                   help="after the tables, print the source files of the "
                        "per-line data annotated line by line, the loops "
                        "marked at their first line (default: no)")
    p.add_argument("--show-runtime", type=auto_arg, default=None,
                   metavar="yes|no",
                   help="rank the variables of the C runtime, the dynamic "
                        "linker, Valgrind's preload and unattributed "
                        "memory with the program's, instead of one line "
                        "per object after the table, and list their loops "
                        "(default: no)")
    p.add_argument("--include", type=include_arg, action="append",
                   default=[], metavar="DIR",
                   help="look for source files under DIR too (repeatable)")
    p.add_argument("--width", type=count_arg(40), default=None,
                   metavar="N",
                   help="width of annotated source lines and of wrapped "
                        "text (default: %d)" % DEFAULT_WIDTH)
    p.add_argument("--callgrind", action="store_true",
                   help="write the file(s) in the Callgrind profile format "
                        "to stdout, for callgrind_annotate and KCachegrind "
                        "(events: %s)" % CALLGRIND_EVENTS_HELP)
    p.add_argument("--callgrind-view", type=view_arg, default=None,
                   metavar="code|data",
                   help="with --callgrind: code gives the costs per "
                        "function and source line; data makes each "
                        "variable a function, named after it and where it "
                        "is ('A (mvt.c:105)'), grouped by kind as objects, "
                        "whose lines are the source lines that accessed it "
                        "(default: code)")
    p.add_argument("--version", action="version",
                   version="%s %s (JSON format version %d)"
                   % (PROG, VERSION, FORMAT_VERSION))
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="memprof output file(s), e.g. memprof.out.1234")
    opts = p.parse_args(argv)
    check_callgrind_opts(opts)
    # The defaults are set here, not by argparse, so that
    # check_callgrind_opts sees which options were given.
    for key, default in REPORT_DEFAULTS:
        if getattr(opts, key) is None:
            setattr(opts, key, default)
    if opts.diff and opts.files:
        raise InputError("--diff compares two files; also given: %s "
                         "(try --help)" % ", ".join(opts.files))
    if opts.diff and opts.auto:
        raise InputError("--auto=yes annotates one report, not --diff "
                         "(try --help)")
    if not opts.diff and not opts.files:
        raise InputError("no input file (try --help)")
    return opts


# The options of the text report, with their defaults.
REPORT_DEFAULTS = (("threshold", 0.1), ("show", 10), ("auto", False),
                   ("width", DEFAULT_WIDTH), ("show_runtime", False))
REPORT_OPTIONS = ("sort", "threshold", "show", "auto", "include", "width",
                  "show_runtime")


def check_callgrind_opts(opts):
    """--callgrind writes the whole profile for tools that sort and
    filter it themselves: the options of the text report are refused
    rather than silently ignored."""
    if opts.callgrind_view is not None and not opts.callgrind:
        raise InputError("--callgrind-view needs --callgrind (try --help)")
    if not opts.callgrind:
        return
    if opts.diff:
        raise InputError("--callgrind writes one profile, not --diff "
                         "(try --help)")
    given = ["--" + key.replace("_", "-") for key in REPORT_OPTIONS
             if getattr(opts, key) not in (None, [])]
    if given:
        raise InputError("%s: not with --callgrind, which writes the whole "
                         "profile (try --help)" % ", ".join(given))


def check_sort(key, data, paths):
    """Refuses a sort key whose metric no file measured."""
    where = ", ".join(paths)
    variables = data["variables"]
    levels = data["levels"]
    if (key in CACHE_SORT_KEYS or is_level_key(key)) and not levels:
        raise InputError("--sort=%s needs a cache simulation; there is "
                         "none in %s" % (key, where))
    if is_level_key(key) and key not in levels:
        raise InputError("--sort=%s: no cache level %s in %s (levels: %s)"
                         % (key, key, where, ", ".join(levels)))
    if key == "reuse" and not any(v.get("reuse") for v in variables):
        raise InputError("--sort=reuse needs reuse distances; there are "
                         "none in %s" % where)
    if key == "sharing" and data["config"].get("sharing") is not True \
            and not any(v.get("sharing") for v in variables):
        raise InputError("--sort=sharing needs sharing data; there are "
                         "none in %s" % where)
    if key == "remote" and not any(v.get("numa") for v in variables):
        raise InputError("--sort=remote needs NUMA data; there are none "
                         "in %s" % where)


def load_data(paths, rank_key=None):
    """The data of one file, or of several merged in one pass (one file
    read at a time); rank_key: the sort key of the per-rank view."""
    if len(paths) == 1:
        return file_data(load(paths[0]))
    return merge_paths(paths, load, rank_key)


def run_report(opts):
    data = load_data(opts.files, opts.sort)
    if opts.sort is None:
        opts.sort = "stall" if data["levels"] else "accesses"
    check_sort(opts.sort, data, opts.files)
    return report(data, opts)


def run_callgrind(opts):
    return callgrind_report(load_data(opts.files),
                            opts.callgrind_view or "code")


def run_diff(opts):
    before, after = [merge([load(path)]) for path in opts.diff]
    if (before["levels"] is None) != (after["levels"] is None):
        raise InputError("cannot compare files with and without a cache "
                         "simulation (%s has none)"
                         % opts.diff[before["levels"] is not None])
    if before["levels"] != after["levels"]:
        raise InputError("cannot compare files with different cache "
                         "levels (%s; %s)" % (", ".join(before["levels"]),
                                              ", ".join(after["levels"])))
    if opts.sort is None:
        opts.sort = "cycles" if before["levels"] else "accesses"
    for data, path in ((before, opts.diff[0]), (after, opts.diff[1])):
        check_sort(opts.sort, data, [path])
    return diff_report(before, after, opts)


def main(argv):
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError):
            pass
    try:
        opts = parse_args(argv)
        if opts.diff:
            lines = run_diff(opts)
        elif opts.callgrind:
            lines = run_callgrind(opts)
        else:
            lines = run_report(opts)
        text = "\n".join(lines) + "\n"
    except InputError as e:
        sys.stderr.write("%s: error: %s\n" % (PROG, e))
        return 1
    except Exception as e:
        # A bug, or input that the checks let through: still one line,
        # never a traceback (MEMPROF_ANNOTATE_DEBUG=1 shows it).
        if os.environ.get("MEMPROF_ANNOTATE_DEBUG"):
            raise
        sys.stderr.write("%s: error: internal error, please report: "
                         "%s: %s\n" % (PROG, type(e).__name__, e))
        return 1
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # Output cut short by the reader (e.g. `| head`): not an error.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
