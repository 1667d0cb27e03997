/*--------------------------------------------------------------------*/
/*--- memprof: what the adapter's files share.           mp_tool.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The Valgrind adapter is mp_main.c (setup, client requests, exit),
   mp_clo.c (options), mp_instrument.c (VEX IR, the access helper),
   mp_instrs.c (the instructions' records), mp_heap.c (the allocation
   wrappers' reports, heap sites), mp_registry.c (address -> variable,
   with its resolvers mp_reg_*.c), and the analyses' adapters: the list
   mp_analyses.h/.c, each analysis's mp_an_*.h, mp_hierarchy.c and
   mp_loopnest.c.  Only these files include pub_tool_*.h.
*/
#ifndef MP_TOOL_H
#define MP_TOOL_H

#include "pub_tool_basics.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"

#include "mp_loops.h"
#include "mp_numa.h"
#include "mp_sharing.h"
#include "mp_structs.h"
#include "mp_whatif.h"
#include "mp_vars.h"

/* Static facts about one guest instruction, made at instrumentation time
   (mp_instrs.c) and passed to the access helper.  The last resolution
   of an address to a variable is cached here: loops hit the same block
   again and again.
   The cache is valid while gen == mp_g_registry_gen, lo <= a < hi and,
   for a heap block (cache_slot != 0), the block is still the one cached
   (its slot's life unchanged: freeing a block bumps it, not the global
   generation, so a free does not flush every instruction's cache).
   A resolution in the running function's own frame (cache_slot ==
   MP_STACK_SLOT) holds only while the stack pointer is cache_sp (a
   push's or pop's, at any stack pointer: MP_AT_SP), and a
   page of "other" memory (MP_OTHER_SLOT) while no heap block is made
   (cache_life == mp_g_other_gen). */
typedef struct {
   /* What every access reads, first: the record's first host cache
      lines are the hot path's (the rest is the loops' and strides'). */
   Addr     iaddr;
   UInt     loc;        /* source location id (mp_vars_location) */
   UInt     cache_gen;
   Addr     cache_lo, cache_hi;
   UInt     cache_var;
   UInt     cache_slot, cache_life;   /* heap slot + 1 (0: not heap), its life */
   /* The counts record of the last variable this instruction touched:
      most instructions touch one variable, so no hash lookup. */
   UInt     lc_var;
   UInt     lc_id;      /* lc->id, kept here so that an access's record
                           for the analysis helper does not read lc,
                           which the held counts spare the access path */
   Addr     cache_sp;   /* MP_STACK_SLOT: the stack pointer it holds at */
   mp_line_counts *lc;        /* counts of (lc_var, loc), or NULL */
   /* Its counts of lc_var not yet in lc's and the variable's records
      (mp_held_counts): flushed when it moves to another variable, and
      by the footprint's flush step. */
   mp_held_counts held;
   /* Its last access missed the simulated L2 (or the L1 of a one-level
      hierarchy): its accesses are scattered, so the analyses' state
      for them is likely to miss the host's caches too, and is worth a
      prefetch. */
   Bool     scattered;
   UInt     id;         /* dense, in instrumentation order (--loops) */
   /* The innermost loop of its function that contains it, as known when
      the loop count was loops_known (loops found later may change it). */
   UInt     loop, loops_known;
   ULong    loop_accesses;   /* accesses inside its innermost loop (formula sampling) */
   Bool     formula_before_flush;  /* its formula was fitted before the
                                      loops were first flushed */
   /* Its formula at loop depth formula_settled_depth (0: none yet) is
      settled in the execution formula_settled_in (mp_formula.h). */
   UInt     formula_settled_depth;
   ULong    formula_settled_in;
   mp_loops_site at_site;    /* mp_loop_at's memo, when the thread's loop
                                position is checked here */
   UInt     fn;         /* location id of the function alone, for stack:fn */
   Bool     no_loops;   /* in a PLT stub, or in code without a function
                           symbol: its backward jumps are no loops */
   Bool     pushes;     /* stores at the SP it has just lowered (push, call) */
   Bool     pops;       /* loads at the SP it then raises (pop, ret) */
   UInt     frame_var;  /* pushes/pops: its function's frame variable + 1,
                           0 until its first stack access */
   /* Its own stride, loads [0] and stores [1], counted into lc's
      record (mp_istride); its runs end in mp_an_stride_end_runs. */
   mp_istride istride[2];
   UInt     stride_window;    /* mp_g_stride_window at its last stride */
   /* Its accesses, loads [0] and stores [1]: with --sample=lines every
      one, counted by the translated code with no call (per segment,
      mp_segment, or alone when conditional; settled into here before
      they are read), else those the access helper saw (a loop's exact
      count, mp_instr_fact).  With --sample=lines also: those of them
      in the sample, counted by the access helper; the bytes of its
      last load and store; and whether it touched more than one
      variable; and those seen in the detail windows, in the sample or
      not.  An instruction of one variable gives it its exact count, one
      of several splits it as the windows saw (mp_estimates.c). */
   ULong    executed[2], in_sample[2], in_window[2];
   UChar    access_size[2];
   Bool     multi_var;
} mp_instr;

