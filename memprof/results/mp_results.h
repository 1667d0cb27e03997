/*--------------------------------------------------------------------*/
/*--- memprof: the results, built once at exit.        mp_results.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   At exit the analyses finish (the adapter's list), then
   mp_results_build makes, once, everything the writers print, as
   values the results hold (mp_results_types.h): the ranked rows, each
   row's source lines with their text, the run's totals and the
   simulated hierarchy's, the reuse and stride bins, the per-variable
   sharing summary and the communication between threads, the inferred
   structures with their field names and DOT text, the what-if replays,
   the loops shown with their formulas, the advice and the advice its
   replays rejected, and what the exit summary ranks.  The writers (the
   JSON document in mp_report.c, the exit summary in mp_exit_summary.c,
   the DOT file) only read a mp_results: none of them calls an engine,
   summarises, replays or advises.

   The layers, each calling only the ones below it:
     engines (mp_vars, mp_cache, mp_sharing, mp_structs, mp_whatif, ...)
     facts about them  mp_facts.c (loops of instructions, structures)
     builders          mp_rows.c, mp_totals.c, mp_share.c, mp_replays.c,
                       mp_loop_results.c, mp_advice.c, mp_summary.c
     this file         mp_results.c
     writers           mp_report.c with its sections mp_report_loops.c,
                       mp_report_threads.c; mp_exit_summary.c.

   No Valgrind header: unit-tested on the host.
*/
#ifndef MP_RESULTS_H
#define MP_RESULTS_H

#include "mp_results_types.h"
#include "mp_rows.h"

/* Builds the results of a finished run.  Cost: linear-ish in the
   variables and per-location records, plus the replays (one simulated
   access per recorded access). */
mp_results *mp_results_build(const mp_run *run, const mp_finished *an,
                             const mp_adapter_queries *ask);
void mp_results_free(mp_results *res);

#endif /* MP_RESULTS_H */
