#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Speed and memory of memprof against Valgrind's own tools on the same
# workloads: wall-clock seconds, CPU seconds and peak RSS of the fastest
# of BENCH_ROUNDS rounds (default 3) in which the tools take turns, for
# native, --tool=none, cachegrind --cache-sim=yes, callgrind
# --cache-sim=yes, and memprof in four modes:
#   full     every analysis on, the defaults (the strides and loops
#            sampled in windows, --sample=detail);
#   exact    every analysis at every access, --exact=yes;
#   cache    cache-only: --reuse=no --strides=no --loops=no --what-if=none
#            --sharing=no (every access still attributed to its variable);
#   sampled  the defaults with --sample=periodic (every analysis in windows
#            of 1M instructions, one every 100M);
#   lines    the defaults with --sample=lines (a sample of 1/32 of the
#            lines, whole L1 sets, followed from start to exit: the setting
#            for long runs);
# then memprof's ratios to cachegrind and none; the CPU seconds of each
# process (Valgrind's, and the analysis helper's, which memprof -v
# reports) and of the busiest one against Cachegrind's: the wall time a
# machine with a free core per process would see; the sampled and lines
# runs' error against the full one (auto/memprof-sample-error.py: misses
# per level, top-10 variables, reuse histogram; for lines per variable
# and level, and whether the full value is in the interval), the full
# run's against the exact
# one (auto/memprof-detail-error.py); the full run's memory per touched
# line, and (with triad or chase) the metadata per line with the fixed
# costs excluded, from two sizes of the workload.  Real programs
# nobody here wrote: sqlite3 (Debian's sqlite3 in memory, 30,000 rows
# inserted, indexed, scanned and grouped: bench/sqlite3.sql.in), python3
# (python3 -S bench/dictsort.py 100000), gzip9 (gzip -9 on 4 MB of
# text), xz6 (xz -6 on its first 1 MB), all run by default, and bzip2
# (bzip2 -9 on the same 1 MB), run when named.  Cachegrind picks its geometry from CPUID and memprof from
# /sys, which can differ (a VM's CPUID has reported a 508 MiB last
# level): Cachegrind is also run with memprof's L1 and last level as its
# D1 and LL, and the ratios to that printed apart.  Numbers are printed,
# never asserted: timing belongs to no test.  Usage: sh auto/memprof-bench.sh
# [workload...] (default: all of them).
set -e
cd "$(dirname "$0")/.."
workloads=${*:-"sqlite3 python3 xz6 gzip9 matmul triad chase allocs particles falseshare"}
for prog in $workloads; do
   case $prog in
   matmul|triad|chase|allocs|particles|falseshare|gzip9) ;;
   sqlite3) command -v sqlite3 >/dev/null || {
             echo "memprof-bench: needs sqlite3 (apt-get install sqlite3)" >&2; exit 1; } ;;
   python3) ;;
   xz6)   command -v xz >/dev/null || {
             echo "memprof-bench: needs xz (apt-get install xz-utils)" >&2; exit 1; } ;;
   bzip2) command -v bzip2 >/dev/null || {
             echo "memprof-bench: needs bzip2 (apt-get install bzip2)" >&2; exit 1; } ;;
   *) echo "memprof-bench: unknown workload $prog (sqlite3 python3 xz6 gzip9 matmul triad chase allocs particles falseshare bzip2)" >&2; exit 2 ;;
   esac
done
sh auto/memprof-build.sh >/dev/null
for c in /usr/bin/time gzip; do
   command -v $c >/dev/null || { echo "memprof-bench: needs $c (apt-get install time gzip)" >&2; exit 1; }
done
out=build-bench
mkdir -p $out
for w in bench/matmul.c bench/allocs.c bench/triad.c bench/chase.c examples/particles.c; do
   gcc -O2 -g -o $out/"$(basename "$w" .c)" "$w"
done
gcc -O2 -g -pthread -o $out/falseshare bench/falseshare.c
# A real program: gzip -9 on 4 MB of generated, half-compressible text.
if [ ! -f $out/gzip-input ]; then
   python3 auto/memprof-text.py $((4 << 20)) $out/gzip-input
