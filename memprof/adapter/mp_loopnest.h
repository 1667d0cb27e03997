/*--------------------------------------------------------------------*/
/*--- memprof: loops, streams, structures and formulas at run time. ---*/
/*---                                                 mp_loopnest.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
*/
#ifndef MP_LOOPNEST_H
#define MP_LOOPNEST_H

#include "mp_carriers.h"
#include "mp_formula.h"
#include "mp_loops.h"
#include "mp_streams.h"
#include "mp_structs.h"
#include "mp_results.h"
#include "mp_tool.h"

/* NULL with --loops=no. */
extern mp_loops   *mp_g_loops;
extern mp_streams *mp_g_streams;
extern mp_structs *mp_g_structs;
extern mp_formula *mp_g_formula;

void mp_loopnest_init(void);
/* Gives ii its dense id. */
void mp_loopnest_register_instr(mp_instr *ii);
const mp_instr *mp_loopnest_instr(UInt id);

/* Instrumentation time: a branch at 'branch' back to 'target', both in
   function fn; the loop's id or MP_LOOP_NONE.  And the source line of
   an instruction of fn, for the loops' line ranges. */
UInt mp_loopnest_back_edge(Addr branch, Addr target, UInt fn);
void mp_loopnest_note_line(UInt fn, Addr a);

/* Called from the generated code: a superblock starts at instruction
   ii, or ii is a loop head (ii keeps the memo of its innermost loop); a
   back edge of loop is taken; fn returns.  sp is the guest stack
   pointer at ii. */
/* The loop engine's promise after its last call, which the generated
   code checks before calling the hooks below (mp_instrument.c). */
const mp_loops_settled *mp_loopnest_settled(void);
/* The scheduler runs thread tid (VG_(track_start_client_code)). */
void mp_loopnest_thread_runs(ThreadId tid);

VG_REGPARM(2) void mp_loop_at(mp_instr *ii, UWord sp);
VG_REGPARM(1) void mp_loop_back_edge(UWord loop);
VG_REGPARM(1) void mp_loop_fell_through(UWord loop);
VG_REGPARM(1) void mp_loop_return(UWord fn);

/* Every access (the list's loops entry, mp_an_loops.h), with its memory cycles and the
   start of its block (0: unknown, the stack). */
/* Returns the structure stream the access counted in (mp_structs_access),
   or MP_NO_STREAM. */
#define MP_NO_STREAM (~0u)
UInt mp_loopnest_access(UInt tid, mp_instr *ii, const mp_event *e, UInt cycles,
                        Addr start);
/* The count of changes to fn's loops so far, at an address that stays
   valid (the generated code reads it). */
const UInt *mp_loopnest_fn_loops_changes(UInt fn);
/* Where a block of fn starting at a lies, as the loops known now say
   (instrumentation time): in no loop, in a loop with no loop inside
   it, or in one with loops inside. */
typedef enum { MP_BLOCK_NO_LOOP, MP_BLOCK_LEAF_LOOP, MP_BLOCK_OUTER_LOOP } mp_block_place;
mp_block_place mp_loopnest_block_place(UInt fn, Addr a);
/* Is a the head of a known loop of fn (instrumentation time)? */
Bool mp_loopnest_is_head(UInt fn, Addr a);
void mp_loopnest_thread_exit(UInt serial);

/* A private reuse of var by thread tid at distance d, in a detail
   window, far enough for the carriers (mp_carriers), whose earlier
   access left 'then' (the low 32 bits of the loops' epoch, 'now' at
   this access, mp_loops_epoch): counted by the loop that carried it,
   or as unseen when the earlier access came before the window. */
void mp_loopnest_far_reuse(mp_carriers *cs, UInt tid, UInt var, ULong now, UInt then,
                           ULong d);
/* A reuse is measured at an access of thread tid (mp_loops_seen), as
   the reuse step does it: at the first after a change of the loops. */
extern const uint64_t *mp_g_loop_changes;
extern ULong mp_g_loops_seen_changes;
extern UInt mp_g_loops_seen_tid;
static inline void mp_loopnest_seen(UInt tid)
{
   if (UNLIKELY(*mp_g_loop_changes != mp_g_loops_seen_changes
                || tid != mp_g_loops_seen_tid)) {
      mp_loops_seen(mp_g_loops, tid);
      mp_g_loops_seen_changes = *mp_g_loop_changes;
      mp_g_loops_seen_tid = tid;
   }
}

/* A sampling window begins.  'followed': the loop hooks ran in the gap
   (--sample=detail), so the instances go on; otherwise the nests the
   threads were in were not followed, and their open instances end
   here. */
void mp_loopnest_window_start(Bool followed);

/* Ends the open loop instances (before the report); forgets the counts
   (a forked child). */
void mp_loopnest_finish(void);
void mp_loopnest_reset(void);

/* For the results: what is known of each instruction, by id (*n_out
   of them; freed by the caller), and the name of the field at offset
   of var's structures (mp_adapter_queries). */
mp_instr_fact *mp_loopnest_instr_facts(uint32_t *n_out);
char *mp_loopnest_field_name(uint32_t var, uint64_t offset, uint64_t size);

#endif /* MP_LOOPNEST_H */
