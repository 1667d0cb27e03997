/*--------------------------------------------------------------------*/
/*--- memprof: variable ids per 16-byte granule of memory.         ---*/
/*---                                                 mp_granmap.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Three levels over a 48-bit address: the top 16 bits index the
   directory (always present, 512 KiB), the next 16 bits a middle table
   (512 KiB, made on first write), the low 16 bits one leaf of 4096
   granules (16 KiB, made on first write).  A missing table reads as 0.
*/
#include "mp_granmap.h"

#define TOP_BITS   16
#define MID_BITS   16
#define LEAF_BITS  (16 - MP_GRANULE_SHIFT)   /* granules per 64 KiB */
#define N_TOP      (1u << TOP_BITS)
#define N_MID      (1u << MID_BITS)
#define N_LEAF     (1u << LEAF_BITS)

typedef struct { uint32_t v[N_LEAF]; } leaf;
typedef struct { leaf *l[N_MID]; } mid;

struct mp_granmap {
   mid *top[N_TOP];
   uint64_t bytes;
};

mp_granmap *mp_granmap_new(void)
{
   /* The top table is large and sparse: zero pages. */
   mp_granmap *m = mp_zalloc_table("mp.granmap.1", sizeof *m);
   m->bytes = sizeof *m;
   return m;
}

void mp_granmap_free(mp_granmap *m)
{
   uint32_t t, k;
   for (t = 0; t < N_TOP; t++) {
      if (!m->top[t])
         continue;
      for (k = 0; k < N_MID; k++)
         if (m->top[t]->l[k])
            mp_free(m->top[t]->l[k]);
      mp_free(m->top[t]);
   }
   mp_free_table(m, sizeof *m);
}

static uint32_t top_index(uint64_t a)  { return (uint32_t)(a >> 32) & (N_TOP - 1); }
static uint32_t mid_index(uint64_t a)  { return (uint32_t)(a >> 16) & (N_MID - 1); }
static uint32_t leaf_index(uint64_t a) { return (uint32_t)(a >> MP_GRANULE_SHIFT) & (N_LEAF - 1); }

static leaf *leaf_for_write(mp_granmap *m, uint64_t a)
{
   mid *md = m->top[top_index(a)];
   leaf *lf;
   if (!md) {
      md = mp_calloc("mp.granmap.2", 1, sizeof *md);
      m->top[top_index(a)] = md;
      m->bytes += sizeof *md;
   }
   lf = md->l[mid_index(a)];
   if (!lf) {
      lf = mp_calloc("mp.granmap.3", 1, sizeof *lf);
      md->l[mid_index(a)] = lf;
      m->bytes += sizeof *lf;
   }
   return lf;
}

void mp_granmap_set(mp_granmap *m, uint64_t addr, uint64_t len, uint32_t value)
{
   uint64_t g, last;
   if (len == 0)
      return;
   mp_assert((addr + len - 1) >> 48 == 0);
   g = addr >> MP_GRANULE_SHIFT;
   last = (addr + len - 1) >> MP_GRANULE_SHIFT;
   while (g <= last) {
      uint64_t a = g << MP_GRANULE_SHIFT;
      mid *md = m->top[top_index(a)];
      uint32_t i = leaf_index(a), end;
      leaf *lf;
      /* Clearing where nothing was ever set allocates nothing. */
      if (value == 0 && (!md || !md->l[mid_index(a)])) {
         g = (g | (N_LEAF - 1)) + 1;
         continue;
      }
      lf = leaf_for_write(m, a);
      end = (last - g < N_LEAF - i) ? i + (uint32_t)(last - g) + 1 : N_LEAF;
      g += end - i;
      for (; i < end; i++)
         lf->v[i] = value;
   }
}

/* The leaf holding addr's granule, NULL if none was made. */
static inline const leaf *leaf_for_read(const mp_granmap *m, uint64_t addr)
{
   const mid *md;
   if (addr >> 48)
      return NULL;
   md = m->top[top_index(addr)];
   return md ? md->l[mid_index(addr)] : NULL;
}

void mp_granmap_prefetch(const mp_granmap *m, uint64_t addr)
{
   const leaf *lf = leaf_for_read(m, addr);
   if (lf)
      __builtin_prefetch(&lf->v[leaf_index(addr)]);
}

uint32_t mp_granmap_get(const mp_granmap *m, uint64_t addr)
{
   const leaf *lf = leaf_for_read(m, addr);
   return lf ? lf->v[leaf_index(addr)] : 0;
}

int mp_granmap_empty(const mp_granmap *m, uint64_t addr, uint64_t len)
{
   uint64_t g, last;
   if (len == 0)
      return 1;
   g = addr >> MP_GRANULE_SHIFT;
   last = (addr + len - 1) >> MP_GRANULE_SHIFT;
   while (g <= last) {
      uint64_t a = g << MP_GRANULE_SHIFT;
      const leaf *lf = leaf_for_read(m, a);
      uint32_t i = leaf_index(a), end;
      end = (last - g < N_LEAF - i) ? i + (uint32_t)(last - g) + 1 : N_LEAF;
      g += end - i;
      if (lf)
         for (; i < end; i++)
            if (lf->v[i] != 0)
               return 0;
   }
   return 1;
}

uint64_t mp_granmap_bytes(const mp_granmap *m)
{
   return m->bytes;
}