fi
head -c $((1 << 20)) $out/gzip-input >$out/text-1m
sed 's/@ROWS@/30000/' bench/sqlite3.sql.in >$out/workload.sql

# measure CMD...: prints "seconds peak_rss_kB" of one run, or of the
# fastest of three when it takes under 3 s: a single short run right
# after a long one measured up to 40% slow (sampled triad: 1.03 s in
# the table, 0.73-0.75 s run by itself, twice).
measure() {
   /usr/bin/time -f "%e %M" -o $out/time.txt "$@" >/dev/null 2>&1 || true
   best=$(cat $out/time.txt)
   case $best in
   [0-2].*)
      for again in 2 3; do
         /usr/bin/time -f "%e %M" -o $out/time.txt "$@" >/dev/null 2>&1 || true
         best=$(printf '%s\n%s\n' "$best" "$(cat $out/time.txt)" | sort -n | head -1)
      done ;;
   esac
   echo "$best"
}

# Every tool of a workload runs once per round, in turn, for $rounds
# rounds (BENCH_ROUNDS, default 3), and each keeps its fastest run: a
# slow stretch of a shared machine then falls on every tool alike
# rather than on the one that happened to run in it (single runs of the
# same build minutes apart differ by up to 45% on a loaded machine).
# run LABEL CMD...: appends "wall cpu peak_rss_kB" of one run of CMD to
# $out/runs.LABEL; cpu is user + system seconds.
run() {
   label=$1; shift
   /usr/bin/time -f "%e %U %S %M" -o $out/time.txt "$@" >/dev/null 2>&1 || true
   awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' $out/time.txt >>$out/runs.$label
}
# run_mp LABEL CMD...: as run, for memprof, with three more columns, from
# memprof -v: the busiest analysis helper's CPU seconds, the largest peak
# RSS of a helper in kB, and the helpers' CPU seconds together (0 without
# one).
run_mp() {
   label=$1; valgrind=$2; shift 2
   rm -f $out/mp.log
   /usr/bin/time -f "%e %U %S %M" -o $out/time.txt $valgrind -v --log-file=$out/mp.log "$@" \
      >/dev/null 2>&1 || true
   helpers=$(sed -n 's/.*analysis helper: process [0-9]* ([^)]*), \([0-9.]*\) s of CPU, peak RSS \([0-9]*\) kB.*/\1 \2/p' \
             $out/mp.log 2>/dev/null | awk '{ s += $1; if ($1 > h) h = $1; if ($2 > m) m = $2 }
                                            END { printf "%.2f %d %.2f", h, m, s }')
   set -- ${helpers:-0 0 0}
   awk -v h="$1" -v hm="$2" -v hs="$3" '{ printf "%s %.2f %s %.2f %s %.2f\n", $1, $2 + $3, $4, h, hm, hs }' \
      $out/time.txt >>$out/runs.$label
}
# best LABEL: the fastest run of LABEL by wall time, "wall cpu rss"
# (and memprof's helper's cpu).
best() {
   sort -n $out/runs.$1 | head -1
}
rounds=${BENCH_ROUNDS:-3}
cpu=""

vg=./vg-in-place
mp="$vg --tool=memprof --memprof-out-file=$out/memprof.out.bench"
cache_only="--reuse=no --strides=no --loops=no --what-if=none --sharing=no"
# python3 seeds its string hashes at random: the same seed in every run,
# so that the runs compared do the same accesses.
export PYTHONHASHSEED=0
errors=""
lines_errors=""
detail=""
memory=""
same=""
printf '%-10s %6s %6s %6s %6s | %7s %7s %7s %7s %7s %7s | %5s %5s %5s %5s %5s %5s %5s | %6s %6s %6s\n' \
   workload native none cg clg full inline exact cache sampled lines full/cg inl/cg exact/cg \
   cache/cg samp/none lines/none full/none "RSS MB" "lines MB" "cg MB"
for prog in $workloads; do
   # the command: a benchmark binary, or gzip run directly (a shell
   # wrapper would start every tool twice)
   bin=$out/$prog
   [ "$prog" = gzip9 ] && bin="gzip -9 -c $out/gzip-input"
   [ "$prog" = sqlite3 ] && bin="sqlite3 -batch -init $out/workload.sql :memory: .quit"
   [ "$prog" = python3 ] && bin="/usr/bin/python3 -S bench/dictsort.py 100000"
   [ "$prog" = xz6 ] && bin="xz -6 -c $out/text-1m"
   [ "$prog" = bzip2 ] && bin="bzip2 -9 -c $out/text-1m"
   rm -f $out/runs.*
   round=1
   while [ $round -le $rounds ]; do
      run native $bin
      run none $vg --tool=none $bin
      run cg $vg --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null $bin
      run clg $vg --tool=callgrind --cache-sim=yes --callgrind-out-file=/dev/null $bin
      run_mp full $mp $bin
      [ $round = 1 ] && cp $out/memprof.out.bench $out/full.json
      run_mp inline $mp --analysis-procs=0 $bin
      geometry=$(python3 auto/memprof-json.py geometry $out/full.json)
      run cgg $vg --tool=cachegrind --cache-sim=yes $geometry --cachegrind-out-file=/dev/null $bin
      run_mp exact $mp --exact=yes $bin
      [ $round = 1 ] && cp $out/memprof.out.bench $out/exact.json
      run_mp cache $mp $cache_only $bin
      run sampled $mp --sample=periodic $bin
      [ $round = 1 ] && cp $out/memprof.out.bench $out/sampled.json
      run lines $mp --sample=lines $bin
      [ $round = 1 ] && cp $out/memprof.out.bench $out/lines.json
      round=$((round + 1))
   done
   set -- $(best native); t0=$1
   set -- $(best none); tn=$1; mn=$3
   set -- $(best cg); tc=$1; cc=$2; mc=$3
   set -- $(best clg); tk=$1
   set -- $(best full); tf=$1; cf=$2; mf=$3; hf=$4; hm=$5; sf=$6
   set -- $(best inline); ti=$1; ci=$2
   set -- $(best cgg); tg=$1
   set -- $(best exact); te=$1; ce=$2; he=$4
   set -- $(best cache); to=$1; co=$2; ho=$4
   set -- $(best sampled); ts=$1
   set -- $(best lines); tl=$1; ml=$3
   awk -v p=$prog -v t0="$t0" -v tn="$tn" -v tc="$tc" -v tk="$tk" -v tf="$tf" -v ti="$ti" \
       -v te="$te" -v to="$to" -v ts="$ts" -v tl="$tl" -v mf="$mf" -v ml="$ml" -v mc="$mc" 'BEGIN {
      printf "%-10s %6.2f %6.2f %6.2f %6.2f | %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f | %5.1f %5.1f %5.1f %5.1f %5.1f %5.1f %5.1f | %6.1f %6.1f %6.1f\n",
         p, t0, tn, tc, tk, tf, ti, te, to, ts, tl, tf / tc, ti / tc, te / tc, to / tc, ts / tn,
         tl / tn, tf / tn, mf / 1024, ml / 1024, mc / 1024 }'
   # Valgrind's process's CPU and the busiest helper's, for full, exact
   # and cache-only; the busiest process against Cachegrind's CPU.
   cpu="$cpu$(awk -v p=$prog -v cc="$cc" -v cf="$cf" -v hf="$hf" -v sf="$sf" -v ci="$ci" \
                  -v ce="$ce" -v he="$he" -v co="$co" -v ho="$ho" 'BEGIN {
      bf = cf > hf ? cf : hf; be = ce > he ? ce : he; bo = co > ho ? co : ho
      printf "%-10s %6.2f | %7.2f %6.2f %6.2f %7.2f | %7.2f %6.2f | %7.2f %6.2f | %5.1f %5.1f %5.1f %5.1f",
         p, cc, cf, hf, cf + sf, ci, ce, he, co, ho, ci / cc, bf / cc, be / cc, bo / cc }')
