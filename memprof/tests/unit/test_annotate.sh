#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tests of memprof_annotate on the JSON fixtures in annotate/.  Each case
# runs the script with cwd = annotate/ and compares
#     its stdout, then its stderr, then a line "[exit N]"
# with annotate/CASE.exp.  Prints PASS/FAIL per case, then a summary line,
# and exits 1 if any case failed.
#
# By default the modules, memprof/annotate/memprof_annotate.py, are run
# with python3; set MEMPROF_ANNOTATE to a command (the built script,
# which the build bundles from the modules: 'make check' does) to test
# that instead.  Then each case runs the modules too, and their output
# must be the bundle's, byte for byte: the bundle behaves as the modules
# do.  With UPDATE=1 the .exp files are (re)written from the actual
# output -- check them by hand before committing.

set -u

here=$(cd "$(dirname "$0")" && pwd)
fixtures="$here/annotate"
modules=(python3 "$(cd "$here/../../annotate" && pwd)/memprof_annotate.py")
if [ -n "${MEMPROF_ANNOTATE:-}" ]; then
    annotate=("$MEMPROF_ANNOTATE")
    also=("${modules[@]}")
else
    annotate=("${modules[@]}")
    also=()
fi

export PYTHONIOENCODING=utf-8
export LC_ALL=C.UTF-8

tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_annotate.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0

