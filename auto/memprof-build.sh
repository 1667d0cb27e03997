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
#    memprof-build.sh --arch=arm64       for arm64-linux, in build-arm64/
#                                        (a copy of the sources, as
#                                        above): on another machine with a
#                                        cross compiler, against Debian's
#                                        arm64 Valgrind unpacked (never
#                                        installed: it would replace the
#                                        machine's own) with the arm64
#                                        C library and its debug
#                                        information in build-arm64/sysroot;
#                                        build-arm64/vg-in-place runs it
#                                        under qemu-aarch64.  Installs the
#                                        cross compilers and qemu-user.
set -e
cd "$(dirname "$0")/.."
vg= arch=
for a in "$@"; do
   case $a in
      --valgrind=*) vg=${a#--valgrind=} ;;
      --arch=arm64) arch=arm64 ;;
      *) echo "usage: $0 [--valgrind=PREFIX | --arch=arm64]" >&2; exit 2 ;;
   esac
done
sh auto/memprof-deps.sh

# Copies the sources (git's files, or a release tarball's auto/MANIFEST)
# into directory $1, only those that changed.
copy_sources() {
   mkdir -p "$1"
   if [ -d .git ] || [ -f .git ]; then
      git ls-files --cached --others --exclude-standard
   elif [ -f auto/MANIFEST ]; then
      cat auto/MANIFEST
   else
      echo "memprof: neither a git checkout nor a release tarball (auto/MANIFEST): cannot tell the sources" >&2
      exit 1
   fi | while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done \
      | tar cf - -T - | (cd "$1" && tar xf -)
}

if [ -n "$arch" ]; then
   sh auto/memprof-cross.sh "$arch"
   dir="build-$arch"
   copy_sources "$dir"
   cd "$dir"
   [ -x configure ] || autoreconf -fi
   if [ ! -f Makefile ]; then
      if [ "$(dpkg --print-architecture)" = "$arch" ]; then
         ./configure
      else
         ./configure --host="$(sh auto/memprof-cross.sh --triplet "$arch")" \
            --with-valgrind-sysroot="$PWD/sysroot"
      fi
   fi
   make -j"$(nproc 2>/dev/null || echo 2)"
   echo "memprof: built for $arch in $PWD (run it with $PWD/vg-in-place)"
   exit 0
fi
if [ -n "$vg" ]; then
   pc="$vg/lib/pkgconfig/valgrind.pc"
   if [ ! -f "$pc" ]; then
      echo "memprof: $pc not found (PREFIX is the --prefix Valgrind was installed with)" >&2
      exit 1
   fi
   vg=$(cd "$vg" && pwd)
   ver=$(sed -n 's/^Version: *//p' "$pc")
   dir="build-vg-$ver"
   copy_sources "$dir"
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
