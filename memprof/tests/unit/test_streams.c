/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_streams: MACPO's 20-array loop and its fissioned
   form (driven through mp_loops, as the adapter will), the regularity
   rule case by case, one stream per page a prefetcher follows, and
   random traces against a brute-force reference
   that keeps every access of every instance and applies the definition
   to the whole sequence at the end. */
#include "mp_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_loops.h"
#include "mp_streams.h"

static mp_streams *new_streams(uint32_t threshold)
{
   mp_streams_cfg cfg = { threshold };
   const char *err = NULL;
   mp_streams *s = mp_streams_new(&cfg, &err);
   ck_assert_ptr_nonnull(s);
   return s;
}

/*------------------------------------------------------------*/
/*--- Listing 1 and Listing 2 of MACPO 5.2.1               ---*/
/*------------------------------------------------------------*/

static void end_hook(void *arg, uint32_t tid, uint32_t loop, uint64_t instance,
                     uint64_t iterations)
{
   (void)iterations;
   mp_streams_loop_end(arg, tid, loop, instance);
}

/* Runs, T times, a loop of 100 passes (rotated layout) whose body reads
   arrays first..last-1 at a[k][i] (8-byte elements), one instruction
   per array at head + 4*k; what the adapter does: at() per
   instruction, the access attributed to the innermost active loop. */
static void run_array_loop(mp_loops *l, mp_streams *s, uint32_t loop,
                           uint32_t first, uint32_t last)
{
   const mp_loop *L = mp_loops_get(l, loop);
   uint32_t i, k;
   for (i = 0; i < 100; i++) {
      for (k = first; k < last; k++) {
         uint64_t pc = L->head + 4 * (k - first), inst;
         uint32_t cur;
         mp_loops_at(l, 1, 1, pc);
         cur = mp_loops_current(l, 1, &inst);
         ck_assert_uint_eq(cur, loop);
         mp_streams_access(s, 1, cur, inst, pc, k, 0x1000000ULL * (k + 1) + 8 * i);
      }
      mp_loops_at(l, 1, 1, L->tail);
      if (i < 99)
         mp_loops_back_edge_taken(l, 1, loop);
   }
   mp_loops_at(l, 1, 1, L->tail + 4);            /* falls out */
}

START_TEST(test_twenty_arrays_and_fission)
{
   mp_loops *l = mp_loops_new();
   mp_streams *s = new_streams(MP_STREAMS_DEFAULT_THRESHOLD);
   uint32_t T, one, a, b, t;
   const mp_streams_loop *d;
   mp_loops_set_exit_hook(l, end_hook, s);
   /* for t < 3 { for i { a1[i] .. a20[i] }   for i { a1..a10 }  for i { a11..a20 } } */
   one = mp_loops_add_back_edge(l, 1, 0x1100 + 4 * 20, 0x1100, NULL, NULL, NULL, NULL);
   a = mp_loops_add_back_edge(l, 1, 0x1200 + 4 * 10, 0x1200, NULL, NULL, NULL, NULL);
   b = mp_loops_add_back_edge(l, 1, 0x1300 + 4 * 10, 0x1300, NULL, NULL, NULL, NULL);
   T = mp_loops_add_back_edge(l, 1, 0x1400, 0x1000, NULL, NULL, NULL, NULL);
   for (t = 0; t < 3; t++) {
      mp_loops_at(l, 1, 1, 0x1000);
      run_array_loop(l, s, one, 0, 20);
      run_array_loop(l, s, a, 0, 10);
      run_array_loop(l, s, b, 10, 20);
      mp_loops_at(l, 1, 1, 0x1400);
      if (t < 2)
         mp_loops_back_edge_taken(l, 1, T);
   }
   mp_loops_at(l, 1, 1, 0x1404);
   mp_loops_flush(l);
   mp_streams_flush(s);

   d = mp_streams_get(s, one);
   ck_assert_uint_eq(d->instances, 3);
   ck_assert_uint_eq(d->max_streams, 20);
   ck_assert_uint_eq(d->streams_sum, 60);
   ck_assert_uint_eq(d->over_threshold, 3);
   ck_assert_uint_eq(d->accesses, 3 * 100 * 20);
   ck_assert(mp_streams_flagged(s, one));
   d = mp_streams_get(s, a);
   ck_assert_uint_eq(d->max_streams, 10);
   ck_assert(!mp_streams_flagged(s, a));
   d = mp_streams_get(s, b);
   ck_assert_uint_eq(d->max_streams, 10);
   ck_assert_uint_eq(d->instances, 3);
   ck_assert(!mp_streams_flagged(s, b));
   /* the enclosing loop owns no access: its inner loops' streams are
      not added to it (they are not concurrent) */
   d = mp_streams_get(s, T);
   ck_assert_uint_eq(d->instances, 1);
   ck_assert_uint_eq(d->max_streams, 0);
   ck_assert_uint_eq(d->accesses, 0);
   ck_assert(!mp_streams_flagged(s, T));
   mp_streams_free(s);
   mp_loops_free(l);
}
END_TEST

