/*--------------------------------------------------------------------*/
/*--- memprof: the report's sections on threads.                   ---*/
/*---                                           mp_report_threads.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
   Writers of mp_report.c's sections on sharing, communication and NUMA,
   from the results.  No Valgrind header.
*/
#ifndef MP_REPORT_THREADS_H
#define MP_REPORT_THREADS_H

#include "mp_json.h"
#include "mp_share.h"

/* Whether v has a variables[].sharing object: a line of it was touched
   by two threads or more, or it received transfers. */
int mp_report_sharing_shown(const mp_results *res, const mp_var *v);

/* The members of v's variables[].sharing object (the caller opens and
   closes it: the replay of the padding goes there too). */
void mp_report_write_sharing(mp_json *j, const mp_results *res, const mp_var *v);

/* variables[].numa, if v's pages were simulated. */
void mp_report_write_numa(mp_json *j, const mp_var *v);

/* The top-level "communication" pairs and "communication_matrix". */
void mp_report_write_communication(mp_json *j, const mp_share_summary *ss);

#endif /* MP_REPORT_THREADS_H */