"
   detail="$detail$prog: $(python3 auto/memprof-detail-error.py $out/exact.json $out/full.json)
"
   errors="$errors$prog: $(python3 auto/memprof-sample-error.py $out/full.json $out/sampled.json)
"
   lines_errors="$lines_errors$prog:
$(python3 auto/memprof-sample-error.py --all $out/full.json $out/lines.json)
"
   same="$same$(awk -v p=$prog -v tg="$tg" -v tf="$tf" -v te="$te" -v to="$to" -v g="$geometry" 'BEGIN {
      printf "%-10s %6.2f | %5.1f %5.1f %5.1f   (%s)", p, tg, tf / tg, te / tg, to / tg, g }')
"
   # Metadata per touched line: memprof's peak RSS above --tool=none's,
   # over the distinct cache lines the variables touched.
   lines=$(python3 auto/memprof-json.py lines $out/full.json)
   memory="$memory$(awk -v p=$prog -v mf="$mf" -v mn="$mn" -v l="$lines" -v hm="$hm" 'BEGIN {
      printf "%-10s %10d lines touched, %6.1f MB above none: %6.0f B per line; the helper: peak %6.1f MB, %6.0f B per line", p, l, (mf - mn) / 1024, l ? (mf - mn) * 1024 / l : 0, hm / 1024, l ? hm * 1024 / l : 0 }')
