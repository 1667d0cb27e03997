#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The engines must stay host-independent: no engine source may
# include a Valgrind header; only mp_platform.h maps them, under !MP_HOST.
src=${MP_SRCDIR:-$(dirname "$0")/../..}
engines="mp_rangemap mp_granmap mp_stride mp_structs mp_reuse mp_cache mp_prefetch mp_setdiag mp_json mp_owner mp_vars mp_results mp_facts mp_share mp_replays mp_report mp_summary mp_report_threads mp_report_loops mp_advice mp_sharing mp_whatif mp_numa mp_loops mp_streams mp_formula mp_naming mp_util mp_event mp_window"
bad=0
for e in $engines; do
   for f in "$src/$e.c" "$src/$e.h"; do
      [ -f "$f" ] || continue
      if grep -nE '#[[:space:]]*include[[:space:]]*[<"](pub_tool_|pub_core_|libvex|valgrind\.h)' "$f"; then
         echo "FAIL: $f includes a Valgrind header"
         bad=1
      fi
   done
done
[ $bad -eq 0 ] && echo "PASS: engines include no Valgrind header"
exit $bad
