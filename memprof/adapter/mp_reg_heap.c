/*--------------------------------------------------------------------*/
/*--- memprof: the registry's heap.                  mp_reg_heap.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Live heap blocks (mp_heap.c reports them), found from an address in
   O(1) whatever their number: a granule map of 16-byte granules to
   the block's slot (mp_granmap), and, for the few blocks too big for
   it, a range map.  And the allocator's memory outside live blocks:
   the header before each block, the bytes after its end in its last
   granule, whatever held a block that was freed (free lists, the
   copies realloc makes) until it is unmapped or is a block again, and
   the rest of the brk segment (glibc's main arena: its top, the
   thread's tcache): one variable, "malloc (allocator internals)",
   owned by the allocator's object (mp_registry_allocator_at).
*/
#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"

#include "mp_granmap.h"
#include "mp_rangemap.h"
#include "mp_registry_int.h"

/* Live heap blocks: per granule, the block's slot + 1 (or
   ALLOCATOR_GRANULE: the allocator's memory); a slot holds the
   block's variable and start, so one O(1) look-up answers both (the
   start is what structure and formula analysis measure offsets from).
   Slots of freed blocks are reused: memory is 16 bytes per live block
   beside the granule map's 4 per 16 bytes of heap. */
typedef struct {
   Addr start;
   SizeT len;
   UInt var;
   UInt next_free;    /* free list, slot + 1; 0 ends it */
} heap_slot;
UInt *mp_g_heap_life;   /* per slot, parallel to heap_slots */

static mp_granmap  *heap_granules;
/* Blocks of BIG_BLOCK bytes or more are kept in a range map instead
   (value: slot + 1): the granule map would cost a quarter of the block
   whether the program touches it or not (4 GiB allocated, one page
   used: 1 GB of map).  Few blocks are that big, so the O(log n) look-up
   is rare, and an instruction caches the block's range like a global's. */
#define BIG_BLOCK (1UL << 20)
#define ALLOCATOR_GRANULE 0xFFFFFFFFu
static mp_rangemap *big_blocks;
static heap_slot   *heap_slots;
static UInt         n_heap_slots, heap_slots_cap, heap_free_slot;
static UInt allocator_var;
static Addr brk_lo, brk_hi;       /* the brk segment, [lo, hi) */

void mp_reg_heap_init(void)
{
   heap_granules = mp_granmap_new();
   big_blocks = mp_rangemap_new();
   allocator_var = mp_vars_add(mp_g_vars, MP_VAR_OTHER,
                               "malloc (allocator internals)", NULL, 0)->id;
   /* the C library's, until a block names the allocator's object */
   mp_vars_get(mp_g_vars, allocator_var)->cls = MP_CLASS_RUNTIME;
}

/* Is the granule map's slot + 1 at a a live block holding a? */
static Bool small_block_holds(UInt slot, Addr a)
{
   return slot != 0 && slot != ALLOCATOR_GRANULE
          && a - heap_slots[slot - 1].start < heap_slots[slot - 1].len;
}

UInt mp_reg_heap_resolve(Addr a, mp_instr *ii, Bool cacheable)
{
   UInt slot = mp_granmap_get(heap_granules, a);
   if (slot == 0)
      return MP_REG_NONE;
   /* A block's last granule may also hold the next chunk's header. */
   if (small_block_holds(slot, a)) {
      const heap_slot *h = &heap_slots[slot - 1];
      if (cacheable)
         mp_reg_cache_block(ii, slot - 1, h->start, h->len, h->var);
      else
         mp_reg_cache_nothing(ii);
      return h->var;
   }
   /* blocks come and go there: nothing to cache */
   mp_reg_cache_nothing(ii);
   return allocator_var;
}

UInt mp_reg_big_block_resolve(Addr a, mp_instr *ii, Bool cacheable)
{
   uint64_t start, len;
   void *val;
   UInt var;
   if (mp_rangemap_count(big_blocks) == 0
       || !mp_rangemap_lookup(big_blocks, a, &start, &len, &val))
      return MP_REG_NONE;
   var = heap_slots[(UWord)val - 1].var;
   if (cacheable)
      mp_reg_cache_range(ii, start, len, var);
   else
      mp_reg_cache_nothing(ii);
   return var;
}

UInt mp_reg_brk_resolve(Addr a, mp_instr *ii)
{
   if (a < brk_lo || a >= brk_hi)
      return MP_REG_NONE;
   mp_reg_cache_nothing(ii);
   return allocator_var;
}

