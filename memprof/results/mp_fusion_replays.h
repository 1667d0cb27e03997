/*--------------------------------------------------------------------*/
/*--- memprof: the replay of the loop-fusion advice.                ---*/
/*---                                             mp_fusion_replays.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Adjacent loops fused, replayed before it is advised (--what-if=fuse).
   Each loop's nest, from the loop down to the innermost loop of its
   busiest memory instructions, is rebuilt from the access formulas as
   the other loop-order replays rebuild theirs (mp_order_nest); a loop
   whose inner loops are all short is rebuilt whole, those unrolled
   (mp_order_flat_nest).  Its loads through an index (a gather), and
   in a loop rebuilt whole its stores through one (a scatter), have no
   formula: they are left out, and said to be, unless another of the
   loops accesses their variable, storing to it for a gather (then the
   fusion's dependences are not known); the
   nests are replayed one after the other, as they ran, and fused
   (mp_fusion_replay), once the fusion is found to move no access past
   one it depends on.  Made by the advice rule that needs it; no
   Valgrind header: unit-tested on the host.
*/
#ifndef MP_FUSION_REPLAYS_H
#define MP_FUSION_REPLAYS_H

#include "mp_fusion_replay.h"
#include "mp_results_types.h"

typedef struct {
   mp_replay r;              /* made: both orders replayed; complete:
                                every iteration of each loop */
   uint32_t n_loops;         /* the loops fused */
   uint32_t n_instrs;        /* memory instructions replayed, in all */
   uint32_t n_gathered;      /* loads through an index left out */
   uint32_t n_scattered;     /* stores through an index left out (of a
                                variable no other loop accesses) */
   uint64_t trips;           /* iterations of the fused loop replayed */
   uint32_t level;           /* the level whose misses the text gives */
   int repeated;             /* replayed in the steady state */
   int illegal;              /* not made: the fusion breaks a dependence,
                                or the loops' iterations do not pair up
                                (one runs more than 8 times another's:
                                more than unrolling or vectors make) */
   char *why_not;            /* not made: why (allocated), or NULL when
                                no replay was asked for */
} mp_fusion_outcome;

/* The loops loops[0 .. k-1], in the order they run, fused; the misses
   of the level given in the text.  repeated: a loop around them runs
   them again and again, and both orders are counted in the steady
   state (mp_fusion_replay's warm). */
void mp_replay_fusion(const mp_run *run, const mp_finished *an, const uint32_t *loops,
                      uint32_t k, int repeated, uint32_t level, mp_fusion_outcome *out);

/* "; replaying the 3 loops (5 memory instructions, 4,096 iterations
   each) fused: L1 misses 3,072 -> 1,536 (-50%), cycles ... (-40%)";
   "; no replay: why"; "" when none was asked for.  Allocated. */
char *mp_fusion_replay_text(const mp_fusion_outcome *o);

void mp_fusion_outcome_clear(mp_fusion_outcome *o);

#endif /* MP_FUSION_REPLAYS_H */
