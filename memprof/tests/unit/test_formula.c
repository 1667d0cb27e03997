/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_formula: the issue's 3-D array (also driven through
   mp_loops, as the adapter will), its interchanged nest, an indirect
   access, the 99% rule, and random affine nests whose coefficients
   (negative and zero ones too) must come back exactly. */
#include "mp_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_formula.h"
#include "mp_loops.h"

#define N3 3
#define N2 200
#define N1 136
#define A_START 0x5000000ULL    /* where double a[N3][N2][N1] starts */

static const char *formula_of(const mp_formula *f, uint64_t instr)
{
   static char buf[256];
   const mp_formula_instr *fi = mp_formula_get(f, instr);
   ck_assert_ptr_nonnull(fi);
   mp_formula_format(fi, buf, sizeof buf);
   return buf;
}

static uint64_t a_addr(uint64_t k, uint64_t j, uint64_t i)
{
   return A_START + 8 * ((k * N2 + j) * N1 + i);
}

/* for k for j for i: a[k][j][i], a[k][j][i+1] (with the block start)
   and a[k][j][i] again without it. */
START_TEST(test_issue_nest)
{
   mp_formula *f = mp_formula_new();
   uint64_t v[3];
   double ratio;
   const mp_formula_instr *fi;
   for (v[0] = 0; v[0] < N3; v[0]++)
      for (v[1] = 0; v[1] < N2; v[1]++)
         for (v[2] = 0; v[2] + 1 < N1; v[2]++) {
            mp_formula_access(f, 0x400, v, 3, a_addr(v[0], v[1], v[2]), A_START);
            mp_formula_access(f, 0x404, v, 3, a_addr(v[0], v[1], v[2] + 1), A_START);
            mp_formula_access(f, 0x408, v, 3, a_addr(v[0], v[1], v[2]), MP_FORMULA_NO_BLOCK);
         }
   ck_assert_str_eq(formula_of(f, 0x400), "8*i1 + 1088*i2 + 217600*i3");
   ck_assert_str_eq(formula_of(f, 0x404), "8*i1 + 1088*i2 + 217600*i3 + 8");
   ck_assert_str_eq(formula_of(f, 0x408), "8*i1 + 1088*i2 + 217600*i3");
   fi = mp_formula_get(f, 0x400);
   ck_assert(mp_formula_fits(fi, &ratio));
   ck_assert(ratio == 1.0);
   ck_assert_uint_eq(fi->accesses, N3 * N2 * (N1 - 1));
   ck_assert_uint_eq(fi->fits, fi->accesses);
   ck_assert_int_eq(mp_formula_base(fi), 0);
   ck_assert_int_eq(mp_formula_base(mp_formula_get(f, 0x408)), (int64_t)A_START);
   ck_assert_uint_eq(mp_formula_count(f), 3);
   ck_assert_ptr_eq(mp_formula_at(f, 1), mp_formula_get(f, 0x404));
   ck_assert_ptr_null(mp_formula_get(f, 0x40c));
   mp_formula_free(f);
}
END_TEST

/* The same nest in machine-code form (three rotated loops in one
   function), the vector taken from mp_loops at each access; then the
   interchanged nest "for i for j for k a[k][j][i]", MTL's pathology:
   the big stride is on i1, the innermost loop. */
static void run_nest(mp_loops *l, mp_formula *f, const uint32_t *loop,
                     const uint64_t *trip, int interchanged)
{
   uint64_t c[3], v[3];
   uint32_t d;
   /* the loops are [0x100,0x1f0] ⊃ [0x110,0x1e0] ⊃ [0x120,0x1d0] */
   mp_loops_at(l, 1, 1, 0x0f0);
   for (c[0] = 0; c[0] < trip[0]; c[0]++) {
      mp_loops_at(l, 1, 1, 0x100);
      for (c[1] = 0; c[1] < trip[1]; c[1]++) {
         mp_loops_at(l, 1, 1, 0x110);
         for (c[2] = 0; c[2] < trip[2]; c[2]++) {
            uint64_t a = interchanged ? a_addr(c[2], c[1], c[0]) : a_addr(c[0], c[1], c[2]);
            mp_loops_at(l, 1, 1, 0x130);
            d = mp_loops_iteration_vector(l, 1, v, 3);
            ck_assert_uint_eq(d, 3);
            mp_formula_access(f, 0x130, v, d, a, A_START);
            mp_loops_at(l, 1, 1, 0x1d0);
            if (c[2] + 1 < trip[2])
               mp_loops_back_edge_taken(l, 1, loop[2]);
         }
         mp_loops_at(l, 1, 1, 0x1e0);
         if (c[1] + 1 < trip[1])
            mp_loops_back_edge_taken(l, 1, loop[1]);
      }
      mp_loops_at(l, 1, 1, 0x1f0);
      if (c[0] + 1 < trip[0])
         mp_loops_back_edge_taken(l, 1, loop[0]);
   }
   mp_loops_at(l, 1, 1, 0x200);
}

