/*--------------------------------------------------------------------*/
/*--- memprof: map of non-overlapping address ranges.               ---*/
/*---                                                 mp_rangemap.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof, a Valgrind tool that attributes memory
   accesses to data structures.  GPL-2.0-or-later; see COPYING.

   An mp_rangemap maps half-open address ranges [start, start+len),
   len >= 1, to an opaque value.  Ranges never overlap; a range may end
   exactly at 2^64 (its last byte being 0xFFFFFFFFFFFFFFFF) but not wrap.
   It answers "which range owns this address?" for heap blocks, globals
   and user-named ranges.

   Cost: insert, remove and lookup are O(log n); lookup never allocates.
   See mp_rangemap.c for the tree and its invariants.

   The map does not own the values; freeing the map leaves them alone.
*/
#ifndef MP_RANGEMAP_H
#define MP_RANGEMAP_H

#include "mp_platform.h"

typedef struct mp_rangemap mp_rangemap;

/* A new, empty map.  Never returns NULL (out of memory is fatal). */
mp_rangemap *mp_rangemap_new(void);

/* Frees the map and its nodes, not the values.  NULL is allowed. */
void mp_rangemap_free(mp_rangemap *m);

/* Adds [start, start+len) -> value.  Returns 0 on success; -1, leaving
   the map unchanged, if len == 0, if the range wraps past 2^64, or if
   it overlaps a range already present. */
int mp_rangemap_insert(mp_rangemap *m, uint64_t start, uint64_t len,
                       void *value);

/* Removes the range that begins exactly at 'start'.  Returns 1 and
   fills *len_out and *value_out (either may be NULL) if there was one,
   else returns 0 and leaves the outs alone. */
int mp_rangemap_remove(mp_rangemap *m, uint64_t start,
                       uint64_t *len_out, void **value_out);

/* Finds the range containing 'addr'.  Returns 1 and fills the outs
   (any may be NULL) if there is one, else returns 0 and leaves the
   outs alone.  O(log n), no allocation: safe on the hot path. */
int mp_rangemap_lookup(const mp_rangemap *m, uint64_t addr,
                       uint64_t *start_out, uint64_t *len_out,
                       void **value_out);

/* 1 if some range has a byte in [lo, last] (lo <= last), else 0.
   O(log n), no allocation. */
int mp_rangemap_overlaps(const mp_rangemap *m, uint64_t lo, uint64_t last);

/* Number of ranges in the map. */
size_t mp_rangemap_count(const mp_rangemap *m);

/* Calls fn on every range in increasing address order; stops early as
   soon as fn returns nonzero.  fn must not modify the map. */
void mp_rangemap_foreach(const mp_rangemap *m,
                         int (*fn)(uint64_t start, uint64_t len,
                                   void *value, void *arg),
                         void *arg);

/* Sanity check, O(n): verifies order, non-overlap, the balance
   invariant, stored heights and the count.  Returns 1 if all hold.
   Meant for unit tests and for a debug cross-check in the tool. */
int mp_rangemap_check(const mp_rangemap *m);

#endif /* MP_RANGEMAP_H */

/*--------------------------------------------------------------------*/
/*--- end                                             mp_rangemap.h ---*/
/*--------------------------------------------------------------------*/
