/*--------------------------------------------------------------------*/
/*--- memprof: the what-if replays of the advice.      mp_replays.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The layout changes the advice may suggest, replayed over a
   variable's recorded accesses (mp_whatif) as it was and as changed:
   a structure split into one array per field group (--what-if=split),
   a falsely shared line padded per thread (--what-if=pad).  Made once,
   by mp_results_build; the advice weighs them, the report writes them.
   No Valgrind header: unit-tested on the host.
*/
#ifndef MP_REPLAYS_H
#define MP_REPLAYS_H

#include "mp_results_types.h"

/* The split of structure l of var.  out->made 0 if not possible (no
   recording, no cache simulation, fewer than two groups). */
void mp_replay_split(const mp_run *run, const mp_finished *an, uint32_t var,
                     const mp_struct_layout *l, mp_replay *out);

/* Padding each thread's bytes of var's lines to a line of their own.
   The run before counts, instead of the coherence misses of Valgrind's
   serial order, the predicted_false transfers a parallel run would
   have.  out->made 0 if not possible (no recording, no cache
   simulation, one core). */
void mp_replay_pad(const mp_run *run, const mp_finished *an, uint32_t var,
                   uint64_t predicted_false, mp_replay *out);

#endif /* MP_REPLAYS_H */
