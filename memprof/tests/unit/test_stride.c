/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_stride against a brute-force reference that keeps
   every address of every (variable, thread, kind) stream and recomputes
   each histogram entry from the paper's definition. */
#include "mp_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_stride.h"

#define N_VARS 3
#define N_TIDS 3
#define MAX_EVENTS 6000

typedef struct {
   uint64_t bins[2][MP_STRIDE_MAX_K][MP_STRIDE_N_BINS];
   uint64_t negative[2][MP_STRIDE_MAX_K];
   uint64_t classes[MP_STRIDE_N_CLASSES];
   /* the streams: every address, in order */
   uint64_t addr[N_VARS][N_TIDS][2][MAX_EVENTS];
   uint32_t n[N_VARS][N_TIDS][2];
} ref_var_set;

/* Reference bin: the paper's intervals, written as a table lookup. */
static uint32_t ref_bin(uint64_t m)
{
   static const uint64_t upper[] = { 256, 512, 1024, 2048, 4096, 8192, 16384, 32768 };
   uint32_t i;
   if (m < 128)
      return (uint32_t)m;
   for (i = 0; i < 8; i++)
      if (m < upper[i])
         return 128 + i;
   return 136;
}

static void ref_access(ref_var_set *r, uint32_t var, uint32_t tid, uint64_t addr,
                       uint32_t size, int w, uint64_t weight, const mp_stride_cfg *cfg,
                       uint64_t (*per_var)[2][MP_STRIDE_MAX_K][MP_STRIDE_N_BINS],
                       uint64_t (*neg)[2][MP_STRIDE_MAX_K],
                       uint64_t (*cls)[MP_STRIDE_N_CLASSES])
{
   uint32_t n = r->n[var][tid][w], k;
   uint64_t *stream = r->addr[var][tid][w];
   for (k = 1; k <= cfg->k && k <= n; k++) {
      int64_t st = (int64_t)(addr - stream[n - k]);
      uint64_t m = st < 0 ? (uint64_t)0 - (uint64_t)st : (uint64_t)st;   /* no overflow at -2^63 */
      per_var[var][w][k - 1][ref_bin(m)] += weight;
      if (st < 0)
         neg[var][w][k - 1] += weight;
      if (k == 1) {
         int c = m == 0 ? MP_STRIDE_ZERO : m == size ? MP_STRIDE_UNIT
               : m < cfg->line ? MP_STRIDE_WITHIN_LINE : MP_STRIDE_BEYOND_LINE;
         cls[var][c] += weight;
      }
      if (cfg->mode == MP_STRIDE_FILTERED && m < cfg->threshold)
         break;
   }
   stream[n] = addr;
   r->n[var][tid][w] = n + 1;
}

/* Addresses that hit the edge bins often: strides of 0, 1, 127, 128,
   32767, 32768 and their negatives, plus random jumps. */
static uint64_t next_addr(uint64_t prev)
{
   static const int64_t steps[] = { 0, 8, 1, 127, 128, 255, 256, 32767, 32768,
                                    -8, -127, -128, -32768, 40000, 4096 };
   if (rng() % 5 == 0)
      return 0x100000 + rng() % (1 << 22);
   return prev + (uint64_t)steps[rng() % (sizeof steps / sizeof steps[0])];
}

/* Compares the engine with the reference; returns mismatches. */
static int compare(const mp_stride *s, uint32_t K,
                   uint64_t (*bins)[2][MP_STRIDE_MAX_K][MP_STRIDE_N_BINS],
                   uint64_t (*neg)[2][MP_STRIDE_MAX_K],
                   uint64_t (*cls)[MP_STRIDE_N_CLASSES])
{
   int bad = 0;
   uint32_t v, w, k, b, c;
   for (v = 0; v < N_VARS; v++) {
      const mp_stride_var *d = mp_stride_get(s, v);
      if (!d) { bad++; continue; }
      for (w = 0; w < 2; w++) {
         const mp_stride_hists *h = w ? &d->store : &d->load;
         for (k = 0; k < K; k++) {
            for (b = 0; b < MP_STRIDE_N_BINS; b++)
               bad += MP_STRIDE_BINS(h, k)[b] != bins[v][w][k][b];
            bad += h->negative[k] != neg[v][w][k];
         }
      }
      for (c = 0; c < MP_STRIDE_N_CLASSES; c++)
         bad += d->classes[c] != cls[v][c];
   }
   return bad;
}