/*------------------------------------------------------------*/
/*--- The regularity rule, case by case                    ---*/
/*------------------------------------------------------------*/

/* Streams of one instance made of the given address sequences, one
   (instruction, variable) pair each, each in pages of its own. */
static uint32_t streams_of(const int64_t seqs[][8], const uint32_t *lens, uint32_t n)
{
   mp_streams *s = new_streams(16);
   uint32_t i, j, r;
   for (j = 0; j < 8; j++)
      for (i = 0; i < n; i++)
         if (j < lens[i])
            mp_streams_access(s, 1, 0, 1, 0x400 + i, 7,
                              (uint64_t)(0x100000 + 0x10000 * i + seqs[i][j]));
   mp_streams_loop_end(s, 1, 0, 1);
   r = mp_streams_get(s, 0)->max_streams;
   mp_streams_free(s);
   return r;
}

START_TEST(test_rule_by_hand)
{
   static const int64_t yes[][8] = {
      { 0, 8, 16 },                      /* three accesses, two equal strides */
      { 0, 100, 108, 116 },              /* the first difference tolerated */
      { 0, 0, 8, 16 },                   /* ... also when it is 0 */
      { 800, 792, 784, 776, 768 },       /* negative */
      { 0, 4096, 8192, 12288 },          /* large */
   };
   static const int64_t no[][8] = {
      { 0, 8 },                          /* one difference */
      { 0, 100, 108 },                   /* one difference after the first */
      { 0, 8, 16, 24, 40 },              /* broken at the end */
      { 0, 8, 16, 16, 24, 32, 40, 48 },  /* broken by a repeat */
      { 8, 8, 8, 8 },                    /* stride 0 */
      { 0, 100, 0, 100 },                /* alternating */
   };
   static const uint32_t ylen[] = { 3, 4, 4, 5, 4 }, nlen[] = { 2, 3, 5, 8, 4, 4 };
   uint32_t i;
   for (i = 0; i < 5; i++)
      ck_assert_msg(streams_of(&yes[i], &ylen[i], 1) == 1, "yes[%u]", i);
   for (i = 0; i < 6; i++)
      ck_assert_msg(streams_of(&no[i], &nlen[i], 1) == 0, "no[%u]", i);
   ck_assert_uint_eq(streams_of(yes, ylen, 5), 5);
   ck_assert_uint_eq(streams_of(no, nlen, 6), 0);
}
END_TEST

/* A pair is counted per instance: a new instance starts it afresh; two
   variables through one instruction are two pairs; an instance with no
   access counts with 0 streams; a bad threshold is refused. */
