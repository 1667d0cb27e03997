#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's second command, and what CI runs: builds memprof, then runs
# every test: the Check unit tests and other 'make check' tests, the
# regression tests (vg_regtest on memprof/tests), the same programs run
# inline and with the analysis helpers and compared, the unit tests of the
# reader of the JSON output (Python unittest), the cross-check of the
# cache model against Cachegrind, the robustness suite (real programs,
# process life cycle, bad input, hostile names), an MPI program's ranks
# under OpenMPI's mpirun and their merge, the HTML viewer in a
# headless browser, the release tarball, a subset of the regression tests
# built for arm64-linux and run under qemu (memprof-arm64-test.sh), the
# runner's own self-test, and the regression tests, the helpers'
# comparison and the cross-check again against the newest Valgrind
# release, built from Debian unstable's source package
# (memprof-release-test.sh sid), and but for the helpers' comparison
# against Debian 13's (memprof-release-test.sh --no-helpers trixie);
# each skipped when its source cannot be fetched.
# Ends with one line "N passed, N failed, N skipped".
#
#    memprof-test.sh                    against the Valgrind that
#                                       pkg-config finds, in the source tree
#    memprof-test.sh --valgrind=PREFIX  against the Valgrind installed
#                                       under PREFIX: builds in
#                                       build-vg-<version>/ (see
#                                       memprof-build.sh) and runs the same
#                                       tests there, with PREFIX/bin first
#                                       in PATH; the stages that build
#                                       against another Valgrind (arm64,
#                                       the newest release, Debian 13's)
#                                       are skipped
set -u
cd "$(dirname "$0")/.."
case "${1:-}" in
   "") ;;
   --valgrind=*)
      vg=${1#--valgrind=}
      sh auto/memprof-deps.sh --test || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }
      sh auto/memprof-build.sh "$1" || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }
      vg=$(cd "$vg" && pwd)
      ver=$(sed -n 's/^Version: *//p' "$vg/lib/pkgconfig/valgrind.pc")
      PATH="$vg/bin:$PATH" MP_TEST_VALGRIND="$vg" exec sh "build-vg-$ver/auto/memprof-test.sh" ;;
   *) echo "usage: $0 [--valgrind=PREFIX]" >&2; exit 2 ;;
esac
# The test-only packages (chromium for the viewer, the real programs of the
# robustness suite) first; without them those tests are skipped, not failed.
sh auto/memprof-deps.sh --test || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }
sh auto/memprof-build.sh || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }

passed=0 failed=0 skipped=0
add() { passed=$((passed + $1)); failed=$((failed + $2)); skipped=$((skipped + $3)); }

# count LOG STATUS: shows a stage's log and adds the counts of its last
# line, "N passed, N failed[, N skipped]".  A log without that line is
# one failure; so is a stage that exits non-zero (STATUS) after
# reporting no failure: it crashed after its summary.
count() {
   cat "$1"
   rc=$2
   line=$(tail -n 1 "$1")
   case "$line" in
      *" passed, "*" failed, "*" skipped") set -- $line; sk=$5 ;;
      *" passed, "*" failed") set -- $line; sk=0 ;;
      *) add 0 1 0; return ;;
   esac
   if [ "$rc" -ne 0 ] && [ "$3" -eq 0 ]; then add "$1" 1 "$sk"; else add "$1" "$3" "$sk"; fi
}

echo "== unit tests (make check)"
# MP_REGTESTS= : the regression tests run below, counted one by one.
make -j"$(nproc 2>/dev/null || echo 2)" check MP_REGTESTS= >make-check.log 2>&1
status=$?
for log in memprof/tests/unit/test-suite.log; do
   if [ -f "$log" ]; then
      p=$(sed -n 's/^# PASS: *//p' "$log"); f=$(sed -n 's/^# FAIL: *//p' "$log")
      s=$(sed -n 's/^# SKIP: *//p' "$log"); e=$(sed -n 's/^# ERROR: *//p' "$log")
      add "${p:-0}" $(( ${f:-0} + ${e:-0} )) "${s:-0}"
      grep -E '^(PASS|FAIL|SKIP|ERROR|XPASS|XFAIL): ' make-check.log || true
   fi
