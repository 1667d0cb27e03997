/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_naming: the identifier a heap site is named after. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mp_naming.h"

typedef struct {
   const char *line;
   const char *name;   /* NULL: no name expected */
} naming_case;

static const naming_case cases[] = {
   { "   double *a = malloc(n * sizeof *a);", "a" },
   { "p->buf = (char *)calloc(n, 1);", "p->buf" },
   { "grid[i] = malloc(8);", "grid[i]" },
   { "m.rows[i][j] = malloc(8);", "m.rows[i][j]" },
   { "int *v = new int[n];", "v" },
   { "buf = realloc(buf, n);", "buf" },
   { "  struct node *head=malloc(sizeof *head);", "head" },
   { "  allocate(a(n), b(m))", "a" },
   { "  ALLOCATE ( Grid%cells(10) )", "Grid%cells" },
   { "if (x == 3) y = malloc(2);", "y" },
   { "return malloc(n);", NULL },
   { "x += malloc_count;", NULL },
   { "if (p == NULL) abort();", NULL },
   { "foo(malloc(3)); // a = b", NULL },
   { "", NULL },
   { "char *s = strdup(\"a=b\");", "s" },
   { "reallocate(x)", NULL },
};

START_TEST(test_cases)
{
   char out[64];
   const naming_case *c = &cases[_i];
   int r = mp_name_from_source_line(c->line, out, sizeof out);
   if (c->name) {
      ck_assert_msg(r == 1, "no name found in '%s'", c->line);
      ck_assert_str_eq(out, c->name);
   } else {
      ck_assert_msg(r == 0, "'%s' named '%s', expected none", c->line, out);
   }
}
END_TEST

START_TEST(test_truncation)
{
   char out[4];
   ck_assert_int_eq(mp_name_from_source_line("abcdef = malloc(1);", out, sizeof out), 1);
   ck_assert_str_eq(out, "abc");
}
END_TEST

int main(void)
{
   Suite *s = suite_create("naming");
   TCase *tc = tcase_create("core");
   SRunner *sr;
   int failed;
   tcase_add_loop_test(tc, test_cases, 0, (int)(sizeof cases / sizeof cases[0]));
   tcase_add_test(tc, test_truncation);
   suite_add_tcase(s, tc);
   sr = srunner_create(s);
   srunner_run_all(sr, CK_NORMAL);
   failed = srunner_ntests_failed(sr);
   srunner_free(sr);
   return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
