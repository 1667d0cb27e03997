/*--------------------------------------------------------------------*/
/*--- memprof: the variable registry: address -> variable.         ---*/
/*---                                                mp_registry.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Every access is attributed to exactly one variable, by a cascade of
   resolvers (one file each, mp_registry_int.h), asked in this order:
     1. user-named ranges (MEMPROF_NAME_RANGE), which may lie inside a
        heap block or a global (mp_reg_named.c);
     2. live heap blocks (mp_heap.c registers them; mp_reg_heap.c);
     3. the thread's stack: the frame holding the address, unwound once
        per (SP, function) and cached; a named local (array, struct or
        scalar) of that frame (mp_stackvars.h; not with
        --read-var-info=no), else "stack:<function>" (mp_reg_stack.c);
     4. globals and statics: the data symbols of every loaded object,
        read from its symbol table (works without -g); the stack never
        overlaps them, and is checked first because it is cheaper
        (mp_reg_globals.c);
     5. the allocator's memory outside live blocks: the header before
        each block, the bytes after its end in its last granule, and
        whatever held a block that was freed (free lists, the copies
        realloc makes), until it is unmapped or is a block again, and
        the rest of the brk segment (glibc's main arena: its top, the
        thread's tcache): one variable, "malloc (allocator internals)"
        (mp_reg_heap.c);
     6. the section of a loaded object the address lies in, for data
        that no symbol covers (GOT, relocated pointers, .dynsym read by
        the dynamic linker): "<object>:<section>", kind other
        (mp_reg_sections.c);
     7. "other".
   Each variable is given its owner (mp_owner.h) when it is made: a
   global's or a section's object, the object of a frame's code (a
   named local's frame's); "other" is no one's, and the allocator's
   memory belongs to the allocator's object (mp_registry_allocator_at).
   Step 2 is O(1) whatever the number of live blocks (mp_granmap).
   Steps 1 and 4 are interval-map lookups, O(log n).  The access helper
   keeps each instruction's last answer (mp_instr), valid until
   mp_g_registry_gen changes (a munmap, a named range), so loops over
   globals and heap blocks rarely get here.  Two kinds of answer are
   kept with a condition the helper checks: the running function's own
   frame (its local, or the rest of the frame) while the stack pointer
   stays the same, and a page of "other" memory with no heap block in
   it until a block is made or a mapping changes (mp_g_other_gen).
   This file is the driver: the order of the steps, the instruction's
   cached answer (written here only), and the questions that span
   resolvers (a block's start, a mapping's change).
*/
#include "pub_tool_basics.h"

#include "mp_registry_int.h"

UInt mp_g_registry_gen = 0;
ULong stats__resolves = 0;
ULong stats__stack_unwinds = 0;

/*------------------------------------------------------------*/
/*--- The instruction's cached answer                      ---*/
/*------------------------------------------------------------*/

void mp_reg_cache_range(mp_instr *ii, Addr start, SizeT len, UInt var)
{
   ii->cache_gen = mp_g_registry_gen;
   ii->cache_lo = start;
   ii->cache_hi = start + len;
   ii->cache_var = var;
   ii->cache_slot = 0;
}

void mp_reg_cache_other(mp_instr *ii, Addr start, SizeT len)
{
   mp_reg_cache_range(ii, start, len, mp_g_other_var);
   ii->cache_slot = MP_OTHER_SLOT;
   ii->cache_life = mp_g_other_gen;
}

void mp_reg_cache_nothing(mp_instr *ii)
{
   ii->cache_gen = mp_g_registry_gen;
   ii->cache_lo = ii->cache_hi = 0;
   ii->cache_slot = 0;
}

void mp_reg_cache_block(mp_instr *ii, UInt slot, Addr start, SizeT len, UInt var)
{
   mp_reg_cache_range(ii, start, len, var);
   ii->cache_slot = slot + 1;
   ii->cache_life = mp_g_heap_life[slot];
}

void mp_reg_cache_frame(mp_instr *ii, Addr sp, Addr lo, Addr hi, UInt var)
{
   /* A named range may lie in the frame: only a re-resolution sees it. */
   if (mp_reg_named_count() != 0)
      return;
   ii->cache_gen = mp_g_registry_gen;
   ii->cache_lo = lo;
   ii->cache_hi = hi;
   ii->cache_var = var;
   ii->cache_slot = MP_STACK_SLOT;
   ii->cache_sp = sp;
}

