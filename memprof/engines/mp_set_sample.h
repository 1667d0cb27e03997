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
   2^shift.  Its 95% interval is the wider of two, each from how the
   count spreads over the units of the sample (mp_line_sums keeps the
   counts of each sampled line, mp_unit_sums those of each (set,
   variable) pair, and each variable the sums of their squares):
   - lines as units, as if each line were drawn on its own with
     probability R: variance (1 - R) / R^2 times the lines' squares
     (Horvitz-Thompson), Student's t for the lines less one;
   - sets as units, as the sample draws them, n sets out of n / R
     without replacement: variance n (1 - R) / R^2 times the sets'
     sample variance, Student's t for n - 1.
   The sets' interval is the design's own and catches lines that share
   their fate (a column walk crowding into a few sets, a set's
   conflicts), which the lines' misses; but from the 2 to 8 sets of a
   usual sample its spread is itself a rough estimate, by chance or
   when every set has the same few lines (their cold misses) near
   zero, where the lines' interval still holds (docs/performance.md
   measures both).

   Cost: per sampled access, a look-up by rank and one hash probe; 48
   bytes per sampled line (mp_line_sums), 56 per (set, variable) pair.
*/
#ifndef MP_SET_SAMPLE_H
#define MP_SET_SAMPLE_H

#include "mp_platform.h"

/* The shift for a fraction 'rate' of sets out of 'sets' (a power of
   two): the sample has the largest power of two of sets not above
   rate * sets, and at least two when there are (the intervals need
   two sets to measure a spread between them). */
uint32_t mp_set_sample_shift(double rate, uint32_t sets);

/* Marks in table[0, sets) the sets / 2^shift sets of the sample: those
   whose hashed numbers are the smallest. */
void mp_set_sample_pick(uint8_t *table, uint32_t sets, uint32_t shift);

/* What the estimates' intervals are of, per unit and per variable:
   accesses, misses at each level and stall cycles (beyond an L1 hit;
   the cycles are the exact accesses' L1 latency plus the stall). */
enum {
   MP_EST_ACCESSES,
   MP_EST_MISSES,            /* + level, 0-based, up to 3 levels */
   MP_EST_STALL = MP_EST_MISSES + 3,
   MP_EST_N
};

typedef struct mp_unit_sums mp_unit_sums;

mp_unit_sums *mp_unit_sums_new(void);
void          mp_unit_sums_free(mp_unit_sums *t);
uint64_t      mp_unit_sums_bytes(const mp_unit_sums *t);

/* Adds inc to the counts of (unit, var), to sum[i] (unless sum is
   NULL) inc[i], and to sq[i] what that adds to the sum over the
   variable's units of count[i]^2: 2 * count * inc + inc^2.  Returns 1
   if the pair is new. */
int mp_unit_sums_add(mp_unit_sums *t, uint64_t unit, uint32_t var, const uint64_t inc[MP_EST_N],
                     double sum[MP_EST_N], double sq[MP_EST_N]);

/* The same for the sampled lines, each numbered by its rank in the
   sample (a line's number above the L1's set bits times the sampled
   sets, plus its set's rank): a table indexed by rank, in chunks made
   as the ranks are first touched, one variable's counts per line, and
   a unit table for the lines' other variables.  Sums a bare unit table
   would keep too, in a third of the memory: 48 bytes per sampled line
   of a touched chunk, where a hash table's pairs cost two to four
   times that. */
typedef struct mp_line_sums mp_line_sums;

mp_line_sums *mp_line_sums_new(void);
void          mp_line_sums_free(mp_line_sums *t);
uint64_t      mp_line_sums_bytes(const mp_line_sums *t);
int mp_line_sums_add(mp_line_sums *t, uint64_t rank, uint32_t var, const uint64_t inc[MP_EST_N],
                     double sq[MP_EST_N]);

/* The spread of one count over the sample: over 'lines' sampled lines,
   the sum of their counts' squares; over 'sets' sampled sets, the sum
   of their counts' squares, and the square of their sum (or, for
   several variables taken as independent, the sum of each one's). */
typedef struct {
   uint64_t lines;
   double line_sq;
   uint32_t sets;
   double set_sq, set_sum_sq;
} mp_sample_spread;

/* The 95% interval of the estimate est of a count 1 in 2^shift sets
   sampled, whose spread is s: est plus or minus the wider of the lines'
   and the sets' half-widths, clipped below at est / 2^shift (the whole
   run has at least what the sample saw). */
void mp_set_sample_interval(double est, const mp_sample_spread *s, uint32_t shift, double *lo,
                            double *hi);

#endif /* MP_SET_SAMPLE_H */
