/*--------------------------------------------------------------------*/
/*--- memprof: coherence between the cores' caches.                ---*/
/*---                                                mp_coherence.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   A simplified write-invalidate protocol between the instances of the
   cache simulation, and each instance's record of the lines
   invalidated there (its coherence misses, classified by
   mp_miss_causes.c).

   Notes:
   - MESI-like, with a perfect snoop filter: a write by core c removes
     the line from every instance, at every level, that c does not use:
     the other cores' private caches and the other sockets' shared
     ones.  Each copy removed is one invalidation, and is retired
     through on_retire; a dirty copy is not written back (its data
     moves to the writer, whose copy is dirty now).  Reads snoop
     nothing: a read may fill a copy while another core holds the line
     dirty, without a downgrade or a write-back.
   - Exclusive L1 lines (W_EXCL): a write hitting an L1 line that this
     core made exclusive (its last write invalidated every other copy,
     and no other L1 instance filled the line since) skips the search,
     which would find nothing: that shortcut is exact.  Invariant: a
     way marked W_EXCL is in an L1 instance, and no instance that its
     cores do not use holds the line: a fill anywhere else (another
     core's read miss, a prefetch) clears the mark (mpc_end_exclusive),
     and another core's write takes the line away.
   - The search visits only the instances whose cores have touched the
     line (the cold bits, mp_cold_bits.c): the others never held it.
     With a prefetcher, a prefetched copy lies in an instance whose
     cores may never have touched the line: the levels prefetches fill
     (from unfiltered down) are searched without the filter.  An
     untouched prefetched copy invalidated counts as an invalidation
     but is not reported to on_invalidate, and does not make the next
     miss there a coherence miss (no access of that instance had the
     line).
   - Each instance keeps the lines invalidated there and not refilled
     since in a lineset (a hash set, open addressing, backward-shift
     deletion); a miss of such a line is a coherence miss, and removes
     it.  It is bounded by the footprint, and usually small.

   Cost per access: one core, or a line exclusive already: none beyond
   a test of the level's instances and of the way's mark.  With more
   than one L1 instance: a write to a line not exclusive in L1 looks the
   line up in every other instance whose cores have touched it; a read
   miss looks it up in the other L1 instances whose cores have touched
   it, to end their exclusivity; a miss at an instance with
   invalidated lines probes its lineset.
*/
#include "mp_cache.h"
#include "mp_cache_int.h"

static void lineset_grow(mp_cache *c, lineset *s)
{
   lineset old = *s;
   uint32_t i;
   s->cap = old.cap ? old.cap * 2 : 16;
   s->shift = 64 - log2_of(s->cap);
   s->n = 0;
   s->key = mp_malloc("mp.cache.lineset", s->cap * sizeof(uint64_t));
   for (i = 0; i < s->cap; i++)
      s->key[i] = EMPTY;
   c->bytes += (uint64_t)(s->cap - old.cap) * sizeof(uint64_t);
   for (i = 0; i < old.cap; i++)
      if (old.key[i] != EMPTY)
         mpc_lineset_add(c, s, old.key[i]);
   if (old.key)
      mp_free(old.key);
}

void mpc_lineset_add(mp_cache *c, lineset *s, uint64_t line)
{
   uint32_t i;
   if (2 * (s->n + 1) > s->cap)
      lineset_grow(c, s);
   for (i = hash_index(line, s->shift); s->key[i] != EMPTY; i = (i + 1) & (s->cap - 1))
      if (s->key[i] == line)
         return;
   s->key[i] = line;
   s->n++;
}

/* Removes line; returns whether it was there.  Backward-shift deletion
   keeps every probe sequence unbroken without tombstones. */
int mpc_lineset_remove(lineset *s, uint64_t line)
{
   uint32_t mask = s->cap - 1, i, j;
   if (s->n == 0)
      return 0;
   for (i = hash_index(line, s->shift); s->key[i] != line; i = (i + 1) & mask)
      if (s->key[i] == EMPTY)
         return 0;
   for (j = i;;) {
      uint32_t home;
      j = (j + 1) & mask;
      if (s->key[j] == EMPTY)
         break;
      home = hash_index(s->key[j], s->shift);
      if (((j - home) & mask) >= ((j - i) & mask)) {
         s->key[i] = s->key[j];
         i = j;
      }
   }
   s->key[i] = EMPTY;
   s->n--;
   return 1;
}

void mpc_lineset_free(lineset *s)
{
   if (s->key)
      mp_free(s->key);
}

/* Core's write: removes the line from every instance core does not use
   and whose cores have touched it; returns the copies removed. */
static OUT_OF_LINE uint32_t invalidate_others(mp_cache *c, uint32_t core,
                                              uint64_t line, const uint8_t *bits)
{
   uint32_t k, i, n = 0;
   for (k = 0; k < c->n_levels; k++) {
      level *lv = &c->lv[k];
      uint32_t mine = core / lv->shared_by;
      for (i = 0; i < lv->n_inst; i++) {
         instance *in = &lv->inst[i];
         set_ref s;
         int w;
         /* A prefetched copy may lie where no core of the instance
            touched the line: no filter at the levels prefetches fill. */
         if (i == mine || !in->active
             || (k < c->unfiltered && !touched_by(bits, in, c->width)))
            continue;
         s = set_of(lv, in, line);
         w = find_way(&s, line);
         if (w < 0)
            continue;
         if (s.meta[w].hits & H_PREF) {
            retire(c, k, &s.meta[w]);   /* untouched: no one's copy */
         } else {
            if (c->on_invalidate)
               c->on_invalidate(c->retire_arg, k, s.meta[w].owner);
            retire(c, k, &s.meta[w]);
            mpc_lineset_add(c, &in->inval, line);
         }
         s.tag[w] = NO_TAG;
         s.stamp[w] = 0;
         lv->tot.invalidations++;
         n++;
      }
   }
   return n;
}

void mpc_end_exclusive(mp_cache *c, uint32_t core, uint64_t line, const uint8_t *bits)
{
   level *lv = &c->lv[0];
   uint32_t mine = core / lv->shared_by, i;
   for (i = 0; i < lv->n_inst; i++) {
      instance *in = &lv->inst[i];
      set_ref s;
      int w;
      if (i == mine || !in->active || !touched_by(bits, in, c->width))
         continue;
      s = set_of(lv, in, line);
      w = find_way(&s, line);
      if (w >= 0)
         s.meta[w].bits &= ~W_EXCL;
   }
}

void mpc_write_l1(mp_cache *c, uint32_t core, uint64_t line, way_meta *m0,
                  const uint8_t *bits, mp_cache_outcome *out)
{
   if (c->lv[0].n_inst > 1 && !(m0->bits & W_EXCL)) {
      if (!bits)
         bits = cold_bits(c, line);
      out->invalidations += invalidate_others(c, core, line, bits);
      m0->bits |= W_EXCL;
   }
   m0->bits |= W_DIRTY;
}
