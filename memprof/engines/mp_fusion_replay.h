/*--------------------------------------------------------------------*/
/*--- memprof: adjacent loop nests re-simulated fused.              ---*/
/*---                                             mp_fusion_replay.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The evidence of a loop-fusion advice.  k loop nests that run one
   after the other (the parts), each described as mp_nest_replay.h
   describes one (its loops' trip counts, its references' addresses and
   steps, in the order it ran), are replayed through a fresh copy of
   the simulated hierarchy twice: as they ran, part after part, and
   fused, their outermost loops merged into one whose iteration runs
   that iteration of each part in turn.  The misses and cycles of the
   two compare what the fusion does.  Parts of different trip counts
   (loops the compiler unrolled or vectorised by different factors) are
   spread evenly over the fused loop's iterations, S, the most of any
   part's, when they run at most half of them: the first part's
   iteration i runs in the fused loop's iteration floor(i * S / t), the
   first of its share, another part's in ceil((i + 1) * S / t) - 1, the
   last of its share, so that the first part's stores come before the
   others' loads.  A part of more than half the fused loop's iterations
   runs its iteration i in the fused loop's i, as fusing by hand
   does.

   Fusion is legal only if it moves no access past one it depends on:
   in the fused order, a later part's accesses in the fused loop's
   iteration s run before the earlier parts' of the iterations after
   s, so they must not touch bytes that an earlier part touches in a
   later iteration of the fused loop, one of the two storing.  mp_fusion_dependence
   checks that on the accesses themselves, granule by granule and
   variable by variable (mp_nest_ref's var), a variable's granule the
   widest its references' addresses and widths are multiples of (at
   most 8 bytes: two floats side by side are two elements); a
   location no reference walks, which each loop touching it both loads
   and stores (a loop counter kept in memory, an accumulator), is each
   loop's own state and is left out, as a compiler fusing the loops
   keeps such scalars apart.

   No Valgrind header: unit-tested on the host against the accesses
   listed and compared pair by pair.
*/
#ifndef MP_FUSION_REPLAY_H
#define MP_FUSION_REPLAY_H

#include "mp_nest_replay.h"

#define MP_FUSION_MAX_PARTS 8

/* The parts' loops run in their order as run (order 0, 1, ...; no
   tiles, no pad).  trips_limit: iterations of the fused loop
   replayed at most (0: all), each part cut to the same share of its
   outermost loop's iterations, the same for both orders so that both
   replay the same accesses.  The accesses made: */
uint64_t mp_fusion_accesses(const mp_nest *const *parts, uint32_t k, uint64_t trips_limit);

/* Replays the parts in sequence (fused 0) or fused (1) into out; warm:
   the order is replayed once before, uncounted, as when a loop around
   the parts runs them again and again (a time step), so that the
   counts are one pass's in the steady state, not the cold cache's.
   Returns 0 if cfg is bad, k is 0 or above MP_FUSION_MAX_PARTS, or a
   part has no loop or no reference.  Cost: one cache access per
   access replayed (two when warm). */
int mp_fusion_replay(const mp_nest *const *parts, uint32_t k, uint64_t trips_limit,
                     int fused, int warm, const mp_cache_cfg *cfg, const uint32_t *latency,
                     mp_whatif_run *out);

/* The dependence the fusion would break, if any: 1 with *earlier and
   *later the two parts, *ref the reference of the later part and *addr
   the address it touches; else 0.  Memory: a table of the granules the
   parts touch; cost O(accesses + references log references). */
int mp_fusion_dependence(const mp_nest *const *parts, uint32_t k, uint64_t trips_limit,
                         uint32_t *earlier, uint32_t *later, uint32_t *ref,
                         uint64_t *addr);

#endif /* MP_FUSION_REPLAY_H */
