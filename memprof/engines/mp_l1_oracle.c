/*--------------------------------------------------------------------*/
/*--- memprof: the L1's miss causes from the reuse history.        ---*/
/*---                                                mp_l1_oracle.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The L1 oracle: while the caller knows each core's accesses exactly
   (the reuse history while one thread runs per core), the L1 instances
   keep no fully-associative shadow of their own, and an L1 miss asks
   the oracle whether a fully-associative L1 would hold the line (a
   fully-associative LRU cache of C lines holds a line exactly when its
   reuse distance is under C): the same verdicts, without a shadow
   stepped at every access, hits included.  mp_cache_l1_shadows ends
   it, making the shadows from the oracle's latest lines.

   Notes:
   - Set before the first access only, and refused where the L1 has no
     exact shadow to spare (one set: its misses cannot be conflicts; a
     sampled shadow: it holds the recent sampled lines, not the recent
     lines) or a prefetcher fills it.
   - While it is set, c->l1_oracle is not NULL and no L1 instance has a
     shadow (fa.cap 0, exact_id -1): instance_alloc makes none.  After
     mp_cache_l1_shadows, c->l1_oracle is NULL and every L1 instance
     made has its shadow, core's holding the oracle's lines, each line
     resident in L1 pointing its way at its node (the hint
     fa_access_hinted reads).

   Cost per access: on an L1 hit, none (no shadow step).  Per line
   missing L1, one indirect call (shadow_verdict, inlined in the
   core's miss_line), whose cost is the oracle's.
*/
#include "mp_cache.h"
#include "mp_cache_int.h"

uint64_t mp_cache_l1_lines(const mp_cache *c)
{
   return l1_lines(c);
}

int mp_cache_set_l1_oracle(mp_cache *c, mp_cache_l1_oracle fn, void *arg)
{
   if (c->n_active > 0 || c->pf != NULL || c->lv[0].sets == 1 || c->lv[0].sample_shift > 0
       || c->set_sample_shift > 0)
      return 0;
   c->l1_oracle = fn;
   c->oracle_arg = arg;
   return 1;
}

mp_cache_l1_oracle mp_cache_get_l1_oracle(const mp_cache *c, void **arg)
{
   *arg = c->oracle_arg;
   return c->l1_oracle;
}

void mp_cache_l1_shadows(mp_cache *c, uint32_t core, const uint64_t *lines, uint32_t n)
{
   level *lv = &c->lv[0];
   instance *in = c->path[core * c->n_levels];
   uint32_t i;
   if (!c->l1_oracle)
      return;
   c->l1_oracle = NULL;
   for (i = 0; i < lv->n_inst; i++)
      if (lv->inst[i].sets)
         mpc_add_shadow(c, 0, &lv->inst[i]);
   if (!in->sets)
      return;   /* core has not accessed: nothing to hold */
   mp_assert(n <= in->fa.cap);
   /* Least recent first: each goes in front of the ones before.  A line
      resident in L1 points its way at its node (fa_access_hinted). */
   for (i = 0; i < n; i++) {
      uint32_t node = mpc_fa_insert(&in->fa, lines[i], mpc_exact_hint(c, in, lines[i]));
      set_ref st = set_of(lv, in, lines[i]);
      int w = find_way(&st, lines[i]);
      if (w >= 0)
         st.meta[w].bits = (st.meta[w].bits & ~W_NODE) | node;
   }
}
