#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs what building and testing memprof needs on Debian/Ubuntu
# (apt-get, when run as root), or names the missing packages and stops.
set -e
pkgs="gcc g++ libc6-dev make autoconf automake pkg-config valgrind check python3 gfortran"
missing=""
for p in $pkgs; do
   dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
      || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
   echo "memprof: missing packages:$missing" >&2
   echo "memprof: install them (e.g. sudo apt-get install$missing) and rerun" >&2
   exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
   echo "memprof: missing packages:$missing (no apt-get here: install them by hand)" >&2
   exit 1
fi
echo "memprof: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# With the package lists already here no update is needed (and an update
# can fail in a sandbox that the lists it has still serve): try first.
# shellcheck disable=SC2086
if ! apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1; then
   apt-get update -qq || echo "memprof: apt-get update failed; using the package lists here" >&2
   # shellcheck disable=SC2086
   apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