# run_case NAME ARGS...
run_case() {
    local name=$1
    shift
    local actual="$tmp/$name.out" same=yes
    run_one "$actual" "${annotate[@]}" "$@"
    if [ ${#also[@]} -gt 0 ]; then
        run_one "$tmp/$name.modules" "${also[@]}" "$@"
        cmp -s "$actual" "$tmp/$name.modules" || same=no
    fi
    if [ "${UPDATE:-0}" = 1 ]; then
        cp "$actual" "$fixtures/$name.exp"
    fi
    if [ -f "$fixtures/$name.exp" ] && cmp -s "$fixtures/$name.exp" "$actual" \
        && [ $same = yes ]
    then
        echo "PASS $name"
        passed=$((passed + 1))
    else
        echo "FAIL $name"
        if [ ! -f "$fixtures/$name.exp" ]; then
            echo "    missing $fixtures/$name.exp"
        elif ! cmp -s "$fixtures/$name.exp" "$actual"; then
            diff -u "$fixtures/$name.exp" "$actual" | sed 's/^/    /'
        fi
        if [ $same = no ]; then
            echo "    the modules' output differs from ${annotate[*]}'s:"
            diff -u "$actual" "$tmp/$name.modules" | sed 's/^/    /'
        fi
        failed=$((failed + 1))
    fi
}

# run_one OUT COMMAND... : the command's stdout, stderr and "[exit N]",
# run in annotate/, into OUT.
run_one() {
    local out=$1
    shift
    (
        cd "$fixtures" || exit 1
        "$@" >"$tmp/stdout" 2>"$tmp/stderr"
        rc=$?
        cat "$tmp/stdout" "$tmp/stderr"
        echo "[exit $rc]"
    ) >"$out"
}

run_case normal          normal.json
run_case normal_options  --sort=name --threshold=0 --show=2 normal.json
run_case normal_bytes    --sort=bytes --threshold=50 --show=0 normal.json
run_case merge           merge_a.json merge_b.json
run_case locals_merge    locals_a.json locals_b.json
# The per-rank view of a merge.  ranks.N are hand-written files of five
# ranks of one MPI program, given in the shell's order of ranks.* (0, 1,
# 10, 2, 3): the labels must come from the names.  u has 100 accesses
# (10 writes) in each rank but rank 10's 400 (40): min 100, mean
# 800/5 = 160, max 400 at rank 10, max/mean 2.50 (writes: 10, 16, 40).
# buf is rank 1's only (50): min 0, mean 10, max/mean 5.00.  tmp, 10
# in each, has its max at the first rank given.  The ranks' totals: 110,
# 160, 410, 110, 110, mean 180, 410/180 = 2.28.  min_var_size differs
# in every file: the header names the first two and the last of five.
ranks="ranks.0 ranks.1 ranks.10 ranks.2 ranks.3"
run_case ranks           --threshold=0 --show=0 $ranks
run_case ranks_writes    --sort=writes --threshold=0 --show=0 $ranks
# Of equal ranks the lowest is named, whatever the order of the files:
# tmp's max and the least total (110 on ranks 0, 2 and 3) are rank 0's.
run_case ranks_order     --threshold=0 --show=0 ranks.3 ranks.10 ranks.2 ranks.1 ranks.0
# A sort key whose metric is no sum over a rank's variables: the view
# is by accesses.  Names that do not end in different numbers: a rank
# is the file's position.
run_case ranks_name      --sort=name --show=0 ranks.3 ranks.3
run_case unicode         unicode.json
run_case invalid         invalid.json
run_case missing_key     missing_key.json
run_case newer_version   newer_version.json
run_case missing_file    no-such-file.json
run_case bad_option      --sort=colour normal.json
run_case strides         strides.json
run_case strides_merge   --show=1 strides.json strides_b.json
run_case cache           cache.json
run_case cache_merge     --show=2 cache.json cache_b.json
run_case cache_options   --sort=misses --threshold=20 --show=1 cache.json
run_case cache_fallback  cache_fallback.json
run_case cache_ll        --sort=ll-misses --threshold=5 --show=0 cache_fallback.json
run_case cache_mixed     cache.json normal.json
run_case cache_sort      --sort=cycles normal.json
# Ranked by stall cycles: a C++ frame whose accesses all hit L1 has the
# most cycles but ranks last, under its label (no parameter list);
# --sort=cycles ranks it first.
run_case stall           stall.json
run_case stall_cycles    --sort=cycles stall.json
run_case reuse           reuse.json
run_case reuse_merge     --show=2 reuse.json reuse_b.json
run_case reuse_sampled   --show=2 reuse_sampled.json
run_case reuse_bad       reuse_bad.json

# Bad input: one line on stderr naming the file and the problem, exit 1.
run_case empty_file      empty.json
run_case truncated       truncated.json
run_case binary          binary.json
run_case not_memprof     not_memprof.json
run_case future_version  future_version.json
run_case directory       .
run_case sharing_bad     sharing_bad.json
run_case prefetch        --show=2 prefetch.json
run_case prefetch_merge  --show=1 prefetch.json prefetch.json
run_case prefetch_bad    prefetch_bad.json
run_case bad_width       --width=10 normal.json
run_case bad_auto        --auto=maybe normal.json
run_case bad_include     --auto=yes --include=no-such-dir normal.json
run_case bad_show        --show=-1 normal.json
run_case unknown_option  --frobnicate normal.json
run_case no_file

# Sharing, NUMA, communication, advice (variables[].sharing, .numa,
# per_line transfers, top-level communication, communication_matrix,
# advice), merged too.
run_case sharing         sharing.json
run_case sharing_merge   --show=3 sharing.json sharing_b.json
run_case sharing_none    --sort=sharing sharing_none.json
run_case matrix_big      matrix_big.json

# Sort keys of the analyses and by level name.
run_case sort_sharing    --sort=sharing --show=0 sharing.json
run_case sort_remote     --sort=remote --show=0 sharing.json
run_case sort_reuse      --sort=reuse --show=0 --threshold=0 mm_naive.json
run_case sort_level      --sort=L2 --show=0 cache.json
run_case sort_level_none --sort=L4 cache.json
run_case sort_remote_none  --sort=remote cache.json
run_case sort_sharing_none --sort=sharing cache.json
run_case sort_reuse_none --sort=reuse normal.json

# --diff BEFORE AFTER.
run_case diff_mm         --diff mm_naive.json mm_blocked.json --show=5
run_case diff_sharing    --diff sharing.json sharing_fixed.json --show=1
run_case diff_sort       --diff sharing.json sharing_fixed.json --sort=sharing --show=0
run_case diff_name       --diff mm_naive.json mm_blocked.json --sort=name --threshold=1 --show=0
run_case diff_nocache    --diff merge_a.json merge_b.json --show=1
run_case diff_mixed      --diff normal.json cache.json
run_case diff_levels     --diff cache.json cache_fallback.json
run_case diff_bad_file   --diff normal.json truncated.json
run_case diff_no_file    --diff no-such-file.json normal.json
run_case diff_one_file   --diff normal.json
run_case diff_extra_file --diff normal.json normal.json cache.json
run_case diff_auto       --auto=yes --diff normal.json normal.json

# --auto=yes: source annotated line by line.
run_case auto_mm         --auto=yes --show=0 mm_naive.json
run_case auto_not_found  --auto=yes --show=0 mm_blocked.json
run_case auto_include    --auto=yes --include=src --show=0 --threshold=0 sharing.json
run_case auto_merge      --auto=yes --include=src --show=0 sharing.json sharing_b.json
run_case auto_edge       --auto=yes --show=0 --threshold=0 auto_edge.json
run_case auto_width      --auto=yes --show=0 --threshold=0 --width=60 auto_edge.json

# Loops, structures, advice on a loop (top-level "loops",
# variables[].struct, too-many-streams).  Real memprof output, trimmed to
# a few variables, the program's loops and a few of the C library's
# (json.load and dump again; no value changed):
#   loops.json      particles (src/particles.c, gcc -O0 -g), --L1=32768,8,64
#                   --L2=1048576,16,64 --L3=none --cores=1 --reuse=no
#                   --read-var-info=yes
#   loops_b.json    the same with --L1=16384,4,64
#   loops_opt.json  particles built with -DOPT: the structure split, the
#                   loop of 18 streams split in two
#   struct_overlap.json  memprof/tests/sharing_false, --cores=4: the
#                   dynamic linker's _rtld_local, a structure whose fields
#                   overlap
run_case loops           --show=3 loops.json
run_case loops_narrow    --threshold=5 --show=0 --width=60 loops.json
run_case loops_merge     --threshold=5 --show=3 loops.json loops_b.json
run_case loops_diff      --diff loops.json loops_opt.json --show=3
run_case loops_auto      --auto=yes --include=src --show=0 loops.json
# loops.json with the config.detail of a default run (strides and loops
# in windows): the header says so, the loops and the strides are marked
run_case loops_detail    --show=1 loops_detail.json
# Advice its replay refutes (top-level "rejected", an advice's "replay"):
# memprof/tests/advice_interchange_nopay with its test's options, trimmed
# to the program's variables and loops (json.load and dump again).
run_case rejected        --show=0 rejected.json
# the same file twice: the loops' share is of both files' windows
run_case loops_detail_merge --show=0 --threshold=5 loops_detail.json loops_detail.json
# loops_runtime.json is loops.json with each loop's class: main's three
# the program's, the three of ld.so the loader's.  Its Loops section
# lists main's three and says 3 are left out; --show-runtime=yes lists
# all six.
run_case loops_runtime      --threshold=0 --show=0 loops_runtime.json
run_case loops_runtime_show --threshold=0 --show=0 --show-runtime=yes loops_runtime.json
run_case struct_overlap  --threshold=1 --show=2 struct_overlap.json
run_case loops_bad       loops_bad.json
run_case struct_bad      struct_bad.json
run_case sampled         sampled.json
# --sample=lines: every count a whole-run estimate with its 95% interval.
# lines.json is real output (triad.c, three arrays of 8 MiB, --sample=lines)
# trimmed to 12 variables, the program's loops and the advice on b and a
# (json.load and dump again; no value changed but triad:mapped's per_line
# rows, its 5 busiest kept, and its strides, dropped).  The header says
# what the counts are; the table gives the ranked metric's interval
# ("±3.0%" for b: [47,797,548, 50,768,596] around 49,283,072) right of
# it; the variables with fewer than 2 sampled lines (estimable false)
# show "-" for their cache counts, come last and are counted in a note,
# and triad:mapped's detail says why it has no cache block (its per-line
# rows without misses).  With --show-runtime=yes by cycles: ld.so.cache's
# 19,584 in [612, 41,405] is "±>100%".  The file twice: sampled lines
# and interval bounds summed, triad:mapped's 1 + 1 lines enough.
run_case lines           --show=3 --threshold=0 lines.json
run_case lines_runtime   --show-runtime=yes --sort=cycles --show=0 --threshold=0 lines.json
run_case lines_merge     --show=0 --threshold=0 lines.json lines.json
# --diff of sampled runs: a change within the sampling error, |after -
# before| <= sqrt(h_before^2 + h_after^2) (h the larger side of a run's
# 95% interval, 0 for an exact run), is marked "~".  lines_b.json is
# lines.json with, changed by hand: heap b's cycles and stall cycles
# +1,000,000 (74,448,896 -> 75,448,896, 49,283,072 -> 50,283,072), their
# intervals moved with them; its L3 misses +6,585 (131,072 -> 137,657)
# on an interval of half-width 5,268 ([132,389, 142,925]); heap a's L1
# and L2 misses -100,000 (655,360 -> 555,360) and its cycles and stall
# cycles -10,000,000, the intervals moved with them; triad:mapped given
# 2 sampled lines, estimable; the hits, causes, fills, served counts,
# cpa and totals made to agree (lines.json's pid + 1).  lines_exact.json
# is lines_b.json as an exact run writes it: no config.sampling, no
# sampled_lines, estimable or ci, reuse weight 1 (pid + 2).  Expected:
#   lines vs lines_b (the header: "before 1 in 32, after 1 in 32"):
#     b's cycles +1,000,000 <= sqrt(2) x 2,244,090 = 3,173,623: "~";
#     b's stall +1,000,000 <= sqrt(2) x 1,485,524 = 2,100,848: "~";
#     b's L3 misses +6,585 = sqrt(3,951^2 + 5,268^2), on the bound: "~";
#     a's cycles -10,000,000 > sqrt(2) x 1,975,431 = 2,793,681, its
#     stall -10,000,000 > sqrt(2) x 1,343,293 = 1,899,703, its L1 and L2
#     misses -100,000 > sqrt(2) x 19,754 = 27,936: unmarked; an
#     unchanged count (b's L1 misses, a's L3): "0~".  triad:mapped, not
#     estimable before: "-" before and for the change, no mark, ranked
#     after the others, a note under the table and its detail;
#     stack:(below main), not estimable in either run: "-" throughout.
#   lines vs lines_exact (h_after = 0; the header: "before 1 in 32,
#     after exact"): b's cycles +1,000,000 <= 2,244,090: "~"; b's L3
#     misses +6,585 > 3,951: unmarked; triad:mapped "-" before only.
run_case diff_lines       --diff lines.json lines_b.json --show=3 --threshold=0
run_case diff_lines_stall --diff lines.json lines_b.json --sort=stall --show=0 --threshold=0
run_case diff_lines_exact --diff lines.json lines_exact.json --sort=L3 --show=1 --threshold=0

# --callgrind: the Callgrind profile format.  callgrind.json is a
# hand-written file (two cache levels; a heap array accessed from two
# files, one of them inlined code, a global from two functions, a local,
# a frame, a row without line information, and the fold without per_line
# rows); callgrind_code.exp and callgrind_data.exp were derived from it
# by hand: per function (per variable in the data view) and source line,
# the sums of its rows; the rest of a variable its rows do not cover at
# line 0 of ???; summary: the JSON's totals.
run_case callgrind_code      --callgrind callgrind.json
run_case callgrind_data      --callgrind --callgrind-view=data callgrind.json
run_case callgrind_nocache   --callgrind normal.json
run_case callgrind_merge     --callgrind --callgrind-view=data merge_a.json merge_b.json
run_case callgrind_missing   --callgrind no-such-file.json
run_case callgrind_invalid   --callgrind --callgrind-view=data invalid.json
run_case callgrind_mixed     --callgrind cache.json normal.json
run_case callgrind_diff      --callgrind --diff normal.json cache.json
run_case callgrind_options   --callgrind --sort=reads --show=3 normal.json
run_case callgrind_view_bad  --callgrind --callgrind-view=heap normal.json
run_case callgrind_view_only --callgrind-view=data normal.json

# check_callgrind NAME ARGS...: Valgrind's callgrind_annotate reads the
# profile of both views (../callgrind_check.py ARGS): its totals and its
# functions summed must be the JSON's, and the functions given their
# counts; the output is compared with annotate/NAME.exp.  Skipped when
# callgrind_annotate (part of Valgrind) is not installed.
# callgrind_check.py runs the annotator with python3: the script's path.
annotate_script=${MEMPROF_ANNOTATE:-${modules[1]}}
check_callgrind() {
    local name=$1
    shift
    local actual="$tmp/$name.out" rc
    (cd "$fixtures" && python3 "$here/../callgrind_check.py" "$@" \
        "$annotate_script") >"$actual" 2>&1
    rc=$?
    if [ $rc -eq 77 ]; then
        echo "SKIP $name: $(cat "$actual")"
        return
    fi
    echo "[exit $rc]" >>"$actual"
    if [ "${UPDATE:-0}" = 1 ]; then
        cp "$actual" "$fixtures/$name.exp"
    fi
    if cmp -s "$fixtures/$name.exp" "$actual"; then
        echo "PASS $name"
        passed=$((passed + 1))
    else
        echo "FAIL $name"
        diff -u "$fixtures/$name.exp" "$actual" | sed 's/^/    /'
        failed=$((failed + 1))
    fi
}

check_callgrind callgrind_annotate callgrind.json \
    --fn code:mvt.c:kernel --fn code:util.h:kernel \
    --fn "data:mvt.c:A (mvt.c:105) [heap]" --fn "data:main.c:x [global]" \
    --fn data:mvt.c:x
check_callgrind callgrind_annotate_nocache normal.json

# check_width NAME WIDTH ARGS...: no line of the annotated source (from
# the first "Auto-annotated source" on) is wider than WIDTH columns.
# With START (check_width_from), from the first line holding START to the
# next empty line, several times.
check_width() {
    check_width_from "Auto-annotated" "$@"
}

check_width_from() {
    local start=$1 name=$2 limit=$3
    shift 3
    local wide
    wide=$(cd "$fixtures" && "${annotate[@]}" "$@" 2>&1 | python3 -c '
import sys, unicodedata
def width(s):
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
lines = sys.stdin.read().split("\n")
limit, start = int(sys.argv[1]), sys.argv[2]
begins = [i for i, l in enumerate(lines) if start in l]
if not begins:
    print("no " + start)
for b in begins:
    for l in lines[b:] if start == "Auto-annotated" else \
            lines[b:next((i for i in range(b + 1, len(lines))
                          if not lines[i]), len(lines))]:
        if width(l) > limit:
            print(l)
' "$limit" "$start")
    if [ -z "$wide" ]; then
        echo "PASS $name"
        passed=$((passed + 1))
    else
        echo "FAIL $name"
        echo "$wide" | sed 's/^/    /'
        failed=$((failed + 1))
    fi
}

check_width width_default 100 --auto=yes --show=0 --threshold=0 auto_edge.json
check_width width_60      60  --auto=yes --show=0 --threshold=0 --width=60 auto_edge.json
check_width width_include 100 --auto=yes --include=src --show=0 sharing.json
check_width width_mm      100 --auto=yes --show=0 mm_blocked.json
check_width width_loops_auto 100 --auto=yes --include=src --show=0 loops.json
check_width_from "loop (function)" width_loops 100 --show=0 --threshold=0 loops.json
check_width_from "loop (function)" width_loops_60 60 --show=0 --width=60 loops.json
check_width_from "Structure" width_struct 100 --show=3 loops.json
check_width_from "Structure" width_struct_overlap 100 --threshold=1 --show=2 struct_overlap.json
check_width_from "loop (function)" width_loops_diff 100 --diff loops.json loops_opt.json --show=0
check_width_from "loop (function)" width_loops_diff_60 60 --width=60 --diff loops.json loops_opt.json --show=0

# Classes (runtime.json: one L1, hits 4 cycles, misses 200; 16 entries,
# 2,456 accesses, 32,756 cycles).  The table ranks the program's rows:
# grid 980 x 4 + 20 x 200 = 7,920 (24.2%); "a" at rt.c:9, two sites of
# one line (make() called from rt.c:20 and rt.c:21) merged into one row:
# 1,140 + 632 = 1,772 cycles (5.4%), 40 + 60 = 100 accesses, 5 + 2 = 7
# misses, 1 + 2 = 3 blocks of 64 + 128 = 192 B, size and lines the larger
# (64 B, 2), its two stacks in the detail and its rt.c:30 rows summed (90
# accesses, 1,140 + 592 cycles: cpa 19.2); stack:main 100 (0.3%), "a" at
# rt.c:15 80 (0.2%); and two sites of zlib's deflateInit2_ named after the
# thread's start line, different code: two rows, 48 and 40 (0.1%).  Then
# one line per object: libc.so.6 11,000 + 2,200 + 96 = 13,296 cycles
# (40.6%), 300 + 60 + 24 = 384 accesses (15.6%); ld-linux 6,320 + 40 + 40 =
# 6,400 (19.5%), 600 + 10 + 10 = 620 accesses (25.2%), 2 variables (its
# twin sites are one); unattributed (other, stack:??? of no object)
# 2,960 + 20 = 2,980 (9.1%), 255 accesses (10.4%); the preload 120, 30.
# "variables" is 14 (16 less the two merged twins).  With
# --show-runtime=yes all 14 rows by cycles with their class, the loader's
# twins merged (heap@rtld-malloc.h:44: 80 cycles, 20 accesses) and
# stack:??? (20 cycles, 0.06%) below the threshold.  runtime_b.json is
# runtime.json without the misses of grid (4,000 cycles) and of
# libc.so.6:mapped (1,200): --diff, which matches variables by name (the
# zlib sites are one pair: 88), shows the program's 5 pairs (grid -3,920,
# -49.5%) and says 8 are left out; with --show-runtime=yes all 13.  A
# file without classes (every other fixture) is all the program's:
# nothing folded.
run_case runtime            --show=2 runtime.json
run_case runtime_show       --show=0 --show-runtime=yes runtime.json
run_case runtime_bad        --show-runtime=maybe runtime.json
run_case runtime_callgrind  --callgrind --show-runtime=no runtime.json
run_case runtime_diff       --show=0 --diff runtime.json runtime_b.json
run_case runtime_diff_show  --show=0 --show-runtime=yes --diff runtime.json runtime_b.json

# The --help text names every option and sort key.
help=$(COLUMNS=80 "${annotate[@]}" --help 2>&1)
missing=""
for word in --sort --threshold --show --diff --auto --include --width --show-runtime \
        --callgrind --callgrind-view L1miss Cyc --version accesses cycles \
        ll-misses reuse sharing remote loops Structure too-many-streams; do
    case $help in
        *"$word"*) ;;
        *) missing="$missing $word" ;;
    esac
done
if [ -z "$missing" ]; then
    echo "PASS help"
    passed=$((passed + 1))
else
    echo "FAIL help: not in --help:$missing"
    failed=$((failed + 1))
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
