/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_setdiag against a brute-force reference: a full
   table of conflict misses per (level, set, variable). */
#include "mp_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_setdiag.h"

#define SETS0 64
#define SETS1 1024
#define VARS 4            /* <= MP_SETDIAG_SLOTS: the slots are exact */

static uint64_t ref[2][SETS1][VARS];

static uint64_t ref_set_total(int lv, uint64_t s)
{
   uint64_t t = 0;
   int v;
   for (v = 0; v < VARS; v++)
      t += ref[lv][s][v];
   return t;
}

/* Mismatches between the engine's top sets of level lv and the
   reference; 'skew' corrupts the reference on purpose when nonzero. */
static int compare(const mp_setdiag *d, int lv, uint64_t sets, int skew)
{
   mp_setdiag_set top[8];
   uint32_t n = mp_setdiag_top(d, lv, top, 8), i, k;
   int bad = 0;
   uint64_t prev = UINT64_MAX;
   if (skew)
      ref[lv][top[0].set][0] += 1;
   for (i = 0; i < n; i++) {
      uint64_t s;
      bad += top[i].conflicts > prev;
      prev = top[i].conflicts;
      bad += top[i].conflicts != ref_set_total(lv, top[i].set);
      for (k = 0; k < MP_SETDIAG_SLOTS; k++)
         if (top[i].slot[k].count)
            bad += top[i].slot[k].count != ref[lv][top[i].set][top[i].slot[k].var];
      /* no set outside the top may have more conflicts than the last */
      if (i == n - 1)
         for (s = 0; s < sets; s++)
            bad += ref_set_total(lv, s) > top[i].conflicts
                   && ref_set_total(lv, s) > 0 && n < 8 ? 1 : 0;
   }
   return bad;
}

START_TEST(test_random_against_reference)
{
   uint64_t sets[2] = { SETS0, SETS1 };
   mp_setdiag *d = mp_setdiag_new(2, sets);
   int i;
   rng_state = 0x2545F4914F6CDD1DULL;
   memset(ref, 0, sizeof ref);
   for (i = 0; i < 200000; i++) {
      int lv = (int)(rng() & 1);
      /* skewed: a few hot sets */
      uint64_t line = (rng() % 7 == 0) ? rng() : (rng() % 5) * 3;
      uint32_t var = (uint32_t)(rng() % VARS);
      mp_setdiag_conflict(d, (uint32_t)lv, line, var);
      ref[lv][line & (sets[lv] - 1)][var]++;
   }
   ck_assert_int_eq(compare(d, 0, SETS0, 0), 0);
   ck_assert_int_eq(compare(d, 1, SETS1, 0), 0);
   ck_assert_int_gt(compare(d, 1, SETS1, 1), 0);   /* the comparison can fail */
   mp_setdiag_reset(d);
   {
      mp_setdiag_set top[2];
      ck_assert_uint_eq(mp_setdiag_top(d, 0, top, 2), 0);
   }
   mp_setdiag_free(d);
}
END_TEST

/* Handed over set by set (mp_setdiag_next, mp_setdiag_put: what an
   analysis helper process does), a diagnosis lists every set with a
   conflict, as the reference has them, and its copy answers as it. */
START_TEST(test_next_put_copy)
{
   uint64_t sets[2] = { SETS0, SETS1 };
   mp_setdiag *d = mp_setdiag_new(2, sets), *copy = mp_setdiag_new(2, sets);
   int i, lv;
   rng_state = 0x9E3779B97F4A7C15ULL;
   memset(ref, 0, sizeof ref);
   for (i = 0; i < 50000; i++) {
      int l = (int)(rng() & 1);
      uint64_t line = rng() % 3000;
      uint32_t var = (uint32_t)(rng() % 6);   /* more than the slots */
      mp_setdiag_conflict(d, (uint32_t)l, line, var);
      ref[l][line & (sets[l] - 1)][var % VARS]++;
   }
   for (lv = 0; lv < 2; lv++) {
      mp_setdiag_set st, a[8], b[8];
      int64_t set = -1;
      uint64_t listed = 0, s, with = 0;
      uint32_t n, k;
      while ((set = mp_setdiag_next(d, (uint32_t)lv, set, &st)) >= 0) {
         ck_assert_uint_eq(st.set, (uint64_t)set);
         ck_assert_uint_eq(st.conflicts, ref_set_total(lv, (uint64_t)set));
         mp_setdiag_put(copy, (uint32_t)lv, &st);
         listed++;
      }
      for (s = 0; s < sets[lv]; s++)
         with += ref_set_total(lv, s) > 0;
      ck_assert_uint_eq(listed, with);
      mp_setdiag_scale(d, (uint32_t)lv, 3, 2);
      mp_setdiag_scale(copy, (uint32_t)lv, 3, 2);
      n = mp_setdiag_top(d, (uint32_t)lv, a, 8);
      ck_assert_uint_eq(mp_setdiag_top(copy, (uint32_t)lv, b, 8), n);
      for (k = 0; k < n; k++)
         ck_assert_int_eq(memcmp(&a[k], &b[k], sizeof a[k]), 0);
   }
   mp_setdiag_free(d);
   mp_setdiag_free(copy);
}
END_TEST

