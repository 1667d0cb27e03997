#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The release tarball: run from a configured memprof tree (the top
# directory), it makes the tarball with 'make dist' and checks that
#   1. it holds what the README's commands use (the auto/ scripts they
#      name and those scripts call, the example, the docs, the annotator,
#      the viewer, every test runner);
#   2. unpacked, it builds out of tree (VPATH, from a read-only source
#      tree as 'make distcheck' does) and its unit tests pass there, and
#      one regression test runs from that build;
#   3. unpacked again, the README's first command, sh auto/memprof-demo.sh,
#      runs in it and prints the report (configured first to install
#      under a scratch prefix, not beside Valgrind).
# 'make distcheck' checks more (every regression test, install and
# uninstall, distclean) but takes several minutes; see README.md.
# One line per check, then "N passed, N failed, N skipped".
set -u
top=$(pwd)
work=$top/build-dist
rm -rf "$work"
mkdir -p "$work"
passed=0 failed=0
ok() { echo "PASS dist: $1"; passed=$((passed + 1)); }
ko() { echo "FAIL dist: $1"; failed=$((failed + 1)); }
finish() {
   chmod -R u+w "$work" 2>/dev/null
   echo "$passed passed, $failed failed, 0 skipped"
   [ "$failed" -eq 0 ]
   exit
}
jobs=$(nproc 2>/dev/null || echo 2)

# 1. make dist and the tarball's contents.
if ! make dist >"$work/dist.log" 2>&1; then
   tail -n 20 "$work/dist.log"; ko "make dist"; finish
fi
tarball=$(sed -n 's/^PACKAGE_TARNAME = //p' Makefile)-$(sed -n 's/^PACKAGE_VERSION = //p' Makefile).tar.gz
mv "$tarball" "$work/" || { ko "make dist made no $tarball"; finish; }
ok "make dist"
name=${tarball%.tar.gz}
tar tzf "$work/$tarball" | sed "s|^$name/||" >"$work/contents"
need="configure Makefile.in README.md COPYING auto/MANIFEST auto/vg-in-place.in
examples/particles.c docs/memprof.md docs/json-format.md
memprof/viewer/memprof_view.html memprof/adapter/mp_preload.c
memprof/platform/mp_vgcompat.h memprof/tests/vg_regtest memprof/tests/Makefile.in
memprof/tests/crosscheck/crosscheck.py memprof/tests/robust/run.py
memprof/tests/viewer/test_viewer.py memprof/tests/reader/test_reader.py
memprof/tests/runner-selftest/check.sh
memprof/tests/dist/check.sh memprof/tests/unit/test_annotate.sh"
# The scripts the README names, and those they call.
scripts=$(cat README.md auto/*.sh | grep -o 'auto/[A-Za-z0-9_.-]*\.\(sh\|py\)' | sort -u)
missing=
for f in $need $scripts; do
   grep -qxF "$f" "$work/contents" || missing="$missing $f"
done
# Every source, regression test and expected output of this tree (the
# layers' folders and the folders inside them), and every module of the
# annotator (the build bundles them).
for t in memprof/*.[ch] memprof/*/*.[ch] memprof/*/README.md \
         memprof/*/*/*.[ch] memprof/*/*/README.md memprof/annotate/*.py \
         memprof/tests/*.c memprof/tests/*.cpp memprof/tests/*.py \
         memprof/tests/filter_* memprof/tests/*.vgtest memprof/tests/*.exp* \
         memprof/tests/unit/*.[ch] memprof/tests/unit/*.sh; do
   grep -qxF "$t" "$work/contents" || missing="$missing $t"
done
if [ -z "$missing" ]; then ok "tarball holds what the README's commands use"
else ko "tarball lacks:$missing"; fi

# 2. An out-of-tree (VPATH) build from a read-only source tree.
mkdir "$work/vpath" && tar xzf "$work/$tarball" -C "$work/vpath" || { ko "unpack"; finish; }
src=$work/vpath/$name
chmod -R a-w "$src"
mkdir "$work/vpath/build"
cd "$work/vpath/build" || finish
cfg=
vg=$(sed -n 's/^VG_WITH = //p' "$top/Makefile")
[ -n "$vg" ] && cfg="--with-valgrind=$vg"
if "$src/configure" --prefix="$work/inst" $cfg \
      --with-tool-installdir="$work/inst/libexec/valgrind" \
      --with-header-installdir="$work/inst/include/valgrind" >../configure.log 2>&1 \
   && make -j"$jobs" >../make.log 2>&1; then
   ok "VPATH build"
   if make -j"$jobs" check MP_REGTESTS=global_array.vgtest >../check.log 2>&1; then
      ok "VPATH make check (unit tests, one regression test)"
   else
      tail -n 30 ../check.log; ko "VPATH make check"
   fi
else
   tail -n 20 ../configure.log ../make.log; ko "VPATH build"
fi
cd "$top" || finish

# 3. The demo, from a fresh copy of the tarball.
mkdir "$work/demo" && tar xzf "$work/$tarball" -C "$work/demo" || { ko "unpack"; finish; }
cd "$work/demo/$name" || finish
if ./configure --prefix="$work/inst" $cfg \
      --with-tool-installdir="$work/inst/libexec/valgrind" \
      --with-header-installdir="$work/inst/include/valgrind" >configure.log 2>&1 \
   && sh auto/memprof-demo.sh >demo.log 2>&1 \
   && grep -q 'memprof_annotate\|particles' demo.log && grep -q '^==[0-9]*== Output:' demo.log; then
   ok "sh auto/memprof-demo.sh in the unpacked tarball"
else
   tail -n 30 configure.log demo.log; ko "sh auto/memprof-demo.sh in the unpacked tarball"
fi
cd "$top" || finish
finish
