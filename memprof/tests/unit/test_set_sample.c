/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_set_sample: the size and the choice of the sample of
   sets, the line sums' squares against a brute-force table, the
   interval by hand, and the estimator against brute force: caches fed
   a random trace whole and fed only the lines of a random sample of
   the L1's sets, over many samples, where each variable's full count
   must lie in its interval about as often as a 95% interval says. */
#include "mp_test.h"
#include <stdio.h>

#include "mp_cache.h"
#include "mp_set_sample.h"
#include "mp_util.h"

START_TEST(test_shift)
{
   ck_assert_uint_eq(mp_set_sample_shift(1.0, 64), 0);
   ck_assert_uint_eq(mp_set_sample_shift(1.0 / 32, 64), 5);
   ck_assert_uint_eq(mp_set_sample_shift(0.3, 64), 2);      /* 16 sets, not 19 */
   ck_assert_uint_eq(mp_set_sample_shift(0.25, 64), 2);
   ck_assert_uint_eq(mp_set_sample_shift(0.001, 64), 6);    /* at least one set */
   ck_assert_uint_eq(mp_set_sample_shift(0.5, 1), 0);
}
END_TEST

START_TEST(test_pick)
{
   uint8_t t[256], u[256];
   uint32_t shift, s, n;
   for (shift = 0; shift <= 8; shift++) {
      mp_set_sample_pick(t, 256, shift);
      mp_set_sample_pick(u, 256, shift);
      for (s = n = 0; s < 256; s++)
         n += t[s] != 0;
      ck_assert_uint_eq(n, 256u >> shift);
      ck_assert(memcmp(t, u, sizeof t) == 0);
   }
   /* Not a run of neighbours: 32 of 256 sets spread over both halves. */
   mp_set_sample_pick(t, 256, 3);
   for (s = n = 0; s < 128; s++)
      n += t[s] != 0;
   ck_assert(n > 4 && n < 28);
}
END_TEST

/* The squares kept incrementally are the sums of the pairs' counts
   squared, counted here in a plain table. */
START_TEST(test_line_sums)
{
   enum { PAIRS = 300 };
   static uint64_t count[PAIRS][MP_EST_N];
   double sq[4][MP_EST_N], want;
   mp_line_sums *t = mp_line_sums_new();
   uint32_t i, k, v;
   memset(count, 0, sizeof count);
   memset(sq, 0, sizeof sq);
   rng_state = 12345;
   for (i = 0; i < 200000; i++) {
      uint32_t p = (uint32_t)(rng() % PAIRS);
      uint64_t inc[MP_EST_N];
      for (k = 0; k < MP_EST_N; k++)
         inc[k] = rng() % 3 ? 0 : rng() % 50;
      /* pair p: line p / 3 * 7, variable p % 4 (a line of several) */
      mp_line_sums_add(t, (uint64_t)(p / 3) * 7, p % 4, inc, sq[p % 4]);
      for (k = 0; k < MP_EST_N; k++)
         count[p][k] += inc[k];
   }
   for (v = 0; v < 4; v++)
      for (k = 0; k < MP_EST_N; k++) {
         want = 0;
         for (i = 0; i < PAIRS; i++)
            if (i % 4 == v)
               want += (double)count[i][k] * (double)count[i][k];
         ck_assert_msg(sq[v][k] == want, "var %u metric %u: %.0f, want %.0f", v, k,
                       sq[v][k], want);
      }
   ck_assert_uint_gt(mp_line_sums_bytes(t), PAIRS * 8);
   mp_line_sums_free(t);
}
END_TEST

/* sample_lines.c's derivation: 10,240 misses on 2,048 lines of 5 each,
   1 set in 4: 40,960 +- 1,536.3. */
