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
   { "for (int i = 0; i < n; i++) live[i] = malloc(s);", "live[i]", 0 },
   { "  } else if (k > 0) buf = malloc(k);", "buf", 0 },
   { "  while (n--) *out++ = x;", NULL, 0 },
};

/* Out-parameters: the pointer stored, never the call's status. */
static const struct { const char *line, *fn, *name; } out_params[] = {
   { "   int err = posix_memalign(&ret, 4096, sz);", "posix_memalign", "ret" },
   { "if (posix_memalign((void **)&s->buf, 64, n)) abort();", "posix_memalign", "s->buf" },
   { "rc = posix_memalign( (void**) pp , 64, n);", "posix_memalign", "*pp" },
   { "posix_memalign(&a[i], 64, n);", "posix_memalign", "a[i]" },
   { "x = my_posix_memalign(&p, 64, n);", "posix_memalign", NULL },
   { "p = malloc(n);", "posix_memalign", NULL },
   { "posix_memalign(f(x), 64, n);", "posix_memalign", NULL },
};

/* out, found in line, is want (NULL: nothing found); frees out. */
static void expect_name(const char *line, char *out, const char *want)
{
   if (want) {
      ck_assert_msg(out != NULL, "no name found in '%s'", line);
      ck_assert_str_eq(out, want);
      free(out);
   } else {
      ck_assert_msg(out == NULL, "'%s' named '%s', expected none", line, out);
   }
}

START_TEST(test_out_param)
{
   expect_name(out_params[_i].line,
               mp_name_from_out_param(out_params[_i].line, out_params[_i].fn),
               out_params[_i].name);
}
END_TEST

/* Statements that receive a block from a wrapper without assigning. */
static const struct { const char *line, *name; } statements[] = {
   { "   DECL_2D_ARRAY(A, double, N, N);", "A" },
   { "DECL_1D(x1, double, N);", "x1" },
   { "DECL_ARRAY(double, y, N);", "y" },
   { "  s.v.resize(n);", "s.v" },
   { "  obj->items.push_back(x);", "obj->items" },
   { "  rows[i].cells.reserve(8);", "rows[i].cells" },
   { "  std::vector<double> v(n);", "v" },
   { "  std::vector<std::pair<int, int> > pairs(n, {0, 0});", "pairs" },
   { "  Buffer *b{make()};", "b" },
   { "  my_alloc(&A, n);", "A" },
   { "  if (!grow(&t->slots, n)) return -1;", "t->slots" },
   { "  return xmalloc(n);", NULL },
   { "  foo(n);", NULL },
   { "  f(a && b);", NULL },
   { "", NULL },
};

START_TEST(test_statement)
{
   expect_name(statements[_i].line, mp_name_from_statement(statements[_i].line),
               statements[_i].name);
}
END_TEST

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

/* The nth allocation's name on a C (fortran 0) or Fortran line. */
static void expect_nth_in(const char *line, int fortran, unsigned n, const char *want)
{
   expect_name(line, mp_name_from_source_line_nth(line, fortran, n), want);
}

static void expect_nth(const char *line, unsigned n, const char *want)
{
   expect_nth_in(line, 0, n, want);
}

