#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""No private core symbol where the tool API serves.

memprof links statically with Valgrind's core, so any core function
links, declared in the tool headers or not.  This check lists the core
symbols the tool's objects use (nm -u: VG_(x) is vgPlain_x, ML_(x)
vgModuleLocal_x, and a link-time wrap's __real_vgPlain_x) and fails on
any that the installed tool headers (pub_tool_*.h) do not declare,
unless platform/mp_vgcompat.h declares it, with why, as the one place
for such functions.

Environment: MP_SRCDIR (memprof/ of the sources), MP_BUILDDIR (the top
build directory, where the tool's objects are), VG_INCDIR (Valgrind's
include directory).  Skips (77) when the tool's objects are not built.
"""
import glob
import os
import re
import subprocess
import sys

CORE = re.compile(r'^(?:__real_)?vg(Plain|ModuleLocal)_(\w+)$')


def declared(paths):
    names = set()
    for p in paths:
        with open(p, encoding="utf-8", errors="replace") as fh:
            names.update(re.findall(r'\b(?:VG|ML)_\((\w+)\)', fh.read()))
    return names


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.environ.get("MP_SRCDIR") or os.path.join(here, "..", "..")
    build = os.environ.get("MP_BUILDDIR") or os.path.join(src, "..")
    inc = os.environ.get("VG_INCDIR") or "/usr/include/valgrind"
    # The layers' objects, those of the folders inside them too
    # (results/advice/).
    objects = sorted(glob.glob(os.path.join(build, "memprof", "**", "*.o"),
                               recursive=True))
    objects = [o for o in objects if os.sep + "tests" + os.sep not in o]
    if not objects:
        print("SKIP: the tool's objects are not built in %s" % build)
        return 77
    public = declared(glob.glob(os.path.join(inc, "pub_tool_*.h")))
    compat_h = os.path.join(src, "platform", "mp_vgcompat.h")
    with open(compat_h, encoding="utf-8") as fh:
        compat_text = fh.read()
    compat = set(re.findall(r'extern[^;]*\bVG_\((\w+)\)', compat_text))
    compat |= set(re.findall(r'__real_vgPlain_(\w+)', compat_text))
    bad = 0
    used = set()
    for o in objects:
        out = subprocess.run(["nm", "-u", o], capture_output=True, text=True,
                             check=True).stdout
        for line in out.split("\n"):
            sym = line.split()[-1] if line.split() else ""
            m = CORE.match(sym)
            if not m:
                continue
            name = m.group(2)
            used.add(name)
            if name not in public and name not in compat:
                print("FAIL: %s uses the core's %s, which no tool header "
                      "declares (declare it in mp_vgcompat.h, with why, or "
                      "use the tool API)" % (os.path.basename(o), sym))
                bad += 1
    for name in sorted(compat - used):
        print("FAIL: mp_vgcompat.h declares the core's %s, which nothing uses"
              % name)
        bad += 1
    if not bad:
        print("PASS: the core functions outside the tool API are those of "
              "mp_vgcompat.h: %s" % ", ".join(sorted(compat)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