Bool mp_reg_heap_block(Addr a, Addr *start, SizeT *len, UInt *var)
{
   uint64_t s, l;
   void *val;
   UInt slot = mp_granmap_get(heap_granules, a);
   if (slot == ALLOCATOR_GRANULE
       || (slot != 0 && a - heap_slots[slot - 1].start >= heap_slots[slot - 1].len))
      return False;
   if (slot == 0) {
      if (!mp_rangemap_lookup(big_blocks, a, &s, &l, &val))
         return False;
      slot = (UInt)(UWord)val;
   } else {
      s = heap_slots[slot - 1].start;
      l = heap_slots[slot - 1].len;
   }
   *start = (Addr)s;
   *len = (SizeT)l;
   *var = heap_slots[slot - 1].var;
   return True;
}

Addr mp_reg_heap_small_start(Addr a)
{
   UInt slot = mp_granmap_get(heap_granules, a);
   return small_block_holds(slot, a) ? heap_slots[slot - 1].start : 0;
}

Bool mp_reg_heap_empty(Addr base, SizeT len)
{
   return mp_granmap_empty(heap_granules, base, len) != 0;
}

Bool mp_reg_heap_overlaps(Addr lo, Addr hi)
{
   return (brk_hi != 0 && lo < brk_hi && hi >= brk_lo)
          || mp_rangemap_overlaps(big_blocks, lo, hi);
}

void mp_reg_heap_unmap(Addr a, SizeT len)
{
   /* Memory mapped again later is not the allocator's. */
   mp_granmap_set(heap_granules, a, len, 0);
}

void mp_registry_add_heap(Addr a, SizeT len, UInt var)
{
   UInt slot;
   if (heap_free_slot) {
      slot = heap_free_slot - 1;
      heap_free_slot = heap_slots[slot].next_free;
   } else {
      if (n_heap_slots == heap_slots_cap) {
         heap_slots_cap = heap_slots_cap ? 2 * heap_slots_cap : 1024;
         heap_slots = VG_(realloc)("mp.reg.slots", heap_slots,
                                   heap_slots_cap * sizeof *heap_slots);
         mp_g_heap_life = VG_(realloc)("mp.reg.life", mp_g_heap_life,
                                       heap_slots_cap * sizeof *mp_g_heap_life);
      }
      slot = n_heap_slots++;
      mp_g_heap_life[slot] = 0;
   }
   mp_g_other_gen++;   /* the block may lie in a page cached as other */
   heap_slots[slot].start = a;
   heap_slots[slot].len = len;
   heap_slots[slot].var = var;
   heap_slots[slot].next_free = 0;
   /* The chunk header before the block is the allocator's (unless it
      shares its granule with the block before, which has it). */
   if (a >= 16 && mp_granmap_get(heap_granules, a - 16) == 0)
      mp_granmap_set(heap_granules, a - 16, 1, ALLOCATOR_GRANULE);
   if (len >= BIG_BLOCK && mp_rangemap_insert(big_blocks, a, len,
                                              (void *)(UWord)(slot + 1)) == 0) {
      mp_reg_sections_new_epoch();   /* it may lie in pages remembered as other */
      /* where smaller blocks were freed: not the allocator's now */
      mp_granmap_set(heap_granules, a, len, 0);
      return;
   }
   mp_granmap_set(heap_granules, a, len, slot + 1);
}

void mp_registry_remove_heap(Addr a, SizeT len)
{
   UInt slot = mp_granmap_get(heap_granules, a);
   if (slot == 0) {
      void *val;
      if (!mp_rangemap_remove(big_blocks, a, NULL, &val))
         return;
      slot = (UInt)(UWord)val;
      /* instructions may have cached the block's range */
      mp_g_registry_gen++;
   } else {
      /* the allocator's until it is a block again or unmapped */
      mp_granmap_set(heap_granules, a, len, ALLOCATOR_GRANULE);
   }
   heap_slots[slot - 1].next_free = heap_free_slot;
   heap_free_slot = slot;
   /* instructions may have cached the block: no longer theirs */
   mp_g_heap_life[slot - 1]++;
}

void mp_registry_allocator_at(Addr fn)
{
   mp_var *v = mp_vars_get(mp_g_vars, allocator_var);
   const HChar *path = v->object || fn == 0 ? NULL : mp_code_object(fn);
   if (path)
      mp_var_set_owner(v, path);
}

void mp_registry_brk(Addr a, SizeT len, Bool grew)
{
   mp_reg_sections_new_epoch();   /* other pages may now be the brk segment's */
   if (grew) {
      if (brk_hi == 0 || a < brk_lo)
         brk_lo = a;
      if (a + len > brk_hi)
         brk_hi = a + len;
   } else if (a + len >= brk_hi && a < brk_hi) {
      brk_hi = a > brk_lo ? a : brk_lo;
   }
}
