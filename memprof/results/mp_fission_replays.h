/*--------------------------------------------------------------------*/
/*--- memprof: the replay of the too-many-streams advice.          ---*/
/*---                                            mp_fission_replays.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   A loop that walks more streams at once than a hardware prefetcher
   follows, split, replayed before it is advised (--what-if=fission).
   Its body's memory instructions with formulas are its references, in
   the order they ran (mp_order_nest; loads through an index left out,
   and those that walk nothing: a counter or an accumulator kept in
   memory is each part's own);
   they are cut, in that order, into loops of at most the prefetcher's
   streams (--prefetch-streams) each, and the loop is replayed as it
   ran and split (mp_fusion_replay, whose two orders these are), through
   a copy of the hierarchy with a stream prefetcher of that many
   streams per core (the run's own prefetcher when it had one): the
   split pays when the prefetcher, which loses its streams to one
   another in the whole loop, keeps up with each part's.  A split that
   would move an access past one it depends on (a later part's
   iteration touching what an earlier part touches in a later one, one
   of them storing) is not replayed.  No Valgrind header.
*/
#ifndef MP_FISSION_REPLAYS_H
#define MP_FISSION_REPLAYS_H

#include "mp_fusion_replay.h"
#include "mp_results_types.h"

typedef struct {
   mp_replay r;              /* made: before as it ran, after split */
   uint32_t n_loops;         /* the loops it is split into */
   uint32_t n_instrs;        /* memory instructions replayed */
   uint32_t n_gathered;      /* loads through an index left out */
   uint32_t n_scattered;     /* stores through an index left out */
   uint32_t n_scalars;       /* references that walk nothing, left out */
   uint32_t streams;         /* the replay's prefetcher: streams per core */
   uint64_t trips;           /* iterations replayed */
   uint32_t level;           /* the level whose misses the text gives */
   uint32_t shrunk;          /* levels shrunk to the iterations' share of
                                the loop's footprint (mp_nest_miniature),
                                a bit per level */
   uint32_t ways[MP_CACHE_MAX_LEVELS];  /* their ways in the replay */
   uint32_t run_ways[MP_CACHE_MAX_LEVELS];  /* and in the run */
   int warm;                 /* replayed in the steady state: its data
                                kept from one execution to the next */
   int illegal;              /* not made: the split breaks a dependence */
   char *why_not;            /* not made: why (allocated), or NULL when
                                no replay was asked for */
} mp_fission_outcome;

/* Loop 'loop' split into loops of at most 'streams' references. */
void mp_replay_fission(const mp_run *run, const mp_finished *an, uint32_t loop,
                       uint32_t streams, mp_fission_outcome *out);

/* "; replaying the loop (36 memory instructions, ...) with a stream
   prefetcher of 16 streams, as it ran and split into 3 loops: L2
   misses ... -> ... (...), cycles ... -> ... (...)"; "; no replay:
   why"; "" when none was asked for.  Allocated. */
char *mp_fission_replay_text(const mp_fission_outcome *o);

void mp_fission_outcome_clear(mp_fission_outcome *o);

#endif /* MP_FISSION_REPLAYS_H */
