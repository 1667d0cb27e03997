#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Speed and memory of memprof against Valgrind's own tools on the same
# workloads: wall-clock seconds of each run, memprof's ratios to
# --tool=none, cachegrind and callgrind --cache-sim=yes, and memprof's
# peak RSS.  Numbers are printed, never asserted: timing belongs to no test.
set -e
cd "$(dirname "$0")/.."
sh auto/memprof-build.sh >/dev/null
command -v /usr/bin/time >/dev/null || { echo "memprof-bench: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
out=build-bench
mkdir -p $out
for w in bench/matmul.c bench/allocs.c examples/particles.c; do
   gcc -O2 -g -o $out/"$(basename "$w" .c)" "$w"
done

# measure CMD...: prints "seconds peak_rss_kB" of one run.
measure() {
   /usr/bin/time -f "%e %M" -o $out/time.txt "$@" >/dev/null 2>&1 || true
   cat $out/time.txt
}

vg=./vg-in-place
printf '%-10s %7s %7s %7s %7s %7s | %6s %6s %6s | %8s\n' workload native none cg clg memprof \
   /none /cg /clg "RSS(MB)"
for prog in matmul allocs particles; do
   set -- $(measure $out/$prog); t0=$1
   set -- $(measure $vg --tool=none $out/$prog); tn=$1
   set -- $(measure $vg --tool=cachegrind --cachegrind-out-file=/dev/null $out/$prog); tc=$1
   set -- $(measure $vg --tool=callgrind --cache-sim=yes --callgrind-out-file=/dev/null $out/$prog); tk=$1
   set -- $(measure $vg --tool=memprof --memprof-out-file=$out/memprof.out.bench $out/$prog); tm=$1; mm=$2
   awk -v p=$prog -v t0="$t0" -v tn="$tn" -v tc="$tc" -v tk="$tk" -v tm="$tm" -v mm="$mm" 'BEGIN {
      printf "%-10s %7.2f %7.2f %7.2f %7.2f %7.2f | %6.2f %6.2f %6.2f | %8.1f\n",
         p, t0, tn, tc, tk, tm, tm / tn, tm / tc, tm / tk, mm / 1024 }'
done
