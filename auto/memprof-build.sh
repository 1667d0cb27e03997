#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds memprof in the source tree (installing what is missing first).
set -e
cd "$(dirname "$0")/.."
sh auto/memprof-deps.sh
[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure
make -j"$(nproc 2>/dev/null || echo 2)"
