#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the Valgrind of a Debian suite from its source package, for the
# test command's stages against other releases (memprof-test.sh), and
# prints the prefix it is installed under.
#
#    memprof-valgrind.sh SUITE     e.g. sid (the newest release) or trixie
#
# The source is fetched with apt-get source through a sources list of its
# own and package lists of its own, kept in the cache directory: the
# machine's apt sources and lists are not touched, nothing is installed
# and the machine's own Valgrind stays as it is.  The build goes into
#
#    ${XDG_CACHE_HOME:-~/.cache}/memprof-valgrind/VERSION/
#
# (VERSION is the source package's, e.g. 1:3.27.1-1 becomes 3.27.1-1) and
# is reused while the suite holds that version: a later run only reads
# the suite's index of sources.  The build of the suite's previous
# version is then removed, unless another suite has it too.
#
# Exit status: 0 with the prefix on standard output (when Debian's
# archive cannot be reached, the suite's last build, if any); 77 when the
# source cannot be fetched (no network, no such suite), with one line on
# standard error saying why; 1 when the build fails.
set -u
suite=${1:-}
case $suite in
   ""|-*) echo "usage: $0 SUITE (a Debian suite: sid, trixie, ...)" >&2; exit 2 ;;
esac
cache=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/memprof-valgrind
apt_dir="$cache/apt-$suite"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" || exit 1
printf 'deb-src http://deb.debian.org/debian %s main\n' "$suite" >"$apt_dir/sources.list"

# apt with only our sources list and lists; downloads as the caller (apt's
# sandbox user may not reach the cache directory).
apt_private() {
   cmd=$1; shift
   "$cmd" -q -o Dir::Etc::SourceList="$apt_dir/sources.list" \
      -o Dir::Etc::SourceParts=/nonexistent \
      -o Dir::State::Lists="$apt_dir/lists" \
      -o Dir::Cache="$apt_dir" -o Dir::Cache::archives="$apt_dir/archives" \
      -o APT::Sandbox::User="$(id -un)" "$@"
}

if ! command -v dpkg-source >/dev/null 2>&1; then
   if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
         dpkg-dev >/dev/null 2>&1
   fi
   command -v dpkg-source >/dev/null 2>&1 \
      || { echo "memprof: dpkg-source (package dpkg-dev) is missing: cannot unpack Debian's valgrind source" >&2; exit 77; }
fi
# apt-get update may succeed without the index (a fetch that failed is a
# warning): the version read from it tells.
apt_private apt-get update >"$apt_dir/update.log" 2>&1
ver=$(apt_private apt-cache showsrc valgrind 2>/dev/null | sed -n 's/^Version: *//p' | head -n 1)
if [ -z "$ver" ]; then
   if grep -q -E '^(E|W):' "$apt_dir/update.log"; then
      why="cannot read Debian's $suite sources ($(grep -m1 -E '^(E|W):' "$apt_dir/update.log"))"
   else
      why="Debian's $suite suite has no valgrind source"
   fi
   # Offline, the last build of the suite still serves.
   old=$(cat "$apt_dir/version" 2>/dev/null)
   if [ -n "$old" ] && [ -f "$cache/$old/.built" ]; then
      echo "memprof: $why; using the Valgrind $old built before" >&2
      echo "$cache/$old"
      exit 0
   fi
   echo "memprof: $why" >&2
   exit 77
fi
ver=${ver#*:}
prefix="$cache/$ver"
if [ -x "$prefix/bin/valgrind" ] && [ -f "$prefix/.built" ]; then
   echo "$ver" >"$apt_dir/version"
   echo "$prefix"
   exit 0
fi

# A fresh build, in a scratch directory, installed only when whole.
work="$cache/build-$ver"
rm -rf "$work" "$prefix"
mkdir -p "$work" || exit 1
if ! (cd "$work" && apt_private apt-get source valgrind="1:$ver" >source.log 2>&1 \
      || apt_private apt-get source valgrind="$ver" >source.log 2>&1); then
   echo "memprof: cannot fetch Debian's $suite valgrind $ver source ($(grep -m1 -E '^(E|W):' "$work/source.log" || echo "apt-get source failed"))" >&2
   rm -rf "$work"
   exit 77
fi
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'valgrind-*' | head -n 1)
if [ -z "$src" ]; then
   echo "memprof: apt-get source left no valgrind-* directory in $work" >&2
   exit 1
fi
echo "memprof: building Valgrind $ver (Debian $suite) into $prefix" >&2
if ! (cd "$src" && { [ -x configure ] || ./autogen.sh; } \
      && ./configure --prefix="$prefix" \
      && make -j"$(nproc 2>/dev/null || echo 2)" && make install) >"$work/build.log" 2>&1; then
   tail -n 30 "$work/build.log" >&2
   echo "memprof: the build of Valgrind $ver failed (log: $work/build.log)" >&2
   exit 1
fi
touch "$prefix/.built"
rm -rf "$work"
old=$(cat "$apt_dir/version" 2>/dev/null)
echo "$ver" >"$apt_dir/version"
if [ -n "$old" ] && [ "$old" != "$ver" ] \
   && ! cat "$cache"/apt-*/version 2>/dev/null | grep -qxF "$old"; then
   rm -rf "${cache:?}/$old"
fi
echo "$prefix"
