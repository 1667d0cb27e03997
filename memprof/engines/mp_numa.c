/*--------------------------------------------------------------------*/
/*--- memprof: NUMA page homes by first touch.           mp_numa.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Data structure and cost per access: an open-addressing hash table
   (linear probing) of (page + 1, home socket) pairs, doubled at half
   load, so a probe is O(1) expected; key 0 marks an empty slot and a
   removed entry becomes a tombstone (key TOMB) that a later insert may
   reuse.  The previous call's page and home are kept aside: accesses
   run along a page, so most calls do not probe at all.  Memory: 16
   bytes per slot, at most 4 slots per touched page.
*/
#include "mp_numa.h"

#define TOMB ((uint64_t)-1)

typedef struct {
   uint64_t key;       /* page + 1; 0 empty; TOMB removed */
   uint64_t home;      /* socket */
} slot;

struct mp_numa {
   uint32_t page_shift;
   slot *slots;
   uint64_t n_slots, n_used, n_tombs;
   uint64_t last_key, last_home;   /* the previous call's page, or 0 */
};

static inline uint64_t mix(uint64_t x)
{
   x ^= x >> 33;
   x *= 0xff51afd7ed558ccdULL;
   x ^= x >> 33;
   return x;
}

static void init_table(mp_numa *n)
{
   n->n_slots = 1024;
   n->slots = mp_calloc("mp.numa.slots", n->n_slots, sizeof *n->slots);
   n->n_used = n->n_tombs = 0;
   n->last_key = 0;
}

mp_numa *mp_numa_new(uint32_t page_size)
{
   mp_numa *n = mp_calloc("mp.numa", 1, sizeof *n);
   mp_assert(page_size >= 1 && (page_size & (page_size - 1)) == 0);
   n->page_shift = (uint32_t)__builtin_ctz(page_size);
   init_table(n);
   return n;
}

void mp_numa_free(mp_numa *n)
{
   if (n == NULL)
      return;
   mp_free(n->slots);
   mp_free(n);
}

void mp_numa_reset(mp_numa *n)
{
   mp_free(n->slots);
   init_table(n);
}

/* The slot holding key, or the empty/tomb slot where it would go. */
static slot *find(const mp_numa *n, uint64_t key)
{
   uint64_t mask = n->n_slots - 1, i = mix(key) & mask;
   slot *reuse = NULL;
   for (;; i = (i + 1) & mask) {
      slot *s = &n->slots[i];
      if (s->key == key)
         return s;
      if (s->key == 0)
         return reuse ? reuse : s;
      if (s->key == TOMB && reuse == NULL)
         reuse = s;
   }
}

static void rehash(mp_numa *n, uint64_t n_slots)
{
   slot *old = n->slots;
   uint64_t old_n = n->n_slots, i;
   n->slots = mp_calloc("mp.numa.slots", n_slots, sizeof *n->slots);
   n->n_slots = n_slots;
   n->n_used = n->n_tombs = 0;
   for (i = 0; i < old_n; i++)
      if (old[i].key != 0 && old[i].key != TOMB) {
         *find(n, old[i].key) = old[i];
         n->n_used++;
      }
   mp_free(old);
}

uint32_t mp_numa_home(mp_numa *n, uint64_t addr, uint32_t socket, int *first_touch)
{
   uint64_t key = (addr >> n->page_shift) + 1;
   slot *s;
   *first_touch = 0;
   if (key == n->last_key)
      return (uint32_t)n->last_home;
   s = find(n, key);
   if (s->key != key) {
      if (s->key == TOMB)
         n->n_tombs--;
      s->key = key;
      s->home = socket;
      n->n_used++;
      *first_touch = 1;
      if (2 * (n->n_used + n->n_tombs) > n->n_slots) {
         rehash(n, n->n_used * 4 > n->n_slots ? n->n_slots * 2 : n->n_slots);
         s = find(n, key);
      }
   }
   n->last_key = key;
   n->last_home = s->home;
   return (uint32_t)s->home;
}

void mp_numa_forget(mp_numa *n, uint64_t addr, uint64_t len)
{
   uint64_t size = 1ULL << n->page_shift;
   uint64_t first = (addr + size - 1) >> n->page_shift;
   uint64_t end = (addr + len) >> n->page_shift, p, i;
   n->last_key = 0;
   if (end <= first || n->n_used == 0)
      return;
   if (end - first > n->n_slots) {
      /* a huge unmap: walk the table instead of probing every page */
      for (i = 0; i < n->n_slots; i++) {
         slot *s = &n->slots[i];
         if (s->key != 0 && s->key != TOMB && s->key - 1 >= first && s->key - 1 < end) {
            s->key = TOMB;
            n->n_used--;
            n->n_tombs++;
         }
      }
      return;
   }
   for (p = first; p < end; p++) {
      slot *s = find(n, p + 1);
      if (s->key == p + 1) {
         s->key = TOMB;
         n->n_used--;
         n->n_tombs++;
      }
   }
}

uint64_t mp_numa_pages(const mp_numa *n) { return n->n_used; }
uint64_t mp_numa_bytes(const mp_numa *n) { return n->n_slots * sizeof(slot); }
