/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_granmap against a brute-force reference: a plain
   array of values, one per granule, over two windows of address space
   (near 0 and near 2^48, so all three table levels are crossed). */
#include "mp_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_granmap.h"

#define WINDOW (1u << 20)                 /* bytes per window */
#define GRANULES (WINDOW >> MP_GRANULE_SHIFT)

static const uint64_t bases[2] = { 0, (1ULL << 48) - WINDOW };

static void ref_set(uint32_t *ref, uint64_t off, uint64_t len, uint32_t v)
{
   uint64_t g;
   for (g = off >> MP_GRANULE_SHIFT; g <= (off + len - 1) >> MP_GRANULE_SHIFT; g++)
      ref[g] = v;
}

/* Number of granules where map and reference disagree.  A prefetch
   comes before each read (of the granule, of one further on, of one
   beyond 2^48), and must change nothing. */
static uint64_t mismatches(const mp_granmap *m, const uint32_t *ref, uint64_t base)
{
   uint64_t g, bad = 0;
   for (g = 0; g < GRANULES; g++) {
      uint64_t a = base + (g << MP_GRANULE_SHIFT) + (g % 16);
      mp_granmap_prefetch(m, a);
      mp_granmap_prefetch(m, a + (1u << 18));
      mp_granmap_prefetch(m, (1ULL << 48) + a);
      bad += mp_granmap_get(m, a) != ref[g];
   }
   return bad;
}

/* Number of ranges, of random offsets and lengths (across leaves too),
   where mp_granmap_empty and the reference disagree. */
static uint64_t empty_mismatches(const mp_granmap *m, const uint32_t *ref, uint64_t base)
{
   uint64_t bad = 0;
   int i;
   for (i = 0; i < 20000; i++) {
      uint64_t len = rng() % ((i % 10 == 0) ? 200000 : 600);
      uint64_t off = rng() % (WINDOW - len), g;
      int empty = 1;
      for (g = off >> MP_GRANULE_SHIFT; len > 0 && g <= (off + len - 1) >> MP_GRANULE_SHIFT; g++)
         if (ref[g] != 0)
            empty = 0;
      bad += mp_granmap_empty(m, base + off, len) != empty;
   }
   return bad;
}

START_TEST(test_random_against_reference)
{
   mp_granmap *m = mp_granmap_new();
   uint32_t *ref[2];
   int i, w;
   rng_state = 88172645463325252ULL;
   for (w = 0; w < 2; w++)
      ref[w] = calloc(GRANULES, sizeof(uint32_t));
   for (i = 0; i < 20000; i++) {
      uint64_t len = 1 + rng() % ((i % 100 == 0) ? 200000 : 300);
      uint64_t off = rng() % (WINDOW - len);
      uint32_t v = (rng() % 3 == 0) ? 0 : (uint32_t)(1 + rng() % 1000);
      w = (int)(rng() & 1);
      mp_granmap_set(m, bases[w] + off, len, v);
      ref_set(ref[w], off, len, v);
   }
   for (w = 0; w < 2; w++) {
      ck_assert_uint_eq(mismatches(m, ref[w], bases[w]), 0);
      ck_assert_uint_eq(empty_mismatches(m, ref[w], bases[w]), 0);
      free(ref[w]);
   }
   mp_granmap_free(m);
}
END_TEST

/* Proves the comparison can fail: a reference missing one write. */
START_TEST(test_mismatch_is_detected)
{
   mp_granmap *m = mp_granmap_new();
   uint32_t *ref = calloc(GRANULES, sizeof(uint32_t));
   mp_granmap_set(m, 4096, 16, 7);
   ck_assert_uint_eq(mismatches(m, ref, 0), 1);
   free(ref);
   mp_granmap_free(m);
}
END_TEST

START_TEST(test_edges)
{
   mp_granmap *m = mp_granmap_new();
   uint64_t before;
   ck_assert_uint_eq(mp_granmap_get(m, 0x1234), 0);
   mp_granmap_set(m, 0xfff8, 16, 5);       /* straddles a leaf boundary */
   ck_assert_uint_eq(mp_granmap_get(m, 0xfff0), 5);
   ck_assert_uint_eq(mp_granmap_get(m, 0x10000), 5);
   ck_assert_uint_eq(mp_granmap_get(m, 0x10010), 0);
   ck_assert_uint_eq(mp_granmap_get(m, 0xffe0), 0);
   mp_granmap_set(m, (1ULL << 32) - 8, 16, 9);   /* crosses a middle table */
   ck_assert_uint_eq(mp_granmap_get(m, (1ULL << 32) - 1), 9);
   ck_assert_uint_eq(mp_granmap_get(m, 1ULL << 32), 9);
   ck_assert_uint_eq(mp_granmap_get(m, 1ULL << 50), 0);   /* beyond 2^48 */
   before = mp_granmap_bytes(m);
   mp_granmap_set(m, 1ULL << 40, 1 << 20, 0);    /* clearing allocates nothing */
   ck_assert_uint_eq(mp_granmap_bytes(m), before);
   ck_assert_int_eq(mp_granmap_empty(m, 0xff00, 0x100), 0);   /* ends in 0xfff8's granule */
   ck_assert_int_eq(mp_granmap_empty(m, 0xff00, 0xf0), 1);
   ck_assert_int_eq(mp_granmap_empty(m, 0x10010, 1 << 20), 1);
   ck_assert_int_eq(mp_granmap_empty(m, 0x10000, 1), 0);
   ck_assert_int_eq(mp_granmap_empty(m, 0x10000, 0), 1);
   mp_granmap_set(m, 0xfff8, 16, 0);
   ck_assert_uint_eq(mp_granmap_get(m, 0x10000), 0);
   ck_assert_int_eq(mp_granmap_empty(m, 0, 1ULL << 32), 0);   /* the 2^32 - 8 block */
   ck_assert_int_eq(mp_granmap_empty(m, 0, (1ULL << 32) - 16), 1);
   mp_granmap_free(m);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("granmap");
   TCase *tc = tcase_create("core");
   tcase_set_timeout(tc, 60);
   tcase_add_test(tc, test_random_against_reference);
   tcase_add_test(tc, test_mismatch_is_detected);
   tcase_add_test(tc, test_edges);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
