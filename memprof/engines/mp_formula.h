/*--------------------------------------------------------------------*/
/*--- memprof: affine access formulas (MTL).           mp_formula.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   MAQAO's MTL describes each memory instruction of a loop nest by an
   affine formula of the loop counters, e.g. 8*i1 + 1088*i2 + 217600*i3
  : the coefficient of a counter is the instruction's stride
   in bytes along that loop, so a big coefficient on the innermost loop
   shows at once a nest that wants interchanging.

   Input, per access of an instruction: the iteration vector v[0..n-1]
   of the loops active around it, outermost first (mp_loops: each
   counter is the number of back edges taken since that loop's entry,
   0 in the first pass), and the address.  The engine looks for base and
   c[0..n-1] with addr = base + sum c[k]*v[k] for every access:

   - The first access is the reference (v0, a0).  A later access whose
     vector differs from v0 in exactly one counter k of unknown
     coefficient, the others known, gives c[k] = (a - a0 - known part) /
     (v[k] - v0[k]) if the division is exact (a mismatch otherwise).
     In a nest run in order, each counter first moves alone, so the
     coefficients come from the first accesses.
   - Every other access checks the prediction: a fit or a mismatch.
     One with two or more unknown counters changed is "unresolved".
   - A counter that never changed has no coefficient: any value fits,
     it is reported as 0.  An access with another vector length than
     the first (the instruction reached from another nest) mismatches.
   - The formula is reported when fits >= 99% of accesses (mismatches
     and unresolved accesses count against it), with the fit ratio.
   - A nest whose strides depend on its call's arguments (an FFT's
     butterfly, whose span doubles from one call to the next) has no
     formula over all its executions, and each one of them has its own.
     Told which execution of the instruction's outermost loop an access
     belongs to (mp_formula_access_exec), the engine fits one: when a
     new execution starts, a formula that fitted the last one is
     settled and the later executions are not looked at (but for the
     settled one's counters, when it goes on after another thread's
     execution ran: Valgrind runs one thread at a time); one that did
     not is fitted again from scratch (a refit).  The highest counters
     seen in the settled execution give its trip counts, for a replay
     of that execution.
   - When the caller gives the start of the accessed block (the
     variable), the formula is fitted on the offset in the block, so it
     holds across calls on different blocks and its constant is the
     offset in the variable.  Otherwise the constant is an address and
     is not printed.

   Convention of the printed form: i1 is the innermost loop, i2 the one
   around it, ..., in the outermost, and terms are written innermost
   first.  So the row-major walk of double a[N3][200][136], "for k for j
   for i a[k][j][i]", prints 8*i1 + 1088*i2 + 217600*i3 (8 = sizeof
   double, 1088 = 136*8, 217600 = 200*1088), as in the issue.  Note that
   the PAMDA paper numbers MTL's counters the other way (its i1 is the
   outermost loop: "8*i1+217600*i2+1088*i3" there, with the small stride
   outermost, is 1088*i1 + 217600*i2 + 8*i3 here).  Numbering from the
   inside keeps i1 the innermost loop whatever the depth, so the first
   term always is the stride along the innermost loop.  Zero
   coefficients are left out; the block offset, if any and not 0, ends
   the formula ("8*i1 + 1088*i2 + 16").

   Cost: one hash probe (instruction) plus O(depth) per access; memory
   O(depth) per instruction.
*/
#ifndef MP_FORMULA_H
#define MP_FORMULA_H

#include "mp_platform.h"

#define MP_FORMULA_MAX_DEPTH 64     /* deeper vectors always mismatch */
#define MP_FORMULA_NO_BLOCK  0      /* block_start when the caller has none */

