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

/* Top-level "loops" (res->an->loops, streams and formula set). */
void mp_report_write_loops(mp_json *j, const mp_vars *vs, const mp_results *res);

/* The members of variables[].struct (the caller opens and closes it:
   the replay of the split goes there too). */
void mp_report_write_struct(mp_json *j, const mp_structure *st);

/* The field affinity graphs of the structures of vars (those that have
   one), as Graphviz DOT, one graph each, through emit. */
void mp_report_struct_dot(const mp_results *res, const uint32_t *vars, uint32_t n_vars,
                          mp_structs_emit_fn emit, void *arg);

#endif /* MP_REPORT_LOOPS_H */
