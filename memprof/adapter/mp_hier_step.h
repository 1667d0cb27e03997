/*--------------------------------------------------------------------*/
/*--- memprof: the hierarchy's step on one access.                 ---*/
/*---                                               mp_hier_step.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The simulation of one access by the data TLB and the caches, with
   its conflict misses counted by set: what the inline path
   (mp_an_hier.h) and the analysis helper process (mp_helper.c) share,
   so that both run the same code.  Each counts the outcome in its own
   records (the helper's are by variable and line record id).
*/
#ifndef MP_HIER_STEP_H
#define MP_HIER_STEP_H

#include "mp_an_ctx.h"
#include "mp_hierarchy.h"

/* The TLB's outcome of e, counted as its variable's. */
static inline void mp_an_tlb_simulate(UInt core, const mp_event *e)
{
   mp_cache_outcome t;
   mp_cache_access(mp_g_hier.tlb, core, e->addr, e->size, e->is_write, e->var, 0, &t);
   mp_cache_counts_tlb(mp_g_hier_counts_of(e->var), t.missed[0]);
}

/* --sample=lines: the access in its line's counts and its L1 set's,
   and what they add to its variable's sums (mp_set_sample.h).  An
   access that straddles into the sample from the line before counts
   in its sampled line. */
static inline void mp_an_sample_sums(const mp_event *e, const mp_cache_outcome *o)
{
   uint64_t inc[MP_EST_N];
   UInt k, lat = mp_g_hier.latency[o->served_by];
   mp_cache_counts *cc = mp_g_hier_counts_of(e->var);
   UWord line = e->addr >> mp_g_sample_line_shift;
   if (!mp_g_sample_sets[line & mp_g_sample_set_mask])
      line++;
   VG_(memset)(inc, 0, sizeof inc);
   inc[MP_EST_ACCESSES] = 1;
   for (k = 0; k < mp_g_hier.n_levels; k++)
      inc[MP_EST_MISSES + k] = o->missed[k];
   inc[MP_EST_STALL] = lat - mp_g_hier.latency[0];
   mp_line_sums_add(mp_g_line_sums,
                    (line >> mp_g_sample_set_bits) * mp_g_sample_n_sets
                       + mp_g_sample_rank[line & mp_g_sample_set_mask] - 1,
                    e->var, inc, cc->sample_line_sq);
   mp_unit_sums_add(mp_g_set_sums, line & mp_g_sample_set_mask, e->var, inc, cc->sample_set_sum,
                    cc->sample_set_sq);
}

/* The caches' outcome of e, its conflict misses counted by set. */
static inline void mp_an_cache_simulate(UInt core, const mp_event *e, mp_cache_outcome *o)
{
   mp_cache_access(mp_g_hier.cache, core, e->addr, e->size, e->is_write, e->var, e->iaddr, o);
   if (mp_g_set_sums)
      mp_an_sample_sums(e, o);
   if (o->missed[0]) {
      UInt k;
      for (k = 0; k < mp_g_hier.n_levels && o->missed[k]; k++)
         if (o->cause[k] == MP_MISS_CONFLICT)
            mp_setdiag_conflict(mp_g_hier.conflicts, k, e->addr >> mp_g_line_shift, e->var);
   }
}

#endif /* MP_HIER_STEP_H */
