/*--------------------------------------------------------------------*/
/*--- memprof: what-if re-simulation of a changed data layout.     ---*/
/*---                                                   mp_whatif.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Data structures and cost per access: per variable (indexed by id) a
   growable array of 16-byte records, appended to, O(1) amortised; the
   address, size, kind and core are packed into the two words (addresses
   and block starts are below 2^48 on amd64).  The budgets bound the
   memory: 16 bytes times the total budget, at most.
*/
#include "mp_whatif.h"

typedef struct {
   uint64_t addr_kind;     /* addr | size << 48 (8 bits) | write << 56 */
   uint64_t block_core;    /* block | core << 48 (16 bits) */
} record;

typedef struct {
   record  *recs;
   uint64_t n, cap;
   uint64_t seen;          /* accesses offered, recorded or not */
} var_trace;

struct mp_whatif {
   uint64_t per_var, total, used;
   var_trace *vars;
   uint32_t n_vars;
   uint64_t bytes;
};

#define ADDR_MASK ((1ULL << 48) - 1)

mp_whatif *mp_whatif_new(uint64_t per_var, uint64_t total)
{
   mp_whatif *w = mp_calloc("mp.whatif", 1, sizeof *w);
   w->per_var = per_var;
   w->total = total;
   return w;
}

void mp_whatif_reset(mp_whatif *w)
{
   uint32_t i;
   for (i = 0; i < w->n_vars; i++)
      if (w->vars[i].recs)
         mp_free(w->vars[i].recs);
   if (w->vars)
      mp_free(w->vars);
   w->vars = NULL;
   w->n_vars = 0;
   w->used = 0;
   w->bytes = 0;
}

void mp_whatif_free(mp_whatif *w)
{
   if (w == NULL)
      return;
   mp_whatif_reset(w);
   mp_free(w);
}

static var_trace *trace_of(mp_whatif *w, uint32_t var)
{
   if (var >= w->n_vars) {
      uint32_t n = w->n_vars ? w->n_vars : 64;
      while (n <= var)
         n *= 2;
      w->vars = mp_realloc("mp.whatif.vars", w->vars, n * sizeof *w->vars);
      mp_memset(w->vars + w->n_vars, 0, (n - w->n_vars) * sizeof *w->vars);
      w->n_vars = n;
   }
   return &w->vars[var];
}

void mp_whatif_record(mp_whatif *w, uint32_t var, uint64_t addr, uint64_t block,
                      uint32_t size, int is_write, uint32_t core)
{
   var_trace *t = trace_of(w, var);
   record *r;
   t->seen++;
   if (t->n >= w->per_var || w->used >= w->total)
      return;
   if (t->n == t->cap) {
      uint64_t cap = t->cap ? 2 * t->cap : 1024;
      if (cap > w->per_var)
         cap = w->per_var;
      t->recs = mp_realloc("mp.whatif.recs", t->recs, cap * sizeof *t->recs);
      w->bytes += (cap - t->cap) * sizeof *t->recs;
      t->cap = cap;
   }
   r = &t->recs[t->n++];
   w->used++;
   r->addr_kind = (addr & ADDR_MASK) | (uint64_t)(size > 255 ? 255 : size) << 48
                  | (uint64_t)(is_write != 0) << 56;
   r->block_core = (block & ADDR_MASK) | (uint64_t)(core & 0xffff) << 48;
}

int mp_whatif_count_spent(mp_whatif *w, uint32_t var)
{
   var_trace *t;
   if (var >= w->n_vars)
      return 0;
   t = &w->vars[var];
   if (t->n < w->per_var && w->used < w->total)
      return 0;
   t->seen++;
   return 1;
}

uint64_t mp_whatif_recorded(const mp_whatif *w, uint32_t var)
{
   return var < w->n_vars ? w->vars[var].n : 0;
}

int mp_whatif_complete(const mp_whatif *w, uint32_t var)
{
   return var < w->n_vars && w->vars[var].n == w->vars[var].seen;
}

uint64_t mp_whatif_bytes(const mp_whatif *w)
{
   return w->bytes + w->n_vars * sizeof(var_trace);
}

mp_cache *mp_whatif_new_cache(const mp_cache_cfg *cfg)
{
   mp_cache_cfg c = *cfg;
   const char *err = NULL;
   c.on_retire = NULL;
   c.on_invalidate = NULL;
   c.retire_arg = NULL;
   return mp_cache_new(&c, &err);
}

void mp_whatif_count(mp_whatif_run *out, const mp_cache_outcome *o, uint32_t n_levels,
                     const uint32_t *latency)
{
   uint32_t k;
   for (k = 0; k < n_levels && o->missed[k]; k++) {
      out->misses[k]++;
      if (o->cause[k] == MP_MISS_COHERENCE)
         out->coherence[k]++;
   }
   out->cycles += latency[o->served_by];
   out->accesses++;
}

int mp_whatif_replay(const mp_whatif *w, uint32_t var, const mp_cache_cfg *cfg,
                     const uint32_t *latency, mp_whatif_map map, void *arg,
                     mp_whatif_run *out)
{
   mp_cache *cache;
   const var_trace *t;
   uint64_t i;
   mp_memset(out, 0, sizeof *out);
   if (var >= w->n_vars || w->vars[var].n == 0)
      return 0;
   t = &w->vars[var];
   cache = mp_whatif_new_cache(cfg);
   if (cache == NULL)
      return 0;
   for (i = 0; i < t->n; i++) {
      mp_whatif_access a;
      mp_cache_outcome o;
      a.addr = t->recs[i].addr_kind & ADDR_MASK;
      a.size = (uint32_t)(t->recs[i].addr_kind >> 48 & 0xff);
      a.is_write = (int)(t->recs[i].addr_kind >> 56 & 1);
      a.block = t->recs[i].block_core & ADDR_MASK;
      a.core = (uint32_t)(t->recs[i].block_core >> 48);
      if (a.core >= cfg->cores)
         a.core %= cfg->cores;
      /* No instruction address is recorded: a stride prefetcher keys
         its streams by region here. */
      mp_cache_access(cache, a.core, map ? map(arg, &a) : a.addr, a.size, a.is_write,
                      var, 0, &o);
      mp_whatif_count(out, &o, cfg->n_levels, latency);
   }
   mp_cache_free(cache);
   return 1;
}