void mp_reg_cache_at_sp(mp_instr *ii, Addr lo, Addr hi, UInt var)
{
   mp_reg_cache_frame(ii, MP_AT_SP, lo, hi, var);
}

/*------------------------------------------------------------*/
/*--- Resolution                                           ---*/
/*------------------------------------------------------------*/

/* Threads alive, the main one included. */
static UInt live_threads = 1;

UInt mp_registry_resolve(ThreadId tid, Addr a, mp_instr *ii)
{
   UInt var;
   /* A global may hold a named range: cache it only when none exists. */
   Bool cacheable = mp_reg_named_count() == 0;

   stats__resolves++;
   if (!cacheable) {
      Addr start;
      SizeT len;
      if (mp_reg_named_lookup(a, &start, &len, &var)) {
         mp_reg_cache_range(ii, start, len, var);
         return var;
      }
   }
   if ((var = mp_reg_heap_resolve(a, ii, cacheable)) != MP_REG_NONE)
      return var;
   /* A remembered page is no stack's and no big block's: it may skip
      them. */
   if ((var = mp_reg_pages_resolve(a, ii, cacheable)) != MP_REG_NONE)
      return var;
   if ((var = mp_reg_big_block_resolve(a, ii, cacheable)) != MP_REG_NONE)
      return var;
   /* The stack's resolver caches what holds (the running frame's
      answer) and nothing else. */
   var = mp_reg_stack_resolve(tid, a, ii);
   if (var == MP_REG_NONE && live_threads > 1)
      var = mp_reg_foreign_stack_resolve(tid, a);
   if (var != MP_REG_NONE)
      return var;
   if ((var = mp_reg_globals_resolve(a, ii, cacheable)) != MP_REG_NONE)
      return var;
   if ((var = mp_reg_brk_resolve(a, ii)) != MP_REG_NONE)
      return var;
   return mp_reg_sections_resolve(a, ii, cacheable);
}

/* Where the block (named range, heap block, global) holding a starts,
   for offsets in the report, its length and its variable (len and var
   may be NULL); False for stack and unknown memory. */
Bool mp_registry_block_of(Addr a, Addr *start, SizeT *len, UInt *var)
{
   SizeT l;
   UInt v;
   if (!mp_reg_named_lookup(a, start, &l, &v)
       && !mp_reg_globals_lookup(a, start, &l, &v)
       && !mp_reg_heap_block(a, start, &l, &v))
      return False;
   if (len)
      *len = l;
   if (var)
      *var = v;
   return True;
}

Addr mp_registry_block_start(Addr a, UInt var, const mp_instr *ii)
{
   Addr start;
   if (!mp_registry_has_blocks(mp_vars_get(mp_g_vars, var)))
      return 0;
   if (ii->cache_hi - ii->cache_lo > 1 && mp_instr_cache_holds(ii, a))
      return ii->cache_lo;
   start = mp_reg_heap_small_start(a);
   if (start != 0)
      return start;
   return mp_registry_block_of(a, &start, NULL, NULL) ? start : 0;
}

/*------------------------------------------------------------*/
/*--- What changes under the resolvers                     ---*/
/*------------------------------------------------------------*/

void mp_registry_note_mmap(void)
{
   mp_reg_globals_note_mmap();
   mp_reg_sections_new_epoch();
}

void mp_registry_note_munmap(Addr a, SizeT len)
{
   mp_reg_globals_unmap(a, len);
   mp_reg_heap_unmap(a, len);
   /* Instructions may have cached the unmapped globals, or pages of its
      sections. */
   mp_g_registry_gen++;
   mp_reg_sections_new_epoch();
}

void mp_registry_threads(ThreadId tid, Int delta)
{
   live_threads += delta;
   mp_reg_sections_new_epoch();   /* other pages may now be a thread's stack */
   if (delta < 0) {
      mp_reg_stack_thread_gone(tid);
      /* ... and the instructions' frames cached (mp_reg_cache_frame)
         go with it. */
      mp_g_registry_gen++;
   }
}

void mp_registry_init(void)
{
   mp_reg_named_init();
   /* "other", then the allocator's variable: the order they were
      always made in, which their ids, and any order by id, follow. */
   mp_reg_sections_init();
   mp_reg_heap_init();
   mp_reg_globals_init();
   mp_reg_stack_init();
}
