/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_carriers against a brute-force reference that keeps
   every far reuse (variable, loop, distance) and counts by walking the
   list: the slots (first six loops met per variable), "other" beyond
   them, the counts beyond a level's size (whole bins only) and the top
   carrier. */
#include "mp_test.h"
#include <stdio.h>
#include <stdlib.h>

#include "mp_carriers.h"
#include "mp_loops.h"

typedef struct {
   uint32_t var, loop;
   uint64_t d;
} reuse;

#define N_REUSES 20000
#define N_VARS   5
#define FAR      512

/* Whether reuse r's bin starts at 'lines' or beyond. */
static int ref_beyond(uint64_t d, uint64_t lines)
{
   uint64_t lo, hi;
   mp_reuse_bin_bounds(mp_reuse_bin(d), &lo, &hi);
   return lo >= lines;
}

static int even_loop(uint32_t loop, void *arg)
{
   (void)arg;
   return loop % 2 == 0;
}

START_TEST(test_against_reference)
{
   static reuse log[N_REUSES];
   mp_carriers *c = mp_carriers_new(FAR);
   uint32_t i, n = 0, v, s;
   rng_state = 88172645463325252ull;
   for (i = 0; i < N_REUSES; i++) {
      reuse r;
      r.var = (uint32_t)(rng() % N_VARS);
      /* var 0 meets nine loops: three go to "other" */
      r.loop = rng() % 5 == 0 ? MP_LOOP_NONE : (uint32_t)(rng() % (r.var == 0 ? 9 : 4));
      r.d = rng() % 3 ? FAR + rng() % 100000 : rng() % FAR;   /* a third near */
      mp_carriers_add(c, r.var, r.loop, r.d);
      if (r.d >= FAR)
         log[n++] = r;
   }
   for (v = 0; v < N_VARS; v++) {
      const mp_var_carriers *vc = mp_carriers_of(c, v);
      uint32_t first[MP_CARRIER_SLOTS + 3], n_first = 0;
      ck_assert_ptr_nonnull(vc);
      /* the slots: the first loops met, in order */
      for (i = 0; i < n; i++) {
         uint32_t k;
         if (log[i].var != v)
            continue;
         for (k = 0; k < n_first && first[k] != log[i].loop; k++)
            ;
         if (k == n_first && n_first < MP_CARRIER_SLOTS)
            first[n_first++] = log[i].loop;
      }
      ck_assert_uint_eq(vc->n, n_first);
      for (s = 0; s < vc->n; s++) {
         uint64_t lines[] = { FAR, 4096, 65536 };
         uint32_t L;
         ck_assert_uint_eq(vc->slot[s].loop, first[s]);
         for (L = 0; L < 3; L++) {
            uint64_t want = 0, total = 0;
            for (i = 0; i < n; i++)
               if (log[i].var == v && log[i].loop == first[s]) {
                  total++;
                  want += ref_beyond(log[i].d, lines[L]);
               }
            ck_assert_uint_eq(mp_carrier_beyond(&vc->slot[s], lines[L]), want);
            ck_assert_uint_eq(vc->slot[s].total, total);
         }
      }
      {
         /* odd loops are not the caller's: carried by none, as no loop is */
         uint64_t known = 0, carried = 0, other = 0, ref_known = 0, none = 0;
         uint64_t per_slot[MP_CARRIER_SLOTS] = { 0 }, best = 0;
         uint32_t best_slot = MP_CARRIER_SLOTS;
         const mp_carrier *top = mp_carriers_top(vc, 4096, even_loop, NULL, &known,
                                                 &carried);
         for (i = 0; i < n; i++) {
            uint32_t k;
            if (log[i].var != v || !ref_beyond(log[i].d, 4096))
               continue;
            ref_known++;
            for (k = 0; k < vc->n && first[k] != log[i].loop; k++)
               ;
            if (k == vc->n)
               other++;
            else if (log[i].loop == MP_LOOP_NONE || log[i].loop % 2)
               none++;
            else
               per_slot[k]++;
         }
         for (s = 0; s < vc->n; s++)
            if (per_slot[s] > best) {
               best = per_slot[s];
               best_slot = s;
            }
         ck_assert_uint_eq(known, ref_known);
         ck_assert_uint_eq(mp_carrier_beyond(&vc->other, 4096), other);
         if (best > none) {
            ck_assert_ptr_eq(top, &vc->slot[best_slot]);
            ck_assert_uint_eq(carried, best);
         } else {
            ck_assert_ptr_null(top);
            ck_assert_uint_eq(carried, none);
         }
         if (v == 0)
            ck_assert_uint_gt(other, 0);
      }
   }
   mp_carriers_unseen(c, 2);
   ck_assert_uint_eq(mp_carriers_of(c, 2)->unseen, 1);
   ck_assert_ptr_null(mp_carriers_of(c, N_VARS + 100));
   mp_carriers_reset(c);
   ck_assert_ptr_null(mp_carriers_of(c, 0));
   mp_carriers_free(c);
}
END_TEST

/* The pairs of sibling loops, against a list kept by hand by the same
   rule (a new pair takes the place of the one with the fewest reuses,
   of those the one placed first, when all are taken); a reuse within
   one loop,
   with a loop unknown, or near, is no pair's. */
typedef struct {
   uint32_t from, to, across[2];
   uint64_t total, bins[MP_REUSE_N_BINS], admitted;
} ref_pair;

