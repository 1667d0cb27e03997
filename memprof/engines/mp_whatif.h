/*--------------------------------------------------------------------*/
/*--- memprof: what-if re-simulation of a changed data layout.     ---*/
/*---                                                   mp_whatif.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Advice that carries its own evidence.  The accesses of each
   variable are recorded (address, its block, size, kind, core) up to a
   budget; at exit a suggested layout (a structure split into one array
   per field group, a falsely shared line padded per thread) is replayed
   through a fresh copy of the simulated cache hierarchy twice: as it
   was and as it would be, and the misses per level and the cycles of
   the two runs are compared.  Both runs see only the variable's own
   accesses, so the difference is what the layout change does to that
   variable, free of what other variables do to it.

   No Valgrind header: unit-tested on the host.
*/
#ifndef MP_WHATIF_H
#define MP_WHATIF_H

#include "mp_cache.h"

typedef struct mp_whatif mp_whatif;

/* One recorded access, as the layout maps see it. */
typedef struct {
   uint64_t addr, block;      /* block: start of the heap block / global */
   uint32_t size, core;
   int      is_write;
} mp_whatif_access;

/* Where an access goes under the changed layout. */
typedef uint64_t (*mp_whatif_map)(void *arg, const mp_whatif_access *a);

typedef struct {
   uint64_t accesses;                        /* replayed */
   uint64_t misses[MP_CACHE_MAX_LEVELS];
   uint64_t coherence[MP_CACHE_MAX_LEVELS];  /* of the misses */
   uint64_t cycles;
} mp_whatif_run;

/* per_var, total: accesses recorded at most per variable and in all. */
mp_whatif *mp_whatif_new(uint64_t per_var, uint64_t total);
void       mp_whatif_free(mp_whatif *w);
void       mp_whatif_reset(mp_whatif *w);

/* Records one access of var (O(1) amortised; nothing once a budget is
   spent). */
void mp_whatif_record(mp_whatif *w, uint32_t var, uint64_t addr, uint64_t block,
                      uint32_t size, int is_write, uint32_t core);

/* If var's budget is spent: counts one more access of it, which
   mp_whatif_record would not have recorded, and returns 1; else 0 (the
   access is to be recorded).  Spares the caller working out a block
   start that would not be kept. */
int mp_whatif_count_spent(mp_whatif *w, uint32_t var);
/* Accesses of var recorded, and whether they are all of var's accesses
   so far (1) or the budget ran out (0). */
uint64_t mp_whatif_recorded(const mp_whatif *w, uint32_t var);
int      mp_whatif_complete(const mp_whatif *w, uint32_t var);

/* Replays var's recorded accesses through a new cache built from cfg
   (its callbacks are not used; its prefetcher, if any, is, its stride
   streams keyed by region: no instruction address is recorded), each at
   map(arg, access) (the identity when map is NULL); latency[k]: cycles
   of an access served by level k,
   latency[n_levels] by memory.  Returns 0 if cfg is bad or nothing was
   recorded.  Cost: one cache access per recorded access. */
int mp_whatif_replay(const mp_whatif *w, uint32_t var, const mp_cache_cfg *cfg,
                     const uint32_t *latency, mp_whatif_map map, void *arg,
                     mp_whatif_run *out);

/* The pieces every replay shares (this one, and the loop nests' of
   mp_nest_replay.h): a new cache built from cfg without its callbacks
   (a replay's lines belong to no variable's records), NULL if cfg is
   bad; and one replayed access's outcome added to a run. */
mp_cache *mp_whatif_new_cache(const mp_cache_cfg *cfg);
void mp_whatif_count(mp_whatif_run *out, const mp_cache_outcome *o, uint32_t n_levels,
                     const uint32_t *latency);

uint64_t mp_whatif_bytes(const mp_whatif *w);

#endif /* MP_WHATIF_H */