START_TEST(test_issue_nest_through_loops)
{
   static const uint64_t rows[3] = { N3, N2, N1 }, cols[3] = { N1, N2, N3 };
   mp_loops *l = mp_loops_new();
   mp_formula *f = mp_formula_new();
   uint32_t loop[3];
   loop[2] = mp_loops_add_back_edge(l, 1, 0x1d0, 0x120, NULL, NULL, NULL, NULL);
   loop[0] = mp_loops_add_back_edge(l, 1, 0x1f0, 0x100, NULL, NULL, NULL, NULL);
   loop[1] = mp_loops_add_back_edge(l, 1, 0x1e0, 0x110, NULL, NULL, NULL, NULL);
   run_nest(l, f, loop, rows, 0);
   ck_assert_str_eq(formula_of(f, 0x130), "8*i1 + 1088*i2 + 217600*i3");
   ck_assert(mp_formula_fits(mp_formula_get(f, 0x130), NULL));
   mp_formula_free(f);
   f = mp_formula_new();
   run_nest(l, f, loop, cols, 1);
   ck_assert_str_eq(formula_of(f, 0x130), "217600*i1 + 1088*i2 + 8*i3");
   ck_assert_uint_eq(mp_loops_get(l, loop[2])->entries, N3 * N2 + N1 * N2);
   mp_formula_free(f);
   mp_loops_free(l);
}
END_TEST

/* b[idx[i]] with idx a random permutation: no formula. */
START_TEST(test_indirect_access)
{
   mp_formula *f = mp_formula_new();
   uint32_t idx[1000], i, j, t;
   uint64_t v[2];
   rng_state = 0x1d1d;
   for (i = 0; i < 1000; i++)
      idx[i] = i;
   for (i = 999; i > 0; i--) {
      j = (uint32_t)(rng() % (i + 1));
      t = idx[i]; idx[i] = idx[j]; idx[j] = t;
   }
   for (v[0] = 0; v[0] < 4; v[0]++)
      for (v[1] = 0; v[1] < 1000; v[1]++)
         mp_formula_access(f, 0x500, v, 2, 0x800000 + 8 * idx[v[1]], 0x800000);
   ck_assert(!mp_formula_fits(mp_formula_get(f, 0x500), NULL));
   ck_assert_uint_gt(mp_formula_get(f, 0x500)->mismatches, 3000);
   mp_formula_free(f);
}
END_TEST

/* 99% of the accesses: 1 outlier in 200 fits (99.5%), 3 do not (98.5%). */
START_TEST(test_threshold)
{
   uint32_t outliers;
   for (outliers = 1; outliers <= 3; outliers += 2) {
      mp_formula *f = mp_formula_new();
      uint64_t v[1];
      double ratio;
      for (v[0] = 0; v[0] < 200; v[0]++)
         mp_formula_access(f, 0x600, v, 1, 0x1000 + 16 * v[0]
                           + (v[0] >= 50 && v[0] < 50 + outliers ? 4 : 0), 0x1000);
      ck_assert_int_eq(mp_formula_fits(mp_formula_get(f, 0x600), &ratio), outliers == 1);
      ck_assert(ratio == (200.0 - outliers) / 200.0);
      ck_assert_str_eq(formula_of(f, 0x600), "16*i1");
      mp_formula_free(f);
   }
}
END_TEST

