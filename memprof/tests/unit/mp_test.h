/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the Check unit tests share: a deterministic random generator
   (xorshift64, so that a failing trace can be replayed from its seed)
   and the suite runner. */
#ifndef MP_TEST_H
#define MP_TEST_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static inline uint64_t rng(void)
{
   rng_state ^= rng_state << 13;
   rng_state ^= rng_state >> 7;
   rng_state ^= rng_state << 17;
   return rng_state;
}

/* Runs every test of s; the exit status of the test program. */
static inline int mp_test_run(Suite *s)
{
   SRunner *sr = srunner_create(s);
   int failed;
   srunner_run_all(sr, CK_NORMAL);
   failed = srunner_ntests_failed(sr);
   srunner_free(sr);
   return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Checks that a function of 'what' answered want (NULL: nothing), and
   frees its answer: the shape of the text helpers' tests. */
static inline void mp_test_str(const char *what, char *got, const char *want)
{
   if (want == NULL)
      ck_assert_msg(got == NULL, "%s -> %s, expected none", what, got);
   else {
      ck_assert_msg(got != NULL, "%s -> none, expected %s", what, want);
      ck_assert_str_eq(got, want);
   }
   free(got);
}

#endif /* MP_TEST_H */
