/*--------------------------------------------------------------------*/
/*--- memprof: variable ids per 16-byte granule of memory.         ---*/
/*---                                                 mp_granmap.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Heap blocks churn (millions of malloc/free) and pointer-chasing code
   touches a different block at every access, so the heap's address ->
   variable lookup must not depend on the number of live blocks.  This
   map stores one 32-bit value per 16-byte granule, like Memcheck's
   shadow memory: lookup is three dependent loads, O(1); setting a range
   costs O(len / 16), the order of the client's own memset of the block.

   Valgrind's allocator aligns every block to 16 bytes or more, so no
   two blocks share a granule.  Value 0 means "none".  Tables are
   allocated on first write: memory is 1/4 of the heap's footprint plus
   the directory levels.
*/
#ifndef MP_GRANMAP_H
#define MP_GRANMAP_H

#include "mp_platform.h"

#define MP_GRANULE_SHIFT 4

typedef struct mp_granmap mp_granmap;

mp_granmap *mp_granmap_new(void);
void        mp_granmap_free(mp_granmap *m);

/* Sets every granule that [addr, addr+len) touches to value (0 clears).
   Addresses must lie below 2^48. */
void     mp_granmap_set(mp_granmap *m, uint64_t addr, uint64_t len, uint32_t value);

/* The value of addr's granule, 0 if never set or cleared. */
uint32_t mp_granmap_get(const mp_granmap *m, uint64_t addr);

/* 1 if every granule that [addr, addr+len) touches is 0, else 0: a
   range no block lies in.  Costs a read per granule of the leaves made,
   none for the rest. */
int mp_granmap_empty(const mp_granmap *m, uint64_t addr, uint64_t len);

/* Starts bringing addr's granule into the host's cache for a
   mp_granmap_get soon after (the directory levels are read now; the
   leaf, a host cache miss when the accesses are scattered, is not
   waited for). */
void mp_granmap_prefetch(const mp_granmap *m, uint64_t addr);

/* Bytes of tables allocated, for -v statistics and tests. */
uint64_t mp_granmap_bytes(const mp_granmap *m);

#endif /* MP_GRANMAP_H */