START_TEST(test_instances_and_pairs)
{
   mp_streams *s = new_streams(1);
   mp_streams_cfg bad = { 0 };
   const char *err = NULL;
   const mp_streams_loop *d;
   uint32_t i;
   for (i = 0; i < 4; i++) {
      mp_streams_access(s, 1, 3, 1, 0x400, 1, 0x1000 + 8 * i);
      mp_streams_access(s, 1, 3, 1, 0x400, 2, 0x9000 - 16 * i);
   }
   mp_streams_loop_end(s, 1, 3, 1);
   /* instance 2 continues the addresses of instance 1 but has only two
      accesses: no stream */
   mp_streams_access(s, 1, 3, 2, 0x400, 1, 0x1000 + 8 * 4);
   mp_streams_access(s, 1, 3, 2, 0x400, 1, 0x1000 + 8 * 5);
   mp_streams_loop_end(s, 1, 3, 2);
   mp_streams_loop_end(s, 1, 3, 3);
   d = mp_streams_get(s, 3);
   ck_assert_uint_eq(d->instances, 3);
   ck_assert_uint_eq(d->streams_sum, 2);
   ck_assert_uint_eq(d->max_streams, 2);
   ck_assert_uint_eq(d->over_threshold, 1);
   ck_assert(mp_streams_flagged(s, 3));
   ck_assert_ptr_null(mp_streams_get(s, 2));
   ck_assert_ptr_null(mp_streams_get(s, 1000));
   mp_streams_free(s);
   ck_assert_ptr_null(mp_streams_new(&bad, &err));
   ck_assert_ptr_nonnull(err);
}
END_TEST

/* A prefetcher's streams: the loads of a loop unrolled by 8 over one
   array, and a load and a store of one element, are one stream each;
   rows of an array a page or more apart are one per row, rows 2 KiB
   apart one per page; the same lines walked at another stride are
   another stream. */
START_TEST(test_one_stream_per_page)
{
   mp_streams *s = new_streams(16);
   const mp_streams_loop *d;
   uint32_t i, k;
   for (i = 0; i < 16; i++)                      /* instance 1: unrolled by 8 */
      for (k = 0; k < 8; k++)
         mp_streams_access(s, 1, 0, 1, 0x400 + 4 * k, 0, 0x100000 + 64 * i + 8 * k);
   mp_streams_loop_end(s, 1, 0, 1);
   for (i = 0; i < 16; i++) {                    /* instance 2: a[i] += x */
      mp_streams_access(s, 1, 0, 2, 0x500, 0, 0x100000 + 8 * i);
      mp_streams_access(s, 1, 0, 2, 0x504, 0, 0x100000 + 8 * i);
   }
   mp_streams_loop_end(s, 1, 0, 2);
   d = mp_streams_get(s, 0);
   ck_assert_uint_eq(d->streams_sum, 2);
   ck_assert_uint_eq(d->max_streams, 1);
   for (i = 0; i < 16; i++)                      /* 20 rows 16 KiB apart */
      for (k = 0; k < 20; k++)
         mp_streams_access(s, 1, 1, 1, 0x600 + 4 * k, 0, 0x200000 + 16384 * k + 8 * i);
   mp_streams_loop_end(s, 1, 1, 1);
   for (i = 0; i < 16; i++)                      /* 20 rows 2 KiB apart: 10 pages */
      for (k = 0; k < 20; k++)
         mp_streams_access(s, 1, 2, 1, 0x700 + 4 * k, 0, 0x400000 + 2048 * k + 8 * i);
   mp_streams_loop_end(s, 1, 2, 1);
   for (i = 0; i < 16; i++) {                    /* one line, two strides */
      mp_streams_access(s, 1, 3, 1, 0x800, 0, 0x500000 + 8 * i);
      mp_streams_access(s, 1, 3, 1, 0x804, 0, 0x500000 + 16 * i);
   }
   mp_streams_loop_end(s, 1, 3, 1);
   ck_assert_uint_eq(mp_streams_get(s, 1)->max_streams, 20);
   ck_assert_uint_eq(mp_streams_get(s, 2)->max_streams, 10);
   ck_assert_uint_eq(mp_streams_get(s, 3)->max_streams, 2);
   mp_streams_free(s);
}
END_TEST

