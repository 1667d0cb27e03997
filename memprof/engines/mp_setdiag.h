/*--------------------------------------------------------------------*/
/*--- memprof: which variables collide in which cache sets.        ---*/
/*---                                                  mp_setdiag.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Per-set conflict diagnosis (beyond the anchors): for each
   cache level, the conflict misses of every set, and for each set the
   variables suffering most of them, so the report can say "L1 set 12:
   50,688 conflict misses: big 40,000, table 10,688".  The variables of a
   set are kept with the space-saving algorithm in MP_SETDIAG_SLOTS
   slots: exact while a set has at most that many colliding variables,
   counts over-estimated by at most 'error' beyond.
*/
#ifndef MP_SETDIAG_H
#define MP_SETDIAG_H

#include "mp_platform.h"

#define MP_SETDIAG_SLOTS 4

typedef struct {
   uint32_t var;
   uint64_t count;     /* conflict misses of var in the set (space-saving) */
   uint64_t error;     /* count over-estimates by at most this */
} mp_setdiag_slot;

typedef struct {
   uint32_t set;                              /* its index (set by mp_setdiag_top) */
   uint64_t conflicts;                        /* all conflict misses of the set */
   mp_setdiag_slot slot[MP_SETDIAG_SLOTS];    /* by count, descending; count 0: unused */
} mp_setdiag_set;

typedef struct mp_setdiag mp_setdiag;

/* sets[k]: the number of sets of level k, a power of two. */
mp_setdiag *mp_setdiag_new(uint32_t n_levels, const uint64_t *sets);
void        mp_setdiag_free(mp_setdiag *d);
void        mp_setdiag_reset(mp_setdiag *d);

/* A conflict miss of variable var at level, in the set of cache line
   'line'.  O(MP_SETDIAG_SLOTS). */
void mp_setdiag_conflict(mp_setdiag *d, uint32_t level, uint64_t line, uint32_t var);

/* With sampled miss causes (mp_cache_cfg.sample_shift), only the
   sampled lines' conflict misses are counted here: mp_setdiag_top then
   reports every count times num / den (rounded), the level's estimated
   conflict misses over its classified ones, so that the sets' counts
   are estimates on the scale of the level's.  1 / 1 until called; den
   0 is 1. */
void mp_setdiag_scale(mp_setdiag *d, uint32_t level, uint64_t num, uint64_t den);

/* The (at most) n sets of level with the most conflict misses, most
   first, into out; returns how many were written (sets without conflict
   misses are left out).  O(sets * n): at exit only. */
uint32_t mp_setdiag_top(const mp_setdiag *d, uint32_t level, mp_setdiag_set *out,
                        uint32_t n);

/* The record of level's first set after set 'after' (-1: from the
   first) with a conflict miss, into *out (its set field set, its counts
   unscaled); returns its set, or -1 when there is none.  With
   mp_setdiag_put, how an analysis helper process (mp_helper.h) hands
   its diagnosis back: O(sets) in all, at exit. */
int64_t mp_setdiag_next(const mp_setdiag *d, uint32_t level, int64_t after,
                        mp_setdiag_set *out);

/* Level's set st->set becomes *st, as mp_setdiag_next gave it. */
void mp_setdiag_put(mp_setdiag *d, uint32_t level, const mp_setdiag_set *st);

#endif /* MP_SETDIAG_H */