static void ref_add(ref_pair *l, uint32_t *n, uint64_t *admissions, uint32_t from,
                    uint32_t to, const uint32_t across[2], uint64_t d)
{
   uint32_t i, m = 0;
   for (i = 0; i < *n && !(l[i].from == from && l[i].to == to); i++)
      ;
   if (i == *n && *n == MP_CARRIER_PAIRS) {
      for (i = 1; i < *n; i++)
         if (l[i].total < l[m].total
             || (l[i].total == l[m].total && l[i].admitted < l[m].admitted))
            m = i;
      i = m;
      memset(&l[i], 0, sizeof l[i]);
   } else if (i == *n)
      memset(&l[(*n)++], 0, sizeof l[i]);
   if (l[i].total == 0) {
      l[i].admitted = (*admissions)++;
      l[i].from = from;
      l[i].to = to;
      l[i].across[0] = l[i].across[1] = MP_LOOP_NONE;
   }
   if (across[0] != MP_LOOP_NONE) {
      l[i].across[0] = across[0];
      l[i].across[1] = across[1];
   }
   l[i].total++;
   l[i].bins[mp_reuse_bin(d)]++;
}

START_TEST(test_pairs)
{
   mp_carriers *c = mp_carriers_new(FAR);
   const uint32_t none[2] = { MP_LOOP_NONE, MP_LOOP_NONE };
   const mp_var_carriers *vc;
   ref_pair want[MP_CARRIER_PAIRS];
   uint32_t i, p, b, n_want = 0;
   uint64_t admissions = 0;
   srand(3);
   for (i = 0; i < 5000; i++) {
      /* more pairs than the table holds, (0, 1) the most frequent */
      uint32_t from = i % 3 ? 0 : (uint32_t)rand() % 5, to = i % 3 ? 1 : (uint32_t)rand() % 5;
      uint64_t d = (uint64_t)(rand() % 100000);
      /* every tenth reuse of (0, 1) passes over loops 9 then 8 */
      const uint32_t across[2] = { from == 0 && to == 1 && i % 10 == 0 ? 9 : MP_LOOP_NONE,
                                   from == 0 && to == 1 && i % 10 == 0 ? 8 : MP_LOOP_NONE };
      mp_carriers_add(c, 1, 7, d);
      mp_carriers_add_pair(c, 1, 7, from, to, across, d);
      if (d >= FAR && from != to)
         ref_add(want, &n_want, &admissions, from, to, across, d);
   }
   mp_carriers_add_pair(c, 1, 7, 2, 2, none, 100000);
   mp_carriers_add_pair(c, 1, 7, MP_LOOP_NONE, 2, none, 100000);
   mp_carriers_add_pair(c, 2, MP_LOOP_NONE, 0, 1, none, 10);
   vc = mp_carriers_of(c, 1);
   ck_assert_uint_eq(vc->n_pairs, MP_CARRIER_PAIRS);
   ck_assert_uint_eq(n_want, MP_CARRIER_PAIRS);
   for (p = 0; p < vc->n_pairs; p++) {
      const mp_loop_pair *lp = &vc->pair[p];
      ck_assert_uint_eq(lp->k.loop, 7);
      ck_assert_uint_eq(lp->from, want[p].from);
      ck_assert_uint_eq(lp->to, want[p].to);
      ck_assert_uint_eq(lp->k.total, want[p].total);
      /* a pair keeps a loop that ran between its loops at any reuse */
      ck_assert_uint_eq(lp->across[0], want[p].across[0]);
      ck_assert_uint_eq(lp->across[1], want[p].across[1]);
      for (b = 0; b < MP_REUSE_N_BINS; b++)
         ck_assert_uint_eq(lp->k.bins[b], want[p].bins[b]);
      /* the frequent pair was never given up: all its far reuses */
      if (lp->from == 0 && lp->to == 1)
         ck_assert_uint_gt(lp->k.total, 3000);
   }
   /* below 'far': no table made */
   ck_assert_ptr_null(mp_carriers_of(c, 2));
   mp_carriers_add_pair(c, 2, MP_LOOP_NONE, 0, 1, none, FAR);
   ck_assert_uint_eq(mp_carriers_of(c, 2)->n_pairs, 1);
   ck_assert_uint_eq(mp_carriers_of(c, 2)->pair[0].k.loop, MP_LOOP_NONE);
   ck_assert_uint_eq(mp_carriers_of(c, 2)->pair[0].k.total, 1);
   mp_carriers_free(c);
}
END_TEST

/* Pairs met once at the start (a loop's first run before the loop
   around it was known) fill the table; the pair met at every step
   after them still gets a place and keeps it. */
START_TEST(test_pairs_late)
{
   mp_carriers *c = mp_carriers_new(FAR);
   const uint32_t none[2] = { MP_LOOP_NONE, MP_LOOP_NONE };
   const mp_var_carriers *vc;
   uint32_t i, p, found = 0;
   for (i = 0; i < MP_CARRIER_PAIRS; i++)
      mp_carriers_add_pair(c, 1, 5, 10 + i, 20 + i, none, FAR);
   for (i = 0; i < 1000; i++) {
      mp_carriers_add_pair(c, 1, 7, 1, 2, none, FAR);
      /* and a stray pair between */
      if (i % 100 == 0)
         mp_carriers_add_pair(c, 1, 5, 30 + i, 31 + i, none, FAR);
   }
   vc = mp_carriers_of(c, 1);
   for (p = 0; p < vc->n_pairs; p++)
      if (vc->pair[p].from == 1 && vc->pair[p].to == 2) {
         found = 1;
         ck_assert_uint_eq(vc->pair[p].k.loop, 7);
         ck_assert_uint_eq(vc->pair[p].k.total, 1000);
      }
   ck_assert_uint_eq(found, 1);
   mp_carriers_free(c);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("carriers");
   TCase *tc = tcase_create("core");
   tcase_add_test(tc, test_against_reference);
   tcase_add_test(tc, test_pairs);
   tcase_add_test(tc, test_pairs_late);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