/* The printed form: signs, zero terms, offsets, no loop at all. */
START_TEST(test_format)
{
   mp_formula *f = mp_formula_new();
   uint64_t v[3];
   char small[8];
   for (v[0] = 0; v[0] < 3; v[0]++)
      for (v[1] = 0; v[1] < 3; v[1]++)
         for (v[2] = 0; v[2] < 3; v[2]++) {
            int64_t o = 1088 * (int64_t)v[0] - 8 * (int64_t)v[2] + 16;
            mp_formula_access(f, 1, v, 3, (uint64_t)(0x9000 + o), 0x9000);
            mp_formula_access(f, 2, v, 3, (uint64_t)(0x9000 - o), 0x9000);
            mp_formula_access(f, 3, v, 3, 0x9000 + 40, 0x9000);
            mp_formula_access(f, 4, v, 3, 0x9000, 0x9000);
         }
   mp_formula_access(f, 5, NULL, 0, 0x9010, 0x9000);
   ck_assert_str_eq(formula_of(f, 1), "-8*i1 + 1088*i3 + 16");
   ck_assert_str_eq(formula_of(f, 2), "8*i1 - 1088*i3 - 16");
   ck_assert_str_eq(formula_of(f, 3), "40");
   ck_assert_str_eq(formula_of(f, 4), "0");
   ck_assert_str_eq(formula_of(f, 5), "16");
   /* truncated like snprintf, and the full length returned */
   ck_assert_int_eq(mp_formula_format(mp_formula_get(f, 1), small, sizeof small), 20);
   ck_assert_str_eq(small, "-8*i1 +");
   mp_formula_free(f);
}
END_TEST

/* A counter that never moves has no coefficient (printed as 0, its
   value folded into the base); two unknown counters moving at once
   leave the access unresolved; another vector length mismatches. */
START_TEST(test_undetermined_and_unresolved)
{
   mp_formula *f = mp_formula_new();
   uint64_t v[3] = { 0, 1, 0 };
   const mp_formula_instr *fi;
   for (v[2] = 0; v[2] < 10; v[2]++)              /* the middle counter stays 1 */
      mp_formula_access(f, 7, v, 3, 0x2000 + 100 + 24 * v[2], 0x2000);
   v[0] = 1; v[2] = 0;
   mp_formula_access(f, 7, v, 3, 0x2000 + 100 + 5000, 0x2000);
   fi = mp_formula_get(f, 7);
   ck_assert_str_eq(formula_of(f, 7), "24*i1 + 5000*i3 + 100");
   ck_assert_uint_eq(fi->known, 5);                /* bits 0 and 2 */

   v[0] = 0; v[1] = 0; v[2] = 0;
   mp_formula_access(f, 8, v, 3, 0x100, MP_FORMULA_NO_BLOCK);
   v[1] = 1; v[2] = 1;
   mp_formula_access(f, 8, v, 3, 0x100 + 64 + 8, MP_FORMULA_NO_BLOCK);
   ck_assert_uint_eq(mp_formula_get(f, 8)->unresolved, 1);
   mp_formula_access(f, 8, v, 2, 0x100, MP_FORMULA_NO_BLOCK);
   ck_assert_uint_eq(mp_formula_get(f, 8)->mismatches, 1);
   ck_assert_uint_eq(mp_formula_get(f, 8)->fits, 1);
   ck_assert(!mp_formula_fits(mp_formula_get(f, 8), NULL));
   mp_formula_free(f);
}
END_TEST

/* Random affine nests: depth 1..5, coefficients in [-2000, 2000] with
   zeros, trip counts 2..6, a random offset in the block; every
   coefficient and the offset must come back exactly.  'corrupt'
   changes one expected coefficient to prove the comparison can fail. */
