/*--------------------------------------------------------------------*/
/*--- memprof: what the run did as a whole.             mp_totals.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
   See mp_totals.h.
*/
#include "mp_totals.h"
#include "mp_util.h"

void mp_totals_count(const mp_vars *vs, int cycles, mp_totals *out)
{
   uint64_t threads[MP_MAX_THREADS / 64];
   uint32_t i, w;
   mp_memset(out, 0, sizeof *out);
   mp_memset(threads, 0, sizeof threads);
   for (i = 0; i < mp_vars_count(vs); i++) {
      const mp_var *v = mp_vars_get(vs, i);
      mp_counts_add(&out->c, &v->c);
      for (w = 0; w < MP_MAX_THREADS / 64; w++)
         threads[w] |= v->threads[w];
      if (cycles && v->cache)
         out->cycles += v->cache->cycles;
   }
   for (w = 0; w < MP_MAX_THREADS / 64; w++)
      out->threads += __builtin_popcountll(threads[w]);
   out->accesses = mp_counts_accesses(&out->c);
}

/* The sets of level k with the most conflict misses, and who collides. */
static void conflict_sets(const mp_setdiag *d, const mp_vars *vs, uint32_t k,
                          mp_level_results *lr)
{
   mp_setdiag_set top[MP_RESULTS_CONFLICT_SETS];
   uint32_t i, s;
   lr->n_conflict_sets = mp_setdiag_top(d, k, top, MP_RESULTS_CONFLICT_SETS);
   for (i = 0; i < lr->n_conflict_sets; i++) {
      mp_conflict_set *cs = &lr->conflict_sets[i];
      cs->set = top[i].set;
      cs->conflicts = top[i].conflicts;
      for (s = 0; s < MP_SETDIAG_SLOTS && top[i].slot[s].count; s++) {
         cs->vars[s].name = mp_vars_get(vs, top[i].slot[s].var)->name;
         cs->vars[s].conflicts = top[i].slot[s].count;
         cs->vars[s].error = top[i].slot[s].error;
      }
      cs->n_vars = s;
   }
}

/* Level k: its geometry, and with the simulation, its totals and how
   its miss causes were sampled. */
static void level(const mp_report_cache *rc, const mp_vars *vs, uint32_t k,
                  mp_level_results *lr)
{
   lr->name = mp_report_level_name(k);
   lr->cfg = rc->level[k];
   lr->latency = rc->latency[k];
   if (rc->cache) {
      lr->cause_sample_rate = 1.0 / (double)(1u << mp_cache_level_sample_shift(rc->cache, k));
      mp_cache_get_totals(rc->cache, k, &lr->totals);
   }
   if (rc->conflicts)
      conflict_sets(rc->conflicts, vs, k, lr);
}

static void prefetcher(const mp_cache *c, mp_cache_results *cr)
{
   const mp_prefetch_cfg *pc = mp_cache_prefetch_config(c);
   cr->prefetch_kind = mp_prefetch_kind_name(pc->kind);
   cr->prefetching = pc->kind != MP_PREFETCH_NONE;
   if (!cr->prefetching)
      return;
   cr->prefetch_streams = pc->streams;
   cr->prefetch_level = mp_report_level_name(mp_cache_prefetch_level(c));
   mp_cache_get_prefetch_totals(c, &cr->prefetch);
}

mp_cache_results *mp_totals_cache(const mp_report_cache *rc, const mp_vars *vs)
{
   mp_cache_results *cr = mp_calloc("mp.results.cache", 1, sizeof *cr);
   uint32_t k;
   cr->n_levels = rc->n_levels;
   for (k = 0; k < rc->n_levels; k++)
      level(rc, vs, k, &cr->level[k]);
   cr->memory_latency = rc->latency[rc->n_levels];
   cr->cores = rc->cores;
   cr->cores_per_socket = rc->cores_per_socket;
   cr->source = rc->source;
   cr->fallback_why = rc->fallback_why;
   cr->conflict_sets = rc->conflicts != NULL;
   cr->instructions = rc->instructions;
   if (rc->cache) {
      cr->miss_causes = mp_cache_sample_shift(rc->cache) ? "sampled" : "exact";
      prefetcher(rc->cache, cr);
   }
   if (rc->tlb) {
      cr->tlb = 1;
      cr->tlb_entries = rc->tlb_entries;
      cr->tlb_assoc = rc->tlb_assoc;
      cr->tlb_page = rc->tlb_page;
      mp_cache_get_totals(rc->tlb, 0, &cr->tlb_totals);
   }
   return cr;
}

mp_reuse_results *mp_totals_reuse(const mp_reuse *r)
{
   mp_reuse_results *rr = mp_calloc("mp.results.reuse", 1, sizeof *rr);
   uint32_t b;
   rr->weight = mp_reuse_weight(r);
   for (b = 0; b < MP_REUSE_N_BINS; b++)
      mp_reuse_bin_bounds(b, &rr->bin_lo[b], &rr->bin_hi[b]);
   return rr;
}

mp_stride_results *mp_totals_stride(const mp_stride *st)
{
   mp_stride_results *sr = mp_calloc("mp.results.stride", 1, sizeof *sr);
   uint32_t b;
   sr->cfg = *mp_stride_config(st);
   for (b = 0; b < MP_STRIDE_N_BINS; b++)
      mp_stride_bin_bounds(b, &sr->bin_lo[b], &sr->bin_hi[b]);
   return sr;
}
