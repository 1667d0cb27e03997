/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_set_sample: the size and the choice of the sample of
   sets, the unit sums and their squares against a brute-force table,
   the interval by hand, and the estimator against brute force: caches fed
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
   ck_assert_uint_eq(mp_set_sample_shift(0.001, 64), 5);    /* at least two sets */
   ck_assert_uint_eq(mp_set_sample_shift(0.5, 4), 1);
   ck_assert_uint_eq(mp_set_sample_shift(0.5, 2), 0);       /* two sets: both */
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

/* The sums and squares kept incrementally are the sums of the pairs'
   counts and of their squares, counted here in a plain table. */
START_TEST(test_unit_sums)
{
   enum { PAIRS = 300 };
   static uint64_t count[PAIRS][MP_EST_N];
   double sum[4][MP_EST_N], sq[4][MP_EST_N], want_sum, want_sq;
   mp_unit_sums *t = mp_unit_sums_new();
   uint32_t i, k, v, fresh = 0;
   memset(count, 0, sizeof count);
   memset(sum, 0, sizeof sum);
   memset(sq, 0, sizeof sq);
   rng_state = 12345;
   for (i = 0; i < 200000; i++) {
      uint32_t p = (uint32_t)(rng() % PAIRS);
      uint64_t inc[MP_EST_N];
      for (k = 0; k < MP_EST_N; k++)
         inc[k] = rng() % 3 ? 0 : rng() % 50;
      /* pair p: unit p / 4 * 7 (a line's number), variable p % 4 */
      fresh += mp_unit_sums_add(t, (uint64_t)(p / 4) * 7 << 30, p % 4, inc, sum[p % 4],
                                sq[p % 4]);
      for (k = 0; k < MP_EST_N; k++)
         count[p][k] += inc[k];
   }
   ck_assert_uint_eq(fresh, PAIRS);
   for (v = 0; v < 4; v++)
      for (k = 0; k < MP_EST_N; k++) {
         want_sum = want_sq = 0;
         for (i = 0; i < PAIRS; i++)
            if (i % 4 == v) {
               want_sum += (double)count[i][k];
               want_sq += (double)count[i][k] * (double)count[i][k];
            }
         ck_assert_msg(sum[v][k] == want_sum, "var %u metric %u: sum %.0f, want %.0f", v, k,
                       sum[v][k], want_sum);
         ck_assert_msg(sq[v][k] == want_sq, "var %u metric %u: %.0f, want %.0f", v, k,
                       sq[v][k], want_sq);
      }
   ck_assert_uint_gt(mp_unit_sums_bytes(t), PAIRS * 8);
   mp_unit_sums_free(t);
}
END_TEST

/* The lines' table against the same brute force: ranks in chunks far
   apart, and up to three variables on a line (the first in the line's
   slot, the others aside), each pair's squares summed as its own. */
START_TEST(test_line_sums)
{
   enum { PAIRS = 3000 };
   static uint64_t count[PAIRS][MP_EST_N];
   double sq[3][MP_EST_N], want;
   mp_line_sums *t = mp_line_sums_new();
   uint32_t i, k, v, fresh = 0;
   memset(count, 0, sizeof count);
   memset(sq, 0, sizeof sq);
   rng_state = 4242;
   for (i = 0; i < 300000; i++) {
      uint32_t p = (uint32_t)(rng() % PAIRS);
      uint64_t inc[MP_EST_N], rank = (uint64_t)(p / 3) * 977 + ((uint64_t)(p / 3 % 7) << 40);
      for (k = 0; k < MP_EST_N; k++)
         inc[k] = rng() % 3 ? 0 : rng() % 50;
      /* pair p: line p / 3, variable p % 3 */
      fresh += mp_line_sums_add(t, rank, p % 3, inc, sq[p % 3]);
      for (k = 0; k < MP_EST_N; k++)
         count[p][k] += inc[k];
   }
   ck_assert_uint_eq(fresh, PAIRS);
   for (v = 0; v < 3; v++)
      for (k = 0; k < MP_EST_N; k++) {
         want = 0;
         for (i = 0; i < PAIRS; i++)
            if (i % 3 == v)
               want += (double)count[i][k] * (double)count[i][k];
         ck_assert_msg(sq[v][k] == want, "var %u metric %u: %.0f, want %.0f", v, k,
                       sq[v][k], want);
      }
   ck_assert_uint_gt(mp_line_sums_bytes(t), PAIRS / 3 * 48);
   mp_line_sums_free(t);
}
END_TEST

