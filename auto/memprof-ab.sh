#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Did a change pay?  Runs memprof as built from REV (a commit, branch or
# tag) and as built from the working tree side by side: for each
# workload, the two alternate, RUNS rounds of one run each (which goes
# first alternates too), and the best wall time with its peak RSS and
# the mean wall time are printed with the ratios new/old.  A shared
# VM's speed drifts by 10-20% within an hour (docs/performance.md), so
# only runs interleaved like these compare two builds; numbers taken at
# different times do not.  The best of a few runs moves by 5-10%
# between batches here: a change of a few percent needs the means over
# 8 rounds or more.  Numbers are printed, never asserted.
#
# Usage: sh auto/memprof-ab.sh REV [workload...]
#   workloads: matmul triad chase allocs falseshare (bench/), particles
#   (examples/), gzip (gzip -9 on 1 MB of the benchmark's text), xz (xz -6
#   on the same), sqlite3 (sqlite3 :memory: inserting 5,000 rows, an index,
#   a LIKE and a GROUP BY), python3 (python3 -S building a dict of lists
#   and sorting its keys), true (/bin/true: start-up and exit alone); default:
#   matmul triad chase gzip.
# Environment: RUNS (default 3); MEMPROF_OPTS, memprof's options for
# both builds (default: none, the full analysis), e.g.
#   MEMPROF_OPTS=--sample=periodic sh auto/memprof-ab.sh HEAD~1 gzip xz
# REV is built once in build-ab/REV (a git worktree), rebuilt when REV
# moves.
set -e
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
   echo "usage: sh auto/memprof-ab.sh REV [workload...]" >&2
   exit 2
fi
rev=$1; shift
commit=$(git rev-parse --verify --quiet "$rev^{commit}") || {
   echo "memprof-ab: $rev names no commit" >&2
   exit 2
}
command -v /usr/bin/time >/dev/null || { echo "memprof-ab: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
runs=${RUNS:-3}
workloads=${*:-"matmul triad chase gzip"}
out=build-ab
mkdir -p $out

. auto/memprof-workloads.sh
command_of() {
   workload_command $1 || { echo "memprof-ab: unknown workload $1" >&2; exit 2; }
}

for w in $workloads; do
   command_of $w >/dev/null
done

sh auto/memprof-build.sh >/dev/null
old=$out/$(git rev-parse --short "$commit")
if [ ! -x "$old/vg-in-place" ]; then
   rm -rf "$old"
   git worktree prune
   git worktree add --detach "$old" "$commit" >/dev/null 2>&1
   (cd "$old" && sh auto/memprof-build.sh) >$out/build.log 2>&1 || {
      echo "memprof-ab: building $rev failed; see $out/build.log" >&2
      exit 1
   }
fi

workload_inputs

# one DIR CMD...: "seconds peak_kB" of one run of memprof from DIR
one() {
   d=$1; shift
   /usr/bin/time -f "%e %M" -o $out/time.txt \
      "$d/vg-in-place" --tool=memprof --memprof-out-file=$out/memprof.out.ab \
      $MEMPROF_OPTS "$@" >/dev/null 2>&1 || true
   cat $out/time.txt
}

echo "old: $rev ($(git rev-parse --short "$commit")), new: the working tree; options: ${MEMPROF_OPTS:-(none)}; $runs rounds"
printf '%-10s %9s %9s %7s | %9s %9s %7s | %9s %9s\n' workload "best old" "best new" new/old \
   "mean old" "mean new" new/old "old MB" "new MB"
for w in $workloads; do
   cmd=$(command_of $w)
   bo=999999; bn=999999; mo=0; mn=0; so=0; sn=0
   i=0
   while [ $i -lt "$runs" ]; do
      # each round runs both builds; which goes first alternates, so
      # that a drift within a round does not favour either
      for who in $( [ $((i % 2)) -eq 0 ] && echo "old new" || echo "new old"); do
         if [ $who = old ]; then
            set -- $(one "$old" $cmd)
            so=$(awk -v s=$so -v t=$1 'BEGIN { print s + t }')
            if awk -v a="$1" -v b="$bo" 'BEGIN { exit !(a < b) }'; then bo=$1; mo=$2; fi
         else
            set -- $(one . $cmd)
            sn=$(awk -v s=$sn -v t=$1 'BEGIN { print s + t }')
            if awk -v a="$1" -v b="$bn" 'BEGIN { exit !(a < b) }'; then bn=$1; mn=$2; fi
         fi
      done
      i=$((i + 1))
   done
   awk -v w=$w -v bo=$bo -v bn=$bn -v mo=$mo -v mn=$mn -v so=$so -v sn=$sn -v n=$runs 'BEGIN {
      printf "%-10s %9.2f %9.2f %7.3f | %9.2f %9.2f %7.3f | %9.1f %9.1f\n", w, bo, bn, bn / bo,
             so / n, sn / n, sn / so, mo / 1024, mn / 1024 }'
done
