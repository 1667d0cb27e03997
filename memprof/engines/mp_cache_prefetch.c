/*--------------------------------------------------------------------*/
/*--- memprof: the cache simulation's hook for the prefetcher.     ---*/
/*---                                          mp_cache_prefetch.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   What the hardware prefetcher (cfg.prefetch; the detectors are
   mp_prefetch's) sees of the cache simulation, and what it does there:
   when the detectors train, what a prefetched line is until an access
   touches it, and the prefetcher's totals.  The fill itself is the
   core's (mpc_prefetch_line, in mp_cache.c), as a read miss's.

   Notes:
   - After each line of a demand access that missed L1 (or hit a line
     that a prefetch brought into L1, untouched since), the core's
     detectors name lines to prefetch into the prefetch level P (L2, or
     L1 with one level).  A prefetch looks the line up at P and, if
     absent, below, as a read miss would: the level that has it is
     reached (LRU order and shadow step, no hit counted), and P and the
     levels between that missed are filled (LRU victim, retire,
     write-backs), their shadows stepped as for any line reaching the
     instance.
   - Each way so filled is marked prefetched (H_PREF in its hits).
     Invariant: a way marked H_PREF was filled by a prefetch and no
     demand access has touched it since; its hits are 0.  The first
     demand access to touch it there clears the mark, takes the line as
     its own fill (owner, hits from 0) and is reported as a prefetched
     hit (mpc_first_touch).  A marked line that leaves untouched is not
     reported to on_retire (it was no variable's fill) and counts as a
     useless prefetch at P (mpc_retire_untouched).
   - Nothing of a prefetch is an access: the totals' accesses, misses
     and causes, and the cold bits (so "cold" means never accessed by a
     core of the instance, a prefetch is no access), count demand
     accesses only.
   - Coherence with prefetched copies: they are copies like any other,
     so a prefetch ends the exclusivity of other L1s' copies (as a read
     miss does); see mp_coherence.c for the writes.
   - A cache with a prefetcher takes no L1 oracle (mp_l1_oracle.c): its
     L1 keeps its shadows.

   Cost per access: none without a prefetcher (mp_cache_access runs a
   copy of the access without the tests).  With one: per line missing
   L1, a search of the core's stream table (mp_prefetch) and, per line
   it names, one look-up at the prefetch level, and for those absent
   the cost of a miss there.
*/
#include "mp_cache.h"
#include "mp_cache_int.h"

void mpc_prefetch_init(mp_cache *c, const mp_cache_cfg *cfg)
{
   c->pf_cfg = cfg->prefetch;
   c->unfiltered = c->n_levels;
   if (cfg->prefetch.kind != MP_PREFETCH_NONE) {
      c->pf = mp_prefetch_new(&cfg->prefetch, c->cores, cfg->level[0].line);
      c->pf_level = c->n_levels > 1 ? 1 : 0;
      c->unfiltered = c->pf_level;
   }
}

OUT_OF_LINE void mpc_retire_untouched(mp_cache *c, uint32_t k)
{
   if (k == c->pf_level)
      c->pft.useless++;
}

OUT_OF_LINE void mpc_first_touch(mp_cache *c, uint32_t k, way_meta *m, uint32_t owner,
                                 mp_cache_outcome *out)
{
   m->owner = owner;
   out->prefetched[k] = 1;
   if (k == c->pf_level)
      c->pft.useful++;
}

OUT_OF_LINE void mpc_train(mp_cache *c, instance **path, uint32_t core, uint64_t addr,
                           uint64_t pc, uint32_t owner, mp_cache_outcome *out)
{
   uint64_t want[MP_PREFETCH_MAX_DEGREE];
   uint32_t n = mp_prefetch_miss(c->pf, core, addr, pc, want), i;
   for (i = 0; i < n; i++)
      mpc_prefetch_line(c, path, core, want[i], owner, out);
}

OUT_OF_LINE void mpc_first_touch_l1(mp_cache *c, instance **path, uint32_t core,
                                    uint64_t line, uint64_t addr, int is_write,
                                    uint32_t owner, uint64_t pc, way_meta *m,
                                    mp_cache_outcome *out)
{
   uint8_t *bits = cold_bits(c, line);
   mpc_first_touch(c, 0, m, owner, out);
   /* The core's first access of the line: the prefetch set no bit. */
   mark_touched(c, core, bits);
   if (is_write)
      mpc_write_l1(c, core, line, m, bits, out);
   mpc_train(c, path, core, addr, pc, owner, out);
}

const mp_prefetch_cfg *mp_cache_prefetch_config(const mp_cache *c)
{
   return &c->pf_cfg;
}

uint32_t mp_cache_prefetch_level(const mp_cache *c)
{
   return c->pf_level;
}

void mp_cache_get_prefetch_totals(const mp_cache *c, mp_cache_prefetch_totals *t)
{
   *t = c->pft;
}
