#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# owners_place.py FILE VAR... -- the post step of the system_libs tests:
# prints, from memprof's output FILE (plain JSON, no reader, so that a
# summary is seen as written):
#   "tree: the program's directory" (or the tree as written, when it is
#     not the directory of the program named by the file's command);
#   "patterns: P,..." (config.program.patterns);
#   "objects: O,..." the objects of config.program.objects, sorted, a
#     libz.so.* name written libz.so.*;
#   per VAR: "VAR class=C object=O per_line=yes|no", or "VAR absent";
#   "libz: class=C,... per_line=yes|no,..." the classes and whether they
#     have per_line records, over every variable whose object is zlib's
#     ("libz: absent" when none is).
import json
import os
import re
import sys

path, names = sys.argv[1], sys.argv[2:]
with open(path) as f:
    doc = json.load(f)
prog = doc["config"]["program"]
exe = doc["command"].split()[0]
here = os.path.dirname(os.path.realpath(exe)) + "/"
print("tree: %s" % ("the program's directory" if prog["tree"] == here
                    else prog["tree"]))
print("patterns: %s" % ",".join(prog["patterns"]))
libz = re.compile(r"^libz\.so\.[0-9.]+$")
print("objects: %s" % ",".join(sorted("libz.so.*" if libz.match(o) else o
                                      for o in prog["objects"])))
variables = doc["variables"]
for name in names:
    vs = [v for v in variables if v["name"] == name]
    if not vs:
        print("%s absent" % name)
    for v in vs:
        print("%s class=%s object=%s per_line=%s" % (
            name, v["class"], v.get("object", "-"),
            "yes" if "per_line" in v else "no"))
z = [v for v in variables if libz.match(v.get("object") or "")]
if not z:
    print("libz: absent")
else:
    print("libz: class=%s per_line=%s" % (
        ",".join(sorted(set(v["class"] for v in z))),
        ",".join(sorted(set("yes" if "per_line" in v else "no" for v in z)))))