/* The engine and the reference, fed the same accesses. */
typedef struct {
   mp_stride_cfg cfg;
   mp_stride *s;
   ref_var_set *r;
   uint64_t (*bins)[2][MP_STRIDE_MAX_K][MP_STRIDE_N_BINS];
   uint64_t (*neg)[2][MP_STRIDE_MAX_K];
   uint64_t (*cls)[MP_STRIDE_N_CLASSES];
   uint64_t weight;             /* what an access counts for */
} harness;

static void harness_init(harness *h, mp_stride_mode mode, uint32_t K)
{
   const char *err = NULL;
   mp_stride_cfg cfg = { K, mode, 128, 64 };
   h->cfg = cfg;
   h->s = mp_stride_new(&h->cfg, &err);
   ck_assert_ptr_nonnull(h->s);
   h->r = calloc(1, sizeof *h->r);
   h->bins = calloc(N_VARS, sizeof *h->bins);
   h->neg = calloc(N_VARS, sizeof *h->neg);
   h->cls = calloc(N_VARS, sizeof *h->cls);
   h->weight = 1;
}

/* Later accesses count for weight, in the engine and the reference. */
static void harness_weight(harness *h, uint64_t weight)
{
   h->weight = weight;
}

static void harness_access(harness *h, uint32_t v, uint32_t t, uint64_t a,
                           uint32_t size, int w)
{
   mp_stride_access(h->s, v, t, a, size, w, h->weight);
   ref_access(h->r, v, t, a, size, w, h->weight, &h->cfg, h->bins, h->neg, h->cls);
}

/* A sampling window opens after a gap: the reference's streams start
   afresh, as if each (variable, thread, kind) began there. */
static void harness_window(harness *h)
{
   mp_stride_window_start(h->s);
   memset(h->r->n, 0, sizeof h->r->n);
}

static int harness_compare(const harness *h)
{
   return compare(h->s, h->cfg.k, h->bins, h->neg, h->cls);
}

/* The final comparison; corrupt: one reference count made wrong first,
   which the comparison must see. */
static void harness_check_and_free(harness *h, int corrupt)
{
   if (corrupt) {
      h->bins[1][1][0][8]++;
      ck_assert_int_gt(harness_compare(h), 0);
   } else {
      ck_assert_int_eq(harness_compare(h), 0);
   }
   free(h->r); free(h->bins); free(h->neg); free(h->cls);
   mp_stride_free(h->s);
}

static void run_random(mp_stride_mode mode, uint32_t K, int corrupt)
{
   harness h;
   uint64_t last[N_VARS] = { 0x100000, 0x200000, 0x300000 };
   int i;
   harness_init(&h, mode, K);
   rng_state = 0x9e3779b97f4a7c15ULL ^ (K * 7919 + mode);
   for (i = 0; i < 5000; i++) {
      uint32_t v = (uint32_t)(rng() % N_VARS), t = (uint32_t)(rng() % N_TIDS);
      int w = (int)(rng() & 1);
      uint32_t size = (rng() & 1) ? 8 : 4;
      uint64_t a = next_addr(last[v]);
      last[v] = a;
      if (i % 700 == 0)   /* weights as sampling windows set them */
         harness_weight(&h, 1 + (uint64_t)(i / 700) % 3 * 4);
      harness_access(&h, v, t, a, size, w);
   }
   harness_check_and_free(&h, corrupt);
}

/* Runs of one stride, as loops make them, so that most accesses are
   repeats of the access before (the engine's shortcut): each stream
   keeps a stride for 1 to 40 accesses, then picks another (sometimes
   the same again, sometimes wrapping past 2^64), and the engine is
   compared with the reference midway (repeats pending) and at the end.
   windowed: a sampling window opens every 450 accesses, the addresses
   walking on through a gap of unseen accesses before it. */
