#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs a representative subset of the regression tests on arm64-linux:
# builds in build-arm64/ (memprof-build.sh --arch=arm64) and, on another
# machine, runs the tool under qemu-aarch64.  The subset holds tests
# whose counts do not depend on the instruction set (their .exp files
# are the amd64 ones): globals, heap blocks, reallocation, sections,
# threads, allocation wrappers, the exit summary; tests marked 'isa:' in
# their .vgtest are left out.  Under emulation a test takes some seconds.
# When the cross tools or the arm64 packages cannot be had (not root, no
# network) the subset is skipped, not failed.  Ends with one line
# "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."
TESTS="global_array heap_alloc realloc_buf sect_runs threads summary heap_wrappers"
n=$(echo $TESTS | wc -w)
if ! sh auto/memprof-cross.sh arm64 >arm64-cross.log 2>&1; then
   cat arm64-cross.log
   echo "SKIP arm64 subset (the cross tools or arm64 packages are unavailable)"
   echo "0 passed, 0 failed, $n skipped"
   exit 0
fi
if ! sh auto/memprof-build.sh --arch=arm64 >arm64-build.log 2>&1; then
   tail -n 30 arm64-build.log
   echo "FAIL arm64 build"
   echo "0 passed, 1 failed, 0 skipped"
   exit 1
fi
cd build-arm64/memprof/tests || exit 1
# shellcheck disable=SC2086
if ! make $TESTS >/dev/null 2>&1; then
   echo "FAIL arm64 build of the test programs"
   echo "0 passed, 1 failed, 0 skipped"
   exit 1
fi
# shellcheck disable=SC2046
exec python3 ./vg_regtest --valgrind="$PWD/../../vg-in-place" $(for t in $TESTS; do echo "$t.vgtest"; done)
