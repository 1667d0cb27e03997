/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_util's text helpers: text that grows, never cut, and
   the marked cut where a limit stays. */
#include "mp_test.h"
#include <stdlib.h>
#include <string.h>

#include "mp_util.h"

/* The names a table shows: C++ frames without parameter lists, the
   rest untouched. */
static void short_is(const char *name, const char *want)
{
   mp_test_str(name, mp_short_name(name), want);
}

START_TEST(test_short_name)
{
   short_is("stack:kernel(Domain&, int, int)", "stack:kernel");
   short_is("stack:double* Allocate<double>(unsigned long)", "stack:Allocate<double>");
   short_is("stack:std::vector<int, std::allocator<int> >::size() const",
            "stack:std::vector<int, std::allocator<int> >::size");
   short_is("stack:main::{lambda(int)#1}::operator()(int) const",
            "stack:main::{lambda(int)#1}::operator()");
   short_is("stack:(anonymous namespace)::f(int)", "stack:(anonymous namespace)::f");
   short_is("heap@Domain::alloc(int) [clone .constprop.0]", "heap@Domain::alloc");
   short_is("CalcForce(double*, double (*) [3]) &&", "CalcForce");
   short_is("stack:main", NULL);
   short_is("stack:(below main)", NULL);
   short_is("dvdx", NULL);
   short_is("grid[i]", NULL);
   short_is("heap@alloc.h:2", NULL);
   short_is("stack:f(int) trailing", NULL);
}
END_TEST

START_TEST(test_asprintf_long)
{
   char big[5001], *s;
   memset(big, 'x', 5000);
   big[5000] = '\0';
   s = mp_asprintf("<%s:%u>", big, 7u);
   ck_assert_uint_eq(strlen(s), 5004);
   ck_assert(s[0] == '<' && memcmp(s + 5001, ":7>", 4) == 0);
   free(s);
}
END_TEST

START_TEST(test_strbuf)
{
   mp_strbuf b = MP_STRBUF_INIT;
   char *s;
   int i;
   s = mp_strbuf_take(&b);
   ck_assert_str_eq(s, "");
   free(s);
   for (i = 0; i < 1000; i++)
      mp_strbuf_printf(&b, "%d,", i % 10);
   mp_strbuf_add(&b, "end", 3);
   s = mp_strbuf_take(&b);
   ck_assert_uint_eq(strlen(s), 2003);
   ck_assert_str_eq(s + 1990, "5,6,7,8,9,end");
   ck_assert(b.s == NULL && b.len == 0);
   free(s);
}
END_TEST

START_TEST(test_utf8_cut)
{
   char s[32];
   strcpy(s, "ab\xe2\x82\xac\xe2\x82\xac");      /* "ab€€", 8 bytes */
   ck_assert_int_eq(mp_utf8_cut(s, 8), 0);
   ck_assert_str_eq(s, "ab\xe2\x82\xac\xe2\x82\xac");
   /* 6 bytes: not inside the first euro sign */
   ck_assert_int_eq(mp_utf8_cut(s, 6), 1);
   ck_assert_str_eq(s, "ab\xe2\x80\xa6");
   strcpy(s, "abcdefgh");
   ck_assert_int_eq(mp_utf8_cut(s, 7), 1);
   ck_assert_str_eq(s, "abcd\xe2\x80\xa6");
}
END_TEST

int main(void)
{
   Suite *s = suite_create("util");
   TCase *tc = tcase_create("text");
   tcase_add_test(tc, test_asprintf_long);
   tcase_add_test(tc, test_strbuf);
   tcase_add_test(tc, test_utf8_cut);
   tcase_add_test(tc, test_short_name);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
