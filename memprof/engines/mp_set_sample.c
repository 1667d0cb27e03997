/*--------------------------------------------------------------------*/
/*--- memprof: a sample of the cache lines, as whole sets.         ---*/
/*---                                               mp_set_sample.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   See mp_set_sample.h.  The sample's sets are picked once, at start-up;
   the line sums are kept at every sampled access.
*/
#include "mp_set_sample.h"
#include "mp_util.h"

uint32_t mp_set_sample_shift(double rate, uint32_t sets)
{
   uint32_t shift = 0;
   while ((1ULL << (shift + 1)) <= sets && (double)(sets >> shift) > rate * (double)sets)
      shift++;
   return shift;
}

/* A set's rank in the hash order, ties broken by number. */
static uint64_t key(uint32_t s)
{
   return mp_mix64((uint64_t)s + 0x9e3779b97f4a7c15ULL);
}

void mp_set_sample_pick(uint8_t *table, uint32_t sets, uint32_t shift)
{
   uint32_t want = sets >> shift, s, t;
   for (s = 0; s < sets; s++) {
      uint64_t ks = key(s);
      uint32_t below = 0;
      /* Quadratic in the sets, once: an L1 has tens to thousands. */
      for (t = 0; t < sets && below < want; t++) {
         uint64_t kt = key(t);
         below += kt < ks || (kt == ks && t < s);
      }
      table[s] = below < want;
   }
}

/*------------------------------------------------------------*/
/*--- The counts of each (line, variable) of the sample    ---*/
/*------------------------------------------------------------*/

/* Open addressing, linear probing, at most half full; a slot with
   line UINT64_MAX is empty. */
typedef struct {
   uint64_t line;
   uint32_t var, pad;
   uint64_t count[MP_EST_N];
} pair_sums;

struct mp_line_sums {
   pair_sums *slot;
   uint64_t mask;    /* slots - 1 */
   uint64_t used;
};

#define EMPTY_LINE UINT64_MAX
#define FIRST_SLOTS 1024

static pair_sums *new_slots(uint64_t n)
{
   pair_sums *p = mp_malloc("mp.linesums.1", n * sizeof *p);
   uint64_t i;
   for (i = 0; i < n; i++) {
      p[i].line = EMPTY_LINE;
      p[i].var = 0;
   }
   return p;
}

mp_line_sums *mp_line_sums_new(void)
{
   mp_line_sums *t = mp_calloc("mp.linesums.2", 1, sizeof *t);
   t->slot = new_slots(FIRST_SLOTS);
   t->mask = FIRST_SLOTS - 1;
   return t;
}

void mp_line_sums_free(mp_line_sums *t)
{
   if (!t)
      return;
   mp_free(t->slot);
   mp_free(t);
}

uint64_t mp_line_sums_bytes(const mp_line_sums *t)
{
   return sizeof *t + (t->mask + 1) * sizeof(pair_sums);
}

static uint64_t slot_of(const mp_line_sums *t, uint64_t line, uint32_t var)
{
   uint64_t i = mp_mix64(line * 0x100000001b3ULL ^ var) & t->mask;
   while (t->slot[i].line != EMPTY_LINE && (t->slot[i].line != line || t->slot[i].var != var))
      i = (i + 1) & t->mask;
   return i;
}

static void grow(mp_line_sums *t)
{
   pair_sums *old = t->slot;
   uint64_t n = t->mask + 1, i;
   t->slot = new_slots(2 * n);
   t->mask = 2 * n - 1;
   for (i = 0; i < n; i++)
      if (old[i].line != EMPTY_LINE)
         t->slot[slot_of(t, old[i].line, old[i].var)] = old[i];
   mp_free(old);
}

int mp_line_sums_add(mp_line_sums *t, uint64_t line, uint32_t var,
                     const uint64_t inc[MP_EST_N], double sq[MP_EST_N])
{
   int fresh = 0;
   uint64_t i = slot_of(t, line, var);
   pair_sums *p = &t->slot[i];
   int k;
   mp_assert(line != EMPTY_LINE);
   if (p->line == EMPTY_LINE) {
      if (2 * (t->used + 1) > t->mask + 1) {
         grow(t);
         p = &t->slot[slot_of(t, line, var)];
      }
      p->line = line;
      p->var = var;
      for (k = 0; k < MP_EST_N; k++)
         p->count[k] = 0;
      t->used++;
      fresh = 1;
   }
   for (k = 0; k < MP_EST_N; k++)
      if (inc[k]) {
         double c = (double)p->count[k], d = (double)inc[k];
         sq[k] += 2.0 * c * d + d * d;
         p->count[k] += inc[k];
      }
   return fresh;
}

/* Student's t at 97.5% for df degrees of freedom (df >= 1), from its
   table, between whose rows it is close to linear in 1/df. */
static double t975(uint64_t df)
{
   static const struct { uint32_t df; double t; } row[] = {
      { 1, 12.706 }, { 2, 4.303 }, { 3, 3.182 }, { 4, 2.776 }, { 5, 2.571 },
      { 6, 2.447 }, { 7, 2.365 }, { 8, 2.306 }, { 9, 2.262 }, { 10, 2.228 },
      { 12, 2.179 }, { 15, 2.131 }, { 20, 2.086 }, { 30, 2.042 }, { 60, 2.000 },
      { 120, 1.980 },
   };
   uint32_t i;
   if (df <= 1)
      return row[0].t;
   for (i = 1; i < sizeof row / sizeof row[0]; i++)
      if (df <= row[i].df) {
         double a = 1.0 / row[i - 1].df, b = 1.0 / row[i].df, x = 1.0 / (double)df;
         return row[i].t + (row[i - 1].t - row[i].t) * (x - b) / (a - b);
      }
   return 1.96 + (1.980 - 1.96) * 120.0 / (double)df;
}

void mp_set_sample_interval(uint64_t sampled, double sq, uint32_t shift, uint64_t lines,
                            double *lo, double *hi)
{
   double w = (double)(1ULL << shift), est = w * (double)sampled;
   double sd = mp_sqrt((1.0 - 1.0 / w) * w * w * sq);
   double t = t975(lines > 1 ? lines - 1 : 1);
   *lo = est - t * sd;
   *hi = est + t * sd;
   if (*lo < (double)sampled)
      *lo = (double)sampled;
}
