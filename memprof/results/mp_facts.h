/*--------------------------------------------------------------------*/
/*--- memprof: what the finished analyses say.           mp_facts.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Questions the results' builders and the writers ask of the finished
   analyses: which loop an instruction is in and how its address steps
   in an enclosing loop, where a loop is, what structure a variable's
   accesses show, the hierarchy a replay runs through.  Answers only:
   nothing here changes an analysis or the results.  No Valgrind
   header: unit-tested on the host.
*/
#ifndef MP_FACTS_H
#define MP_FACTS_H

#include "mp_results_types.h"

/* Variables with fewer accesses get no structure analysis: a structure
   inferred from a few accesses (start-up code walking the loader's
   tables) is noise, not a layout to act on. */
#define MP_STRUCT_MIN_ACCESSES 1000

/* The innermost loop of instruction instr (the instruction ids of
   mp_line_stride), MP_LOOP_NONE if none or without loops. */
uint32_t mp_facts_instr_loop(const mp_finished *an, uint32_t instr);

/* "file:first-last" of loop l, allocated (freed with mp_free). */
char *mp_facts_loop_where(const mp_finished *an, uint32_t l);

/* The step of instruction instr's address per iteration of loop l
   (which must enclose it); 0 with *known 0 if no fitting formula
   tells. */
int64_t mp_facts_instr_step(const mp_finished *an, uint32_t instr, uint32_t l,
                            int *known);

/* The element size of var's structure if it has two field groups or
   more (a split is suggested), else 0. */
uint64_t mp_facts_struct_size(const mp_finished *an, uint32_t var);

/* The structure var's accesses show, its fields named by ask (which
   may be NULL), or NULL if it is not an array of structures; freed
   with mp_structure_free. */
mp_structure *mp_facts_structure(const mp_finished *an, const mp_adapter_queries *ask,
                                 uint32_t var);
void mp_structure_free(mp_structure *s);

/* Fields that overlap are not a structure's: a 16-byte vector store
   next to 8-byte loads of the same plain array (an unrolled or
   vectorised loop) looks like fields at 0 and 8 of a 16-byte record. */
int mp_facts_fields_overlap(const mp_struct_layout *l);

/* The simulated hierarchy as an mp_cache configuration (no callbacks),
   for replays; 0 without a cache simulation. */
int mp_facts_cache_cfg(const mp_finished *an, mp_cache_cfg *out);

/* The cycles of a line's transfer between cores: the latency of the
   first level all cores share (where the line is found again), memory's
   without one; 0 without a cache simulation. */
uint32_t mp_facts_transfer_cycles(const mp_finished *an);

#endif /* MP_FACTS_H */
