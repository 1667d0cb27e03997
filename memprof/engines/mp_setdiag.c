/*--------------------------------------------------------------------*/
/*--- memprof: which variables collide in which cache sets.        ---*/
/*---                                                  mp_setdiag.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   One record per set and level, made at creation: 8 + 4 * 20 bytes per
   set (a 32 MiB 16-way L3 has 32768 sets: under 3 MiB), in zero pages
   that become resident only for the sets that see a conflict.  Only conflict
   misses reach it, so its cost is paid on the misses the user wants
   explained, not on every access.  A bit per group of sets says which
   records hold a conflict (mp_set_groups_*): the ranking reads those
   only, rather than fault in every page of a large level at the end.
*/
#include "mp_setdiag.h"
#include "mp_util.h"

#define MAX_LEVELS 3

struct mp_setdiag {
   uint32_t n_levels;
   uint64_t sets[MAX_LEVELS];
   mp_setdiag_set *level[MAX_LEVELS];
   uint64_t *seen[MAX_LEVELS];   /* the groups of sets with a conflict */
   double scale[MAX_LEVELS];   /* of the counts mp_setdiag_top reports */
};

/* Bytes of level k's records (in zero pages: mp_zalloc_table). */
static size_t level_bytes(const mp_setdiag *d, uint32_t k)
{
   return d->sets[k] * sizeof(mp_setdiag_set);
}

static size_t seen_words(const mp_setdiag *d, uint32_t k)
{
   return mp_set_groups_words(d->sets[k]);
}

mp_setdiag *mp_setdiag_new(uint32_t n_levels, const uint64_t *sets)
{
   mp_setdiag *d = mp_calloc("mp.setdiag.1", 1, sizeof *d);
   uint32_t k;
   mp_assert(n_levels <= MAX_LEVELS);
   d->n_levels = n_levels;
   for (k = 0; k < n_levels; k++) {
      mp_assert(sets[k] > 0 && (sets[k] & (sets[k] - 1)) == 0);
      d->sets[k] = sets[k];
      d->scale[k] = 1.0;
      /* Zero pages: only the sets that see a conflict become resident. */
      d->level[k] = mp_zalloc_table("mp.setdiag.2", level_bytes(d, k));
      d->seen[k] = mp_calloc("mp.setdiag.3", seen_words(d, k), sizeof(uint64_t));
   }
   return d;
}

void mp_setdiag_free(mp_setdiag *d)
{
   uint32_t k;
   for (k = 0; k < d->n_levels; k++) {
      mp_free_table(d->level[k], level_bytes(d, k));
      mp_free(d->seen[k]);
   }
   mp_free(d);
}

void mp_setdiag_reset(mp_setdiag *d)
{
   uint32_t k;
   /* Fresh zero pages rather than a memset, which would make every page
      resident (and, in a forked child, copy the parent's). */
   for (k = 0; k < d->n_levels; k++) {
      d->scale[k] = 1.0;
      mp_free_table(d->level[k], level_bytes(d, k));
      d->level[k] = mp_zalloc_table("mp.setdiag.2", level_bytes(d, k));
      mp_memset(d->seen[k], 0, seen_words(d, k) * sizeof(uint64_t));
   }
}

/* Keeps the slots sorted by count, descending, after slot i grew. */
static void bubble_up(mp_setdiag_set *st, uint32_t i)
{
   while (i > 0 && st->slot[i].count > st->slot[i - 1].count) {
      mp_setdiag_slot t = st->slot[i];
      st->slot[i] = st->slot[i - 1];
      st->slot[i - 1] = t;
      i--;
   }
}

void mp_setdiag_conflict(mp_setdiag *d, uint32_t level, uint64_t line, uint32_t var)
{
   mp_setdiag_set *st;
   uint32_t i, last = MP_SETDIAG_SLOTS - 1;
   uint64_t set;
   mp_assert(level < d->n_levels);
   set = line & (d->sets[level] - 1);
   mp_set_groups_mark(d->seen[level], set);
   st = &d->level[level][set];
   st->conflicts++;
   for (i = 0; i < MP_SETDIAG_SLOTS; i++) {
      if (st->slot[i].count > 0 && st->slot[i].var == var) {
         st->slot[i].count++;
         bubble_up(st, i);
         return;
      }
      if (st->slot[i].count == 0) {
         st->slot[i].var = var;
         st->slot[i].count = 1;
         st->slot[i].error = 0;
         bubble_up(st, i);
         return;
      }
   }
   /* Full: the least counted slot (the last, slots being sorted) goes. */
   st->slot[last].error = st->slot[last].count;
   st->slot[last].var = var;
   st->slot[last].count++;
   bubble_up(st, last);
}

void mp_setdiag_scale(mp_setdiag *d, uint32_t level, uint64_t num, uint64_t den)
{
   mp_assert(level < d->n_levels);
   d->scale[level] = den ? (double)num / (double)den : 1.0;
}

static uint64_t scaled(double scale, uint64_t n)
{
   return scale == 1.0 ? n : (uint64_t)((double)n * scale + 0.5);
}

uint32_t mp_setdiag_top(const mp_setdiag *d, uint32_t level, mp_setdiag_set *out,
                        uint32_t n)
{
   uint32_t have = 0, i;
   uint64_t s;
   mp_assert(level < d->n_levels);
   for (s = 0; s < d->sets[level]; s++) {
      const mp_setdiag_set *st = &d->level[level][s];
      if (!mp_set_groups_used(d->seen[level], s)) {
         s |= MP_SET_GROUP - 1;   /* no conflict in the group */
         continue;
      }
      if (st->conflicts == 0)
         continue;
      /* insertion into the n best, most conflicts first, lower set first */
      for (i = have; i > 0 && out[i - 1].conflicts < st->conflicts; i--)
         if (i < n)
            out[i] = out[i - 1];
      if (i < n) {
         out[i] = *st;
         out[i].set = (uint32_t)s;
         if (have < n)
            have++;
      }
   }
   /* Scaled after ranking: the order is the same either way. */
   for (i = 0; i < have; i++) {
      double f = d->scale[level];
      uint32_t sl;
      out[i].conflicts = scaled(f, out[i].conflicts);
      for (sl = 0; sl < MP_SETDIAG_SLOTS; sl++) {
         out[i].slot[sl].count = scaled(f, out[i].slot[sl].count);
         out[i].slot[sl].error = scaled(f, out[i].slot[sl].error);
      }
   }
   return have;
}

int64_t mp_setdiag_next(const mp_setdiag *d, uint32_t level, int64_t after,
                        mp_setdiag_set *out)
{
   uint64_t s;
   mp_assert(level < d->n_levels);
   for (s = (uint64_t)(after + 1); s < d->sets[level]; s++) {
      if (!mp_set_groups_used(d->seen[level], s)) {
         s |= MP_SET_GROUP - 1;
         continue;
      }
      if (d->level[level][s].conflicts != 0) {
         *out = d->level[level][s];
         out->set = (uint32_t)s;
         return (int64_t)s;
      }
   }
   return -1;
}

void mp_setdiag_put(mp_setdiag *d, uint32_t level, const mp_setdiag_set *st)
{
   mp_assert(level < d->n_levels && st->set < d->sets[level]);
   mp_set_groups_mark(d->seen[level], st->set);
   d->level[level][st->set] = *st;
}
