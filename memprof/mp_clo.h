/*--------------------------------------------------------------------*/
/*--- memprof: command-line options.                      mp_clo.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Every option memprof takes is parsed in mp_clo.c and lives here as a
   clo_* variable; nothing else reads the command line.
*/
#ifndef MP_CLO_H
#define MP_CLO_H

#include "pub_tool_basics.h"

#define MP_MAX_TOGGLE_PATTERNS 64

extern const HChar *mp_clo_out_file;      /* --memprof-out-file */
extern Int          mp_clo_summary;       /* --summary */
extern Bool         mp_clo_collect_atstart;
extern const HChar *mp_clo_toggle_collect[MP_MAX_TOGGLE_PATTERNS];
extern Int          mp_clo_n_toggle_collect;
extern ULong        mp_clo_min_var_size;  /* --min-var-size, bytes */
extern Int          mp_clo_stride_history;    /* --stride-history, K */
extern Bool         mp_clo_stride_filtered;   /* --stride-mode=filtered */
extern ULong        mp_clo_stride_threshold;  /* --stride-threshold, bytes */

Bool mp_clo_process(const HChar *arg);
void mp_clo_print_usage(void);
void mp_clo_print_debug_usage(void);

#endif /* MP_CLO_H */
