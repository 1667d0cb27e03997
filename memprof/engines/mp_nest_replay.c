/*--------------------------------------------------------------------*/
/*--- memprof: a loop nest re-simulated in another loop order.     ---*/
/*---                                               mp_nest_replay.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The iteration space is walked as an odometer over the positions of
   the order, innermost fastest; each reference's address is kept up
   to date by adding its step when a counter moves and taking back the
   steps of the counters that wrap, so an access costs O(1) beyond the
   cache's own work.  Memory: the counters, O(loops), and the
   addresses, O(references).
*/
#include "mp_nest_replay.h"

uint64_t mp_nest_accesses(const mp_nest *n)
{
   uint64_t total = n->n_refs;
   uint32_t k;
   for (k = 0; k < n->n_loops; k++) {
      if (n->trips[k] && total > UINT64_MAX / n->trips[k])
         return UINT64_MAX;
      total *= n->trips[k];
   }
   return total;
}

int mp_nest_flatten(mp_nest *n, mp_nest_ref *refs)
{
   uint64_t all = 1;
   uint32_t r, k;
   if (n->refs != refs || n->n_loops < 2 || n->tile[0] != 0 || n->pad != NULL)
      return 0;
   for (k = 0; k < n->n_loops; k++)
      if (n->order[k] != k)
         return 0;
   for (r = 0; r < n->n_refs; r++)
      for (k = 0; k + 1 < n->n_loops; k++)
         if (refs[r].step[k] != refs[r].step[k + 1] * (int64_t)n->trips[k + 1])
            return 0;
   for (k = 0; k < n->n_loops; k++) {
      if (n->trips[k] && all > UINT64_MAX / n->trips[k])
         return 0;
      all *= n->trips[k];
   }
   for (r = 0; r < n->n_refs; r++) {
      refs[r].step[0] = refs[r].step[n->n_loops - 1];
      for (k = 1; k < n->n_loops; k++)
         refs[r].step[k] = 0;
   }
   for (k = 1; k < n->n_loops; k++)
      n->trips[k] = 1;
   n->trips[0] = all;
   n->n_loops = 1;
   return 1;
}

/* Whether reference r walks the lines of one before it. */
static int walks_earlier_lines(const mp_nest *n, uint32_t r, uint32_t line)
{
   uint32_t q, k;
   for (q = 0; q < r; q++) {
      const mp_nest_ref *a = &n->refs[q], *b = &n->refs[r];
      uint64_t gap = a->base > b->base ? a->base - b->base : b->base - a->base;
      int same = gap < line;
      for (k = 0; same && k < n->n_loops; k++)
         same = a->step[k] == b->step[k];
      if (same)
         return 1;
   }
   return 0;
}

uint64_t mp_nest_footprint(const mp_nest *n, uint64_t trips, uint32_t line)
{
   uint64_t total = 0;
   uint32_t r, k;
   for (r = 0; r < n->n_refs; r++) {
      const mp_nest_ref *ref = &n->refs[r];
      uint64_t run = ref->size, runs = 1, accesses = 1, lines;
      if (walks_earlier_lines(n, r, line))
         continue;
      for (k = 0; k < n->n_loops; k++) {
         uint64_t t = k == 0 && trips != 0 && trips < n->trips[0] ? trips : n->trips[k];
         uint64_t step = ref->step[k] < 0 ? (uint64_t)-ref->step[k] : (uint64_t)ref->step[k];
         if (t == 0)
            return total;
         accesses = accesses > UINT64_MAX / t ? UINT64_MAX : accesses * t;
         if (step == 0)
            continue;
         if (step < line)
            run += step * (t - 1);
         else
            runs = runs > UINT64_MAX / t ? UINT64_MAX : runs * t;
      }
      lines = (ref->base % line + run + line - 1) / line;
      lines = runs > UINT64_MAX / lines ? UINT64_MAX : runs * lines;
      total += lines < accesses ? lines : accesses;
   }
   return total;
}

uint32_t mp_nest_miniature(mp_cache_cfg *cfg, uint64_t part, uint64_t whole)
{
   uint32_t k, shrunk = 0;
   uint64_t above = 0;
   for (k = 0; k < cfg->n_levels; k++) {
      mp_cache_level_cfg *L = &cfg->level[k];
      uint64_t lines = L->size / L->line, sets = lines / L->assoc, ways;
      if (part < lines && lines < whole) {
         ways = (L->assoc * part + whole / 2) / whole;
         if (ways == 0)
            ways = 1;
         if (ways * sets * L->line < above)
            ways = (above + sets * L->line - 1) / (sets * L->line);
         if (ways < L->assoc) {
            L->assoc = (uint32_t)ways;
            L->size = ways * sets * L->line;
            shrunk |= 1u << k;
         }
      }
      above = L->size;
   }
   return shrunk;
}

/* The loops tiled. */
static uint32_t n_tiled(const mp_nest *n)
{
   return n->tile[0] == 0 ? 0 : n->tile[1] == 0 ? 1 : 2;
}

/* The positions of the order: one more per loop tiled. */
static uint32_t positions(const mp_nest *n)
{
   return n->n_loops + n_tiled(n);
}