/* More variables than slots: the hottest still wins its slot. */
START_TEST(test_space_saving)
{
   uint64_t sets[1] = { 8 };
   mp_setdiag *d = mp_setdiag_new(1, sets);
   mp_setdiag_set top[1];
   uint32_t v;
   int i;
   for (i = 0; i < 1000; i++)
      mp_setdiag_conflict(d, 0, 3, 7);
   for (v = 0; v < 20; v++)
      mp_setdiag_conflict(d, 0, 3 + 8 * v, 100 + v);
   ck_assert_uint_eq(mp_setdiag_top(d, 0, top, 1), 1);
   ck_assert_uint_eq(top[0].set, 3);
   ck_assert_uint_eq(top[0].conflicts, 1020);
   ck_assert_uint_eq(top[0].slot[0].var, 7);
   ck_assert_uint_eq(top[0].slot[0].count, 1000);
   mp_setdiag_free(d);
}
END_TEST

/* Sets far from set 0, in a level of many sets: the ranking reads only
   the groups of sets that saw a conflict, and must still find them. */
START_TEST(test_far_sets)
{
   uint64_t sets[1] = { SETS1 };
   mp_setdiag *d = mp_setdiag_new(1, sets);
   mp_setdiag_set top[4];
   int i;
   for (i = 0; i < 3; i++)
      mp_setdiag_conflict(d, 0, 1000 + 5 * SETS1, 1);
   mp_setdiag_conflict(d, 0, 70, 2);
   ck_assert_uint_eq(mp_setdiag_top(d, 0, top, 4), 2);
   ck_assert_uint_eq(top[0].set, 1000);
   ck_assert_uint_eq(top[0].conflicts, 3);
   ck_assert_uint_eq(top[1].set, 70);
   ck_assert_uint_eq(top[1].slot[0].var, 2);
   mp_setdiag_reset(d);
   mp_setdiag_conflict(d, 0, 500, 3);
   ck_assert_uint_eq(mp_setdiag_top(d, 0, top, 4), 1);
   ck_assert_uint_eq(top[0].set, 500);
   mp_setdiag_free(d);
}
END_TEST

/* Sampled miss causes: the counts come out scaled to the level's
   estimate, rounded; the other levels and the ranking are untouched;
   a reset forgets the scale. */
START_TEST(test_scale)
{
   uint64_t sets[2] = { 8, 8 };
   mp_setdiag *d = mp_setdiag_new(2, sets);
   mp_setdiag_set top[2];
   int i;
   for (i = 0; i < 10; i++)
      mp_setdiag_conflict(d, 0, 1, 4);
   for (i = 0; i < 3; i++)
      mp_setdiag_conflict(d, 0, 2, 5);
   mp_setdiag_conflict(d, 1, 2, 5);
   mp_setdiag_scale(d, 0, 163, 10);          /* x 16.3 */
   ck_assert_uint_eq(mp_setdiag_top(d, 0, top, 2), 2);
   ck_assert_uint_eq(top[0].set, 1);
   ck_assert_uint_eq(top[0].conflicts, 163);
   ck_assert_uint_eq(top[0].slot[0].count, 163);
   ck_assert_uint_eq(top[1].conflicts, 49);  /* 48.9 */
   ck_assert_uint_eq(mp_setdiag_top(d, 1, top, 2), 1);
   ck_assert_uint_eq(top[0].conflicts, 1);
   mp_setdiag_scale(d, 1, 5, 0);             /* den 0: 1 */
   ck_assert_uint_eq(mp_setdiag_top(d, 1, top, 2), 1);
   ck_assert_uint_eq(top[0].conflicts, 1);
   mp_setdiag_reset(d);
   mp_setdiag_conflict(d, 0, 1, 4);
   ck_assert_uint_eq(mp_setdiag_top(d, 0, top, 2), 1);
   ck_assert_uint_eq(top[0].conflicts, 1);
   mp_setdiag_free(d);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("setdiag");
   TCase *tc = tcase_create("core");
   tcase_add_test(tc, test_random_against_reference);
   tcase_add_test(tc, test_space_saving);
   tcase_add_test(tc, test_far_sets);
   tcase_add_test(tc, test_scale);
   tcase_add_test(tc, test_next_put_copy);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
