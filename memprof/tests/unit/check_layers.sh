#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The report's layers (mp_results.h): the results are built below the
# writers and never call them, and the section writers never call the
# document's writer, so the report's files call each other in one
# direction only.  A file of a layer may include headers of its own
# layer and of the layers below, never of one above.
src=${MP_SRCDIR:-$(dirname "$0")/../..}
layer() {
   case $1 in
      mp_facts) echo 1 ;;
      mp_share|mp_replays) echo 2 ;;
      mp_advice) echo 3 ;;
      mp_results) echo 4 ;;
      mp_report_loops|mp_report_threads|mp_summary) echo 5 ;;
      mp_report) echo 6 ;;
      *) echo 0 ;;
   esac
}
bad=0
for f in mp_facts mp_share mp_replays mp_advice mp_results mp_report_loops \
         mp_report_threads mp_summary mp_report; do
   mine=$(layer $f)
   for file in "$src/$f.c" "$src/$f.h"; do
      [ -f "$file" ] || { echo "FAIL: $file is missing"; bad=1; continue; }
      for inc in $(sed -n 's/^#[[:space:]]*include[[:space:]]*"\(mp_[a-z_]*\)\.h".*/\1/p' "$file"); do
         theirs=$(layer $inc)
         # mp_results.h declares the types every layer shares; its
         # builder (layer 4) is called only from the adapter.
         [ "$inc" = mp_results ] && continue
         if [ "$theirs" -gt "$mine" ]; then
            echo "FAIL: $file (layer $mine) includes $inc.h (layer $theirs)"
            bad=1
         fi
      done
   done
done
[ $bad -eq 0 ] && echo "PASS: the report's layers include downwards only"
exit $bad
