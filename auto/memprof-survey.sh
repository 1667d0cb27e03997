#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a new user sees on real application codes: builds public codes at
# -O2 -g from their sources (which this script does not fetch, and which
# must never be committed), runs each under memprof and prints the exit
# summary's ranked variables and advice, then each advice item's replay
# from the output file.  Run by hand; no test runs it, and it asserts
# nothing: it is the survey behind the verdicts of docs/memprof.md.
#
# Usage: sh auto/memprof-survey.sh [--lulesh=DIR] [--npb=DIR] [--rodinia=DIR]
#   --lulesh=DIR   LLNL's LULESH 2.0 (C++ hydrodynamics proxy app), built
#                  without MPI, run on a 15^3 mesh for 20 cycles
#   --npb=DIR      the NAS Parallel Benchmarks 3.0 in C with OpenMP
#                  (NPB3.0-omp-C): FT, class S, one thread
#   --rodinia=DIR  Rodinia 3.x: openmp/srad/srad_v2 (speckle-reducing
#                  diffusion on a 512 x 512 image it makes, 4 iterations)
#                  at two threads, OMP_WAIT_POLICY=passive
# Each source tree is copied into build-survey/NAME and built there.
# Environment: MEMPROF_OPTS, memprof's options (default: none).
set -e
cd "$(dirname "$0")/.."
lulesh= npb= rodinia=
for a in "$@"; do
   case "$a" in
      --lulesh=*) lulesh=${a#--lulesh=} ;;
      --npb=*) npb=${a#--npb=} ;;
      --rodinia=*) rodinia=${a#--rodinia=} ;;
      *) echo "usage: sh auto/memprof-survey.sh [--lulesh=DIR] [--npb=DIR] [--rodinia=DIR]" >&2
         exit 2 ;;
   esac
done
if [ -z "$lulesh$npb$rodinia" ]; then
   echo "memprof-survey: give at least one code's source directory (--help: see the script)" >&2
   exit 2
fi
[ -x ./vg-in-place ] || sh auto/memprof-build.sh >/dev/null
top=$PWD
out=$top/build-survey
mkdir -p "$out"

# copy NAME DIR: a fresh copy of the source tree to build in.
copy() {
   rm -rf "$out/$1"
   cp -r "$2" "$out/$1"
}

# run NAME DIR COMMAND...: memprof on the command, in DIR; prints the
# summary's ranked table and advice, then the replays of the advice.
run() {
   name=$1 dir=$2
   shift 2
   echo "================================================================"
   echo "== $name: $*"
   (cd "$dir" && "$top/vg-in-place" --tool=memprof $MEMPROF_OPTS \
      --memprof-out-file="$out/$name.out" "$@" >"$out/$name.stdout" 2>"$out/$name.stderr") || true
   sed -n '/Top [0-9]* variables/,/Not the program/p;/Advice (/,/Output:/p' "$out/$name.stderr" \
      | sed 's/^==[0-9]*== //'
   python3 - "$out/$name.out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print("-- every advice item and rejected one, with its replay (evidence's last clause):")
for kind, items in (("advice", d.get("advice") or []), ("rejected", d.get("rejected") or [])):
    for a in items:
        ev = a.get("evidence") or ""
        replay = ev[ev.rfind("replay"):] if "replay" in ev else "no replay"
        print("%-8s %-20s %-24s %s%s" % (kind, a.get("kind"), (a.get("variable") or "-")[:24],
                                         replay[:160], "; " + a["reason"][:120] if a.get("reason") else ""))
EOF
}

if [ -n "$lulesh" ]; then
   copy lulesh "$lulesh"
   (cd "$out/lulesh" && g++ -O2 -g -DUSE_MPI=0 -o lulesh2.0 lulesh.cc lulesh-comm.cc \
      lulesh-viz.cc lulesh-util.cc lulesh-init.cc)
   run lulesh "$out/lulesh" ./lulesh2.0 -s 15 -i 20
fi
if [ -n "$npb" ]; then
   copy npb "$npb"
   sed -e 's/^CC = cc/CC = gcc/' -e 's/^CLINK[[:space:]]*= cc/CLINK = gcc/' \
       -e 's/^CFLAGS[[:space:]]*= .*/CFLAGS = -O2 -g -fopenmp/' \
       -e 's/^CLINKFLAGS =.*/CLINKFLAGS = -fopenmp/' -e 's/^C_LIB  =.*/C_LIB = -lm/' \
       "$out/npb/config/make.def.template" >"$out/npb/config/make.def"
   mkdir -p "$out/npb/bin"
   (cd "$out/npb" && make FT CLASS=S >"$out/npb.build.log" 2>&1)
   OMP_NUM_THREADS=1 run npb-ft "$out/npb/bin" ./ft.S
fi
if [ -n "$rodinia" ]; then
   copy rodinia-srad "$rodinia/openmp/srad/srad_v2"
   (cd "$out/rodinia-srad" && g++ -O2 -g -fopenmp -o srad srad.cpp)
   OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive run rodinia-srad "$out/rodinia-srad" \
      ./srad 512 512 0 127 0 127 2 0.5 4
fi
