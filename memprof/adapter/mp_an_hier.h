/*--------------------------------------------------------------------*/
/*--- memprof: the simulated machine in the access list.           ---*/
/*---                                                 mp_an_hier.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Two entries of the list in mp_analyses.h: the data TLB (tlb) and the
   cache hierarchy with its conflict set diagnosis (cache).  One file
   for both: mp_hierarchy.c builds them together from the same options
   and cores, before the banner (a bad geometry is refused with the
   other options' errors), so no create step makes them (the cache's
   only sets the scattered level).

   The cache's access fills in the context's served level, cycles and
   in_footprint for the analyses after it, and marks the instruction
   scattered (its next access prefetches) when memory or a deep level
   served it.
*/
#ifndef MP_AN_HIER_H
#define MP_AN_HIER_H

#include "pub_tool_libcprint.h"

#include "mp_an_ctx.h"
#include "mp_hierarchy.h"

/* The level from which an access counts as scattered: the L2, or the
   L1 of a one-level hierarchy. */
extern UInt mp_g_scattered_level;

/*--- The data TLB (--TLB) ---*/

static inline Bool mp_an_tlb_on(void) { return mp_g_hier.tlb != NULL; }

static inline void mp_an_tlb_access(mp_an_ctx *c)
{
   mp_cache_outcome t;
   mp_cache_access(mp_g_hier.tlb, c->core, c->e->addr, c->e->size, c->e->is_write,
                   c->e->var, 0, &t);
   mp_vars_tlb_access(mp_g_vars, c->e, t.missed[0]);
}

static inline void mp_an_tlb_reset(void) { mp_hierarchy_reset_tlb(); }

/*--- The caches and the conflict set diagnosis ---*/

static inline Bool mp_an_cache_on(void) { return mp_g_hier.cache != NULL; }

static inline void mp_an_cache_create(void)
{
   mp_g_scattered_level = mp_g_hier.n_levels >= 2 ? 2 : 1;
}

static inline void mp_an_cache_access(mp_an_ctx *c)
{
   mp_cache_outcome o;
   mp_cache_access(mp_g_hier.cache, c->core, c->e->addr, c->e->size,
                   c->e->is_write, c->e->var, c->e->iaddr, &o);
   mp_vars_cache_access_held(mp_g_vars, c->e, c->lc, &c->ii->held, &o,
                             mp_g_hier.n_levels, mp_g_hier.latency);
   c->served = o.served_by;
   c->in_footprint = o.owner_hit;
   c->cycles = mp_g_hier.latency[o.served_by];
   c->ii->scattered = o.served_by >= mp_g_scattered_level;
   if (o.missed[0]) {
      UInt k;
      for (k = 0; k < mp_g_hier.n_levels && o.missed[k]; k++)
         if (o.cause[k] == MP_MISS_CONFLICT)
            mp_setdiag_conflict(mp_g_hier.conflicts, k,
                                c->e->addr >> mp_g_line_shift, c->e->var);
   }
}

/* A forked child starts cold. */
static inline void mp_an_cache_reset(void) { mp_hierarchy_reset(); }

/* Lines still resident count for the reuse factor too. */
static inline void mp_an_cache_finish(void) { mp_cache_finish(mp_g_hier.cache); }

/* Sampled miss causes: the split of the unclassified misses, before the
   report, the advice and the summary read the counts. */
static inline void mp_an_cache_flush(void) { mp_hierarchy_estimate_causes(); }

static inline void mp_an_cache_stats(void)
{
   VG_(dmsg)("memprof: cache metadata:            %llu bytes\n",
             (ULong)mp_cache_bytes(mp_g_hier.cache));
}

#endif /* MP_AN_HIER_H */