/* mp_reg_heap.c: per heap slot, how many blocks it has held and freed;
   what a cached heap resolution is checked against. */
extern UInt *mp_g_heap_life;
extern UInt mp_g_registry_gen;   /* bumped when a cached range may be stale */
/* Bumped by every heap block made and every change of what the pages
   hold (a mapping, the brk segment, a thread, a large block). */
extern UInt mp_g_other_gen;

/* cache_slot of a resolution in the running function's frame, and of a
   page of "other" memory (valid while no heap block is made and no
   mapping changes: mp_reg_sections.c's count of those in cache_life). */
#define MP_STACK_SLOT ((UInt)-1)
#define MP_OTHER_SLOT ((UInt)-2)
/* cache_sp of a push's or pop's frame answer (mp_reg_cache_at_sp),
   which holds at any stack pointer of the cached range, for the
   MP_AT_SP_BYTES above it: a prologue pushes at a new stack pointer at
   every call, and a third of sqlite3's resolutions were those. */
#define MP_AT_SP       ((Addr)0)
#define MP_AT_SP_BYTES 16

/* Is ii's cached resolution of a range (a global, a section's page) or
   of a heap block valid for address a? */
static inline Bool mp_instr_cache_holds(const mp_instr *ii, Addr a)
{
   return ii->cache_gen == mp_g_registry_gen
          && a - ii->cache_lo < ii->cache_hi - ii->cache_lo
          && (ii->cache_slot == 0
              || (ii->cache_slot < MP_OTHER_SLOT
                  && mp_g_heap_life[ii->cache_slot - 1] == ii->cache_life));
}

/* Is ii's cached resolution, of any kind, the answer for the access at
   a by the running thread tid?  (A frame's needs the thread's stack
   pointer.) */
static inline Bool mp_instr_cache_answers(const mp_instr *ii, Addr a, ThreadId tid)
{
   Addr sp;
   if (ii->cache_gen != mp_g_registry_gen
       || a - ii->cache_lo >= ii->cache_hi - ii->cache_lo)
      return False;
   if (ii->cache_slot == 0)
      return True;
   if (ii->cache_slot < MP_OTHER_SLOT)
      return mp_g_heap_life[ii->cache_slot - 1] == ii->cache_life;
   if (ii->cache_slot == MP_OTHER_SLOT)
      return ii->cache_life == mp_g_other_gen;
   sp = VG_(get_SP)(tid);
   return sp == ii->cache_sp
          || (ii->cache_sp == MP_AT_SP && a - sp < MP_AT_SP_BYTES);
}

/* mp_instrs.c: the instructions' records, one per guest instruction
   address. */
void mp_instrs_init(void);
/* The record of the instruction at iaddr, made (and named from the
   debug information) the first time. */
mp_instr *mp_instrs_get(Addr iaddr);
/* Every record, in the table's order: mp_instrs_walk_start, then
   mp_instrs_walk_next until it returns NULL.  No record may be made
   during a walk. */
void mp_instrs_walk_start(void);
mp_instr *mp_instrs_walk_next(void);

/* --sample=lines: a run of a superblock's code between two of its exits
   (a segment), whose unconditional accesses all execute whenever the
   code reaches its end: the translated code counts the segment once
   there (a load, an add and a store) instead of each access, and
   mp_segments_settle adds executions times accesses to each of its
   instructions' mp_instr.executed.  Made while instrumenting, never
   freed (a discarded translation's counts stay). */
typedef struct mp_segment mp_segment;
mp_segment *mp_segment_new(void);
/* One more unconditional access of ii in s per execution. */
void   mp_segment_add(mp_segment *s, mp_instr *ii, Bool is_write);
/* The counter the translated code increments. */
ULong *mp_segment_counter(mp_segment *s);
/* Every segment's executions so far into its instructions' executed
   counts, the segments' counters back to zero: before executed is read
   (an output, a forked child's reset). */
void   mp_segments_settle(void);

extern mp_vars *mp_g_vars;
/* The analyses' own state is declared by their adapter files
   (mp_analyses.h). */

/* mp_registry.c: which variable owns an address. */
void mp_registry_init(void);
/* The file of the object whose code is at a (its full path, Valgrind's
   string: used before the next debug-information change), or NULL. */
const HChar *mp_code_object(Addr a);
/* Resolves a, filling ii's cache when the answer is a range. */
UInt mp_registry_resolve(ThreadId tid, Addr a, mp_instr *ii);
void mp_registry_add_heap(Addr a, SizeT len, UInt var);
void mp_registry_remove_heap(Addr a, SizeT len);
/* The brk segment grew by [a, a+len) (grew True) or shrank by it. */
void mp_registry_brk(Addr a, SizeT len, Bool grew);
/* The allocator's memory outside the blocks belongs to the object of
   fn, the allocation function the wrappers called (the first one
   told decides). */