/* What is known of one instruction. */
typedef struct {
   uint64_t instr;
   uint32_t depth;           /* length of the vectors, set by the first access */
   uint32_t has_block;       /* fitted on offsets in the block (first access) */
   int64_t *coef;            /* bytes per iteration, coef[k] for loop k, 0 outermost */
   uint64_t known;           /* bit k: coef[k] derived */
   uint64_t *ref;            /* the reference vector */
   uint64_t ref_addr;        /* its address, or offset in the block */
   uint64_t ref_block;       /* the block's start then (has_block), or 0 */
   uint64_t accesses, fits, mismatches, unresolved;
   /* The execution of the outermost loop it was fitted in (0: every
      execution, as the caller told none), whether that one ended with
      the formula fitting (settled: the later ones are not looked at),
      the executions fitted before it in vain, and the highest counters
      seen in it (hi[k], for loop k). */
   uint64_t execution;
   uint8_t  settled;
   uint32_t refits;
   uint64_t *hi;
   /* What a replay of the instruction needs (mp_formula_access_exec):
      its widest access in bytes (0: not told), whether it loads and
      whether it stores. */
   uint32_t size;
   uint8_t  loads, stores;
} mp_formula_instr;

/* The adapter's sampling (mp_loopnest.c): every access of an
   instruction's first MP_FORMULA_FULL in its loop, then one in
   MP_FORMULA_EVERY (a power of two). */
#define MP_FORMULA_FULL  4096
#define MP_FORMULA_EVERY 16

/* The accesses an instruction made in its loop, estimated from those
   the formula saw under that sampling. */
static inline uint64_t mp_formula_estimated_accesses(uint64_t seen)
{
   return seen <= MP_FORMULA_FULL ? seen
          : MP_FORMULA_FULL + (seen - MP_FORMULA_FULL) * MP_FORMULA_EVERY;
}

typedef struct mp_formula mp_formula;

mp_formula *mp_formula_new(void);
void        mp_formula_free(mp_formula *f);

/* An access of instr at addr with iteration vector iters[0..depth-1]
   (outermost first), in the block starting at block_start
   (MP_FORMULA_NO_BLOCK if unknown). */
void mp_formula_access(mp_formula *f, uint64_t instr, const uint64_t *iters,
                       uint32_t depth, uint64_t addr, uint64_t block_start);
/* Executions fitted in vain before an instruction is given up on (its
   record keeps the last one's counts, which do not fit). */
#define MP_FORMULA_MAX_REFITS 16

/* What mp_formula_access_exec says of the instruction's record after
   the access: it started a new fit (a refit); the record is settled,
   and only accesses of the execution it settled in
   (mp_formula_instr.execution) can change it from now on, so that a
   caller may skip the others without a call. */
#define MP_FORMULA_REFIT   1
#define MP_FORMULA_SETTLED 2

/* The same, told the access's size and kind, which a replay of the
   nest (mp_nest_replay) needs, and its execution of the instruction's
   outermost loop (an id unique to it; 0: one fit over every execution).
   Returns MP_FORMULA_REFIT and MP_FORMULA_SETTLED or'ed. */
int mp_formula_access_exec(mp_formula *f, uint64_t instr, const uint64_t *iters,
                           uint32_t depth, uint64_t addr, uint32_t size, int is_write,
                           uint64_t block_start, uint64_t execution);

/* The instruction's record, NULL if never seen; or by index 0 .. count-1. */
const mp_formula_instr *mp_formula_get(const mp_formula *f, uint64_t instr);
uint32_t                mp_formula_count(const mp_formula *f);
const mp_formula_instr *mp_formula_at(const mp_formula *f, uint32_t index);

/* base: the address (or block offset) at all counters 0. */
int64_t mp_formula_base(const mp_formula_instr *fi);

/* 1 if the formula fits at least 99% of the accesses; the fit ratio
   (fits / accesses) in *ratio if not NULL. */
int mp_formula_fits(const mp_formula_instr *fi, double *ratio);

/* Writes the formula ("8*i1 + 1088*i2 + 217600*i3") into buf; returns
   the length it needs (as snprintf). */
int mp_formula_format(const mp_formula_instr *fi, char *buf, size_t len);

#endif /* MP_FORMULA_H */
