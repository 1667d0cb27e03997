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

   Both may run in an analysis helper process instead (mp_helper.h):
   their access steps then do nothing here (the helper reads the
   access's record), their finish step is the helper's, and the cache's
   flush step takes the helper's counts first.  The simulation proper
   (mp_hier_step.h) is what both run.
*/
#ifndef MP_AN_HIER_H
#define MP_AN_HIER_H

#include "pub_tool_libcprint.h"

#include "mp_an_ctx.h"
#include "mp_clo.h"
#include "mp_helper.h"
#include "mp_hier_step.h"
#include "mp_hierarchy.h"

/* The level from which an access counts as scattered: the L2, or the
   L1 of a one-level hierarchy. */
extern UInt mp_g_scattered_level;

/* Runs here: not in a helper, or in both with --helper-check. */
static inline Bool mp_an_hier_here(void)
{
   return !mp_g_hier_apart || mp_clo_helper_check;
}

/*--- The data TLB (--TLB) ---*/

static inline Bool mp_an_tlb_on(void) { return mp_g_hier.tlb != NULL; }

static inline void mp_an_tlb_access(mp_an_ctx *c)
{
   if (mp_an_hier_here())
      mp_an_tlb_simulate(c->core, c->e);
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
   if (!mp_an_hier_here())
      return;
   mp_an_cache_simulate(c->core, c->e, &o);
   mp_vars_cache_access_held(mp_g_vars, c->e, c->lc, &c->ii->held, &o,
                             mp_g_hier.n_levels, mp_g_hier.latency);
   c->served = o.served_by;
   c->in_footprint = o.owner_hit;
   c->cycles = mp_g_hier.latency[o.served_by];
   c->ii->scattered = o.served_by >= mp_g_scattered_level;
}

/* A forked child starts cold. */
static inline void mp_an_cache_reset(void) { mp_hierarchy_reset(); }

/* Lines still resident count for the reuse factor too (in the helper,
   at its end). */
static inline void mp_an_cache_finish(void)
{
   if (mp_an_hier_here())
      mp_cache_finish(mp_g_hier.cache);
}

/* The helper's counts, then with sampled miss causes the split of the
   unclassified misses, before the report, the advice and the summary
   read the counts. */
static inline void mp_an_cache_flush(void)
{
   mp_helper_take_hierarchy();
   mp_hierarchy_estimate_causes();
}

static inline void mp_an_cache_stats(void)
{
   VG_(dmsg)("memprof: cache metadata:            %llu bytes\n",
             mp_g_hier_apart ? mp_helper_cache_bytes() : (ULong)mp_cache_bytes(mp_g_hier.cache));
}

#endif /* MP_AN_HIER_H */
