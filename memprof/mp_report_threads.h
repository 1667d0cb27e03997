/*--------------------------------------------------------------------*/
/*--- memprof: the report's sections on threads.                   ---*/
/*---                                           mp_report_threads.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
   Used by mp_report.c only.  No Valgrind header.
*/
#ifndef MP_REPORT_THREADS_H
#define MP_REPORT_THREADS_H

#include "mp_report.h"

typedef struct mp_share_summary mp_share_summary;

/* Per-variable sharing counts and worst lines, from every line. */
mp_share_summary *mp_share_summarise(const mp_sharing *s, const mp_vars *vs);
void mp_share_free(mp_share_summary *ss);

/* The shared, truly and falsely shared lines of variable var. */
void mp_share_var_lines(const mp_share_summary *ss, uint32_t var,
                        uint64_t *shared, uint64_t *true_lines, uint64_t *false_lines);

/* The transfers and invalidations predicted for a parallel run on var's
   shared lines (mp_sharing_predict), and the false transfers among
   them; zeros when ss is NULL. */
void mp_share_var_predicted(const mp_share_summary *ss, uint32_t var,
                            uint64_t *transfers, uint64_t *false_transfers,
                            uint64_t *invalidations);

/* Cycles one transfer of a line between cores costs: the latency of the
   first level all cores share (where the line is found again), memory's
   without one. */
uint32_t mp_share_transfer_cycles(const mp_report_config *cfg);

/* variables[].sharing, if the variable had a line touched by two or
   more threads or received transfers. */
void mp_share_write_var(mp_json *j, const mp_share_summary *ss, const mp_vars *vs,
                        const mp_var *v, const mp_report_config *cfg);
/* Replays v's recorded accesses as they were and with each core's
   bytes of a line padded to a line of their own (--what-if=pad); 0 if
   not possible (no recording, no cache simulation, one core).  The run
   before counts, instead of the coherence misses of Valgrind's serial
   order, the predicted_false transfers a parallel run would have. */
int mp_report_whatif_pad(const mp_var *v, const mp_report_config *cfg,
                         uint64_t predicted_false,
                         mp_whatif_run *before, mp_whatif_run *after);

/* variables[].numa, if NUMA was simulated. */
void mp_share_write_numa(mp_json *j, const mp_var *v);
/* Top-level "communication" and "communication_matrix". */
void mp_share_write_communication(mp_json *j, const mp_vars *vs, const mp_sharing *s);

#endif /* MP_REPORT_THREADS_H */
