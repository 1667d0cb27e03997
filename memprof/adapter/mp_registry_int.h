/*--------------------------------------------------------------------*/
/*--- memprof: what the registry's resolvers share.                ---*/
/*---                                            mp_registry_int.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The registry (address -> variable) is a cascade of resolvers, tried
   in the order mp_registry.c gives, one file each:
     mp_reg_named.c     user-named ranges (MEMPROF_NAME_RANGE);
     mp_reg_heap.c      live heap blocks, the granule map, big blocks,
                        the allocator's memory and the brk segment;
     mp_reg_stack.c     the threads' frames, their unwinds and locals;
     mp_reg_globals.c   the data symbols of loaded objects, static
                        locals, declarations (the debug information's
                        descriptions);
     mp_reg_sections.c  sections of loaded objects without symbols, and
                        the pages remembered as a section's or as
                        "other".
   A resolver answers for an address or says MP_REG_NONE, and fills the
   instruction's cache through the driver's writers below, which alone
   say what a cached answer holds under.  A resolver's check of another
   one's memory (may a page be remembered?) goes through that one's
   functions here, never its data.
   Only the registry's files include this header.
*/
#ifndef MP_REGISTRY_INT_H
#define MP_REGISTRY_INT_H

#include "pub_tool_basics.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_machine.h"

#include "mp_tool.h"

/* A resolver's "not mine": the next one is asked. */
#define MP_REG_NONE ((UInt)-1)

/* The ABI's red zone below SP (128 bytes on amd64, none on arm64). */
#define MP_REG_REDZONE VG_STACK_REDZONE_SZB
/* The pages the sections' resolver remembers, and "other" memory is
   cached by. */
#define MP_REG_PAGE 4096

/* A variable kept in a hash table under an interned key (a frame's or
   local's name, an object's section). */
typedef struct {
   VgHashNode node;
   UInt var;
} mp_reg_var_node;

/* mp_registry.c: the instruction's cached answer (mp_tool.h says when
   each holds). */
/* [start, start+len) is var's while the generation stays. */
void mp_reg_cache_range(mp_instr *ii, Addr start, SizeT len, UInt var);
/* Nothing is cached: the next access resolves again. */
void mp_reg_cache_nothing(mp_instr *ii);
/* The heap block of the granule map's slot, [start, start+len), while
   the slot's life stays. */
void mp_reg_cache_block(mp_instr *ii, UInt slot, Addr start, SizeT len, UInt var);
/* [start, start+len) (a page, or one address), of "other" memory with
   no heap block in it, until the next block or epoch (mp_g_other_gen). */
void mp_reg_cache_other(mp_instr *ii, Addr start, SizeT len);
/* [lo, hi) of the running function's frame is var's while the stack
   pointer is sp; not cached while a named range exists. */
void mp_reg_cache_frame(mp_instr *ii, Addr sp, Addr lo, Addr hi, UInt var);
/* A push's or pop's answer, its function's frame (var), for an access
   within 16 bytes above the stack pointer, wherever that lies in the
   thread's stack [lo, hi); not cached while a named range exists. */
void mp_reg_cache_at_sp(mp_instr *ii, Addr lo, Addr hi, UInt var);

/* mp_reg_named.c: user-named ranges. */
void mp_reg_named_init(void);
/* The ranges named now: read at every resolution (a count of 0 lets
   the others cache), so kept in a variable, not asked of the map. */
extern UInt mp_reg_n_named;
static inline UInt mp_reg_named_count(void) { return mp_reg_n_named; }
/* The named range holding a, its variable in *var; False if none. */
Bool mp_reg_named_lookup(Addr a, Addr *start, SizeT *len, UInt *var);
/* Does a named range overlap [lo, hi] (hi included)? */
Bool mp_reg_named_overlaps(Addr lo, Addr hi);

/* mp_reg_heap.c: heap blocks and the allocator's memory. */
void mp_reg_heap_init(void);
/* a's block in the granule map (a small block), or the allocator's
   memory there; MP_REG_NONE if the map has nothing at a. */
UInt mp_reg_heap_resolve(Addr a, mp_instr *ii, Bool cacheable);
/* a's block among the big blocks; MP_REG_NONE if none. */
UInt mp_reg_big_block_resolve(Addr a, mp_instr *ii, Bool cacheable);
/* The allocator's variable if a lies in the brk segment, else
   MP_REG_NONE. */
UInt mp_reg_brk_resolve(Addr a, mp_instr *ii);
/* The live block holding a (small or big); False if none, or if a is
   the allocator's. */
Bool mp_reg_heap_block(Addr a, Addr *start, SizeT *len, UInt *var);
/* The start of a's small block, 0 if a is in none. */
Addr mp_reg_heap_small_start(Addr a);
/* Is [base, base+len) free of small blocks and the allocator's
   granules? */
Bool mp_reg_heap_empty(Addr base, SizeT len);
/* Does the brk segment or a big block overlap [lo, hi] (hi included)? */
Bool mp_reg_heap_overlaps(Addr lo, Addr hi);
/* [a, a+len) was unmapped: its granules are no one's. */
void mp_reg_heap_unmap(Addr a, SizeT len);

/* mp_reg_stack.c: the threads' frames. */
void mp_reg_stack_init(void);
/* a's variable on tid's own stack; MP_REG_NONE if a is not on it. */
UInt mp_reg_stack_resolve(ThreadId tid, Addr a, mp_instr *ii);
/* a's variable on another thread's stack; MP_REG_NONE if on none. */
UInt mp_reg_foreign_stack_resolve(ThreadId tid, Addr a);
/* tid has ended: its unwinds are stale. */
void mp_reg_stack_thread_gone(ThreadId tid);

/* mp_reg_globals.c: the data symbols of loaded objects. */
void mp_reg_globals_init(void);
/* a's global (described and placed at its first access); MP_REG_NONE
   if none. */
UInt mp_reg_globals_resolve(Addr a, mp_instr *ii, Bool cacheable);
/* The global holding a; False if none. */
Bool mp_reg_globals_lookup(Addr a, Addr *start, SizeT *len, UInt *var);
/* Does a global overlap [lo, hi] (hi included)? */
Bool mp_reg_globals_overlaps(Addr lo, Addr hi);
/* Objects were mapped: their symbols are read at the next miss. */
void mp_reg_globals_note_mmap(void);
/* [a, a+len) was unmapped: its globals and objects go. */
void mp_reg_globals_unmap(Addr a, SizeT len);

/* mp_reg_sections.c: sections without symbols, and remembered pages. */
extern UInt mp_g_other_var;   /* "other": memory of no variable */
void mp_reg_sections_init(void);
/* a's remembered page's variable (a section's, or "other");
   MP_REG_NONE if its page is not remembered. */
UInt mp_reg_pages_resolve(Addr a, mp_instr *ii, Bool cacheable);
/* a's section's variable, else "other" (the last step: always an
   answer). */
UInt mp_reg_sections_resolve(Addr a, mp_instr *ii, Bool cacheable);
/* What the pages hold may have changed: every page's verdict is
   stale. */
void mp_reg_sections_new_epoch(void);

#endif
