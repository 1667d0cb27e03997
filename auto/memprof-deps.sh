#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs what building and testing memprof needs on Debian/Ubuntu
# (apt-get, when run as root), or names the missing packages and stops.
#
#    memprof-deps.sh           what the build and the demo need
#    memprof-deps.sh --test    also what only some tests need (a headless
#                              browser for the HTML viewer's test; the
#                              real programs of the robustness suite,
#                              memprof/tests/robust/run.py; OpenMPI for
#                              memprof/tests/mpi/run.py).  Those
#                              are optional: when they cannot be installed
#                              (not root, no apt-get, apt-get fails) the
#                              script says so and succeeds, and the tests
#                              that need them are skipped.
set -e
# valgrind also brings callgrind_annotate, which the tests of
# memprof_annotate --callgrind run on its output.
pkgs="gcc g++ libc6-dev make autoconf automake pkg-config valgrind check python3 gfortran"
test_pkgs=""
case "${1:-}" in
   "") ;;
   --test) test_pkgs="chromium chromium-driver gzip bzip2 xz-utils sqlite3 pigz coreutils openmpi-bin libopenmpi-dev" ;;
   *) echo "usage: $0 [--test]" >&2; exit 2 ;;
esac

missing_of() {
   for p in "$@"; do
      dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
         || printf ' %s' "$p"
   done
}
# shellcheck disable=SC2086
missing=$(missing_of $pkgs)
# shellcheck disable=SC2086
missing_opt=$(missing_of $test_pkgs)
[ -z "$missing$missing_opt" ] && exit 0

note_optional() {
   echo "memprof: optional test packages missing:$missing_opt ($1); the tests that need them will be skipped" >&2
}
if [ "$(id -u)" != 0 ]; then
   if [ -n "$missing" ]; then
      echo "memprof: missing packages:$missing" >&2
      echo "memprof: install them (e.g. sudo apt-get install$missing$missing_opt) and rerun" >&2
      exit 1
   fi
   note_optional "install them with: sudo apt-get install$missing_opt"
   exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
   if [ -n "$missing" ]; then
      echo "memprof: missing packages:$missing (no apt-get here: install them by hand)" >&2
      exit 1
   fi
   note_optional "no apt-get here: install them by hand"
   exit 0
fi
export DEBIAN_FRONTEND=noninteractive
updated=no
# With the package lists already here no update is needed (and an update
# can fail in a sandbox that the lists it has still serve): try first.
# Returns apt-get's status; runs 'apt-get update' at most once.
apt_install() {
   # shellcheck disable=SC2086
   apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 && return 0
   if [ "$updated" = no ]; then
      updated=yes
      apt-get update -qq || echo "memprof: apt-get update failed; using the package lists here" >&2
   fi
   apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
if [ -n "$missing" ]; then
   echo "memprof: installing$missing"
   # shellcheck disable=SC2086
   apt_install $missing
fi
if [ -n "$missing_opt" ]; then
   echo "memprof: installing$missing_opt (for the tests)"
   # shellcheck disable=SC2086
   apt_install $missing_opt || note_optional "apt-get could not install them"
fi
exit 0