static void run_loops(mp_stride_mode mode, uint32_t K, int corrupt, int windowed)
{
   static const int64_t strides[] = { 8, 0, -8, 4000, 1, 127, 128, -32768,
                                      64, 24, (int64_t)0x8000000000000000ULL };
   harness h;
   uint64_t addr[N_VARS][N_TIDS][2];
   int64_t step[N_VARS][N_TIDS][2];
   int left[N_VARS][N_TIDS][2];
   int i;
   harness_init(&h, mode, K);
   memset(left, 0, sizeof left);
   for (i = 0; i < N_VARS * N_TIDS * 2; i++)
      (&addr[0][0][0])[i] = 0x100000 * (uint64_t)(i + 1);
   rng_state = 0x2545f4914f6cdd1dULL ^ (K * 104729 + mode);
   for (i = 0; i < 5800; i++) {
      uint32_t v = (uint32_t)(rng() % N_VARS), t = (uint32_t)(rng() % N_TIDS);
      int w = (int)(rng() & 1);
      /* mostly one stream at a time, as an inner loop */
      int burst = 1 + (int)(rng() % 12), b;
      for (b = 0; b < burst && i < 5800; b++, i++) {
         if (left[v][t][w]-- <= 0) {
            step[v][t][w] = strides[rng() % (sizeof strides / sizeof strides[0])];
            left[v][t][w] = 1 + (int)(rng() % 40);
         }
         addr[v][t][w] += (uint64_t)step[v][t][w];
         if (windowed && i % 450 == 0) {
            addr[v][t][w] += 10 * (uint64_t)step[v][t][w];
            harness_window(&h);
            /* the first window counts 1, the later ones 10, and one
               weight changes within a run of repeats */
            harness_weight(&h, i == 0 ? 1 : 10);
         }
         if (windowed && i % 450 == 200)
            harness_weight(&h, 3);
         harness_access(&h, v, t, addr[v][t][w], 8, w);
      }
      if (i >= 2900 && i < 2900 + burst)
         ck_assert_int_eq(harness_compare(&h), 0);
   }
   harness_check_and_free(&h, corrupt);
}

START_TEST(test_loops_filtered_k1_to_8) { run_loops(MP_STRIDE_FILTERED, (uint32_t)_i, 0, 0); }
END_TEST
START_TEST(test_loops_all_k1_to_8)      { run_loops(MP_STRIDE_ALL, (uint32_t)_i, 0, 0); }
END_TEST
START_TEST(test_loops_mismatch_is_detected) { run_loops(MP_STRIDE_ALL, 5, 1, 0); }
/* No stride spans a window's gap, and the repeats pending at a window
   start are counted (the reference sees each window as new streams). */
START_TEST(test_windows_k1_to_8) { run_loops(MP_STRIDE_FILTERED, (uint32_t)_i, 0, 1); }
START_TEST(test_windows_mismatch_is_detected) { run_loops(MP_STRIDE_FILTERED, 5, 1, 1); }
END_TEST

START_TEST(test_filtered_k1_to_8) { run_random(MP_STRIDE_FILTERED, (uint32_t)_i, 0); }
END_TEST
START_TEST(test_all_k1_to_8)      { run_random(MP_STRIDE_ALL, (uint32_t)_i, 0); }
END_TEST
START_TEST(test_mismatch_is_detected) { run_random(MP_STRIDE_ALL, 3, 1); }
END_TEST

START_TEST(test_bins)
{
   uint64_t lo, hi;
   ck_assert_uint_eq(mp_stride_bin(0), 0);
   ck_assert_uint_eq(mp_stride_bin(127), 127);
   ck_assert_uint_eq(mp_stride_bin(128), 128);
   ck_assert_uint_eq(mp_stride_bin(255), 128);
   ck_assert_uint_eq(mp_stride_bin(256), 129);
   ck_assert_uint_eq(mp_stride_bin(32767), 135);
   ck_assert_uint_eq(mp_stride_bin(32768), 136);
   ck_assert_uint_eq(mp_stride_bin(UINT64_MAX), 136);
   mp_stride_bin_bounds(128, &lo, &hi);
   ck_assert(lo == 128 && hi == 255);
   mp_stride_bin_bounds(135, &lo, &hi);
   ck_assert(lo == 16384 && hi == 32767);
   mp_stride_bin_bounds(136, &lo, &hi);
   ck_assert(lo == 32768 && hi == UINT64_MAX);
   mp_stride_bin_bounds(5, &lo, &hi);
   ck_assert(lo == 5 && hi == 5);
}
END_TEST

