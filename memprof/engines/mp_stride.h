/*--------------------------------------------------------------------*/
/*--- memprof: stride histograms per variable.          mp_stride.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Balle & Steely's memory-access histograms: for every
   variable, loads and stores apart, K histograms; histogram k counts the
   byte distance between an access and the k-th previous access of the
   same kind to the same variable by the same thread.  Bins: one per byte
   for 0..127, then [128,255], [256,511], ..., [16384,32767], [32768,inf).
   The bin is chosen by the stride's magnitude; negative strides are also
   counted apart, per histogram.

   Modes: MP_STRIDE_ALL (the paper's first variant: every access enters
   all K histograms) and MP_STRIDE_FILTERED (its second, the default: an
   access enters histogram k+1 only if its stride in histogram k was
   >= threshold bytes).

   Beside the histograms, per variable: the dominant first-histogram
   stride (exact bytes, signed, found with a space-saving counter) and
   the split of first-histogram strides into stride 0, unit element
   (|stride| == access size), within a line, beyond a line.
*/
#ifndef MP_STRIDE_H
#define MP_STRIDE_H

#include "mp_platform.h"

#define MP_STRIDE_MAX_K     16
#define MP_STRIDE_FINE      128   /* bins 0..127: one per byte */
#define MP_STRIDE_N_BINS    (MP_STRIDE_FINE + 9)  /* + 8 power-of-two bins + [32768,inf) */
#define MP_STRIDE_TOP       8     /* space-saving slots for the dominant stride */

typedef enum { MP_STRIDE_FILTERED, MP_STRIDE_ALL } mp_stride_mode;

/* What a first-histogram stride says about locality. */
typedef enum {
   MP_STRIDE_ZERO,         /* same address again */
   MP_STRIDE_UNIT,         /* |stride| == access size: the next element */
   MP_STRIDE_WITHIN_LINE,  /* 0 < |stride| < line, not unit */
   MP_STRIDE_BEYOND_LINE,  /* |stride| >= line */
   MP_STRIDE_N_CLASSES
} mp_stride_class;

typedef struct {
   uint32_t k;                 /* histograms per kind, 1..MP_STRIDE_MAX_K */
   mp_stride_mode mode;
   uint64_t threshold;         /* bytes, for MP_STRIDE_FILTERED */
   uint32_t line;              /* bytes per cache line, a power of two */
} mp_stride_cfg;

/* The histograms of one kind (loads or stores) of one variable. */
typedef struct {
   uint64_t *bins;                       /* K * MP_STRIDE_N_BINS; see MP_STRIDE_BINS */
   uint64_t negative[MP_STRIDE_MAX_K];   /* strides < 0, per histogram */
} mp_stride_hists;

/* Histogram k (0-based) of h, an array of MP_STRIDE_N_BINS counts. */
#define MP_STRIDE_BINS(h, k) ((h)->bins + (size_t)(k) * MP_STRIDE_N_BINS)

typedef struct {
   int64_t stride;                       /* bytes */
   uint64_t count;                       /* an over-estimate by at most error */
   uint64_t error;
} mp_stride_top;

/* Everything the engine knows of one variable. */
typedef struct {
   mp_stride_hists load, store;
   uint64_t classes[MP_STRIDE_N_CLASSES];
   mp_stride_top top[MP_STRIDE_TOP];
   uint64_t first_strides;               /* accesses with a first-histogram stride */
} mp_stride_var;

typedef struct mp_stride mp_stride;

/* NULL and *err set on a bad configuration. */
mp_stride *mp_stride_new(const mp_stride_cfg *cfg, const char **err);
void       mp_stride_free(mp_stride *s);
const mp_stride_cfg *mp_stride_config(const mp_stride *s);

/* Feeds one access, which counts for 'weight' (>= 1: 1 unless sampled;
   with windows that see one access in N, N makes the counts estimates
   of the run's).  Returns the class of its first-histogram stride, or
   -1 if the thread had no earlier access of this kind to the variable.
   Cost: O(K) plus, for a first-histogram stride, O(MP_STRIDE_TOP). */
int mp_stride_access(mp_stride *s, uint32_t var, uint32_t tid,
                     uint64_t addr, uint32_t size, int is_write, uint64_t weight);

