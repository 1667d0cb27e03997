/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_window against references written out directly: the
   periodic schedule as (i mod P) < W, the Fibonacci schedule from an
   explicit list of window starts. */
#include "mp_test.h"
#include <string.h>

#include "mp_window.h"

/* Drives w one instruction at a time up to n, as the adapter does with
   superblocks of one instruction; in[i] = 1 if instruction i is in a
   window. */
static void drive_by_one(mp_window *w, uint8_t *in, uint64_t n)
{
   uint64_t i;
   for (i = 0; i < n; i++) {
      while (i >= w->next)
         mp_window_switch(w, i);
      in[i] = (uint8_t)w->in_window;
   }
}

START_TEST(test_periodic_is_modulo)
{
   static uint8_t in[100000];
   const uint64_t W = 7, P = 30;
   uint64_t i, ref_analysed = 0;
   mp_window w;
   mp_window_init(&w, MP_WINDOW_PERIODIC, W, P);
   drive_by_one(&w, in, sizeof in);
   for (i = 0; i < sizeof in; i++) {
      ck_assert_msg(in[i] == ((i % P) < W), "instruction %lu", (unsigned long)i);
      ref_analysed += in[i];
   }
   ck_assert_uint_eq(mp_window_analysed(&w, sizeof in), ref_analysed);
   ck_assert_uint_eq(w.windows, (sizeof in + P - 1) / P);
}
END_TEST

/* --sample=detail's schedule: a first window of F instructions, then
   W every P from F on: instruction i >= F is analysed when
   (i - F) mod P >= P - W (each gap comes first). */
START_TEST(test_periodic_first_window)
{
   static uint8_t in[100000];
   const uint64_t W = 7, P = 30, F = 1000;
   uint64_t i, ref_analysed = 0;
   mp_window w;
   mp_window_init(&w, MP_WINDOW_PERIODIC, W, P);
   mp_window_set_first(&w, F);
   drive_by_one(&w, in, sizeof in);
   for (i = 0; i < sizeof in; i++) {
      int want = i < F || (i - F) % P >= P - W;
      ck_assert_msg(in[i] == want, "instruction %lu", (unsigned long)i);
      ref_analysed += in[i];
   }
   ck_assert_uint_eq(mp_window_analysed(&w, sizeof in), ref_analysed);
   ck_assert_uint_eq(w.windows, 1 + (sizeof in - F) / P);
   /* a first window shorter than W changes nothing */
   mp_window_init(&w, MP_WINDOW_PERIODIC, W, P);
   mp_window_set_first(&w, 3);
   ck_assert_uint_eq(w.next, W);
}
END_TEST

START_TEST(test_fibonacci_schedule)
{
   static uint8_t in[200000], ref[200000];
   const uint64_t W = 10, G = 250;
   uint64_t fib[64], start = 0, i, windows = 0;
   int k;
   mp_window w;
   fib[0] = fib[1] = 1;
   for (k = 2; k < 64; k++)
      fib[k] = fib[k - 1] + fib[k - 2];
   memset(ref, 0, sizeof ref);
   /* Windows of W; the k-th gap W * fib[k], capped at G. */
   for (k = 0; start < sizeof ref; k++) {
      uint64_t gap = W * fib[k < 60 ? k : 60];
      for (i = start; i < start + W && i < sizeof ref; i++)
         ref[i] = 1;
      windows++;
      start += W + (gap < G ? gap : G);
   }
   mp_window_init(&w, MP_WINDOW_FIBONACCI, W, G);
   drive_by_one(&w, in, sizeof in);
   for (i = 0; i < sizeof in; i++)
      ck_assert_msg(in[i] == ref[i], "instruction %lu: %d, expected %d",
                    (unsigned long)i, in[i], ref[i]);
   ck_assert_uint_eq(w.windows, windows);
}
END_TEST

/* Superblocks of random length overshoot the boundaries: every window
   still lasts at least W and less than W + the longest step, and the
   analysed instructions are exactly those of the windows. */
START_TEST(test_random_steps)
{
   int round;
   rng_state = 0x9e3779b97f4a7c15ULL;
   for (round = 0; round < 200; round++) {
      mp_window_mode mode = round & 1 ? MP_WINDOW_FIBONACCI : MP_WINDOW_PERIODIC;
      uint64_t W = 1 + rng() % 1000, G = W + 1 + rng() % 5000, now = 0, analysed = 0;
      uint64_t win_start = 0, maxstep = 1 + rng() % 60;
      int steps;
      mp_window w;
      mp_window_init(&w, mode, W, G);
      for (steps = 0; steps < 5000; steps++) {
         int in = w.in_window;
         uint64_t step = 1 + rng() % maxstep;
         if (in)
            analysed += step;
         now += step;
         if (now >= w.next) {
            int began = mp_window_switch(&w, now);
            ck_assert_int_eq(began, !in);
            if (in) {
               ck_assert_uint_ge(now - win_start, W);
               ck_assert_uint_lt(now - win_start, W + maxstep);
            } else {
               win_start = now;
            }
         }
      }
      ck_assert_uint_eq(mp_window_analysed(&w, now), analysed);
   }
}
END_TEST

START_TEST(test_checks_and_extremes)
{
   mp_window w;
   uint64_t now = 0;
   int k;
   ck_assert_ptr_nonnull(mp_window_check(MP_WINDOW_PERIODIC, 0, 10));
   ck_assert_ptr_nonnull(mp_window_check(MP_WINDOW_PERIODIC, 10, 10));
   ck_assert_ptr_null(mp_window_check(MP_WINDOW_PERIODIC, 10, 11));
   ck_assert_ptr_nonnull(mp_window_check(MP_WINDOW_FIBONACCI, 10, 0));
   ck_assert_ptr_null(mp_window_check(MP_WINDOW_FIBONACCI, 10, 1));
   /* A huge cap: the gaps grow through 90 Fibonacci steps without
      overflowing and never shrink. */
   mp_window_init(&w, MP_WINDOW_FIBONACCI, 1, UINT64_MAX / 4);
   {
      uint64_t prev_gap = 0;
      for (k = 0; k < 180; k++) {
         uint64_t before = w.next;
         now = w.next;
         mp_window_switch(&w, now);
         if (!w.in_window) {
            ck_assert_uint_ge(w.next - before, prev_gap);
            prev_gap = w.next - before;
         }
      }
      ck_assert_uint_le(prev_gap, UINT64_MAX / 4);
   }
}
END_TEST

int main(void)
{
   Suite *s = suite_create("window");
   TCase *tc = tcase_create("core");
   tcase_add_test(tc, test_periodic_is_modulo);
   tcase_add_test(tc, test_periodic_first_window);
   tcase_add_test(tc, test_fibonacci_schedule);
   tcase_add_test(tc, test_random_steps);
   tcase_add_test(tc, test_checks_and_extremes);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