static int is_permutation(const mp_nest *n)
{
   uint32_t seen = 0, p, t;
   for (p = 0; p < positions(n); p++) {
      if (n->order[p] >= positions(n) || (seen >> n->order[p] & 1))
         return 0;
      seen |= 1u << n->order[p];
   }
   for (t = 0; t < n_tiled(n); t++)
      if (n->tiled[t] >= n->n_loops)
         return 0;
   return (n->tile[0] != 0 || n->tile[1] == 0)
          && (n_tiled(n) < 2 || n->tiled[0] != n->tiled[1]);
}

/* The tiling t of loop k (k's tiles for a loop over tiles), or
   MP_NEST_MAX_TILED if k is neither tiled nor over tiles. */
static uint32_t tiling_of(const mp_nest *n, uint32_t k)
{
   uint32_t t;
   if (k >= n->n_loops)
      return k - n->n_loops;
   for (t = 0; t < n_tiled(n); t++)
      if (n->tiled[t] == k)
         return t;
   return MP_NEST_MAX_TILED;
}

/* Loop k's iterations and reference r's step along it, the loops over
   the tiles (k >= n_loops) included. */
static uint64_t trips_of(const mp_nest *n, uint32_t k)
{
   uint32_t t = tiling_of(n, k);
   if (t == MP_NEST_MAX_TILED)
      return n->trips[k];
   if (k < n->n_loops)
      return n->tile[t] < n->trips[k] ? n->tile[t] : n->trips[k];
   return (n->trips[n->tiled[t]] + n->tile[t] - 1) / n->tile[t];
}

static int64_t step_of(const mp_nest *n, uint32_t r, uint32_t k)
{
   return k >= n->n_loops
          ? n->refs[r].step[n->tiled[k - n->n_loops]] * (int64_t)n->tile[k - n->n_loops]
          : n->refs[r].step[k];
}

/* Whether the counters are an iteration of the nest: the iterations of
   a last tile past its loop's end are none. */
static int in_nest(const mp_nest *n, const uint64_t *count)
{
   uint32_t t;
   for (t = 0; t < n_tiled(n); t++)
      if (count[n->n_loops + t] * n->tile[t] + count[n->tiled[t]]
          >= n->trips[n->tiled[t]])
         return 0;
   return 1;
}

/* Where the padded layout puts a reference's address. */
static uint64_t padded(const mp_nest_pad *pad, uint64_t origin, uint64_t a)
{
   uint64_t off = a - origin;
   if (a < origin || pad->row == 0)
      return a + pad->shift + MP_NEST_PAD_AWAY;
   return origin + pad->shift + off / pad->row * (pad->row + pad->extra) + off % pad->row
          + MP_NEST_PAD_AWAY;
}

/* The body's accesses at addr; 0 once the limit is reached. */
static int access_all(mp_cache *cache, const mp_nest *n, const uint64_t *addr,
                      const uint32_t *latency, uint32_t n_levels, mp_whatif_run *out)
{
   uint32_t r;
   for (r = 0; r < n->n_refs; r++) {
      if (n->limit && out->accesses >= n->limit)
         return 0;
      mp_cache_outcome o;
      uint64_t a = n->pad && n->refs[r].origin ? padded(n->pad, n->refs[r].origin, addr[r])
                                               : addr[r];
      mp_cache_access(cache, 0, a, n->refs[r].size ? n->refs[r].size : 1,
                      n->refs[r].is_write, 0, n->refs[r].pc, &o);
      mp_whatif_count(out, &o, n_levels, latency);
   }
   return 1;
}

int mp_nest_replay(const mp_nest *n, const mp_cache_cfg *cfg, const uint32_t *latency,
                   mp_whatif_run *out)
{
   mp_cache *cache;
   uint64_t count[MP_NEST_MAX_LOOPS + MP_NEST_MAX_TILED], *addr;
   uint32_t r, p;
   mp_memset(out, 0, sizeof *out);
   if (n->n_refs == 0 || n->n_loops == 0 || n->n_loops > MP_NEST_MAX_LOOPS
       || !is_permutation(n) || mp_nest_accesses(n) == 0)
      return 0;
   cache = mp_whatif_new_cache(cfg);
   if (cache == NULL)
      return 0;
   addr = mp_malloc("mp.nest.addr", n->n_refs * sizeof *addr);
   for (r = 0; r < n->n_refs; r++)
      addr[r] = n->refs[r].base;
   mp_memset(count, 0, sizeof count);
   for (;;) {
      if (in_nest(n, count) && !access_all(cache, n, addr, latency, cfg->n_levels, out))
         break;
      /* The next iteration: the innermost position moves; one that
         wraps goes back to its first iteration and moves the next. */
      for (p = positions(n); p-- > 0;) {
         uint32_t k = n->order[p];
         if (++count[k] < trips_of(n, k)) {
            for (r = 0; r < n->n_refs; r++)
               addr[r] += (uint64_t)step_of(n, r, k);
            break;
         }
         for (r = 0; r < n->n_refs; r++)
            addr[r] -= (uint64_t)step_of(n, r, k) * (count[k] - 1);
         count[k] = 0;
      }
      if (p == UINT32_MAX)
         break;
   }
   mp_free(addr);
   mp_cache_free(cache);
   return 1;
}