/* The paper's filtered variant by hand: a unit-stride sweep never
   reaches histogram 2; a column walk with a 4000-byte stride reaches
   every histogram. */
START_TEST(test_filtered_by_hand)
{
   mp_stride_cfg cfg = { 3, MP_STRIDE_FILTERED, 128, 64 };
   const char *err;
   mp_stride *s = mp_stride_new(&cfg, &err);
   const mp_stride_var *d;
   int64_t dom;
   uint64_t cnt;
   int i;
   for (i = 0; i < 100; i++)
      mp_stride_access(s, 0, 1, 0x1000 + 8 * i, 8, 0, 1);
   for (i = 0; i < 10; i++)
      mp_stride_access(s, 1, 1, 0x100000 + 4000 * i, 8, 1, 1);
   d = mp_stride_get(s, 0);
   ck_assert_uint_eq(MP_STRIDE_BINS(&d->load, 0)[8], 99);
   for (i = 0; i < MP_STRIDE_N_BINS; i++)   /* filtered: nothing beyond the unit stride */
      ck_assert_uint_eq(MP_STRIDE_BINS(&d->load, 1)[i], 0);
   ck_assert_uint_eq(d->classes[MP_STRIDE_UNIT], 99);
   ck_assert(mp_stride_dominant(d, &dom, &cnt) && dom == 8 && cnt == 99);
   d = mp_stride_get(s, 1);
   ck_assert_uint_eq(MP_STRIDE_BINS(&d->store, 0)[mp_stride_bin(4000)], 9);
   ck_assert_uint_eq(MP_STRIDE_BINS(&d->store, 1)[mp_stride_bin(8000)], 8);
   ck_assert_uint_eq(MP_STRIDE_BINS(&d->store, 2)[mp_stride_bin(12000)], 7);
   ck_assert_uint_eq(d->classes[MP_STRIDE_BEYOND_LINE], 9);
   ck_assert_ptr_null(mp_stride_get(s, 2));
   mp_stride_free(s);
}
END_TEST

START_TEST(test_bad_config)
{
   mp_stride_cfg cfg = { 0, MP_STRIDE_ALL, 128, 64 };
   const char *err = NULL;
   ck_assert_ptr_null(mp_stride_new(&cfg, &err));
   ck_assert_ptr_nonnull(err);
   cfg.k = 5;
   cfg.line = 48;
   ck_assert_ptr_null(mp_stride_new(&cfg, &err));
}
END_TEST

/* Strides per instruction into a line's record.  A column walk of a
   4 x 3 matrix of 8-byte elements, rows of 24 bytes, by one
   instruction (7): for each of the 3 columns, 4 accesses 24 bytes
   apart, then a jump back to the next column (-3 x 24 + 8 = -64); the
   first column's accesses count 1, the others' 'later' (as in the
   later sampling windows). */
static void walk_columns(mp_istride *is, mp_line_stride *ls, uint64_t later)
{
   int r, c;
   memset(ls, 0, sizeof *ls);
   memset(is, 0, sizeof *is);
   for (c = 0; c < 3; c++)
      for (r = 0; r < 4; r++)
         mp_istride_access(is, ls, 0x1000 + r * 24 + c * 8, 7, c == 0 ? 1 : later);
}

/* Unweighted: 3 x 3 = 9 strides of +24, 2 of -64 (11 = 12 accesses -
   1): the runs are flushed at each change, and the last one by
   mp_istride_flush. */