static void expect_fortran_nth(const char *line, unsigned n, const char *want)
{
   expect_nth_in(line, 1, n, want);
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
   /* A plain initialisation before the allocation on one line (an MPI
      halo's "int n = 10000; double *u = calloc(...)"): the first site
      is the allocating statement's, not n.  A line with no call at all
      (a wrapper's macro) keeps its first assignment. */
   expect_nth("int n = 10000; double *u = calloc(n + 2, sizeof(double));", 0, "u");
   expect_nth("s->buf = NEW_BUF;", 0, "s->buf");
   /* Fortran: the objects of one ALLOCATE, in order */
   expect_fortran_nth("  allocate(a(n), b(n))", 1, "b");
   expect_fortran_nth("  allocate(x(n,m), y(m), stat=ierr)", 1, "y");
   expect_fortran_nth("  allocate(x(n,m), y(m), stat=ierr)", 2, NULL);
   expect_fortran_nth("  ALLOCATE (g%u(n), g%v(n))", 1, "g%v");
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

START_TEST(test_returns_call)
{
   /* the one-line template helpers of C++ proxy apps, and C wrappers */
   ck_assert_int_eq(mp_line_returns_call("template <class T> T *Allocate(size_t n) "
                                         "{ return static_cast<T *>(malloc(sizeof(T) * n)); }"), 1);
   ck_assert_int_eq(mp_line_returns_call("   return malloc(n);"), 1);
   ck_assert_int_eq(mp_line_returns_call("return(xmalloc(n));"), 1);
   /* a block kept in a local, or no call returned */
   ck_assert_int_eq(mp_line_returns_call("   return p;"), 0);
   ck_assert_int_eq(mp_line_returns_call("   double *p = malloc(n);"), 0);
   ck_assert_int_eq(mp_line_returns_call("   returned = malloc(n);"), 0);
   ck_assert_int_eq(mp_line_returns_call("   int noreturn(void);"), 0);
}
END_TEST

/* The compiler's suffixes, dropped: the names the source gives. */
static void stripped_is(const char *name, const char *want, int how)
{
   char buf[128];
   strcpy(buf, name);
   ck_assert_int_eq(mp_strip_compiler_suffix(buf), how);
   ck_assert_str_eq(buf, want);
}

START_TEST(test_compiler_suffix)
{
   stripped_is("kernel.constprop.0", "kernel", 1);
   stripped_is("fft_z.isra.0.part.0", "fft_z", 1);
   stripped_is("main.cold", "main", 1);
   stripped_is("cffts1._omp_fn.0", "cffts1", 1);
   stripped_is("buf.lto_priv.0", "buf", 1);
   stripped_is("helper.llvm.1234567", "helper", 1);
   stripped_is("u1.3", "u1", 2);
   stripped_is("CalcForce(double*) [clone .constprop.0]", "CalcForce(double*)", 1);
   stripped_is("stack:kernel.constprop.0", "stack:kernel", 1);
   /* names with dots that are not the compiler's */
   stripped_is("main", "main", 0);
   stripped_is("particles:GOT", "particles:GOT", 0);
   stripped_is("libc.so.6:mapped", "libc.so.6:mapped", 0);
   stripped_is("ld.so.cache", "ld.so.cache", 0);
   stripped_is("s.v", "s.v", 0);
   stripped_is("stack:(below main)", "stack:(below main)", 0);
   stripped_is("heap@alloc.h:2", "heap@alloc.h:2", 0);
   stripped_is("__ctype32_toupper@GLIBC_2.2.5", "__ctype32_toupper@GLIBC_2.2.5", 0);
   stripped_is("heap@fill.constprop.0", "heap@fill", 1);
}
END_TEST

static void demangled_is(const char *sym, const char *want)
{
   mp_test_str(sym, mp_demangle_data(sym), want);
}

START_TEST(test_demangle_data)
{
   demangled_is("_ZZ4mainE5table", "main::table");
   demangled_is("_ZZ4mainE5table_0", "main::table");
   demangled_is("_ZZL6kernelR6DomainiiE3buf", "kernel::buf");
   demangled_is("_ZZN6Domain5allocEiE5count", "Domain::alloc::count");
   demangled_is("_ZZ3runISt6vectorIiSaIiEEEvRT_E4seen", "run::seen");
   demangled_is("_ZN6Domain5countE", "Domain::count");
   demangled_is("_ZN12_GLOBAL__N_13bufE", "(anonymous namespace)::buf");
   demangled_is("_ZL3buf", "buf");
   demangled_is("_ZN2ns5inner4gridE", "ns::inner::grid");
   demangled_is("grid", NULL);
   demangled_is("_Z", NULL);
   demangled_is("_ZZ4mainE", NULL);
   demangled_is("_ZN6Domain5count", NULL);
}
END_TEST

START_TEST(test_line_calls)
{
   ck_assert_int_eq(mp_line_calls("   Real_t *dvdx = Allocate<Real_t>(numElem8) ;", "Allocate<double>"), 1);
   ck_assert_int_eq(mp_line_calls("   dom.AllocateNodes(n);", "Domain::AllocateNodes(int)"), 1);
   ck_assert_int_eq(mp_line_calls("   tid_args = CALLOC(n, sizeof *tid_args);", "CALLOC"), 1);
   ck_assert_int_eq(mp_line_calls("   p = std::vector<T, A<T> >::make (n);", "make"), 1);
   /* another function whose name holds fn's, or no call */
   ck_assert_int_eq(mp_line_calls("   x = ReAllocate<double>(n);", "Allocate<double>"), 0);
   ck_assert_int_eq(mp_line_calls("   x = Allocated;", "Allocated"), 0);
   ck_assert_int_eq(mp_line_calls("   kernel(d, n);", "main"), 0);
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
   tcase_add_test(tc, test_returns_call);
   tcase_add_test(tc, test_line_calls);
   tcase_add_test(tc, test_compiler_suffix);
   tcase_add_test(tc, test_demangle_data);
   tcase_add_loop_test(tc, test_out_param, 0, (int)(sizeof out_params / sizeof out_params[0]));
   tcase_add_loop_test(tc, test_statement, 0, (int)(sizeof statements / sizeof statements[0]));
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
