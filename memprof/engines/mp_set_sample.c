/*--------------------------------------------------------------------*/
/*--- memprof: a sample of the cache lines, as whole sets.         ---*/
/*---                                               mp_set_sample.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   See mp_set_sample.h.  The sample's sets are picked once, at start-up;
   the line and set sums are kept at every sampled access.
*/
#include "mp_set_sample.h"
#include "mp_util.h"

uint32_t mp_set_sample_shift(double rate, uint32_t sets)
{
   uint32_t shift = 0;
   while ((2ULL << (shift + 1)) <= sets && (double)(sets >> shift) > rate * (double)sets)
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
/*--- The counts of each (unit, variable) of the sample    ---*/
/*------------------------------------------------------------*/

/* Open addressing, linear probing, at most half full; a slot with
   unit EMPTY_UNIT is empty. */
typedef struct {
   uint64_t unit;
   uint32_t var, pad;
   uint64_t count[MP_EST_N];
} pair_sums;

struct mp_unit_sums {
   pair_sums *slot;
   uint64_t mask;    /* slots - 1 */
   uint64_t used;
};

#define EMPTY_UNIT UINT64_MAX
#define FIRST_SLOTS 1024

static pair_sums *new_slots(uint64_t n)
{
   pair_sums *p = mp_malloc("mp.unitsums.1", n * sizeof *p);
   uint64_t i;
   for (i = 0; i < n; i++) {
      p[i].unit = EMPTY_UNIT;
      p[i].var = 0;
   }
   return p;
}

mp_unit_sums *mp_unit_sums_new(void)
{
   mp_unit_sums *t = mp_calloc("mp.unitsums.2", 1, sizeof *t);
   t->slot = new_slots(FIRST_SLOTS);
   t->mask = FIRST_SLOTS - 1;
   return t;
}

void mp_unit_sums_free(mp_unit_sums *t)
{
   if (!t)
      return;
   mp_free(t->slot);
   mp_free(t);
}

uint64_t mp_unit_sums_bytes(const mp_unit_sums *t)
{
   return sizeof *t + (t->mask + 1) * sizeof(pair_sums);
}

static uint64_t slot_of(const mp_unit_sums *t, uint64_t unit, uint32_t var)
{
   uint64_t i = mp_mix64(unit * 0x100000001b3ULL ^ var) & t->mask;
   while (t->slot[i].unit != EMPTY_UNIT && (t->slot[i].unit != unit || t->slot[i].var != var))
      i = (i + 1) & t->mask;
   return i;
}

static void grow(mp_unit_sums *t)
{
   pair_sums *old = t->slot;
   uint64_t n = t->mask + 1, i;
   t->slot = new_slots(2 * n);
   t->mask = 2 * n - 1;
   for (i = 0; i < n; i++)
      if (old[i].unit != EMPTY_UNIT)
         t->slot[slot_of(t, old[i].unit, old[i].var)] = old[i];
   mp_free(old);
}

int mp_unit_sums_add(mp_unit_sums *t, uint64_t unit, uint32_t var, const uint64_t inc[MP_EST_N],
                     double sum[MP_EST_N], double sq[MP_EST_N])
{
   int fresh = 0;
   uint64_t i = slot_of(t, unit, var);
   pair_sums *p = &t->slot[i];
   int k;
   mp_assert(unit != EMPTY_UNIT);
   if (p->unit == EMPTY_UNIT) {
      if (2 * (t->used + 1) > t->mask + 1) {
         grow(t);
         p = &t->slot[slot_of(t, unit, var)];
      }
      p->unit = unit;
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
         if (sum)
            sum[k] += d;
         p->count[k] += inc[k];
      }
   return fresh;
}

/*------------------------------------------------------------*/
/*--- The counts of each sampled line, by rank             ---*/
/*------------------------------------------------------------*/

#define CHUNK_LINES 1024

/* A sampled line's counts of its first variable (var + 1; 0: none). */
typedef struct {
   uint32_t var1, pad;
   uint64_t count[MP_EST_N];
} line_sums;

/* The chunks of ranks, found by their number in an open-addressing
   directory (at most half full; a NULL chunk is an empty slot), the
   last one found kept aside: consecutive sampled accesses mostly fall
   in one chunk. */
struct mp_line_sums {
   uint64_t *chunk_no;
   line_sums **chunk;
   uint64_t mask, used;
   uint64_t last_no;
   line_sums *last;
   mp_unit_sums *others;
};

#define FIRST_CHUNKS 64

mp_line_sums *mp_line_sums_new(void)
{
   mp_line_sums *t = mp_calloc("mp.linesums.1", 1, sizeof *t);
   t->chunk_no = mp_calloc("mp.linesums.2", FIRST_CHUNKS, sizeof *t->chunk_no);
   t->chunk = mp_calloc("mp.linesums.3", FIRST_CHUNKS, sizeof *t->chunk);
   t->mask = FIRST_CHUNKS - 1;
   t->others = mp_unit_sums_new();
   return t;
}

void mp_line_sums_free(mp_line_sums *t)
{
   uint64_t i;
   if (!t)
      return;
   for (i = 0; i <= t->mask; i++)
      mp_free(t->chunk[i]);
   mp_free(t->chunk);
   mp_free(t->chunk_no);
   mp_unit_sums_free(t->others);
   mp_free(t);
}

uint64_t mp_line_sums_bytes(const mp_line_sums *t)
{
   return sizeof *t + (t->mask + 1) * (sizeof *t->chunk_no + sizeof *t->chunk)
          + t->used * CHUNK_LINES * sizeof(line_sums) + mp_unit_sums_bytes(t->others);
}

static uint64_t dir_slot(const mp_line_sums *t, uint64_t no)
{
   uint64_t i = mp_mix64(no) & t->mask;
   while (t->chunk[i] != NULL && t->chunk_no[i] != no)
      i = (i + 1) & t->mask;
   return i;
}

static void grow_dir(mp_line_sums *t)
{
   uint64_t *old_no = t->chunk_no, n = t->mask + 1, i;
   line_sums **old = t->chunk;
   t->chunk_no = mp_calloc("mp.linesums.2", 2 * n, sizeof *t->chunk_no);
   t->chunk = mp_calloc("mp.linesums.3", 2 * n, sizeof *t->chunk);
   t->mask = 2 * n - 1;
   for (i = 0; i < n; i++)
      if (old[i] != NULL) {
         uint64_t j = dir_slot(t, old_no[i]);
         t->chunk_no[j] = old_no[i];
         t->chunk[j] = old[i];
      }
   mp_free(old);
   mp_free(old_no);
}

static line_sums *chunk_of(mp_line_sums *t, uint64_t no)
{
   uint64_t i;
   if (t->last != NULL && t->last_no == no)
      return t->last;
   i = dir_slot(t, no);
   if (t->chunk[i] == NULL) {
      if (2 * (t->used + 1) > t->mask + 1) {
         grow_dir(t);
         i = dir_slot(t, no);
      }
      t->chunk_no[i] = no;
      t->chunk[i] = mp_calloc("mp.linesums.4", CHUNK_LINES, sizeof(line_sums));
      t->used++;
   }
   t->last_no = no;
   t->last = t->chunk[i];
   return t->last;
}

int mp_line_sums_add(mp_line_sums *t, uint64_t rank, uint32_t var, const uint64_t inc[MP_EST_N],
                     double sq[MP_EST_N])
{
   line_sums *l = &chunk_of(t, rank / CHUNK_LINES)[rank % CHUNK_LINES];
   int fresh = 0, k;
   if (l->var1 == 0) {
      l->var1 = var + 1;
      fresh = 1;
   } else if (l->var1 != var + 1) {
      return mp_unit_sums_add(t->others, rank, var, inc, NULL, sq);
   }
   for (k = 0; k < MP_EST_N; k++)
      if (inc[k]) {
         double c = (double)l->count[k], d = (double)inc[k];
         sq[k] += 2.0 * c * d + d * d;
         l->count[k] += inc[k];
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

/* t times the standard deviation of a count over n units drawn 1 in
   w: one by one, whose counts' squares sum to ss (Horvitz-Thompson); or
   (fixed_n) n of them drawn without replacement out of n w, whose
   counts' squared deviations from their mean sum to ss. */
static double half_width(double w, double n, double ss, int fixed_n)
{
   double var;
   if (n < 1 || (fixed_n && n < 2) || ss <= 0)
      return 0;
   if (fixed_n)
      var = n * w * w * (1.0 - 1.0 / w) * ss / (n - 1.0);
   else
      var = w * w * (1.0 - 1.0 / w) * ss;
   return t975(n > 1 ? (uint64_t)n - 1 : 1) * mp_sqrt(var);
}

void mp_set_sample_interval(double est, const mp_sample_spread *s, uint32_t shift, double *lo,
                            double *hi)
{
   double w = (double)(1ULL << shift), h = 0, hs;
   if (shift > 0) {
      h = half_width(w, (double)s->lines, s->line_sq, 0);
      if (s->sets > 0) {
         hs = half_width(w, (double)s->sets, s->set_sq - s->set_sum_sq / (double)s->sets, 1);
         if (hs > h)
            h = hs;
      }
   }
   *lo = est - h;
   *hi = est + h;
   if (*lo < est / w)
      *lo = est / w;
}