static int run_random_affine(uint64_t seed, int corrupt)
{
   mp_formula *f = mp_formula_new();
   int64_t coef[5], off;
   uint64_t trip[5], v[5], block = 0x40000000ULL, total = 1;
   uint32_t depth, k, bad = 0;
   const mp_formula_instr *fi;
   rng_state = seed;
   depth = 1 + (uint32_t)(rng() % 5);
   for (k = 0; k < depth; k++) {
      coef[k] = rng() % 4 == 0 ? 0 : (int64_t)(rng() % 4001) - 2000;
      trip[k] = 2 + rng() % 5;
      total *= trip[k];
      v[k] = 0;
   }
   off = (int64_t)(rng() % 100000);
   for (;;) {                                    /* the nest, in order */
      int64_t a = off;
      for (k = 0; k < depth; k++)
         a += coef[k] * (int64_t)v[k];
      mp_formula_access(f, 0x700, v, depth, block + (uint64_t)a, block);
      for (k = depth; k-- > 0;) {
         if (++v[k] < trip[k])
            break;
         v[k] = 0;
      }
      if (k == UINT32_MAX)
         break;
   }
   fi = mp_formula_get(f, 0x700);
   if (corrupt)
      coef[0]++;
   bad += fi->accesses != total || fi->fits != total;
   bad += fi->depth != depth || fi->known != ((uint64_t)1 << depth) - 1;
   for (k = 0; k < depth; k++)
      bad += fi->coef[k] != coef[k];
   bad += mp_formula_base(fi) != off;
   mp_formula_free(f);
   return (int)bad;
}

START_TEST(test_random_affine) { ck_assert_int_eq(run_random_affine(0xaff1e + 31337 * (uint64_t)_i, 0), 0); }
END_TEST
START_TEST(test_mismatch_is_detected) { ck_assert_int_gt(run_random_affine(99, 1), 0); }
END_TEST

/* What a replay needs: the block of the reference, the widest access,
   loads and stores; mp_formula_access alone tells none of the last
   three and fits alike. */
START_TEST(test_sized)
{
   mp_formula *f = mp_formula_new();
   const mp_formula_instr *fi;
   uint64_t v[2];
   for (v[0] = 0; v[0] < 4; v[0]++)
      for (v[1] = 0; v[1] < 4; v[1]++) {
         uint64_t a = 0x5000 + 8 * v[0] + 512 * v[1];
         mp_formula_access_exec(f, 1, v, 2, a, 8, 0, 0x5000, 0);
         mp_formula_access_exec(f, 1, v, 2, a, v[1] == 3 ? 16 : 8, 1, 0x5000, 0);
         mp_formula_access(f, 2, v, 2, a, 0x5000);
      }
   fi = mp_formula_get(f, 1);
   ck_assert(mp_formula_fits(fi, NULL));
   ck_assert_uint_eq(fi->ref_block, 0x5000);
   ck_assert_uint_eq(fi->size, 16);
   ck_assert(fi->loads && fi->stores);
   ck_assert_uint_eq(fi->accesses, 32);
   fi = mp_formula_get(f, 2);
   ck_assert(mp_formula_fits(fi, NULL));
   ck_assert_uint_eq(fi->size, 0);
   ck_assert(!fi->loads && !fi->stores);
   ck_assert_int_eq(fi->coef[0], 8);
   ck_assert_int_eq(fi->coef[1], 512);
   mp_formula_free(f);
}
END_TEST

/* A butterfly whose span depends on the call (an FFT's): over all its
   executions no formula fits, in each one a formula does.  The first
   execution that fits settles it, with its own highest counters; the
   later ones, with other strides, are not looked at.  One that does
   not fit (an indirect walk) is fitted again in the next execution. */
static void run_execution(mp_formula *f, uint64_t instr, uint64_t exec, uint64_t span,
                          uint64_t outer, uint64_t inner, int scrambled)
{
   uint64_t v[2];
   for (v[0] = 0; v[0] < outer; v[0]++)
      for (v[1] = 0; v[1] < inner; v[1]++) {
         uint64_t off = scrambled ? (v[0] * 7919 + v[1] * 104729) % 4093 * 8
                                  : v[0] * span + v[1] * 16;
         mp_formula_access_exec(f, instr, v, 2, 0x9000 + off, 16, 0, 0x9000, exec);
      }
}

