#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Where does the time go?  Runs each workload under Valgrind's own tools
# and under memprof with one part of the analysis taken away at a time,
# and prints the CPU time (user + system) of each run, the best of RUNS,
# then what each part costs by subtraction, next to what the matching
# part of Cachegrind costs.  This is the measurement behind "Where the
# time goes" and "Why the targets are not met" in docs/performance.md.
# Numbers are printed, never asserted.  memprof runs with
# --analysis-procs=0, every analysis in Valgrind's process, so that each
# part's cost is in the CPU time measured (a helper process is not
# Valgrind's child, and its time would not be).
#
# Usage: sh auto/memprof-parts.sh [workload...]
#   workloads (memprof-ab.sh's sizes): sqlite3 python3 gzip xz allocs;
#   default: sqlite3 python3 gzip xz.
# Environment: RUNS (default 2).
#
# The runs, in the order printed:
#   none      --tool=none
#   cg0       Cachegrind --cache-sim=no (its instrumentation and counts)
#   cg        Cachegrind --cache-sim=yes, memprof's L1 and last level
#   floor     memprof, no analysis and --cache-sim=no: the helper call,
#             the attribution and the per-variable counts
#   cache2    cache-only with two levels (--L2=none), as Cachegrind
#   cache     cache-only: every access attributed and simulated through
#             the three levels with miss causes
#   noreuse   the defaults with --reuse=no
#   default   the defaults
#   exact     --exact=yes
#   gap       --sample=periodic with one window of one instruction: the
#             dormant instrumentation, the heap tracking and the fixed
#             costs of a periodic run
#   periodic  --sample=periodic (the default schedule)
set -e
cd "$(dirname "$0")/.."
runs=${RUNS:-2}
workloads=${*:-"sqlite3 python3 gzip xz"}
out=build-parts
command -v /usr/bin/time >/dev/null || {
   echo "memprof-parts: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

. auto/memprof-workloads.sh
command_of() {
   case $1 in
   sqlite3|python3|gzip|xz|allocs) workload_command $1 ;;
   *) echo "memprof-parts: unknown workload $1 (sqlite3 python3 gzip xz allocs)" >&2
      exit 2 ;;
   esac
}
for w in $workloads; do
   command_of $w >/dev/null
   case $w in
   gzip|xz|sqlite3|python3)
      command -v $w >/dev/null || {
         echo "memprof-parts: needs $w (apt-get install $w)" >&2; exit 1; } ;;
   esac
done

sh auto/memprof-build.sh >/dev/null
workload_inputs
export PYTHONHASHSEED=0

# cpu CMD...: the least user + system seconds of $runs runs
cpu() {
   best=
   i=0
   while [ $i -lt $runs ]; do
      /usr/bin/time -f "%U %S" -o $out/time.txt "$@" </dev/null >/dev/null 2>&1 || true
      t=$(awk '{ printf "%.2f", $1 + $2 }' $out/time.txt)
      best=$(printf '%s\n%s\n' "$best" "$t" | grep . | sort -n | head -1)
      i=$((i + 1))
   done
   echo "$best"
}

vg=./vg-in-place
mp="$vg --tool=memprof --analysis-procs=0 --memprof-out-file=$out/memprof.json"
off="--reuse=no --strides=no --loops=no --what-if=none --sharing=no"
huge=1000000000000000

printf '%-8s %6s %6s %6s | %6s %6s %6s %7s %7s %6s | %6s %8s\n' workload \
   none cg0 cg floor cache2 cache noreuse default exact gap periodic
results=
for w in $workloads; do
   cmd=$(command_of $w)
   # memprof's geometry, for Cachegrind: its L1 and its last level.
   $mp $off $cmd </dev/null >/dev/null 2>&1 || true
   geometry=$(python3 auto/memprof-json.py geometry $out/memprof.json)
   none=$(cpu $vg --tool=none $cmd)
   cg0=$(cpu $vg --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null $cmd)
   cg=$(cpu $vg --tool=cachegrind --cache-sim=yes $geometry --cachegrind-out-file=/dev/null $cmd)
   floor=$(cpu $mp $off --cache-sim=no $cmd)
   cache2=$(cpu $mp $off --L2=none $cmd)
   cache=$(cpu $mp $off $cmd)
   noreuse=$(cpu $mp --reuse=no $cmd)
   default=$(cpu $mp $cmd)
   exact=$(cpu $mp --exact=yes $cmd)
   gap=$(cpu $mp --sample=periodic:1,$huge $cmd)
   periodic=$(cpu $mp --sample=periodic $cmd)
   printf '%-8s %6s %6s %6s | %6s %6s %6s %7s %7s %6s | %6s %8s\n' $w \
      $none $cg0 $cg $floor $cache2 $cache $noreuse $default $exact $gap $periodic
   results="$results$w $none $cg0 $cg $floor $cache2 $cache $noreuse $default $exact $gap $periodic
"
done

printf '\nBy subtraction, seconds (memprof | Cachegrind):\n'
printf '%s' "$results" | awk '
function r(x) { return sprintf("%.2f", x) }
{
   w = $1; none = $2; cg0 = $3; cg = $4; floor = $5; cache2 = $6; cache = $7
   noreuse = $8; def = $9; exact = $10; gap = $11; per = $12
   printf "%s:\n", w
   printf "  instrumentation, attribution, counts  %6s | %6s (cg0 - none)\n", r(floor - none), r(cg0 - none)
   printf "  the hierarchy, two levels             %6s | %6s (cg - cg0)\n", r(cache2 - floor), r(cg - cg0)
   printf "  the third level                       %6s\n", r(cache - cache2)
   printf "  reuse distances                       %6s\n", r(def - noreuse)
   printf "  the rest of the defaults              %6s\n", r(noreuse - cache)
   printf "  exact detail analyses                 %6s\n", r(exact - def)
   printf "  periodic: gaps and fixed costs        %6s, windows %s\n", r(gap - none), r(per - gap)
   printf "  ratios: cache/cg %.1f, default/cg %.1f, exact/cg %.1f, periodic/none %.1f\n", \
      cache / cg, def / cg, exact / cg, per / none
}'
