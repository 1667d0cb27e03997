/*--------------------------------------------------------------------*/
/*--- memprof: the results, built once at exit.        mp_results.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   At exit the analyses finish (the adapter's list), then
   mp_results_build makes, once, everything the report says that is
   not a count the analyses kept: the ranked rows, each row's source
   lines, the per-variable sharing summary, the inferred structures and
   their field names, the what-if replays, the advice and the advice its
   replays rejected.  The writers (the JSON document in mp_report.c, the
   adapter's exit summary and DOT file) only read a mp_results: none of
   them summarises, replays or advises.

   The layers, each calling only the ones below it:
     engines (mp_vars, mp_cache, mp_sharing, mp_structs, mp_whatif, ...)
     facts about them  mp_facts.c (loops of instructions, structures)
     builders          mp_share.c, mp_replays.c, mp_advice.c
     this file         mp_results.c
     writers           mp_report.c with its sections mp_report_loops.c,
                       mp_report_threads.c; the adapter's summary.

   No Valgrind header: unit-tested on the host.
*/
#ifndef MP_RESULTS_H
#define MP_RESULTS_H

#include "mp_results_types.h"

/* Builds the results of a finished run.  Cost: linear-ish in the
   variables and per-location records, plus the replays (one simulated
   access per recorded access). */
mp_results *mp_results_build(const mp_run *run, const mp_finished *an,
                             const mp_adapter_queries *ask);
void mp_results_free(mp_results *res);

/* The rows to report (accessed variables, small ones folded), sorted by
   estimated cycles when by_cycles, else by accesses, descending, then by
   name; *n_out is their number.  The caller frees the array with
   mp_free. */
mp_report_row *mp_report_rows(const mp_vars *vs, uint64_t min_var_size,
                              int by_cycles, uint32_t *n_out);

/* Sorts rows in that order. */
void mp_report_sort_rows(mp_report_row *rows, uint32_t n, int by_cycles);

#endif /* MP_RESULTS_H */