/* The variable's data, NULL if it was never accessed. */
const mp_stride_var *mp_stride_get(const mp_stride *s, uint32_t var);

/* Bin index of a stride magnitude, and the bounds of a bin ([lo, hi],
   hi == UINT64_MAX for the last). */
uint32_t mp_stride_bin(uint64_t magnitude);
void     mp_stride_bin_bounds(uint32_t bin, uint64_t *lo, uint64_t *hi);

/* The dominant first-histogram stride: returns 1 and fills stride and
   count if there is one. */
int mp_stride_dominant(const mp_stride_var *v, int64_t *stride, uint64_t *count);

/* A sampling window opens after a gap of accesses the engine did not
   see: each history's next access starts it afresh (no stride spans
   the gap); the counts stay.  O(1). */
void mp_stride_window_start(mp_stride *s);

/* Forgets every count and history (a forked child starts from zero). */
void mp_stride_reset(mp_stride *s);

/*------------------------------------------------------------*/
/*--- Strides per instruction, counted per source line     ---*/
/*------------------------------------------------------------*/

/* The variable's histograms mix its instructions: an access and the
   previous one to the same variable may come from two loops of
   different nests, or from twenty loads each walking its own row.  An
   instruction's own stride, from one of its accesses to its next
   access of the same kind to the same variable, is the step of its
   loop.  Each instruction keeps its last address and the run of equal
   strides it is in (mp_istride); a run is added to the record of
   (variable, source line) only when the stride changes, so a regular
   walk costs one compare per access and no write beyond the
   instruction's own record. */
#define MP_LSTRIDE_SLOTS 4

/* The strides of one (variable, source line), its instructions' runs
   summed with a space-saving counter: slot 0 holds the most frequent,
   slots in descending count. */
typedef struct {
   int64_t  stride;                 /* bytes */
   uint64_t count;                  /* an over-estimate by at most error */
   uint64_t error;
   uint32_t instr;                  /* the caller's id of the instruction
                                       whose run took the slot */
} mp_line_stride_slot;

typedef struct {
   mp_line_stride_slot slot[MP_LSTRIDE_SLOTS];
   uint64_t total;                     /* strides counted */
} mp_line_stride;

/* One instruction's state, for one kind (loads or stores: the two
   halves of a read-modify-write would see a stride of 0 between them). */
typedef struct {
   uint64_t last;     /* its previous address; 0: none */
   int64_t  stride;   /* of the current run */
   uint64_t run;      /* strides in the current run, by weight; 0: none yet */
} mp_istride;

/* Adds n strides of 'stride' bytes, made by instruction instr, to ls.
   O(MP_LSTRIDE_SLOTS). */
void mp_line_stride_add(mp_line_stride *ls, int64_t stride, uint64_t n, uint32_t instr);

/* Adds the run of is to ls (if any) and forgets the instruction's past:
   its next access starts afresh (the instruction moved to another
   variable, or the run ends). */
void mp_istride_flush(mp_istride *is, mp_line_stride *ls, uint32_t instr);

/* One access at addr by the instruction whose state is is, counted
   into ls, the record of its variable and line, its stride counting
   'weight' (1 unless sampled, as in mp_stride_access).  The hot path:
   a compare and an add while the stride repeats. */
static inline void mp_istride_access(mp_istride *is, mp_line_stride *ls, uint64_t addr,
                                     uint32_t instr, uint64_t weight)
{
   int64_t d = (int64_t)(addr - is->last);
   if (__builtin_expect(d == is->stride && is->run != 0, 1)) {
      is->run += weight;
      is->last = addr;
      return;
   }
   if (is->run)
      mp_line_stride_add(ls, is->stride, is->run, instr);
   is->run = is->last != 0 ? weight : 0;
   is->stride = d;
   is->last = addr;
}

/* The dominant stride of ls: returns 1 and fills stride, the strides
   it surely made (count less error) and the instruction, if ls has a
   stride at all. */
int mp_line_stride_dominant(const mp_line_stride *ls, int64_t *stride, uint64_t *sure,
                            uint32_t *instr);

#endif /* MP_STRIDE_H */
