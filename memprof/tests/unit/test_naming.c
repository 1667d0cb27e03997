/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_naming: the identifier a heap site is named after. */
#include "mp_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_naming.h"

typedef struct {
   const char *line;
   const char *name;   /* NULL: no name expected */
   int fortran;
} naming_case;

static const naming_case cases[] = {
   { "   double *a = malloc(n * sizeof *a);", "a", 0 },
   { "p->buf = (char *)calloc(n, 1);", "p->buf", 0 },
   { "grid[i] = malloc(8);", "grid[i]", 0 },
   { "m.rows[i][j] = malloc(8);", "m.rows[i][j]", 0 },
   { "int *v = new int[n];", "v", 0 },
   { "buf = realloc(buf, n);", "buf", 0 },
   { "  struct node *head=malloc(sizeof *head);", "head", 0 },
   { "  allocate(a(n), b(m))", "a", 1 },
   { "  ALLOCATE ( Grid%cells(10) )", "Grid%cells", 1 },
   { "  buf = allocate(nbytes);", "buf", 0 },
   { "  call allocate(x)", NULL, 0 },
   { "*pp = malloc(1);", "*pp", 0 },
   { "  **ppp = malloc(1);", "**ppp", 0 },
   { "char **argv2 = malloc(8);", "argv2", 0 },
   { "struct s *const p = malloc(8);", "p", 0 },
   { "if (x == 3) y = malloc(2);", "y", 0 },
   { "return malloc(n);", NULL, 0 },
   { "x += malloc_count;", NULL, 0 },
   { "if (p == NULL) abort();", NULL, 0 },
   { "foo(malloc(3)); // a = b", NULL, 0 },
   { "", NULL, 0 },
   { "char *s = strdup(\"a=b\");", "s", 0 },
   { "reallocate(x)", NULL, 1 },
};

START_TEST(test_cases)
{
   const naming_case *c = &cases[_i];
   char *out = mp_name_from_source_line(c->line, c->fortran);
   if (c->name) {
      ck_assert_msg(out != NULL, "no name found in '%s'", c->line);
      ck_assert_str_eq(out, c->name);
   } else {
      ck_assert_msg(out == NULL, "'%s' named '%s', expected none", c->line, out);
   }
   free(out);
}
END_TEST

/* A name is never cut, however long, nor a statement of a long line. */
START_TEST(test_long_names)
{
   char name[1001], line[3100], *out;
   size_t k;
   for (k = 0; k < 1000; k++)
      name[k] = (char)('a' + k % 26);
   name[1000] = '\0';
   snprintf(line, sizeof line, "%s = malloc(1);", name);
   out = mp_name_from_source_line(line, 0);
   ck_assert(out != NULL);
   ck_assert_str_eq(out, name);
   free(out);
   /* the second of two allocations, each statement over 512 bytes */
   snprintf(line, sizeof line, "x%s = malloc(1); y%s = malloc(2);", name, name);
   out = mp_name_from_source_line_nth(line, 0, 1);
   ck_assert(out != NULL);
   ck_assert_int_eq(out[0], 'y');
   ck_assert_str_eq(out + 1, name);
   free(out);
}
END_TEST

/* The nth allocation on a C line is named want (NULL: none). */
static void expect_nth(const char *line, unsigned n, const char *want)
{
   char *out = mp_name_from_source_line_nth(line, 0, n);
   if (!want) {
      ck_assert(out == NULL);
      return;
   }
   ck_assert_msg(out != NULL, "no name %u in: %s", n, line);
   ck_assert_str_eq(out, want);
   free(out);
}

/* Several allocations on one line: the nth statement's name. */
START_TEST(test_nth)
{
   const char *line = "   a = malloc(n * sizeof *a); b = malloc(n); c = (double *)calloc(n, 8);";
   expect_nth(line, 0, "a");
   expect_nth(line, 1, "b");
   expect_nth(line, 2, "c");
   expect_nth(line, 3, NULL);
   /* the for header's ';' are inside parentheses: one statement */
   expect_nth("for (i = 0; i < n; i++) p[i] = malloc(8); q = malloc(4);", 1, "q");
   ck_assert(mp_name_from_source_line_nth("x = malloc(1);", 1, 1) == NULL);
}
END_TEST

/* The declarators of one declaration, each its own allocation, in
   order; an initializer that calls nothing is not one of them. */
START_TEST(test_nth_declarators)
{
   const char *decl = "   double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), "
                      "*c = calloc(N, sizeof *c);";
   char *out;
   expect_nth(decl, 0, "a");
   expect_nth(decl, 1, "b");
   expect_nth(decl, 2, "c");
   expect_nth(decl, 3, NULL);
   expect_nth("double *x = malloc(n), s = 0.0, **y = (double **)malloc(n);", 1, "y");
   expect_nth("int *v = new int[n], *w = new int[m];", 1, "w");
   /* a declarator without an initializer before the allocated one */
   out = mp_name_from_source_line("int *p, *q = malloc(4);", 0);
   ck_assert(out != NULL);
   ck_assert_str_eq(out, "q");
   free(out);
}
END_TEST

START_TEST(test_fortran_files)
{
   ck_assert(mp_is_fortran_file("a.f90"));
   ck_assert(mp_is_fortran_file("dir.x/A.F"));
   ck_assert(mp_is_fortran_file("b.for"));
   ck_assert(mp_is_fortran_file("c.F03"));
   ck_assert(!mp_is_fortran_file("a.c"));
   ck_assert(!mp_is_fortran_file("a.f90x"));
   ck_assert(!mp_is_fortran_file("fortran"));
   ck_assert(!mp_is_fortran_file("a.fa"));
}
END_TEST

int main(void)
{
   Suite *s = suite_create("naming");
   TCase *tc = tcase_create("core");
   tcase_add_loop_test(tc, test_cases, 0, (int)(sizeof cases / sizeof cases[0]));
   tcase_add_test(tc, test_long_names);
   tcase_add_test(tc, test_fortran_files);
   tcase_add_test(tc, test_nth);
   tcase_add_test(tc, test_nth_declarators);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
