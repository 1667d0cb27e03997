/*--------------------------------------------------------------------*/
/*--- memprof: command-line options.                      mp_clo.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Options are parsed in one chain, Valgrind style.  A bad value makes
   the core print a message naming the option and exit 1 before the
   client starts (VG_(fmsg_bad_option)); an unknown option is refused by
   the core in the same way when mp_clo_process returns False.
*/
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"
#include "pub_tool_replacemalloc.h"

#include "mp_clo.h"

const HChar *mp_clo_out_file = "memprof.out.%p";
Int          mp_clo_summary = 10;
Bool         mp_clo_collect_atstart = True;
const HChar *mp_clo_toggle_collect[MP_MAX_TOGGLE_PATTERNS];
Int          mp_clo_n_toggle_collect = 0;
ULong        mp_clo_min_var_size = 0;
Int          mp_clo_stride_history = 5;
Bool         mp_clo_stride_filtered = True;
ULong        mp_clo_stride_threshold = 128;

Bool mp_clo_process(const HChar *arg)
{
   const HChar *tmp_str;
   Long tmp_long;

   if VG_STR_CLO(arg, "--memprof-out-file", mp_clo_out_file) {
      if (mp_clo_out_file[0] == '\0')
         VG_(fmsg_bad_option)(arg, "the file name must not be empty\n");
   }
   else if VG_BINT_CLO(arg, "--summary", mp_clo_summary, 0, 1000000) {}
   else if VG_BOOL_CLO(arg, "--collect-atstart", mp_clo_collect_atstart) {}
   else if VG_STR_CLO(arg, "--toggle-collect", tmp_str) {
      if (tmp_str[0] == '\0')
         VG_(fmsg_bad_option)(arg, "expected a function name pattern\n");
      if (mp_clo_n_toggle_collect == MP_MAX_TOGGLE_PATTERNS)
         VG_(fmsg_bad_option)(arg, "at most %d --toggle-collect patterns\n",
                              MP_MAX_TOGGLE_PATTERNS);
      mp_clo_toggle_collect[mp_clo_n_toggle_collect++] = tmp_str;
   }
   else if VG_BINT_CLO(arg, "--min-var-size", tmp_long, 0, (Long)1 << 62) {
      mp_clo_min_var_size = (ULong)tmp_long;
   }
   else if VG_BINT_CLO(arg, "--stride-history", mp_clo_stride_history, 1, 16) {}
   else if VG_XACT_CLO(arg, "--stride-mode=filtered", mp_clo_stride_filtered, True) {}
   else if VG_XACT_CLO(arg, "--stride-mode=all", mp_clo_stride_filtered, False) {}
   else if VG_STR_CLO(arg, "--stride-mode", tmp_str) {
      VG_(fmsg_bad_option)(arg, "expected --stride-mode=filtered or --stride-mode=all\n");
   }
   else if VG_BINT_CLO(arg, "--stride-threshold", tmp_long, 1, (Long)1 << 40) {
      mp_clo_stride_threshold = (ULong)tmp_long;
   }
   else
      /* --alignment and the other options of the malloc replacement. */
      return VG_(replacement_malloc_process_cmd_line_option)(arg);
   return True;
}


void mp_clo_print_usage(void)
{
   VG_(printf)(
"    --memprof-out-file=<file>  JSON output file [memprof.out.%%p]\n"
"                               %%p: pid, %%q{VAR}: value of env var VAR\n"
"    --summary=<n>              variables shown in the exit summary [10];\n"
"                               0 shows none\n"
"    --collect-atstart=no|yes   collection on from the start [yes]; else\n"
"                               from MEMPROF_START() (memprof.h)\n"
"    --toggle-collect=<func>    collect only inside functions matching <func>\n"
"                               and their callees (wildcards * and ?; may be\n"
"                               given several times)\n"
"    --min-var-size=<bytes>     fold variables smaller than this into one\n"
"                               'other' entry [0]\n"
"    --stride-history=<K>       stride histograms per variable and access\n"
"                               kind, against the 1st..K-th previous access\n"
"                               (1..16) [5]\n"
"    --stride-mode=filtered|all only strides >= the threshold in histogram k\n"
"                               enter histogram k+1 (Balle & Steely's second\n"
"                               variant), or every access enters all\n"
"                               [filtered]\n"
"    --stride-threshold=<bytes> threshold of the filtered mode [128]\n"
"    --read-var-info=yes        (core option) name stack locals (arrays,\n"
"                               structs, scalars) and give the declaration\n"
"                               file:line of globals\n"
"    --num-callers=<n>          (core option) depth of the allocation stack\n"
"                               that identifies a heap variable [12]\n"
   );
}

void mp_clo_print_debug_usage(void)
{
   VG_(printf)("    (none)\n");
}