done
if [ $status -ne 0 ]; then
   cat memprof/tests/unit/test-suite.log 2>/dev/null || tail -40 make-check.log
   [ -f memprof/tests/unit/test-suite.log ] || add 0 1 0
fi

echo "== regression tests (vg_regtest)"
python3 memprof/tests/vg_regtest --valgrind="$PWD/vg-in-place" memprof/tests/*.vgtest >regtest.log 2>&1
count regtest.log $?

echo "== the analysis helpers: each regression program inline, with one helper and with two"
python3 memprof/tests/helper_exact.py --valgrind="$PWD/vg-in-place" >helper-exact.log 2>&1
count helper-exact.log $?

echo "== cross-check of the cache model against Cachegrind"
mkdir -p build-crosscheck
for w in xc_matmul xc_list xc_thrash; do
   gcc -O1 -g -o build-crosscheck/$w memprof/tests/crosscheck/$w.c
done
python3 memprof/tests/crosscheck/crosscheck.py --valgrind="$PWD/vg-in-place" \
   --dir=build-crosscheck >crosscheck.log 2>&1
count crosscheck.log $?

echo "== robustness: real programs, process life cycle, bad input, hostile names"
python3 memprof/tests/robust/run.py --valgrind="$PWD/vg-in-place" \
   --annotate="$PWD/memprof_annotate" --dir=build-robust >robust.log 2>&1
count robust.log $?

echo "== MPI: the ranks of an MPI program under mpirun, their files merged"
python3 memprof/tests/mpi/run.py --valgrind="$PWD/vg-in-place" \
   --annotate="$PWD/memprof_annotate" --dir=build-mpi >mpi.log 2>&1
count mpi.log $?

echo "== reader of the JSON format (unittest)"
python3 memprof/tests/reader/test_reader.py >reader.log 2>&1
count reader.log $?

echo "== HTML viewer in a headless browser"
python3 memprof/tests/viewer/test_viewer.py --dir=build-viewer >viewer.log 2>&1
status=$?
if [ $status -eq 77 ]; then   # no browser: skipped
   cat viewer.log
   add 0 0 1
else
   count viewer.log $status
fi

echo "== release tarball (make dist, VPATH build, the demo from it)"
sh memprof/tests/dist/check.sh >dist.log 2>&1
count dist.log $?

echo "== arm64-linux under qemu (a subset; skipped without the cross tools)"
# Set by --valgrind=PREFIX: this tree is build-vg-<version>/.
if [ -n "${MP_TEST_VALGRIND:-}" ]; then
   echo "SKIP arm64 subset (it runs Debian's arm64 Valgrind, not $MP_TEST_VALGRIND's: see the run without --valgrind)"
   add 0 0 1
else
   sh auto/memprof-arm64-test.sh >arm64-test.log 2>&1
   count arm64-test.log $?
fi

echo "== test runner self-test"
if bash memprof/tests/runner-selftest/check.sh >runner-selftest.log 2>&1; then
   echo "PASS runner-selftest"; add 1 0 0
else
   cat runner-selftest.log; echo "FAIL runner-selftest"; add 0 1 0
fi

echo "== the newest Valgrind release (Debian unstable's source package): regression tests, helpers, cross-check"
if [ -n "${MP_TEST_VALGRIND:-}" ]; then
   echo "SKIP newest Valgrind release (this run is against $MP_TEST_VALGRIND's)"
   add 0 0 1
else
   sh auto/memprof-release-test.sh sid >release-sid.log 2>&1
   count release-sid.log $?
fi

# The helpers' comparison (ten minutes) is left to the newest release:
# it checks memprof's own processes, which a release changes little.
echo "== Debian 13's Valgrind: regression tests, cross-check"
if [ -n "${MP_TEST_VALGRIND:-}" ]; then
   echo "SKIP Debian 13's Valgrind (this run is against $MP_TEST_VALGRIND's)"
   add 0 0 1
else
   sh auto/memprof-release-test.sh --no-helpers trixie >release-trixie.log 2>&1
   count release-trixie.log $?
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
