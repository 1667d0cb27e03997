/*--------------------------------------------------------------------*/
/*--- memprof: the loops as the report shows them.                 ---*/
/*---                                              mp_loop_results.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Per loop: whose code it is (the object of its head: loops of the C
   runtime or the loader get no advice), where it is, its function, its
   streams; and the loops the report lists (the busiest, with the loops
   enclosing them) with the access formulas of their instructions that
   fit, busiest first.  Made once by mp_results_build.  No Valgrind
   header: unit-tested on the host.
*/
#ifndef MP_LOOP_RESULTS_H
#define MP_LOOP_RESULTS_H

#include "mp_results_types.h"

#define MP_LOOPS_SHOWN          100   /* the busiest loops reported */
#define MP_FORMULAS_PER_LOOP    10

/* res->loop, res->n_loops, res->loops_shown and res->n_loops_shown,
   from res->an's loops (which must be there); ask may be NULL. */
void mp_loop_results_build(mp_results *res, const mp_adapter_queries *ask);

void mp_loop_results_free(mp_results *res);

#endif /* MP_LOOP_RESULTS_H */
