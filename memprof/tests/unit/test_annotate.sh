#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tests of memprof_annotate on the JSON fixtures in annotate/.  Each case
# runs the script with cwd = annotate/ and compares
#     its stdout, then its stderr, then a line "[exit N]"
# with annotate/CASE.exp.  Prints PASS/FAIL per case, then a summary line,
# and exits 1 if any case failed.
#
# By default the unsubstituted memprof/memprof_annotate.in is run with
# python3; set MEMPROF_ANNOTATE to a command (e.g. the built script) to
# test that instead.  With UPDATE=1 the .exp files are (re)written from the
# actual output -- check them by hand before committing.

set -u

here=$(cd "$(dirname "$0")" && pwd)
fixtures="$here/annotate"
if [ -n "${MEMPROF_ANNOTATE:-}" ]; then
    annotate=("$MEMPROF_ANNOTATE")
else
    annotate=(python3 "$(cd "$here/../.." && pwd)/memprof_annotate.in")
fi

export PYTHONIOENCODING=utf-8
export LC_ALL=C.UTF-8

tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_annotate.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0

# run_case NAME ARGS...
run_case() {
    local name=$1
    shift
    local actual="$tmp/$name.out"
    (
        cd "$fixtures" || exit 1
        "${annotate[@]}" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
        rc=$?
        cat "$tmp/stdout" "$tmp/stderr"
        echo "[exit $rc]"
    ) >"$actual"
    if [ "${UPDATE:-0}" = 1 ]; then
        cp "$actual" "$fixtures/$name.exp"
    fi
    if [ -f "$fixtures/$name.exp" ] && cmp -s "$fixtures/$name.exp" "$actual"
    then
        echo "PASS $name"
        passed=$((passed + 1))
    else
        echo "FAIL $name"
        if [ -f "$fixtures/$name.exp" ]; then
            diff -u "$fixtures/$name.exp" "$actual" | sed 's/^/    /'
        else
            echo "    missing $fixtures/$name.exp"
        fi
        failed=$((failed + 1))
    fi
}

run_case normal          normal.json
run_case normal_options  --sort=name --threshold=0 --show=2 normal.json
run_case normal_bytes    --sort=bytes --threshold=50 --show=0 normal.json
run_case merge           merge_a.json merge_b.json
run_case locals_merge    locals_a.json locals_b.json
run_case unicode         unicode.json
run_case invalid         invalid.json
run_case missing_key     missing_key.json
run_case newer_version   newer_version.json
run_case missing_file    no-such-file.json
run_case bad_option      --sort=colour normal.json
run_case strides         strides.json
run_case strides_merge   --show=1 strides.json strides_b.json
run_case cache           cache.json
run_case cache_merge     --show=2 cache.json cache_b.json
run_case cache_options   --sort=misses --threshold=20 --show=1 cache.json
run_case cache_fallback  cache_fallback.json
run_case cache_ll        --sort=ll-misses --threshold=5 --show=0 cache_fallback.json
run_case cache_mixed     cache.json normal.json
run_case cache_sort      --sort=cycles normal.json
run_case reuse           reuse.json
run_case reuse_merge     --show=2 reuse.json reuse_b.json
run_case reuse_sampled   --show=2 reuse_sampled.json
run_case reuse_bad       reuse_bad.json

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
