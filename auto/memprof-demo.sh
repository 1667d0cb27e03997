#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's first command: builds memprof, installs it beside
# Valgrind's tools when run as root (so that 'valgrind --tool=memprof' and
# 'memprof_annotate' work from anywhere), and runs it on the bundled
# example (an array of structures next to a structure of arrays), then
# prints the report.
set -e
cd "$(dirname "$0")/.."
sh auto/memprof-build.sh >/dev/null
if [ "$(id -u)" = 0 ]; then
   make install >/dev/null
   echo "memprof: installed; 'valgrind --tool=memprof ./prog' now works anywhere"
else
   echo "memprof: not root, not installed; run it as $PWD/vg-in-place --tool=memprof ./prog"
fi
mkdir -p build-demo
gcc -O1 -g -o build-demo/particles examples/particles.c
cd build-demo
../vg-in-place --tool=memprof --memprof-out-file=memprof.out.demo ./particles
../memprof_annotate --threshold=1 --show=3 memprof.out.demo
