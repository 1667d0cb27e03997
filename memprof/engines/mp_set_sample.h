/*--------------------------------------------------------------------*/
/*--- memprof: a sample of the cache lines, as whole sets.         ---*/
/*---                                               mp_set_sample.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   --sample=lines: which lines the run follows.  A line is in the sample
   when its L1 set is; the sets are 1 in 2^shift of the L1's, picked by
   a hash of their number (not a run of neighbours, which one array's
   stride could favour).  Because every deeper level has at least the
   L1's sets and a line's set there keeps its L1 set's number in its low
   bits, the sampled lines are whole sets at every level: each one
   behaves as in the full run, conflicts and coherence included (set
   sampling, Kessler, Hill & Wood).  Hashing single lines instead would
   need caches scaled down by the rate, whose few sets each get an
   uneven share of the lines: measured on kernels of power-of-two
   strides and working sets near a level's size, that was off by 2 to
   10x where whole sets were exact (docs/performance.md).  The price: a
   walk confined to a few sets is all in the sample or all out.

   What a count over the sampled lines stands for is the count times
   2^shift.  Its 95% interval comes from the spread of the count over
   the sampled lines: each (line, variable) pair keeps its own counts
   (mp_line_sums), and each variable the sum of their squares, from
   which the variance of the estimate is (1 - R) / R^2 times that sum
   for a sample of the lines at rate R (Horvitz-Thompson, every line
   in with probability R).  The lines of one set go in or out together,
   which this leaves out: a variable whose lines crowd into a few sets
   gets too narrow an interval (measured in docs/performance.md).

   Cost: one hash probe per sampled access, 64 bytes per (line,
   variable) pair of the sample.
*/
#ifndef MP_SET_SAMPLE_H
#define MP_SET_SAMPLE_H

#include "mp_platform.h"

/* The shift for a fraction 'rate' of sets out of 'sets' (a power of
   two): the sample has the largest power of two of sets not above
   rate * sets, and at least one. */
uint32_t mp_set_sample_shift(double rate, uint32_t sets);

/* Marks in table[0, sets) the sets / 2^shift sets of the sample: those
   whose hashed numbers are the smallest. */
void mp_set_sample_pick(uint8_t *table, uint32_t sets, uint32_t shift);

/* What the estimates are of, per (line, variable) and per variable:
   accesses, misses at each level, cycles, and stall cycles (beyond an
   L1 hit). */
enum {
   MP_EST_ACCESSES,
   MP_EST_MISSES,            /* + level, 0-based, up to 3 levels */
   MP_EST_CYCLES = MP_EST_MISSES + 3,
   MP_EST_STALL,
   MP_EST_N
};

typedef struct mp_line_sums mp_line_sums;

mp_line_sums *mp_line_sums_new(void);
void          mp_line_sums_free(mp_line_sums *t);
uint64_t      mp_line_sums_bytes(const mp_line_sums *t);

/* Adds inc to the counts of (line, var), and to sq[i] what that adds to
   the sum over the pairs of count[i]^2: 2 * count * inc + inc^2.
   Returns 1 if the pair is new. */
int mp_line_sums_add(mp_line_sums *t, uint64_t line, uint32_t var,
                     const uint64_t inc[MP_EST_N], double sq[MP_EST_N]);

/* The 95% interval of the estimate 2^shift * sampled, whose pairs'
   squares sum to sq, over 'lines' sampled lines: the normal one, with
   Student's t for the lines' number less one in place of 1.96 (a
   variable of few lines has a few large terms, whose spread the
   squares understate); [lo, hi] clipped below at the sampled count
   itself (the whole run has at least what the sample saw). */
void mp_set_sample_interval(uint64_t sampled, double sq, uint32_t shift, uint64_t lines,
                            double *lo, double *hi);

#endif /* MP_SET_SAMPLE_H */