START_TEST(test_interval)
{
   double lo, hi;
   /* t at 2,047 degrees of freedom: 1.96117 */
   mp_set_sample_interval(10240, 2048.0 * 25, 2, 2048, &lo, &hi);
   ck_assert_msg(lo > 39422.6 && lo < 39422.9, "%f", lo);
   ck_assert_msg(hi > 42497.1 && hi < 42497.4, "%f", hi);
   /* every line sampled: no width */
   mp_set_sample_interval(500, 1e6, 0, 7, &lo, &hi);
   ck_assert(lo == 500 && hi == 500);
   /* never below what the sample saw; 2 lines: t = 12.706 */
   mp_set_sample_interval(3, 9, 5, 2, &lo, &hi);
   ck_assert(lo == 3);
   ck_assert_msg(hi > 1296.3 && hi < 1296.9, "%f", hi);
}
END_TEST

/*------------------------------------------------------------*/
/*--- The estimator against brute force                    ---*/
/*------------------------------------------------------------*/

#define N_VARS 5
#define LINE 64

typedef struct {
   uint64_t addr;
   uint32_t var;
   int is_write;
} acc;

/* Five variables of different shapes: a big array read at random, a
   small one swept again and again, a few scattered nodes of a list, an
   array read with a skew to its start, a matrix walked by columns with
   a power-of-two row (its lines fall in a few sets). */
static acc *make_trace(size_t n)
{
   acc *t = malloc(n * sizeof *t);
   uint64_t nodes[48], sweep = 0, col = 0;
   size_t i;
   rng_state = 0x9e3779b97f4a7c15ULL;
   for (i = 0; i < 48; i++)
      nodes[i] = (8ULL << 20) + (rng() % 100000) * LINE;
   for (i = 0; i < n; i++) {
      uint32_t v = (uint32_t)(rng() % N_VARS);
      uint64_t a;
      switch (v) {
      case 0: a = (1ULL << 20) + (rng() % 4096) * LINE; break;
      case 1: a = (4ULL << 20) + (sweep++ % 384) * 8; break;
      case 2: a = nodes[rng() % 48]; break;
      case 3: { uint64_t r = rng() % 1024; a = (12ULL << 20) + (r * r / 1024) * LINE; break; }
      default:
         a = (16ULL << 20) + (col % 64) * 4096 + (col / 64 % 32) * 8;
         col++;
      }
      t[i].addr = a;
      t[i].var = v;
      t[i].is_write = rng() % 4 == 0;
   }
   return t;
}

static mp_cache_cfg geometry(void)
{
   mp_cache_cfg cfg;
   memset(&cfg, 0, sizeof cfg);
   cfg.n_levels = 2;
   cfg.cores = 1;
   cfg.level[0] = (mp_cache_level_cfg){ NULL, 8192, 4, LINE, 1 };     /* 32 sets */
   cfg.level[1] = (mp_cache_level_cfg){ NULL, 65536, 8, LINE, 1 };    /* 128 sets */
   return cfg;
}

/* The full run's misses per variable and level. */
static void run_full(const acc *t, size_t n, uint64_t miss[N_VARS][2])
{
   mp_cache_cfg cfg = geometry();
   const char *err;
   mp_cache *c = mp_cache_new(&cfg, &err);
   size_t i;
   memset(miss, 0, N_VARS * 2 * sizeof(uint64_t));
   for (i = 0; i < n; i++) {
      mp_cache_outcome o;
      mp_cache_access(c, 0, t[i].addr, 8, t[i].is_write, t[i].var, 0, &o);
      miss[t[i].var][0] += o.missed[0];
      miss[t[i].var][1] += o.missed[1];
   }
   mp_cache_free(c);
}

/* One sample of 32 >> shift random sets: whether each variable's full
   count at each level lies in its interval; counts the checks made. */
