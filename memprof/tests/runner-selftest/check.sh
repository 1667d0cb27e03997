#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Self-test of memprof/tests/vg_regtest.  Runs the runner on a temporary
# copy of this directory (laid out as <tmp>/filter_stderr and
# <tmp>/runner-selftest/ so the tests' relative paths still hold) and
# checks that:
#   1. the tests as shipped pass (exit 0, "2 passed, 0 failed, 0 skipped");
#   2. with one .exp altered the runner reports FAIL and exits 1;
#   3. an altered post.exp gives "post differs";
#   4. a matching .exp-* alternative alone is enough to pass;
#   5. a failing prereq gives SKIP; a hung program gives FAIL (timeout);
#      a missing prog: gives FAIL;
#   6. an isa: not naming the architecture gives SKIP.
# Exits 0 only if every check holds.  Uses $MEMPROF_VALGRIND or valgrind.

set -u

here=$(cd "$(dirname "$0")" && pwd)
tests=$(dirname "$here")
runner="$tests/vg_regtest"

vg=${MEMPROF_VALGRIND:-valgrind}
if ! command -v "$vg" >/dev/null 2>&1; then
    echo "check.sh: $vg not found" >&2
    exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vg_regtest-selftest.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

fails=0
ok()  { echo "PASS $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }

fresh_copy() {
    rm -rf "$tmp/t"
    mkdir -p "$tmp/t/runner-selftest"
    cp "$tests/filter_stderr" "$tmp/t/"
    cp "$here"/*.vgtest "$here"/*.exp* "$here/sed_filter" \
       "$tmp/t/runner-selftest/"
}

# run_runner: runs vg_regtest on the copy; sets $out and $rc.
run_runner() {
    out=$(cd "$tmp/t" && "$@" "$runner" runner-selftest 2>&1)
    rc=$?
}

has_line() { printf '%s\n' "$out" | grep -qxF -- "$1"; }

show() { printf '%s\n' "$out" | sed 's/^/    | /'; }

# 1. As shipped: everything passes.
fresh_copy
run_runner env
if [ $rc -eq 0 ] && has_line "PASS runner-selftest/echo" \
   && has_line "PASS runner-selftest/env_post" \
   && has_line "2 passed, 0 failed, 0 skipped"; then
    ok "shipped tests pass"
else
    bad "shipped tests pass (exit $rc)"; show
fi

# 2. An altered stdout.exp must make the runner fail.
fresh_copy
echo "something else" > "$tmp/t/runner-selftest/echo.stdout.exp"
run_runner env
if [ $rc -eq 1 ] && has_line "FAIL runner-selftest/echo (stdout differs)" \
   && has_line "PASS runner-selftest/env_post" \
   && has_line "1 passed, 1 failed, 0 skipped" \
   && [ -s "$tmp/t/runner-selftest/echo.stdout.diff" ] \
   && grep -qxF -- "-something else" "$tmp/t/runner-selftest/echo.stdout.diff"
then
    ok "altered stdout.exp is reported as FAIL, exit 1"
else
    bad "altered stdout.exp is reported as FAIL, exit 1 (exit $rc)"; show
fi

# 2b. Same for stderr.
fresh_copy
printf '==PID== extra line\n' >> "$tmp/t/runner-selftest/echo.stderr.exp"
run_runner env
if [ $rc -eq 1 ] && has_line "FAIL runner-selftest/echo (stderr differs)" \
   && [ -s "$tmp/t/runner-selftest/echo.stderr.diff" ]; then
    ok "altered stderr.exp is reported as FAIL, exit 1"
else
    bad "altered stderr.exp is reported as FAIL, exit 1 (exit $rc)"; show
fi

# 3. An altered post.exp.
fresh_copy
echo "POST: other" > "$tmp/t/runner-selftest/env_post.post.exp"
run_runner env
if [ $rc -eq 1 ] && has_line "FAIL runner-selftest/env_post (post differs)"
then
    ok "altered post.exp is reported as FAIL"
else
    bad "altered post.exp is reported as FAIL (exit $rc)"; show
fi

# 4. Only an alternative .exp-* matches: still a pass.
fresh_copy
mv "$tmp/t/runner-selftest/env_post.stderr.exp" \
   "$tmp/t/runner-selftest/env_post.stderr.exp-moved"
run_runner env
if [ $rc -eq 0 ] && has_line "PASS runner-selftest/env_post"; then
    ok "a matching .exp-* alternative passes"
else
    bad "a matching .exp-* alternative passes (exit $rc)"; show
fi

# 5. prereq, timeout and a missing prog.
fresh_copy
d="$tmp/t/runner-selftest"
printf 'prereq: false\nprog-asis: /bin/true\nvgopts: --tool=none\n' \
    > "$d/skipped.vgtest"
printf 'prog-asis: /bin/sleep\nargs: 60\nvgopts: --tool=none\n' \
    > "$d/hangs.vgtest"
printf 'prog: no-such-program\nvgopts: --tool=none\n' > "$d/noprog.vgtest"
start=$SECONDS
run_runner env MEMPROF_TEST_TIMEOUT=3
if [ $rc -eq 1 ] && has_line "SKIP runner-selftest/skipped (prereq failed)" \
   && has_line "FAIL runner-selftest/hangs (timeout)" \
   && has_line "FAIL runner-selftest/noprog (prog no-such-program not found)" \
   && has_line "2 passed, 2 failed, 1 skipped" \
   && [ $((SECONDS - start)) -lt 30 ]; then
    ok "prereq skip, timeout and missing prog"
else
    bad "prereq skip, timeout and missing prog (exit $rc)"; show
fi

# 6. isa: a test for other architectures is skipped, one naming this
# machine's (the launcher is no in-place one) runs.
fresh_copy
d="$tmp/t/runner-selftest"
case $(uname -m) in x86_64) arch=amd64 ;; aarch64) arch=arm64 ;; *) arch=$(uname -m) ;; esac
printf 'isa: sparc64 mips\nprog-asis: /bin/true\nvgopts: --tool=none\n' \
    > "$d/otherisa.vgtest"
cp "$d/echo.vgtest" "$d/thisisa.vgtest"; cp "$d/echo.stdout.exp" "$d/thisisa.stdout.exp"
cp "$d/echo.stderr.exp" "$d/thisisa.stderr.exp"
printf 'isa: sparc64 %s\n' "$arch" >> "$d/thisisa.vgtest"
run_runner env
if [ $rc -eq 0 ] && has_line "SKIP runner-selftest/otherisa (counts for sparc64 mips, not $arch)" \
   && has_line "PASS runner-selftest/thisisa" \
   && has_line "3 passed, 0 failed, 1 skipped"; then
    ok "isa skip"
else
    bad "isa skip (exit $rc)"; show
fi

if [ $fails -ne 0 ]; then
    echo "check.sh: $fails check(s) failed"
    exit 1
fi
echo "check.sh: all checks passed"
exit 0
