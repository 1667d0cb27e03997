/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_numa: first touch places a page; forgetting ranges
   (probe and table walk); random traces against a reference that
   remembers every page's home in a plain array. */
#include "mp_numa.h"
#include "mp_test.h"

START_TEST(test_first_touch)
{
   mp_numa *n = mp_numa_new(4096);
   int first;
   ck_assert_uint_eq(mp_numa_home(n, 0x10000, 1, &first), 1);
   ck_assert_int_eq(first, 1);
   ck_assert_uint_eq(mp_numa_home(n, 0x10ff8, 0, &first), 1);   /* same page */
   ck_assert_int_eq(first, 0);
   ck_assert_uint_eq(mp_numa_home(n, 0x11000, 0, &first), 0);   /* next page */
   ck_assert_int_eq(first, 1);
   ck_assert_uint_eq(mp_numa_home(n, 0x10008, 3, &first), 1);
   ck_assert_int_eq(first, 0);
   ck_assert_uint_eq(mp_numa_pages(n), 2);
   mp_numa_free(n);
}
END_TEST

START_TEST(test_forget)
{
   mp_numa *n = mp_numa_new(4096);
   int first;
   uint64_t p;
   for (p = 0; p < 10; p++)
      mp_numa_home(n, 0x100000 + p * 4096, 0, &first);
   /* a range that covers pages 2..4 wholly and 1 and 5 partly */
   mp_numa_forget(n, 0x100000 + 4096 + 100, 4 * 4096);
   ck_assert_uint_eq(mp_numa_pages(n), 7);
   ck_assert_uint_eq(mp_numa_home(n, 0x100000 + 3 * 4096, 1, &first), 1);
   ck_assert_int_eq(first, 1);
   ck_assert_uint_eq(mp_numa_home(n, 0x100000 + 1 * 4096, 1, &first), 0);
   ck_assert_int_eq(first, 0);
   mp_numa_forget(n, 0, 1ULL << 40);   /* bigger than the table: the walk */
   ck_assert_uint_eq(mp_numa_pages(n), 0);
   mp_numa_free(n);
}
END_TEST

#define PAGES 5000

START_TEST(test_random_vs_reference)
{
   static int home[PAGES];   /* -1: none */
   mp_numa *n = mp_numa_new(1u << (6 + _i % 7));
   uint32_t shift = 6 + _i % 7, i;
   uint64_t used = 0, p;
   rng_state = 0xabcdef12ULL + (uint64_t)_i;
   for (i = 0; i < PAGES; i++)
      home[i] = -1;
   for (i = 0; i < 100000; i++) {
      int first;
      if (rng() % 500 == 0) {
         uint64_t a = rng() % ((uint64_t)PAGES << shift), len = rng() % (64ULL << shift);
         uint64_t f = (a + (1ULL << shift) - 1) >> shift, e = (a + len) >> shift;
         mp_numa_forget(n, a, len);
         for (p = f; p < e && p < PAGES; p++)
            if (home[p] >= 0) {
               home[p] = -1;
               used--;
            }
      } else {
         uint64_t a = rng() % ((uint64_t)PAGES << shift);
         uint32_t s = (uint32_t)(rng() % 4), h;
         p = a >> shift;
         h = mp_numa_home(n, a, s, &first);
         ck_assert_int_eq(first, home[p] < 0);
         if (home[p] < 0) {
            home[p] = (int)s;
            used++;
         }
         ck_assert_uint_eq(h, (uint32_t)home[p]);
      }
      ck_assert_uint_eq(mp_numa_pages(n), used);
   }
   mp_numa_free(n);
}
END_TEST

static Suite *numa_suite(void)
{
   Suite *s = suite_create("numa");
   TCase *tc = tcase_create("core");
   tcase_set_timeout(tc, 120);
   tcase_add_test(tc, test_first_touch);
   tcase_add_test(tc, test_forget);
   tcase_add_loop_test(tc, test_random_vs_reference, 0, 7);
   suite_add_tcase(s, tc);
   return s;
}

int main(void)
{
   return mp_test_run(numa_suite());
}
