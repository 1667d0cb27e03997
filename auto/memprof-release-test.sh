#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A stage of the test command (memprof-test.sh) against another Valgrind
# release: the one of a Debian suite, built from its source package
# (memprof-valgrind.sh: once, then from its cache while the suite holds
# that version).  Builds memprof against it in build-vg-<version>/
# (memprof-build.sh --valgrind) and runs there, with that Valgrind first
# in PATH, the regression tests, the analysis helpers' comparison
# (helper_exact.py) and the cross-check of the cache model against that
# release's Cachegrind.  Says how long each step took.
#
#    memprof-release-test.sh [--no-helpers] SUITE
#                                     SUITE: sid (the newest release),
#                                     trixie, ...; --no-helpers leaves
#                                     out the helpers' comparison (the
#                                     stage's longest, ten minutes)
#
# When the source cannot be fetched (no network, no such suite) the stage
# is skipped, in one line saying why.  Ends with one line "N passed, N
# failed, N skipped".
set -u
cd "$(dirname "$0")/.."
helpers=yes
[ "${1:-}" = --no-helpers ] && { helpers=no; shift; }
suite=${1:-}
case $suite in
   ""|-*) echo "usage: $0 [--no-helpers] SUITE (a Debian suite: sid, trixie, ...)" >&2; exit 2 ;;
esac
passed=0 failed=0 skipped=0
add() { passed=$((passed + $1)); failed=$((failed + $2)); skipped=$((skipped + $3)); }
finish() { echo "$passed passed, $failed failed, $skipped skipped"; [ "$failed" -eq 0 ]; exit; }
now() { date +%s; }

t=$(now)
prefix=$(sh auto/memprof-valgrind.sh "$suite" 2>"release-$suite-valgrind.log")
case $? in
   0) ;;
   77) echo "SKIP Valgrind of Debian $suite: $(tail -n 1 "release-$suite-valgrind.log" | sed 's/^memprof: //')"
       add 0 0 1; finish ;;
   *) tail -n 30 "release-$suite-valgrind.log"
      echo "FAIL build of Debian $suite's Valgrind"; add 0 1 0; finish ;;
esac
ver=$(sed -n 's/^Version: *//p' "$prefix/lib/pkgconfig/valgrind.pc")
echo "Valgrind $ver (Debian $suite) in $prefix: $(($(now) - t)) s"

t=$(now)
if ! sh auto/memprof-build.sh --valgrind="$prefix" >"release-$suite-build.log" 2>&1 \
   || ! make -C "build-vg-$ver/memprof/tests" -j"$(nproc 2>/dev/null || echo 2)" check MP_REGTESTS= \
        >>"release-$suite-build.log" 2>&1; then
   tail -n 30 "release-$suite-build.log"
   echo "FAIL build of memprof and its test programs against Valgrind $ver"
   add 0 1 0; finish
fi
echo "memprof and its test programs built in build-vg-$ver/: $(($(now) - t)) s"
cd "build-vg-$ver" || exit 1
PATH="$prefix/bin:$PATH"
export PATH

# count LOG STATUS WHAT SECONDS: as memprof-test.sh's count, and the time.
count() {
   cat "$1"
   line=$(tail -n 1 "$1")
   case "$line" in
      *" passed, "*" failed, "*" skipped") set -- "$1" "$2" "$3" "$4" $line; sk=$9 ;;
      *" passed, "*" failed") set -- "$1" "$2" "$3" "$4" $line; sk=0 ;;
      *) echo "FAIL $3: no summary line"; add 0 1 0; return ;;
   esac
   echo "$3 against Valgrind $ver: $4 s"
   if [ "$2" -ne 0 ] && [ "$7" -eq 0 ]; then add "$5" 1 "$sk"; else add "$5" "$7" "$sk"; fi
}

t=$(now)
python3 memprof/tests/vg_regtest --valgrind="$PWD/vg-in-place" memprof/tests/*.vgtest >regtest.log 2>&1
count regtest.log $? "regression tests" $(($(now) - t))

if [ "$helpers" = yes ]; then
   t=$(now)
   python3 memprof/tests/helper_exact.py --valgrind="$PWD/vg-in-place" >helper-exact.log 2>&1
   count helper-exact.log $? "analysis helpers" $(($(now) - t))
else
   echo "SKIP analysis helpers against Valgrind $ver (--no-helpers)"
   add 0 0 1
fi

t=$(now)
mkdir -p build-crosscheck
for w in xc_matmul xc_list xc_thrash; do
   gcc -O1 -g -o build-crosscheck/$w memprof/tests/crosscheck/$w.c
done
python3 memprof/tests/crosscheck/crosscheck.py --valgrind="$PWD/vg-in-place" \
   --dir=build-crosscheck >crosscheck.log 2>&1
count crosscheck.log $? "cross-check against Cachegrind" $(($(now) - t))
finish