"
done
printf '\nCPU seconds (user + system) of the same fastest runs, per process (vg: Valgrind'"'"'s,\nhelper: the busiest analysis helper'"'"'s, all: every process'"'"'s), and the ratios to\nCachegrind'"'"'s of the inline run and of the busiest process of the full, exact and\ncache-only runs (the wall time with a free core per process):\n%-10s %6s | %7s %6s %6s %7s | %7s %6s | %7s %6s | %5s %5s %5s %5s\n%s' \
   workload cg full:vg helper all inline exact:vg helper cache:vg helper inl/cg busy/cg \
   busyX/cg busyC/cg "$cpu"
printf '\ncachegrind with memprof'"'"'s geometry:\n%-10s %6s | %5s %5s %5s\n%s' workload cg= full/cg= exact/cg= cache/cg= "$same"
printf '\nfull (--sample=detail) against exact (--exact=yes):\n%s' "$detail"
printf '\nsampled (--sample=periodic) against full:\n%s' "$errors"
printf '\nlines (--sample=lines) against full, every variable (--all):\n%s' "$lines_errors"
printf '\nmemory of the full run (fixed costs included):\n%s' "$memory"

# Metadata per touched line, fixed costs excluded: the slope of memprof's
# peak RSS between two sizes of one workload, less the slope of
# --tool=none's (the client's own data), over the lines the larger run
# touched beyond the smaller one.
# slope PROG SMALL LARGE: prints one line.
slope() {
   prog=$1; small=$2; large=$3
   set -- $(measure $vg --tool=none $out/$prog $small); n1=$2
   set -- $(measure $vg --tool=none $out/$prog $large); n2=$2
   set -- $(measure $mp $out/$prog $small)
   m1=$2; cp $out/memprof.out.bench $out/slope1.json
   set -- $(measure $mp $out/$prog $large)
   m2=$2
   set -- $(python3 auto/memprof-json.py lines $out/slope1.json $out/memprof.out.bench)
   python3 - "$prog" "$n1" "$n2" "$m1" "$m2" "$1" "$2" <<'PY'
import sys
prog, n1, n2, m1, m2, l1, l2 = sys.argv[1], *map(int, sys.argv[2:8])
dl = l2 - l1
print("%-10s %8d more lines: memprof +%.1f MB, none +%.1f MB: %5.1f B per line" %
      (prog, dl, (m2 - m1) / 1024, (n2 - n1) / 1024, ((m2 - m1) - (n2 - n1)) * 1024 / dl))
PY
}
case " $workloads " in *" triad "*|*" chase "*)
   printf '\nmetadata per touched line (the slope between two sizes, fixed costs excluded):\n' ;;
esac
case " $workloads " in *" triad "*) slope triad "1048576 1" "2097152 1" ;; esac
case " $workloads " in *" chase "*) slope chase "524288 2" "1048576 2" ;; esac
