/*--------------------------------------------------------------------*/
/*--- memprof: the replays of the loop-order advice.                ---*/
/*---                                              mp_order_replays.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   A loop interchange, or a tiling, replayed before it is advised
   (--what-if=interchange, tile).  The nest from the loop to move outwards
   down to the innermost loop of the walk is rebuilt from the access
   formulas (mp_formula) of every memory instruction of that innermost
   loop, the array walked and the others beside it, and from the loops'
   trip counts (mp_loops); one execution of it is replayed
   (mp_nest_replay) in the order it ran and with the two loops
   swapped.  A nest with an instruction whose formula does not fit gets
   no replay, and says why.  Made by the advice rule that needs it; no
   Valgrind header: unit-tested on the host.  The nest builder and
   the text are shared with the padding replay (mp_pad_replays).
*/
#ifndef MP_ORDER_REPLAYS_H
#define MP_ORDER_REPLAYS_H

#include "mp_nest_replay.h"
#include "mp_results_types.h"

/* Accesses replayed per order at most: of a larger nest, the first
   ones of each order (the replay not complete). */
#define MP_ORDER_REPLAY_BUDGET (1u << 20)

typedef struct {
   mp_replay r;              /* made: both orders replayed; complete: all
                                of one execution of the nest */
   uint32_t n_instrs;        /* memory instructions replayed */
   uint32_t n_left;          /* those of the loops between, left out */
   uint32_t n_loops;         /* the nest's loops, outermost first: */
   uint64_t full[MP_NEST_MAX_LOOPS];     /* their iterations in one execution */
   uint64_t all;             /* the accesses of one execution of the nest */
   char *how;                /* made: the order replayed ("interchanged"),
                                allocated */
   uint64_t tile[MP_NEST_MAX_TILED];  /* tiling: the tiles, iterations, of
                                the inner loop and (2-D) the loop around
                                it; 0: none */
   uint32_t level;           /* the level whose misses the text gives */
   char *also;               /* made: another variant's outcome, ending the
                                text ("; with ...: L1 misses ..."),
                                allocated, or NULL */
   char *why_not;            /* not made: why (allocated), or NULL when
                                no replay was asked for */
   /* In, for mp_order_nest: leave out the loads of the innermost loop
      whose formulas do not fit (an indirect index: a gather), rather
      than make no nest; out: their variables (allocated, UINT32_MAX:
      none known) and number.  A store without one still makes none,
      unless leave_scatters: then it is left out too, its variable
      listed in scattered (a loop split keeps each part's scatters;
      the caller checks that no reference kept touches their variables). */
   int leave_gathers, leave_scatters;
   /* In: replay the outermost loop's largest execution (its most
      iterations at one entry) where it ran further than the one the
      formulas were fitted in.  Loops over per-call regions are fitted
      at the first call, perhaps a small region, while their capacity
      misses come from the large ones; an affine walk steps on alike. */
   int largest;
   uint32_t *gathered, n_gathered;
   uint32_t *scattered, n_scattered;
   /* Out: the variables the instructions left out between the loops
      (n_left) load and store (allocated, UINT32_MAX: none known), and
      their numbers: a fusion with another nest cannot check its
      dependences through them. */
   uint32_t *left_loaded, n_left_loaded;
   uint32_t *left_stored, n_left_stored;
} mp_order_replay;

/* The nest from loop outer down to loop inner, the innermost loop of
   instruction instr, with every memory instruction of inner's body, in
   the order it ran: its references (nest->refs; the caller frees
   them), out's description of it filled, and in *ids (if ids; the
   caller frees it) the instruction of each reference; or NULL with
   out->why_not saying why none can be made. */
mp_nest_ref *mp_order_nest(const mp_run *run, const mp_finished *an, uint32_t instr,
                           uint32_t inner, uint32_t outer, mp_nest *nest,
                           mp_order_replay *out, uint32_t **ids);

/* Inner loops of at most this many iterations per entry, every entry,
   are unrolled into a flat nest's body (mp_order_flat_nest): a finite
   element's 8 nodes, a 3-vector's components. */
#define MP_ORDER_FLAT_TRIPS 8
/* References an instruction may become so, at most. */
#define MP_ORDER_FLAT_COPIES 64

/* The nest of loop alone, its body every memory instruction of loop and
   of the loops inside it, those unrolled: one reference per iteration of
   the inner loops, placed in the body where the inner loop runs.  The
   whole body of an element loop with short inner loops (the imperfect
   nest mp_order_nest replays only the innermost body of, the rest left
   out), as a fusion moves it.  Instructions without a formula are left
   out as with mp_order_nest's leave_gathers and leave_scatters, if
   asked.  NULL when loop has
   no inner loop, or one that runs more than MP_ORDER_FLAT_TRIPS
   iterations or not the same number at each entry, or an instruction
   that is no load has no formula the loop moves by a known step: the
   caller then makes the nest mp_order_nest makes (out's lists must be
   cleared first).  As mp_order_nest otherwise. */
mp_nest_ref *mp_order_flat_nest(const mp_finished *an, uint32_t loop,
                                mp_nest *nest, mp_order_replay *out, uint32_t **ids);

/* Replays nest as it ran into out->r.before and after into
   out->r.after, through the run's hierarchy. */
void mp_order_replay_both(const mp_finished *an, const mp_nest *nest,
                          const mp_nest *after, mp_order_replay *out);

/* "-88%" or "+3%": the change from a to b, rounded; allocated. */
char *mp_order_change(uint64_t a, uint64_t b);

/* What a replay changed: "L1 misses 8,192 -> 1,024 (-88%), cycles
   520,192 -> 462,848 (-11%)", level's misses and the cycles from
   before to after; allocated.  The tail of every replay's clause. */
char *mp_replay_outcome(const mp_whatif_run *before, const mp_whatif_run *after,
                        uint32_t level);

/* The interchange of loop inner, the innermost loop of instruction
   instr, with loop with around it. */
void mp_replay_interchange(const mp_run *run, const mp_finished *an, uint32_t instr,
                           uint32_t inner, uint32_t with, mp_order_replay *out);

/* Blocking for the level: the innermost loop of instruction instr cut
   into tiles whose lines, in one iteration of the carrier, fill half of
   the level, the loop over the tiles moved around the carrier,
   replayed against the nest as it ran (--what-if=tile).  When two of
   its iterations already overflow that half (a loop between the
   carrier and it runs whole in each iteration of the carrier: a
   column of a matrix), that loop and the inner loop are both cut, in
   square-ish tiles whose lines fill half the level, the loops over the
   tiles outermost (i/j blocking).  The carrier
   is carried_by, the loop measured to carry the reuses (mp_carriers),
   when it holds the walk; else the nearest loop around it whose
   iterations come back to the data (by instr's formula, its step no
   more than the inner loop's walk). */
void mp_replay_tiling(const mp_run *run, const mp_finished *an, uint32_t instr,
                      uint32_t level, uint32_t carried_by, mp_order_replay *out);

/* "; replaying one execution of the nest (the 2 memory instructions of
   its innermost loop, 512 x 512 iterations, 524,288 accesses)
   interchanged: L1 misses 262,145 -> 32,769 (-87%), cycles ... (-85%)",
   "; replaying the first 1,048,576 accesses of each order of one
   execution of the nest (..., 2 more in the loops around it left out,
   ...)
   ..."; "; no replay: why"; "" when none was asked for.  Allocated. */
char *mp_order_replay_text(const mp_order_replay *o);

void mp_order_replay_clear(mp_order_replay *o);

#endif /* MP_ORDER_REPLAYS_H */