START_TEST(test_line_stride_column_walk)
{
   mp_line_stride ls;
   mp_istride is;
   int64_t s;
   uint64_t sure;
   uint32_t instr;
   memset(&ls, 0, sizeof ls);
   ck_assert_int_eq(mp_line_stride_dominant(&ls, &s, &sure, &instr), 0);
   walk_columns(&is, &ls, 1);
   /* the last run (3 strides of 24) is still the instruction's */
   ck_assert_uint_eq(ls.total, 8);
   mp_istride_flush(&is, &ls, 7);
   ck_assert_uint_eq(ls.total, 11);
   ck_assert_int_eq(mp_line_stride_dominant(&ls, &s, &sure, &instr), 1);
   ck_assert_int_eq(s, 24);
   ck_assert_uint_eq(sure, 9);
   ck_assert_uint_eq(instr, 7);
   ck_assert_int_eq(ls.slot[1].stride, -64);
   ck_assert_uint_eq(ls.slot[1].count, 2);
   /* after a flush, no stride from the old address to the next */
   mp_istride_access(&is, &ls, 0x9000, 7, 1);
   mp_istride_flush(&is, &ls, 7);
   ck_assert_uint_eq(ls.total, 11);
}
END_TEST

/* Weighted, the later columns' accesses counting 10: a stride counts
   the weight of the access that ends it.  +24: 3 + 2 x 3 x 10 = 63;
   -64: 2 x 10 = 20. */
START_TEST(test_line_stride_weights)
{
   mp_line_stride ls;
   mp_istride is;
   int64_t s;
   uint64_t sure;
   uint32_t instr;
   walk_columns(&is, &ls, 10);
   mp_istride_flush(&is, &ls, 7);
   ck_assert_uint_eq(ls.total, 83);
   ck_assert_int_eq(mp_line_stride_dominant(&ls, &s, &sure, &instr), 1);
   ck_assert_int_eq(s, 24);
   ck_assert_uint_eq(sure, 63);
   ck_assert_int_eq(ls.slot[1].stride, -64);
   ck_assert_uint_eq(ls.slot[1].count, 20);
}
END_TEST

/* Space-saving over MP_LSTRIDE_SLOTS (4) slots: 5 distinct strides,
   one run each of 10, 1, 1, 1 and 1 (in that order), then 20 more of
   the first.  The fifth evicts the last slot's 32 (count 1 + 1,
   error 1) and, counted 2, moves up to slot 1 above 16 and 24; the
   first stays exact and dominant: 30 of 34, sure 30. */
START_TEST(test_line_stride_space_saving)
{
   mp_line_stride ls;
   int64_t s;
   uint64_t sure;
   uint32_t instr;
   memset(&ls, 0, sizeof ls);
   mp_line_stride_add(&ls, 8, 10, 1);
   mp_line_stride_add(&ls, 16, 1, 2);
   mp_line_stride_add(&ls, 24, 1, 3);
   mp_line_stride_add(&ls, 32, 1, 4);
   mp_line_stride_add(&ls, 40, 1, 5);
   ck_assert_int_eq(ls.slot[1].stride, 40);
   ck_assert_uint_eq(ls.slot[1].count, 2);
   ck_assert_uint_eq(ls.slot[1].error, 1);
   ck_assert_int_eq(ls.slot[3].stride, 24);
   mp_line_stride_add(&ls, 8, 20, 1);
   ck_assert_uint_eq(ls.total, 34);
   ck_assert_int_eq(mp_line_stride_dominant(&ls, &s, &sure, &instr), 1);
   ck_assert_int_eq(s, 8);
   ck_assert_uint_eq(sure, 30);
   ck_assert_uint_eq(instr, 1);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("stride");
   TCase *tc = tcase_create("core");
   tcase_set_timeout(tc, 60);
   tcase_add_loop_test(tc, test_filtered_k1_to_8, 1, 9);
   tcase_add_loop_test(tc, test_all_k1_to_8, 1, 9);
   tcase_add_test(tc, test_mismatch_is_detected);
   tcase_add_loop_test(tc, test_loops_filtered_k1_to_8, 1, 9);
   tcase_add_loop_test(tc, test_loops_all_k1_to_8, 1, 9);
   tcase_add_test(tc, test_loops_mismatch_is_detected);
   tcase_add_loop_test(tc, test_windows_k1_to_8, 1, 9);
   tcase_add_test(tc, test_windows_mismatch_is_detected);
   tcase_add_test(tc, test_bins);
   tcase_add_test(tc, test_filtered_by_hand);
   tcase_add_test(tc, test_bad_config);
   tcase_add_test(tc, test_line_stride_column_walk);
   tcase_add_test(tc, test_line_stride_weights);
   tcase_add_test(tc, test_line_stride_space_saving);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