START_TEST(test_executions)
{
   mp_formula *f = mp_formula_new();
   const mp_formula_instr *fi;
   char buf[64];
   /* settled in the first execution: span 256, 8 x 16 */
   run_execution(f, 1, 11, 256, 8, 16, 0);
   run_execution(f, 1, 12, 512, 4, 16, 0);
   run_execution(f, 1, 13, 1024, 2, 16, 0);
   fi = mp_formula_get(f, 1);
   ck_assert_int_eq(mp_formula_fits(fi, NULL), 1);
   ck_assert_uint_eq(fi->execution, 11);
   ck_assert_uint_eq(fi->settled, 1);
   ck_assert_uint_eq(fi->refits, 0);
   ck_assert_uint_eq(fi->accesses, 8 * 16);
   ck_assert_uint_eq(fi->hi[0], 7);
   ck_assert_uint_eq(fi->hi[1], 15);
   mp_formula_format(fi, buf, sizeof buf);
   ck_assert_str_eq(buf, "16*i1 + 256*i2");
   /* without executions the same accesses have no formula */
   {
      mp_formula *g = mp_formula_new();
      uint64_t v[2], span, outer;
      for (span = 256, outer = 8; span <= 1024; span *= 2, outer /= 2)
         for (v[0] = 0; v[0] < outer; v[0]++)
            for (v[1] = 0; v[1] < 16; v[1]++)
               mp_formula_access(g, 1, v, 2, 0x9000 + v[0] * span + v[1] * 16, 0x9000);
      ck_assert_int_eq(mp_formula_fits(mp_formula_get(g, 1), NULL), 0);
      mp_formula_free(g);
   }
   /* two threads' executions interleaved: the settled one's trip
      counts still grow when it goes on */
   run_execution(f, 3, 31, 256, 3, 16, 0);
   run_execution(f, 3, 32, 256, 8, 16, 0);
   {
      uint64_t v[2] = { 6, 15 };
      mp_formula_access_exec(f, 3, v, 2, 0x9000 + 6 * 256 + 15 * 16, 16, 0, 0x9000, 31);
   }
   fi = mp_formula_get(f, 3);
   ck_assert_uint_eq(fi->execution, 31);
   ck_assert_uint_eq(fi->hi[0], 6);
   /* no execution fits: given up on after MP_FORMULA_MAX_REFITS refits,
      so that its accesses are no longer looked at in full */
   {
      uint64_t e;
      int restarts = 0, settled_said = 0, said;
      for (e = 0; e < 3 * MP_FORMULA_MAX_REFITS; e++) {
         uint64_t v[2];
         for (v[0] = 0; v[0] < 4; v[0]++)
            for (v[1] = 0; v[1] < 16; v[1]++) {
               uint64_t off = (v[0] * 7919 + v[1] * 104729 + e * 31) % 4093 * 8;
               said = mp_formula_access_exec(f, 4, v, 2, 0x9000 + off, 8, 0, 0x9000,
                                             100 + e);
               restarts += (said & MP_FORMULA_REFIT) != 0;
               settled_said += (said & MP_FORMULA_SETTLED) != 0;
            }
      }
      fi = mp_formula_get(f, 4);
      ck_assert_int_eq(restarts, MP_FORMULA_MAX_REFITS);
      /* said from the first access of the execution after the last
         refit (execution MP_FORMULA_MAX_REFITS + 1) on, 64 each */
      ck_assert_int_eq(settled_said, (2 * MP_FORMULA_MAX_REFITS - 1) * 64);
      ck_assert_uint_eq(fi->settled, 1);
      ck_assert_int_eq(mp_formula_fits(fi, NULL), 0);
   }
   /* not fitting its first execution: fitted again in the second */
   run_execution(f, 2, 21, 0, 8, 16, 1);
   run_execution(f, 2, 22, 512, 4, 16, 0);
   fi = mp_formula_get(f, 2);
   ck_assert_uint_eq(fi->execution, 22);
   ck_assert_uint_eq(fi->refits, 1);
   ck_assert_int_eq(mp_formula_fits(fi, NULL), 1);
   ck_assert_uint_eq(fi->hi[0], 3);
   mp_formula_format(fi, buf, sizeof buf);
   ck_assert_str_eq(buf, "16*i1 + 512*i2");
   mp_formula_free(f);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("formula");
   TCase *tc = tcase_create("core");
   tcase_set_timeout(tc, 60);
   tcase_add_test(tc, test_issue_nest);
   tcase_add_test(tc, test_issue_nest_through_loops);
   tcase_add_test(tc, test_indirect_access);
   tcase_add_test(tc, test_threshold);
   tcase_add_test(tc, test_format);
   tcase_add_test(tc, test_undetermined_and_unresolved);
   tcase_add_loop_test(tc, test_random_affine, 0, 200);
   tcase_add_test(tc, test_mismatch_is_detected);
   tcase_add_test(tc, test_sized);
   tcase_add_test(tc, test_executions);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
