/*--------------------------------------------------------------------*/
/*--- memprof: which loop carries each variable's far reuses.      ---*/
/*---                                                mp_carriers.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Beyls and D'Hollander's reuse paths (their SLO tool): a reuse is
   carried by the innermost loop active at both of its accesses, and
   only that loop's order can bring the reuse closer.  Tiling it shortens
   a capacity miss's reuse distance; if no loop holds both accesses
   (an initialisation loop, then the kernel that reads what it wrote),
   no loop order of either nest can.

   Per variable, the far reuses (a distance of at least 'far' lines:
   those the smallest cache misses) by carrier loop, with their
   distances binned as mp_reuse_bin does, so that each cache level
   counts the ones beyond its own size.  The adapter finds the carrier
   (mp_loops_carrier) and calls mp_carriers_add; reuses whose earlier
   access the loop analysis did not follow are counted apart ("unseen"),
   so that a verdict is drawn from the reuses whose carrier is known.

   A variable keeps MP_CARRIER_SLOTS carriers, the first met; the far
   reuses of any other loop are counted as "other".  Beside them, the
   far reuses whose two accesses lie in two different child loops of
   the carrier (mp_loops_siblings: adjacent loops, or nests, in its
   body), by carrier and the two loops: MP_CARRIER_PAIRS of them.  When
   they are all taken, the pair with the fewest reuses (of those, the
   one that took its place first) gives its place to the new one, its
   counts lost: pairs met a
   few times early (a loop's first run, before the loop around it was
   known to be one) do not keep out those met all run long.  Those
   reuses are what fusing the two loops brings closer.  Memory: one table of about 8 KiB per variable with far
   reuses, made at its first.
   Cost: O(MP_CARRIER_SLOTS) per far reuse; nothing for the others.

   No Valgrind header: unit-tested on the host.
*/
#ifndef MP_CARRIERS_H
#define MP_CARRIERS_H

#include "mp_platform.h"
#include "mp_reuse.h"

#define MP_CARRIER_SLOTS 6
#define MP_CARRIER_PAIRS 8

/* The far reuses of one variable carried by one loop (MP_LOOP_NONE:
   by no loop), by distance bin (mp_reuse_bin). */
typedef struct {
   uint32_t loop;
   uint64_t total;
   uint64_t bins[MP_REUSE_N_BINS];
} mp_carrier;

/* The far reuses of one variable from loop 'from' to loop 'to', both
   children of the carrier k.loop (MP_LOOP_NONE: outermost loops). */
typedef struct {
   uint32_t from, to;
   /* The first and the last loop that ran between them, in the same
      iteration of the carrier, at one of these reuses
      (mp_loops_siblings); MP_LOOP_NONE if none did: fusing them would
      move the later loop's accesses before theirs. */
   uint32_t across[2];
   uint64_t admitted;        /* when it took its place (the table's count) */
   mp_carrier k;
} mp_loop_pair;

typedef struct {
   mp_carrier slot[MP_CARRIER_SLOTS];
   mp_loop_pair pair[MP_CARRIER_PAIRS];
   uint32_t n_pairs;
   uint64_t admissions;                 /* pairs that took a place */
   uint32_t n;                          /* slots used */
   mp_carrier other;                    /* of loops beyond the slots (its
                                           loop is MP_LOOP_NONE) */
   uint64_t unseen;                     /* far reuses whose carrier is not known */
} mp_var_carriers;

typedef struct mp_carriers mp_carriers;

/* far: the distance (lines) from which a reuse is counted, >= 1. */
mp_carriers *mp_carriers_new(uint64_t far);
void         mp_carriers_free(mp_carriers *c);
void         mp_carriers_reset(mp_carriers *c);
/* The far reuses counted by a carrier, and those not (for -v). */
void         mp_carriers_counts(const mp_carriers *c, uint64_t *added, uint64_t *unseen);

/* A far reuse of variable var at 'distance' lines carried by loop
   (MP_LOOP_NONE: by none).  Distances below 'far' are ignored. */
void mp_carriers_add(mp_carriers *c, uint32_t var, uint32_t loop, uint64_t distance);
/* Of those, one whose earlier access lies in loop 'from' and the later
   in loop 'to', two children of the carrier, with the loops across[0]
   and across[1] run first and last between them (MP_LOOP_NONE: none;
   mp_loops_siblings); called after
   mp_carriers_add for the same reuse.  Ignored when from == to, either
   is MP_LOOP_NONE or the distance is below 'far'. */
void mp_carriers_add_pair(mp_carriers *c, uint32_t var, uint32_t carrier, uint32_t from,
                          uint32_t to, const uint32_t across[2], uint64_t distance);
/* A far reuse of var whose carrier is not known. */
void mp_carriers_unseen(mp_carriers *c, uint32_t var);

/* var's carriers, NULL if it has had no far reuse. */
const mp_var_carriers *mp_carriers_of(const mp_carriers *c, uint32_t var);
/* The variables that may have carriers are those below this bound. */
uint32_t mp_carriers_var_bound(const mp_carriers *c);
/* What a copy counted in another process (the reuse helper,
   mp_helper.h) becomes this one's: var's table, and the -v counts. */
void mp_carriers_take(mp_carriers *c, uint32_t var, const mp_var_carriers *vc);
void mp_carriers_take_counts(mp_carriers *c, uint64_t added, uint64_t unseen);

/* Of a carrier's reuses, those at a distance of at least 'lines'
   (whole bins only: a bin straddling 'lines' is left out). */
uint64_t mp_carrier_beyond(const mp_carrier *k, uint64_t lines);

/* Whether a loop counts as a carrier for the caller (the report takes
   a loop of the C runtime around main for none). */
typedef int (*mp_carrier_loop_fn)(uint32_t loop, void *arg);

/* The loop carrying the most of vc's reuses at 'lines' or more, among
   those is_loop accepts (NULL: every loop); the reuses of the others,
   and of no loop, count as carried by none.  NULL when none carries at
   least as many as that loop.  *known: the reuses at 'lines' or more of
   every slot and of "other" (not "unseen", which is not binned);
   *carried: those of the loop returned, or of none. */
const mp_carrier *mp_carriers_top(const mp_var_carriers *vc, uint64_t lines,
                                  mp_carrier_loop_fn is_loop, void *arg,
                                  uint64_t *known, uint64_t *carried);

#endif /* MP_CARRIERS_H */
