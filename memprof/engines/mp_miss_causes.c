/*--------------------------------------------------------------------*/
/*--- memprof: why a line missed: cold, capacity, conflict.        ---*/
/*---                                             mp_miss_causes.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The miss causes of the cache simulation, and the fully-associative
   shadows that tell capacity from conflict.  The step of a shadow and
   the classification run inlined in the access (mp_cache_int.h:
   fa_access, shadow_reach, shadow_verdict, classify); the insertion,
   the shadows' making and the sampled estimate are here.

   Notes:
   - Causes, per instance, tested in this order (classify):
     cold: the line was never in this instance (with a prefetcher: no
       core of the instance accessed it); the cold bits
       (mp_cold_bits.c) say it.
     coherence: the line is in the instance's set of lines invalidated
       there and not refilled since (mp_coherence.c).
     conflict: a fully-associative LRU cache with as many lines as the
       instance, fed with the same stream of lines that reached the
       instance (hits and misses alike; invalidations are not part of
       the stream), would have hit.
     capacity: otherwise.
     With an L1 oracle (mp_l1_oracle.c), the L1 instances keep no
     shadow: an L1 miss asks the oracle instead.
   - The shadow is an LRU list of nodes.  A line resident in the real
     cache finds its node through the hint kept in its way
     (fa_access_hinted): the node still holds the line, or the shadow
     evicted it since.  A miss finds it, in an exact shadow, through
     the line's own hint, kept beside its cold bits (mp_cold_bits.c);
     in a sampled one, through a hash table line -> node.
     Invariants: [0, used) are the nodes in use, linked from head (MRU)
     to tail (LRU); used <= cap; each line is in at most one node; a
     sampled shadow's table holds exactly the used nodes, at most half
     full.
   - Sampled split (sample_shift s > 0, SHARDS-style spatial sampling):
     in an instance of more than one set and at least
     MP_CACHE_SAMPLE_MIN_LINES lines, only the lines whose hash (a full
     64-bit mix of the line number, so every set keeps its share) has its
     top s bits zero feed the shadow, which has lines >> s entries.  A
     sampled line's reuse distance among sampled lines is about 2^-s of
     its distance among all lines, so the small shadow hits where the
     full one would.  An unsampled line's miss that is neither cold nor
     coherence is unclassified; the caller divides those in the
     proportion of the classified ones (mp_cache_split_unclassified).
     Cold, coherence and everything the real cache does stay exact.

   Cost per access, for each line, at each level reached with more than
   one set: one step of its shadow.  A hit in the real cache finds its
   node through the way's hint: a compare and, unless the node is the
   MRU one already, an unlink and a push.  A miss reads the line's hint
   (exact) or hashes it and probes the table (sampled: 2 to 4 slots of
   8 bytes per shadow line), and inserts the line if the shadow missed
   it.  The exact shadows' hash table, whose deletions (backward
   shifts) were most of the cost of an L1 miss, is gone (measured side
   by side, cache-only: see docs/performance.md).  A sampled level
   hashes the line (a few multiplies) and steps its shadow for 1/2^s of
   the lines only: on a streaming workload the shadow of a big L3, many
   host cache misses per step, was the largest cost of the whole
   simulation.  Levels with one set need no shadow (their misses cannot
   be conflicts).
   Memory: 16 bytes per line of the level (exact), 32 to 48 divided by
   2^s (sampled), allocated with the instance.
*/
#include "mp_cache.h"
#include "mp_cache_int.h"

/* Slots of a sampled shadow's hash table for its lines: a power of two
   at least twice as many. */
static uint64_t fa_slots(uint64_t lines)
{
   uint64_t slots = 1;
   while (slots < 2 * lines)
      slots *= 2;
   return slots;
}

uint64_t mpc_fa_bytes(uint64_t lines, uint32_t shift)
{
   lines >>= shift;
   return lines * sizeof(fa_node) + (shift ? fa_slots(lines) * sizeof(fa_slot) : 0);
}

static void fa_init(mp_cache *c, fa_shadow *fa, uint32_t lines, uint32_t shift)
{
   uint64_t slots;
   lines >>= shift;
   fa->sample_mask = shift ? ~0ULL << (64 - shift) : 0;
   slots = fa_slots(lines);
   fa->cap = lines;
   fa->used = 0;
   fa->head = fa->tail = NIL;
   fa->smask = (uint32_t)(slots - 1);
   fa->hshift = 32 - log2_of(slots);
   fa->node = mp_malloc("mp.cache.fa.1", lines * sizeof(fa_node));
   c->bytes += lines * sizeof(fa_node);
   if (shift) {
      fa->slot = mp_zalloc_table("mp.cache.fa.2", slots * sizeof(fa_slot));
      c->bytes += slots * sizeof(fa_slot);
   }
}

