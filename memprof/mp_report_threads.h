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

/* variables[].sharing, if the variable had a line touched by two or
   more threads or received transfers. */
void mp_share_write_var(mp_json *j, const mp_share_summary *ss, const mp_vars *vs,
                        const mp_var *v, const mp_report_config *cfg);
/* Replays v's recorded accesses as they were and with each core's
   bytes of a line padded to a line of their own (--what-if=pad); 0 if
   not possible (no recording, no cache simulation, one core). */
int mp_report_whatif_pad(const mp_var *v, const mp_report_config *cfg,
                         mp_whatif_run *before, mp_whatif_run *after);

/* variables[].numa, if NUMA was simulated. */
void mp_share_write_numa(mp_json *j, const mp_var *v);
/* Top-level "communication" and "communication_matrix". */
void mp_share_write_communication(mp_json *j, const mp_vars *vs, const mp_sharing *s);

#endif /* MP_REPORT_THREADS_H */