static void run_sample(const acc *t, size_t n, uint32_t shift, uint64_t full[N_VARS][2],
                       uint32_t inside[N_VARS][2], uint32_t checked[N_VARS][2])
{
   mp_cache_cfg cfg = geometry();
   uint8_t sets[32];
   uint64_t got[N_VARS][2], lines[N_VARS];
   double sq[N_VARS][MP_EST_N];
   mp_line_sums *sums = mp_line_sums_new();
   const char *err;
   mp_cache *c;
   uint32_t want = 32 >> shift, have = 0, v, k;
   size_t i;
   memset(sets, 0, sizeof sets);
   while (have < want) {
      uint32_t s = (uint32_t)(rng() % 32);
      have += !sets[s];
      sets[s] = 1;
   }
   cfg.set_sample_shift = shift;
   cfg.sampled_sets = sets;
   c = mp_cache_new(&cfg, &err);
   ck_assert_msg(c != NULL, "%s", err);
   memset(got, 0, sizeof got);
   memset(lines, 0, sizeof lines);
   memset(sq, 0, sizeof sq);
   for (i = 0; i < n; i++) {
      mp_cache_outcome o;
      uint64_t inc[MP_EST_N];
      if (!sets[(t[i].addr / LINE) % 32])
         continue;
      mp_cache_access(c, 0, t[i].addr, 8, t[i].is_write, t[i].var, 0, &o);
      memset(inc, 0, sizeof inc);
      inc[MP_EST_ACCESSES] = 1;
      inc[MP_EST_MISSES] = o.missed[0];
      inc[MP_EST_MISSES + 1] = o.missed[1];
      lines[t[i].var] += mp_line_sums_add(sums, t[i].addr / LINE, t[i].var, inc, sq[t[i].var]);
      got[t[i].var][0] += o.missed[0];
      got[t[i].var][1] += o.missed[1];
   }
   for (v = 0; v < N_VARS; v++)
      for (k = 0; k < 2; k++) {
         double lo, hi;
         if (full[v][k] < 200)
            continue;
         mp_set_sample_interval(got[v][k], sq[v][MP_EST_MISSES + k], shift, lines[v], &lo,
                                &hi);
         checked[v][k]++;
         inside[v][k] += lo <= (double)full[v][k] && (double)full[v][k] <= hi;
      }
   mp_cache_free(c);
   mp_line_sums_free(sums);
}

/* Over 300 samples of 8 sets in 32 (1 in 4) and of 4 (1 in 8), the
   variables spread over every set are covered as a 95% interval
   should (90% at least, allowing for the trial's own spread); the
   column walk, whose lines crowd into two sets, is not: the intervals
   assume lines sampled one by one (mp_set_sample.h says so). */
START_TEST(test_coverage)
{
   const size_t n = 60000;
   acc *t = make_trace(n);
   uint64_t full[N_VARS][2];
   uint32_t shift, trial, v, k;
   run_full(t, n, full);
   rng_state = 777;
   for (shift = 2; shift <= 3; shift++) {
      uint32_t inside[N_VARS][2], checked[N_VARS][2];
      memset(inside, 0, sizeof inside);
      memset(checked, 0, sizeof checked);
      for (trial = 0; trial < 300; trial++)
         run_sample(t, n, shift, full, inside, checked);
      for (v = 0; v < N_VARS; v++)
         for (k = 0; k < 2; k++) {
            if (getenv("MP_TEST_VERBOSE"))
               fprintf(stderr, "1 in %u sets: var %u L%u full %llu: %u of %u inside\n",
                       1u << shift, v, k + 1, (unsigned long long)full[v][k],
                       inside[v][k], checked[v][k]);
            if (checked[v][k] == 0 || v == 4)
               continue;
            ck_assert_msg(inside[v][k] * 10 >= checked[v][k] * 9,
                          "1 in %u sets: var %u at L%u: %u of %u inside", 1u << shift, v,
                          k + 1, inside[v][k], checked[v][k]);
         }
   }
   free(t);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("set_sample");
   TCase *tc = tcase_create("core");
   tcase_set_timeout(tc, 120);
   tcase_add_test(tc, test_shift);
   tcase_add_test(tc, test_pick);
   tcase_add_test(tc, test_line_sums);
   tcase_add_test(tc, test_interval);
   tcase_add_test(tc, test_coverage);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