static void fa_table_insert(fa_shadow *fa, uint32_t n, uint32_t h)
{
   uint32_t i = h >> fa->hshift;
   while (fa->slot[i].node)
      i = (i + 1) & fa->smask;
   fa->slot[i].hash = h;
   fa->slot[i].node = n + 1;
}

/* Backward-shift deletion, as the coherence's lineset: every probe
   sequence stays unbroken without tombstones. */
static void fa_table_delete(fa_shadow *fa, uint32_t n)
{
   uint32_t i = fa_hash(fa->node[n].key) >> fa->hshift, j;
   while (fa->slot[i].node != n + 1)
      i = (i + 1) & fa->smask;
   for (j = i;;) {
      uint32_t home;
      j = (j + 1) & fa->smask;
      if (!fa->slot[j].node)
         break;
      home = fa->slot[j].hash >> fa->hshift;
      if (((j - home) & fa->smask) >= ((j - i) & fa->smask)) {
         fa->slot[i] = fa->slot[j];
         i = j;
      }
   }
   fa->slot[i].node = 0;
}

OUT_OF_LINE uint32_t mpc_fa_insert(fa_shadow *fa, uint64_t line, uint32_t *hint)
{
   uint32_t n;
   if (fa->used < fa->cap) {
      n = fa->used++;
   } else {
      n = fa->tail;
      fa_unlink(fa, n);
      if (!hint)
         fa_table_delete(fa, n);
   }
   fa->node[n].key = line;
   if (hint)
      *hint = n + 1;
   else
      fa_table_insert(fa, n, fa_hash(line));
   fa_push_front(fa, n);
   return n;
}

void mpc_add_shadow(mp_cache *c, uint32_t k, instance *in)
{
   level *lv = &c->lv[k];
   fa_init(c, &in->fa, (lv->sets * lv->assoc) >> c->set_sample_shift, lv->sample_shift);
   if (lv->sample_shift == 0)
      mpc_add_exact_shadow(c, in);
}

void mpc_shadow_free(instance *in)
{
   if (in->fa.node)
      mp_free(in->fa.node);
   if (in->fa.slot)
      mp_free_table(in->fa.slot, (uint64_t)(in->fa.smask + 1) * sizeof(fa_slot));
}

/* The largest shift up to the configured one that keeps the shadow's
   minimum; 0 (exact) for a level of one set or too few lines. */
uint32_t mpc_shadow_sample_shift(const mp_cache_cfg *cfg, uint32_t k)
{
   const mp_cache_level_cfg *L = &cfg->level[k];
   uint64_t lines = (L->size / L->line) >> cfg->set_sample_shift;
   uint32_t shift = 0;
   if (!cfg->sample_shift || L->size / L->line == L->assoc || lines < MP_CACHE_SAMPLE_MIN_LINES)
      return 0;
   while (shift < cfg->sample_shift && lines >> (shift + 1) >= MP_CACHE_SAMPLE_MIN_SHADOW)
      shift++;
   return shift;
}

uint32_t mp_cache_sample_shift(const mp_cache *c)
{
   return c->sample_shift;
}

uint32_t mp_cache_level_sample_shift(const mp_cache *c, uint32_t k)
{
   mp_assert(k < c->n_levels);
   return c->lv[k].sample_shift;
}

void mp_cache_split_unclassified(uint64_t cause[MP_MISS_N_CAUSES],
                                 const uint64_t ref[MP_MISS_N_CAUSES])
{
   uint64_t u = cause[MP_MISS_UNCLASSIFIED], conf, cap, part = 0;
   if (u == 0)
      return;
   conf = cause[MP_MISS_CONFLICT];
   cap = cause[MP_MISS_CAPACITY];
   if (conf + cap == 0 && ref) {
      conf = ref[MP_MISS_CONFLICT];
      cap = ref[MP_MISS_CAPACITY];
   }
   /* In double: u * conf may not fit 64 bits; counts below 2^53 are
      exact, and the rounding error is far below the sampling's. */
   if (conf + cap)
      part = (uint64_t)((double)u * (double)conf / (double)(conf + cap) + 0.5);
   if (part > u)
      part = u;
   cause[MP_MISS_CONFLICT] += part;
   cause[MP_MISS_CAPACITY] += u - part;
   cause[MP_MISS_UNCLASSIFIED] = 0;
}
