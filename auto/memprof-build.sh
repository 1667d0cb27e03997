#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds memprof (installing what is missing first).
#
#    memprof-build.sh                    in the source tree, against the
#                                        Valgrind that pkg-config finds
#    memprof-build.sh --valgrind=PREFIX  against the Valgrind installed
#                                        under PREFIX, in build-vg-<its
#                                        version>/: a copy of the sources
#                                        (git's files, or a release
#                                        tarball's auto/MANIFEST) configured
#                                        --with-valgrind=PREFIX there, so
#                                        that the default build is left
#                                        alone.  Rerun, it copies only what
#                                        changed and rebuilds that.
set -e
cd "$(dirname "$0")/.."
vg=
for a in "$@"; do
   case $a in
      --valgrind=*) vg=${a#--valgrind=} ;;
      *) echo "usage: $0 [--valgrind=PREFIX]" >&2; exit 2 ;;
   esac
done
sh auto/memprof-deps.sh
if [ -n "$vg" ]; then
   pc="$vg/lib/pkgconfig/valgrind.pc"
   if [ ! -f "$pc" ]; then
      echo "memprof: $pc not found (PREFIX is the --prefix Valgrind was installed with)" >&2
      exit 1
   fi
   vg=$(cd "$vg" && pwd)
   ver=$(sed -n 's/^Version: *//p' "$pc")
   dir="build-vg-$ver"
   mkdir -p "$dir"
   if [ -d .git ] || [ -f .git ]; then
      git ls-files --cached --others --exclude-standard
   elif [ -f auto/MANIFEST ]; then
      cat auto/MANIFEST
   else
      echo "memprof: neither a git checkout nor a release tarball (auto/MANIFEST): cannot tell the sources" >&2
      exit 1
   fi | while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done \
      | tar cf - -T - | (cd "$dir" && tar xf -)
   cd "$dir"
   [ -x configure ] || autoreconf -fi
   [ -f Makefile ] || ./configure --with-valgrind="$vg"
   make -j"$(nproc 2>/dev/null || echo 2)"
   echo "memprof: built against Valgrind $ver ($vg) in $PWD"
   exit 0
fi
[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure
make -j"$(nproc 2>/dev/null || echo 2)"
