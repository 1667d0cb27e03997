#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Prepares a build of memprof for another architecture on a Debian machine
# (memprof-build.sh --arch): installs the cross compilers and qemu's user
# mode emulation (packages of this machine's architecture), and unpacks
# the target's Valgrind, C and C++ libraries and the C library's debug
# information (Valgrind needs the dynamic linker's symbols) into
# build-ARCH/sysroot.  Those are fetched with apt-get download and
# unpacked with dpkg -x, never installed: Debian's valgrind packages of two
# architectures cannot be installed together, and installing the
# target's would remove this machine's own Valgrind.
#
#    memprof-cross.sh ARCH            prepare (nothing to do on an ARCH
#                                     machine); fails naming what is
#                                     missing when it cannot install it
#    memprof-cross.sh --triplet ARCH  print the GNU triplet of ARCH
#
# The architectures: arm64 (aarch64-linux-gnu, run under qemu-aarch64).
set -e
cd "$(dirname "$0")/.."
triplet_of() {
   case $1 in
      arm64) echo aarch64-linux-gnu ;;
      *) echo "memprof: unknown architecture '$1' (known: arm64)" >&2; exit 2 ;;
   esac
}
case "${1:-}" in
   --triplet) triplet_of "${2:-}"; exit 0 ;;
   "") echo "usage: $0 ARCH | --triplet ARCH" >&2; exit 2 ;;
esac
arch=$1
triplet=$(triplet_of "$arch")
machine=${triplet%%-*}
[ "$(dpkg --print-architecture 2>/dev/null)" = "$arch" ] && exit 0

tools="gcc-$triplet g++-$triplet qemu-user"
target_pkgs="valgrind libc6 libc6-dbg libgcc-s1 libstdc++6"
sysroot="build-$arch/sysroot"

missing=
for p in $tools; do
   dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
      || missing="$missing $p"
done
if [ -n "$missing" ]; then
   if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
      echo "memprof: missing packages:$missing (install them, e.g. sudo apt-get install$missing)" >&2
      exit 1
   fi
   echo "memprof: installing$missing"
   # shellcheck disable=SC2086
   DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1 \
      || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
           apt-get install -y -qq --no-install-recommends $missing >/dev/null; }
fi

# The sysroot is unpacked once per set of package versions.
if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
   if [ "$(id -u)" != 0 ]; then
      echo "memprof: apt does not know $arch packages: run sudo dpkg --add-architecture $arch && sudo apt-get update" >&2
      exit 1
   fi
   dpkg --add-architecture "$arch"
   apt-get update -qq
fi
want=
for p in $target_pkgs; do
   v=$(apt-cache policy "$p:$arch" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
   if [ -z "$v" ] || [ "$v" = "(none)" ]; then
      [ "$(id -u)" = 0 ] && apt-get update -qq
      v=$(apt-cache policy "$p:$arch" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
   fi
   if [ -z "$v" ] || [ "$v" = "(none)" ]; then
      echo "memprof: apt knows no package $p:$arch" >&2
      exit 1
   fi
   want="$want $p=$v"
done
if [ -f "$sysroot/.packages" ] && [ "$(cat "$sysroot/.packages")" = "$want" ]; then
   exit 0
fi
echo "memprof: unpacking$want ($arch) into $sysroot"
rm -rf "$sysroot" "build-$arch/debs"
mkdir -p "build-$arch/debs"
for p in $want; do
   # apt's sandbox user cannot write here: download as the caller.
   (cd "build-$arch/debs" && apt-get download -qq -o APT::Sandbox::User="$(id -un)" \
      "${p%%=*}:$arch=${p#*=}" >/dev/null)
done
mkdir -p "$sysroot"
for f in "build-$arch"/debs/*.deb; do dpkg -x "$f" "$sysroot"; done
if [ ! -f "$sysroot/usr/libexec/valgrind/none-$arch-linux" ] || ! command -v "qemu-$machine" >/dev/null; then
   echo "memprof: $sysroot holds no Valgrind for $arch-linux, or qemu-$machine is missing" >&2
   exit 1
fi
printf '%s\n' "$want" > "$sysroot/.packages"