/* Random addresses, however long, are no stream. */
START_TEST(test_irregular_stream)
{
   mp_streams *s = new_streams(16);
   uint32_t i;
   rng_state = 0x5eed;
   for (i = 0; i < 10000; i++)
      mp_streams_access(s, 1, 0, 1, 0x400, 0, 0x100000 + 8 * (rng() % 100000));
   mp_streams_loop_end(s, 1, 0, 1);
   ck_assert_uint_eq(mp_streams_get(s, 0)->max_streams, 0);
   mp_streams_free(s);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Random traces vs brute force                         ---*/
/*------------------------------------------------------------*/

#define N_T 3
#define N_L 4
#define N_I 4
#define MAX_ACC 4096

typedef struct { uint64_t instr; uint32_t var; uint64_t addr; } ref_acc;

typedef struct {
   ref_acc acc[MAX_ACC];     /* the open instance's accesses, in order */
   uint32_t n;
   int open;
   uint64_t instance;
} ref_inst;

typedef struct {
   ref_inst inst[N_T][N_L];
   mp_streams_loop loops[N_L];
   uint32_t threshold;
} ref_state;

/* The definition, on the whole sequence of one pair: differences
   d1..dm; a stream iff m >= 2, d2 = .. = dm = s != 0, and s occurs at
   least twice among d1..dm. */
static int ref_is_stream(const uint64_t *x, uint32_t n)
{
   uint32_t m = n - 1, i, equal = 0;
   int64_t st;
   if (n < 3)
      return 0;
   st = (int64_t)(x[2] - x[1]);
   if (st == 0)
      return 0;
   for (i = 2; i <= m; i++)
      if ((int64_t)(x[i] - x[i - 1]) != st)
         return 0;
   equal = m - 1 + ((int64_t)(x[1] - x[0]) == st);
   return equal >= 2;
}

static void ref_finish(ref_state *r, uint32_t t, uint32_t l)
{
   ref_inst *in = &r->inst[t][l];
   mp_streams_loop *L = &r->loops[l];
   uint32_t i, j, k, streams = 0, n_found = 0;
   static uint64_t x[MAX_ACC];
   /* each stream found: its variable, stride and last page */
   static struct { uint32_t var; int64_t stride; uint64_t page; } found[MAX_ACC];
   uint8_t done[MAX_ACC];
   memset(done, 0, sizeof done);
   for (i = 0; i < in->n; i++) {
      uint32_t n = 0;
      if (done[i])
         continue;
      for (j = i; j < in->n; j++)
         if (in->acc[j].instr == in->acc[i].instr && in->acc[j].var == in->acc[i].var) {
            x[n++] = in->acc[j].addr;
            done[j] = 1;
         }
      if (!ref_is_stream(x, n))
         continue;
      found[n_found].var = in->acc[i].var;
      found[n_found].stride = (int64_t)(x[n - 1] - x[n - 2]);
      found[n_found].page = x[n - 1] / MP_STREAMS_PAGE;
      /* one stream per (variable, stride, page) */
      for (k = 0; k < n_found; k++)
         if (found[k].var == found[n_found].var && found[k].stride == found[n_found].stride
             && found[k].page == found[n_found].page)
            break;
      streams += k == n_found;
      n_found++;
   }
   L->instances++;
   L->accesses += in->n;
   L->streams_sum += streams;
   if (streams > L->max_streams)
      L->max_streams = streams;
   L->over_threshold += streams > r->threshold;
   in->open = 0;
   in->n = 0;
}

/* The next address of a pair: mostly regular, with the kinds of breaks
   that matter to the rule (off first step, a break later, randomness,
   stride 0). */
static uint64_t next_addr(uint64_t prev, uint32_t pair_kind, uint32_t k)
{
   static const int64_t strides[] = { 8, -8, 64, 4096, -24, 0 };
   int64_t st = strides[pair_kind % 6];
   switch (pair_kind / 6) {
   case 0: return prev + (uint64_t)st;                          /* regular */
   case 1: return k == 1 ? prev + 1000 : prev + (uint64_t)st;   /* off start */
   case 2: return rng() % 7 == 0 ? prev + 3 : prev + (uint64_t)st;  /* breaks */
   default: return 0x100000 + 8 * (rng() % 64);                 /* random */
   }
}

static int compare_loops(const mp_streams *s, const ref_state *r)
{
   uint32_t l;
   int bad = 0;
   for (l = 0; l < N_L; l++) {
      const mp_streams_loop *d = mp_streams_get(s, l);
      const mp_streams_loop *e = &r->loops[l];
      if (!d) { bad += e->instances != 0; continue; }
      bad += d->instances != e->instances;
      bad += d->accesses != e->accesses;
      bad += d->streams_sum != e->streams_sum;
      bad += d->max_streams != e->max_streams;
      bad += d->over_threshold != e->over_threshold;
   }
   return bad;
}

static void run_random(uint64_t seed, int corrupt)
{
   ref_state *r = calloc(1, sizeof *r);
   mp_streams *s;
   uint64_t last[N_T][N_L][N_I][2];
   uint32_t kind[N_T][N_L][N_I][2], count[N_T][N_L][N_I][2];
   uint64_t next_instance[N_L];
   uint32_t step, t, l;
   rng_state = seed;
   r->threshold = 1 + (uint32_t)(rng() % 6);
   s = new_streams(r->threshold);
   for (l = 0; l < N_L; l++)
      next_instance[l] = 1;
   for (step = 0; step < 20000; step++) {
      uint64_t x = rng() % 100;
      ref_inst *in;
      t = (uint32_t)(rng() % N_T);
      l = (uint32_t)(rng() % N_L);
      in = &r->inst[t][l];
      if (x < 1) {                            /* the instance ends */
         uint64_t inst = in->open ? in->instance : next_instance[l]++;
         ref_finish(r, t, l);                 /* if it had no access: 0 streams */
         mp_streams_loop_end(s, t, l, inst);
      } else {
         uint32_t i = (uint32_t)(rng() % N_I), v = (uint32_t)(rng() % 2);
         uint64_t a;
         /* Abandoned: a new instance begins without an end; the engine
            ends the old one when it sees the new id, the reference now. */
         if (x < 2 && in->open)
            ref_finish(r, t, l);
         if (!in->open) {
            in->open = 1;
            in->instance = next_instance[l]++;
            memset(count[t][l], 0, sizeof count[t][l]);
         }
         if (count[t][l][i][v] == 0) {
            kind[t][l][i][v] = (uint32_t)(rng() % 24);
            /* instructions 0 and 2, 1 and 3 walk side by side, a
               line apart: the same page, mostly */
            a = 0x100000 * (1 + i % 2) + 0x10000 * v + 64 * (i / 2);
         } else {
            a = next_addr(last[t][l][i][v], kind[t][l][i][v], count[t][l][i][v]);
         }
         last[t][l][i][v] = a;
         count[t][l][i][v]++;
         if (in->n < MAX_ACC) {
            in->acc[in->n++] = (ref_acc){ 0x400 + 4 * i, v, a };
            mp_streams_access(s, t, l, in->instance, 0x400 + 4 * i, v, a);
         }
      }
   }
   for (t = 0; t < N_T; t++)
      for (l = 0; l < N_L; l++)
         if (r->inst[t][l].open)
            ref_finish(r, t, l);
   mp_streams_flush(s);
   if (corrupt)
      r->loops[1].streams_sum++;
   if (corrupt)
      ck_assert_int_gt(compare_loops(s, r), 0);
   else
      ck_assert_int_eq(compare_loops(s, r), 0);
   for (l = 0; l < N_L; l++)   /* the trace does exercise the rule */
      if (!corrupt)
         ck_assert_uint_gt(r->loops[l].streams_sum, 0);
   mp_streams_free(s);
   free(r);
}

START_TEST(test_random_vs_reference) { run_random(0xfeed0000ULL + 7919 * (uint64_t)_i, 0); }
END_TEST
START_TEST(test_mismatch_is_detected) { run_random(77, 1); }
END_TEST

int main(void)
{
   Suite *s = suite_create("streams");
   TCase *tc = tcase_create("core");
   tcase_set_timeout(tc, 60);
   tcase_add_test(tc, test_twenty_arrays_and_fission);
   tcase_add_test(tc, test_rule_by_hand);
   tcase_add_test(tc, test_instances_and_pairs);
   tcase_add_test(tc, test_irregular_stream);
   tcase_add_test(tc, test_one_stream_per_page);
   tcase_add_loop_test(tc, test_random_vs_reference, 0, 20);
   tcase_add_test(tc, test_mismatch_is_detected);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