/* The interval of sets only, of lines only, of both, by hand. */
START_TEST(test_interval)
{
   mp_sample_spread sets = { 0, 0, 4, 0, 0 }, lines = { 2048, 2048.0 * 25, 0, 0, 0 };
   mp_sample_spread both;
   double lo, hi;
   /* 4 sets of 1 in 8 counting 10, 20, 30, 40: 800; squares 3,000,
      sum squared 10,000, dev 3,000 - 10,000 / 4 = 500, variance
      4 * 64 * 7/8 * 500 / 3 = 37,333.3, sd 193.22, t(3) 3.182: 614.8 */
   sets.set_sq = 3000;
   sets.set_sum_sq = 10000;
   mp_set_sample_interval(800, &sets, 3, &lo, &hi);
   ck_assert_msg(lo > 185.0 && lo < 185.4, "%f", lo);
   ck_assert_msg(hi > 1414.6 && hi < 1415.0, "%f", hi);
   /* sample_lines.c's big[]: 2,048 lines of 1 in 4 missed 5 times
      each: squares 51,200, variance 0.75 * 16 * 51,200 = 614,400, sd
      783.84, t(2,047) 1.96117: 1,537.2 */
   mp_set_sample_interval(40960, &lines, 2, &lo, &hi);
   ck_assert_msg(lo > 39422.6 && lo < 39422.9, "%f", lo);
   ck_assert_msg(hi > 42497.1 && hi < 42497.4, "%f", hi);
   /* ... whose 16 sets count 640 each: no spread between them, so the
      lines' interval stands */
   both = lines;
   both.sets = 16;
   both.set_sq = 16.0 * 640 * 640;
   both.set_sum_sq = 10240.0 * 10240;
   mp_set_sample_interval(40960, &both, 2, &lo, &hi);
   ck_assert_msg(lo > 39422.6 && lo < 39422.9, "%f", lo);
   /* 2 sets of 1 in 32 counting 3 and 7 on 4 lines (squares 9 + 49):
      320; sets: dev 58 - 100 / 2 = 8, variance 2 * 1024 * 31/32 * 8 =
      15,872, sd 125.98, t(1) 12.706: 1,600.7, wider than the lines'
      (t(3) 3.182 * sqrt(1024 * 31/32 * 58) = 759.2); clipped below at
      the 10 the sample saw */
   both.lines = 4;
   both.line_sq = 58;
   both.sets = 2;
   both.set_sq = 58;
   both.set_sum_sq = 100;
   mp_set_sample_interval(320, &both, 5, &lo, &hi);
   ck_assert(lo == 10);
   ck_assert_msg(hi > 1920.5 && hi < 1920.9, "%f", hi);
   /* every set sampled: no width */
   mp_set_sample_interval(500, &both, 0, &lo, &hi);
   ck_assert(lo == 500 && hi == 500);
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
   count at each level lies in its interval; counts the checks made.
   A variable with fewer than 2 lines in the sample is not checked: the
   tool says it has too few to estimate (mp_rows.h's
   MP_SAMPLE_MIN_LINES), and gives no interval. */
static void run_sample(const acc *t, size_t n, uint32_t shift, uint64_t full[N_VARS][2],
                       uint32_t inside[N_VARS][2], uint32_t checked[N_VARS][2])
{
   mp_cache_cfg cfg = geometry();
   uint8_t sets[32];
   uint64_t got[N_VARS][2], lines[N_VARS];
   double sum[N_VARS][MP_EST_N], sq[N_VARS][MP_EST_N], line_sq[N_VARS][MP_EST_N];
   mp_unit_sums *by_set = mp_unit_sums_new();
   mp_line_sums *by_line = mp_line_sums_new();
   uint32_t rank[32], r = 0;
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
   for (v = 0; v < 32; v++)
      rank[v] = sets[v] ? r++ : 0;
   cfg.set_sample_shift = shift;
   cfg.sampled_sets = sets;
   c = mp_cache_new(&cfg, &err);
   ck_assert_msg(c != NULL, "%s", err);
   memset(got, 0, sizeof got);
   memset(lines, 0, sizeof lines);
   memset(line_sq, 0, sizeof line_sq);
   memset(sum, 0, sizeof sum);
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
      mp_unit_sums_add(by_set, t[i].addr / LINE % 32, t[i].var, inc, sum[t[i].var],
                       sq[t[i].var]);
      lines[t[i].var] += mp_line_sums_add(
         by_line, t[i].addr / LINE / 32 * want + rank[t[i].addr / LINE % 32], t[i].var, inc,
         line_sq[t[i].var]);
      got[t[i].var][0] += o.missed[0];
      got[t[i].var][1] += o.missed[1];
   }
   for (v = 0; v < N_VARS; v++)
      for (k = 0; k < 2; k++) {
         double lo, hi;
         uint32_t m = MP_EST_MISSES + k;
         mp_sample_spread sp;
         if (full[v][k] < 200 || lines[v] < 2)
            continue;
         sp.lines = lines[v];
         sp.line_sq = line_sq[v][m];
         sp.sets = want;
         sp.set_sq = sq[v][m];
         sp.set_sum_sq = sum[v][m] * sum[v][m];
         mp_set_sample_interval((double)(got[v][k] << shift), &sp, shift, &lo, &hi);
         checked[v][k]++;
         inside[v][k] += lo <= (double)full[v][k] && (double)full[v][k] <= hi;
      }
   mp_cache_free(c);
   mp_unit_sums_free(by_set);
   mp_line_sums_free(by_line);
}

/* Over 300 samples of 8 sets in 32 (1 in 4) and of 4 (1 in 8), every
   variable is covered as a 95% interval should (90% at least, allowing
   for the trial's own spread), the column walk too, whose lines crowd
   into four sets: the lines' interval alone covers it in 65% of the
   samples, the sets' alone the small array in 87% (mp_set_sample.h). */
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
            if (checked[v][k] == 0)
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
   tcase_add_test(tc, test_unit_sums);
   tcase_add_test(tc, test_line_sums);
   tcase_add_test(tc, test_interval);
   tcase_add_test(tc, test_coverage);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
