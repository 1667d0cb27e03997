/*--------------------------------------------------------------------*/
/*--- memprof: a loop nest re-simulated in another loop order.     ---*/
/*---                                               mp_nest_replay.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The evidence of a loop-order advice.  A nest of loops whose memory
   instructions all have affine access formulas (mp_formula) is
   described by its loops' trip counts and, per instruction, its
   address at the nest's first iteration and its step along each loop.
   Its accesses can then be generated in any order of the loops, the
   order it ran in or an interchanged one, and fed through a fresh copy
   of the simulated hierarchy: the misses per level and the cycles of
   the two orders compare what the interchange does to the nest.  A
   loop may also be tiled (strip-mined: a loop over its tiles, placed
   anywhere in the order, around the loop over a tile's iterations),
   which is what blocking does.  One array may also be replayed laid
   out otherwise (mp_nest_pad): its rows padded, or its start moved, as
   padding against conflict misses does.

   The iteration space is a rectangle (each loop runs its trip count
   whatever the counters around it): the caller replays a triangular
   nest as a rectangle.  One core; the instructions' addresses
   are their program counters, so a stride prefetcher keys its streams
   as in the run.

   No Valgrind header: unit-tested on the host.
*/
#ifndef MP_NEST_REPLAY_H
#define MP_NEST_REPLAY_H

#include "mp_whatif.h"

#define MP_NEST_MAX_LOOPS 8
/* Loops tiled at most. */
#define MP_NEST_MAX_TILED 2

/* One memory access of the innermost loop's body. */
typedef struct {
   uint64_t base;                     /* address at the first iteration */
   int64_t  step[MP_NEST_MAX_LOOPS];  /* bytes per iteration of loop k */
   uint32_t size;
   int      is_write;
   uint64_t pc;                       /* the instruction's address */
   /* With a pad: the start of the padded array this reference walks
      (its first row as it ran); 0: another array's. */
   uint64_t origin;
   /* The variable it accesses, for a fusion's dependences
      (mp_fusion_dependence): two references meet only when they touch
      the same bytes of the same variable, since two variables at one
      address (a frame's slot given to two scopes' locals, a block
      freed and allocated again) carry no dependence in the source.
      0: not told (all such references are one variable). */
   uint32_t var;
} mp_nest_ref;

/* The padded array's layout: an address origin + r * row + c (c < row)
   of a reference into it moves to origin + shift + r * (row + extra)
   + c.  Its accesses are replayed MP_NEST_PAD_AWAY bytes away, a
   multiple of every level's span of sets, so that the grown array keeps
   its sets but shares no line with the arrays after it, which keep
   their addresses. */
typedef struct {
   uint64_t row;     /* bytes from a row to the next as it ran; 0: no rows */
   uint64_t extra;   /* bytes added to each row (the leading dimension) */
   uint64_t shift;   /* bytes added to its start */
} mp_nest_pad;

#define MP_NEST_PAD_AWAY ((uint64_t)1 << 56)

typedef struct {
   uint32_t n_loops;                     /* loop 0 is the outermost as run */
   uint64_t trips[MP_NEST_MAX_LOOPS];    /* iterations of loop k per
                                            iteration of the loops around */
   /* order[p]: the loop at position p, outermost first: 0, 1, ...,
      n_loops - 1 is the order the nest ran in.  With tiles, a position
      more per loop tiled: the loop n_loops + t is the loop over the
      tiles of loop tiled[t]. */
   uint32_t order[MP_NEST_MAX_LOOPS + MP_NEST_MAX_TILED];
   /* tile[t] 0: no more loops tiled (tile[1] only with tile[0]); else
      loop tiled[t] runs tile[t] iterations per iteration of the loop
      over its tiles (the last tile cut short).  Two different loops. */
   uint32_t tiled[MP_NEST_MAX_TILED];
   uint64_t tile[MP_NEST_MAX_TILED];
   const mp_nest_ref *refs;              /* in the body's order */
   uint32_t n_refs;
   /* Accesses replayed at most: the first ones of the order (0: all).
      Cutting each order's run at the same count, rather than cutting a
      loop short, keeps every walk its length in both orders. */
   uint64_t limit;
   const mp_nest_pad *pad;               /* NULL: the layout as it ran */
} mp_nest;

/* Whether the nest walks its references as one loop would: each
   reference's step along loop k is its step along loop k + 1 times
   loop k + 1's trips (rows laid end to end; a scalar, unmoved), in the
   order the nest ran.  If so, the nest becomes that loop: one loop of
   all the iterations, each reference stepping as along the innermost
   (refs: n->refs, writable), so that it pairs element by element with
   a flat loop over the same data (a fusion).  Cost O(refs * loops). */
int mp_nest_flatten(mp_nest *n, mp_nest_ref *refs);

/* The accesses the nest makes: the product of its trip counts times
   its references (UINT64_MAX if that overflows). */
uint64_t mp_nest_accesses(const mp_nest *n);

/* The cache lines the nest's references touch in the first 'trips'
   iterations of its outermost loop (0: all of them), for a line of
   'line' bytes: per reference, the lines of its walk along the loops
   whose step is under a line, times the iterations of the others,
   at most its accesses; a reference that walks the lines of one before
   it (the same steps, a start within a line) counts once.  Exact for
   walks that share no line otherwise and whose steps of a line or more
   are whole lines.  Cost O(refs^2 + refs * loops). */
uint64_t mp_nest_footprint(const mp_nest *n, uint64_t trips, uint32_t line);

/* A replay of part of a loop, 'part' of its 'whole' footprint's lines,
   sees that part's footprint against the caches' whole capacity: a
   level that would hold the part but not the whole would hit where the
   run misses.  Each such level of cfg is shrunk to the part's share of
   its ways (at least one, and at least the level above's capacity),
   its sets kept, so that the part overflows it as the whole overflows
   the real one (a miniature cache, shrunk in ways rather than in sets
   so that the mapping of lines to sets stays the run's).  Returns the
   levels shrunk, a bit per level. */
uint32_t mp_nest_miniature(mp_cache_cfg *cfg, uint64_t part, uint64_t whole);

/* Replays the nest (its first n->limit accesses) in its order through a new cache built from cfg
   (its callbacks are not used), core 0; latency[k]: cycles of an
   access served by level k, latency[n_levels] by memory.  Returns 0 if
   cfg is bad, the nest is empty, or order is not a permutation.  Cost:
   one cache access per access replayed. */
int mp_nest_replay(const mp_nest *n, const mp_cache_cfg *cfg, const uint32_t *latency,
                   mp_whatif_run *out);

#endif /* MP_NEST_REPLAY_H */