void mp_registry_allocator_at(Addr fn);
Bool mp_registry_name_range(Addr a, SizeT len, const HChar *name);
Bool mp_registry_unname_range(Addr a);
void mp_registry_note_mmap(void);
Bool mp_registry_block_of(Addr a, Addr *start, SizeT *len, UInt *var);
/* The same on the hot path for an access to var: ii's cached range,
   the heap block's slot, a global; 0 for the stack and unknown memory. */
Addr mp_registry_block_start(Addr a, UInt var, const mp_instr *ii);
/* Whether v's accesses have a block start (mp_registry_block_start is
   not 0): a heap block's, a global's and a named range's do; the
   stack has none, and other memory none worth a look-up (most accesses
   of -O0 code are to the stack). */
static inline Bool mp_registry_has_blocks(const mp_var *v)
{
   return v->kind != MP_VAR_STACK && (v->kind != MP_VAR_OTHER || v->named_by);
}
void mp_registry_note_munmap(Addr a, SizeT len);
/* A thread starts (+1) or ends (-1): with one thread alive no address
   can be on another thread's stack. */
void mp_registry_threads(ThreadId tid, Int delta);
/* What the debug information (--read-var-info=yes) says of address a:
   the variable's path ("g", "a[3].x") in *what and, when known, the
   file and line it is declared at in *file and *line (*file NULL
   otherwise); each allocated, freed by the caller.  False if nothing
   is known of a. */
Bool mp_registry_describe(Addr a, HChar **what, HChar **file, UInt *line);

/* The tool's own counters, printed at exit under -v. */
extern ULong stats__resolves;       /* accesses not answered by ii's cache */
extern ULong stats__stack_unwinds;  /* frame caches rebuilt */
extern ULong stats__instrs;         /* distinct instructions instrumented */
extern ULong stats__blocks;         /* heap blocks allocated */

/* mp_heap.c */
void mp_heap_pre_clo_init(void);
/* The preload's requests (mp_clreq.h); False if args[0] is not one. */
Bool mp_heap_client_request(ThreadId tid, const UWord *args);

/* mp_sites.c: naming allocation sites where the program receives the
   block.  A new site for the block at 'block' (size bytes) allocated
   from the stack ips/sps (n frames, cut at main); out: posix_memalign's out-parameter,
   else 0. */
void    mp_sites_init(void);
mp_var *mp_sites_new(ThreadId tid, const Addr *ips, const Addr *sps, UInt n,
                     Addr block, SizeT size, Addr out);
/* At translation time: if a is a return address being watched, the
   flag that says, when it runs, whether to call the helper (with the
   returned value and SP); else NULL. */
const UInt *mp_sites_watching(Addr a);
VG_REGPARM(3) void mp_sites_return(Addr ra, UWord ret, UWord sp);
/* At exit, before the report: suffixes for names two sites share. */
void    mp_sites_finish(void);
/* The function whose code ip is, from the inline information: the
   innermost function inlined there, else the function itself; False
   if ip has no source line.  Copied into buf (n bytes). */
Bool    mp_sites_code_fn(Addr ip, HChar *buf, SizeT n);
/* The source name of the bytes [offset, offset + size) of heap site
   var's structure, from the type its naming line gives the blocks and
   the structure's definition in that file or the headers it includes
   (mp_srctype.h); NULL if unknown.  At exit. */
char   *mp_sites_field_name(UInt var, ULong offset, ULong size);
/* The function whose body declares the static local 'name' in the
   source file of the code at iaddr (mp_srctype.h), or NULL. */
char   *mp_sites_static_owner(Addr iaddr, const HChar *name);
/* The members of heap site var's structure as declared there (the
   results' declared_members query), or NULL. */
const mp_struct_unit *mp_sites_declared_members(uint32_t var, uint32_t *n, uint64_t *size);

/* mp_instrument.c */
IRSB *mp_instrument(VgCallbackClosure *closure, IRSB *sbIn,
                    const VexGuestLayout *layout,
                    const VexGuestExtents *vge,
                    const VexArchInfo *archinfo_host,
                    IRType gWordTy, IRType hWordTy);
void mp_instrument_init(void);
/* Client-request state: collection on or off (MEMPROF_START/STOP). */
void mp_set_collecting(Bool on);
/* True if some accesses were not collected (--collect-atstart=no,
   MEMPROF_STOP, --toggle-collect): instruction counts then do not match. */
Bool mp_collection_was_partial(void);
extern ULong mp_g_instructions;   /* guest instructions executed */
/* A new thread: gives it the next creation number. */
void mp_thread_created(ThreadId child);
Bool mp_is_collecting(void);
/* With --sample=periodic|windows: the instructions analysed so far and
   the windows begun, True; else False. */
Bool mp_sampling_windows(ULong *analysed, ULong *windows);
/* The instructions whose accesses were analysed (all of them, or those
   of the sampling windows): the base of misses per 1000 instructions. */
ULong mp_instructions_observed(void);
/* A forked child: its instructions count from zero, and a sampling
   schedule starts again with a window, as at the start of a run. */
void mp_instrument_fork_child(void);

#endif /* MP_TOOL_H */
