/*--------------------------------------------------------------------*/
/*--- memprof: the report's sections on loops and structures.      ---*/
/*---                                             mp_report_loops.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
   Writers of mp_report.c's sections on loops and structures, and of
   the --affinity-dot file, from the results.  No Valgrind header.
*/
#ifndef MP_REPORT_LOOPS_H
#define MP_REPORT_LOOPS_H

#include "mp_json.h"
#include "mp_results.h"

/* Top-level "loops": the loops the results show, with their formulas. */
void mp_report_write_loops(mp_json *j, const mp_results *res);

/* The members of variables[].struct (the caller opens and closes it:
   the replay of the split goes there too). */
void mp_report_write_struct(mp_json *j, const mp_structure *st);

/* Where a writer's text goes, in pieces. */
typedef void (*mp_report_emit_fn)(void *arg, const char *text, size_t len);

/* The --affinity-dot file: the field affinity graphs of the rows'
   structures (run->affinity_dot made them), in the rows' order, one
   Graphviz graph each, through emit. */
void mp_report_struct_dot(const mp_results *res, mp_report_emit_fn emit, void *arg);

#endif /* MP_REPORT_LOOPS_H */
