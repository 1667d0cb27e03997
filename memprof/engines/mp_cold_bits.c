/*--------------------------------------------------------------------*/
/*--- memprof: per line of memory, which cores accessed it.        ---*/
/*---                                               mp_cold_bits.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The cache simulation's table of what it knows per line of memory
   rather than per way: the line's cold bits (which cores have accessed
   it) and its hints (its node in each exact miss-cause shadow).

   Notes:
   - Cold: a line enters an instance only through an access by one of
     the instance's cores (or a prefetch, which sets no cold bit: see
     mp_cache_prefetch.c); conversely an access by such a core reaches
     the instance, or hits above it on a line that an earlier access
     brought through it (sharing nests).  So "never in instance i" is
     "no core of i accessed the line before", kept as one bit per
     (line, core): a table indexed by line number, of ceil(active
     cores / 8) bytes per line (width: 1 byte up to 8 simulated cores in
     use, doubled by mpc_widen as cores become active).  Each active
     core has a bit (core_bit), each instance the mask of its cores'
     (instance.cores); touched_by tests one against the other.
   - The cold bits also filter coherence's searches: an instance whose
     cores never touched a line holds no copy of it (mp_coherence.c).
   - Hints: per line, per exact shadow, the node + 1 that holds the line
     (0: never held); a hint is right if that node's key is the line.
     A line's hints in every exact shadow are side by side, after its
     cold bits' chunk; an exact shadow gets its index (exact_id) when
     its instance is made, and every chunk's hints are respread then
     (once per exact instance, at its first core's first access).
   - The table is in chunks of CHUNK_LINES lines, made on first touch, in
     a hash table keyed by chunk number, at most half full; the chunk
     used last is remembered.

   Cost per access: per line missing L1, one look-up of the chunk (the
   last one used, else a hash probe), prefetched with the line's hints
   by the core (miss_line); none on an L1 hit.
   Memory: per line of each chunk of 4096 lines touched, the cold bits
   (width bytes), and once a line of the chunk reaches an exact shadow,
   4 bytes per exact shadow made so far (one core: its L1 and L2, 8
   bytes): the footprint in lines times those bytes, a 64th of the data
   touched with 64-byte lines and one byte.
*/
#include "mp_cache.h"
#include "mp_cache_int.h"

static void chunk_table_grow(mp_cache *c)
{
   chunk_slot *old = c->chunks;
   uint32_t old_cap = c->chunk_cap, i;
   c->chunk_cap = old_cap ? old_cap * 2 : 64;
   c->chunk_shift = 64 - log2_of(c->chunk_cap);
   c->chunks = mp_calloc("mp.cache.chunks", c->chunk_cap, sizeof(chunk_slot));
   c->last_id = 0;   /* the slots move */
   c->bytes += (uint64_t)(c->chunk_cap - old_cap) * sizeof(chunk_slot);
   for (i = 0; i < old_cap; i++) {
      uint32_t j;
      if (!old[i].id)
         continue;
      for (j = hash_index(old[i].id, c->chunk_shift); c->chunks[j].id;
           j = (j + 1) & (c->chunk_cap - 1))
         ;
      c->chunks[j] = old[i];
   }
   if (old)
      mp_free(old);
}

void mpc_cold_bits_init(mp_cache *c)
{
   chunk_table_grow(c);
}

chunk_slot *mpc_chunk_of(mp_cache *c, uint64_t t)
{
   uint64_t id = (t >> CHUNK_SHIFT) + 1;
   uint32_t i;
   if (id == c->last_id)
      return c->last_chunk;
   for (i = hash_index(id, c->chunk_shift); c->chunks[i].id;
        i = (i + 1) & (c->chunk_cap - 1))
      if (c->chunks[i].id == id)
         goto found;
   if (2 * (c->n_chunks + 1) > c->chunk_cap) {
      chunk_table_grow(c);
      for (i = hash_index(id, c->chunk_shift); c->chunks[i].id;
           i = (i + 1) & (c->chunk_cap - 1))
         ;
   }
   c->chunks[i].id = id;
   c->chunks[i].bits = mp_calloc("mp.cache.cold", CHUNK_LINES, c->width);
   c->n_chunks++;
   c->bytes += (uint64_t)CHUNK_LINES * c->width;
found:
   c->last_id = id;
   c->last_chunk = &c->chunks[i];
   return c->last_chunk;
}

OUT_OF_LINE uint32_t *mpc_exact_hint(mp_cache *c, const instance *in, uint64_t line)
{
   uint64_t t = mpc_table_line(c, line);
   chunk_slot *ch = mpc_chunk_of(c, t);
   if (!ch->hint) {
      ch->hint = mp_calloc("mp.cache.hints", (size_t)CHUNK_LINES * c->n_exact,
                           sizeof(uint32_t));
      c->bytes += (uint64_t)CHUNK_LINES * c->n_exact * sizeof(uint32_t);
   }
   return ch->hint + (t & (CHUNK_LINES - 1)) * c->n_exact + in->exact_id;
}

/* Every chunk's hints are spread to make room for one more per line. */
void mpc_add_exact_shadow(mp_cache *c, instance *in)
{
   uint32_t n = c->n_exact, i, l, j;
   for (i = 0; i < c->chunk_cap; i++) {
      uint32_t *h = c->chunks[i].hint;
      if (!c->chunks[i].id || !h)
         continue;
      h = mp_realloc("mp.cache.hints", h, (size_t)CHUNK_LINES * (n + 1) * sizeof(uint32_t));
      for (l = CHUNK_LINES; l-- > 0;) {
         h[l * (n + 1) + n] = 0;
         for (j = n; j-- > 0;)
            h[l * (n + 1) + j] = h[l * n + j];
      }
      c->chunks[i].hint = h;
      c->bytes += CHUNK_LINES * sizeof(uint32_t);
   }
   in->exact_id = (int32_t)c->n_exact++;
}

/* Every chunk is respread in place, from the top down. */
void mpc_widen(mp_cache *c)
{
   uint32_t w = c->width, i, k, j;
   for (i = 0; i < c->chunk_cap; i++) {
      uint8_t *b;
      int32_t l;
      if (!c->chunks[i].id)
         continue;
      b = mp_realloc("mp.cache.cold", c->chunks[i].bits, (size_t)CHUNK_LINES * 2 * w);
      for (l = CHUNK_LINES - 1; l >= 0; l--) {
         for (j = w; j-- > 0;)
            b[(uint32_t)l * 2 * w + j] = b[(uint32_t)l * w + j];
         for (j = 0; j < w; j++)
            b[(uint32_t)l * 2 * w + w + j] = 0;
      }
      c->chunks[i].bits = b;
   }
   c->bytes += (uint64_t)c->n_chunks * CHUNK_LINES * w;
   for (k = 0; k < c->n_levels; k++)
      for (i = 0; i < c->lv[k].n_inst; i++) {
         instance *in = &c->lv[k].inst[i];
         in->cores = mp_realloc("mp.cache.mask", in->cores, 2 * w);
         mp_memset(in->cores + w, 0, w);
      }
   c->width = 2 * w;
   c->last_id = 0;
}

void mpc_cold_bits_free(mp_cache *c)
{
   uint32_t i;
   for (i = 0; i < c->chunk_cap; i++)
      if (c->chunks[i].id) {
         mp_free(c->chunks[i].bits);
         if (c->chunks[i].hint)
            mp_free(c->chunks[i].hint);
      }
   mp_free(c->chunks);
}
