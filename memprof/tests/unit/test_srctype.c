/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_srctype: a heap block's type from the line that
   names it, a structure's members from its definition, offsets by the
   natural alignment (checked against the compiler's own offsetof), and
   the names of byte ranges. */
#include "mp_test.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mp_srctype.h"

static void type_is(const char *line, const char *name, const char *want)
{
   mp_test_str(line, mp_src_pointee_type(line, name), want);
}

START_TEST(test_pointee_type)
{
   type_is("   struct particle *parts = malloc(N * sizeof *parts);", "parts", "particle");
   type_is("   particle_t* p = (particle_t *)calloc(n, sizeof(particle_t));", "p", "particle_t");
   type_is("   d->cells = (struct cell *) malloc(n * sizeof(struct cell));", "d->cells", "cell");
   type_is("   Cell *c = new Cell[n];", "c", "Cell");
   type_is("   m_nodes = new ns::Node[n];", "m_nodes", "ns::Node");
   type_is("   const Body *const bodies = alloc_bodies(n);", "bodies", "Body");
   type_is("   double *x = malloc(n * sizeof *x);", "x", "double");
   type_is("   grid = malloc(n);", "grid", NULL);
   type_is("   return malloc(n);", "p", NULL);
}
END_TEST

/* The same definitions the compiler lays out below. */
static const char *const text =
   "#define NDIM 3\n"
   "/* a comment { with braces } */\n"
   "struct particle {\n"
   "   double x, y, z;   // position\n"
   "   double vx, vy, vz;\n"
   "   double mass, charge;\n"
   "};\n"
   "typedef struct { double real, imag; } dcomplex;\n"
   "typedef double real8;\n"
   "typedef struct cell_s {\n"
   "   char tag;\n"
   "   int id;\n"
   "   short flags[NDIM];\n"
   "   dcomplex z;\n"
   "   struct cell_s *next;\n"
   "   real8 w;\n"
   "   unsigned long long n;\n"
   "   float f;\n"
   "} cell_t;\n"
   "class Node {\n"
   "public:\n"
   "   double pos[NDIM];\n"
   "   static int count;\n"
   "   double norm() const { return pos[0]; }\n"
   "   int level;\n"
   "private:\n"
   "   Node *parent;\n"
   "};\n"
   "struct bits { int a : 3; int b; };\n"
   "struct tagged { union { int i; float f; } u; int k; };\n";

typedef struct { double real, imag; } dcomplex;
typedef double real8;
typedef struct cell_s {
   char tag;
   int id;
   short flags[3];
   dcomplex z;
   struct cell_s *next;
   real8 w;
   unsigned long long n;
   float f;
} cell_t;
struct node { double pos[3]; int level; struct node *parent; };

static const mp_src_field *field(const mp_src_field *f, uint32_t n, const char *name)
{
   uint32_t i;
   for (i = 0; i < n; i++)
      if (strcmp(f[i].name, name) == 0)
         return &f[i];
   ck_abort_msg("no member %s", name);
   return NULL;
}

START_TEST(test_struct_fields)
{
   uint32_t n;
   uint64_t size;
   mp_src_field *f = mp_src_struct_fields(text, "particle", &n, &size);
   ck_assert_uint_eq(n, 8);
   ck_assert_uint_eq(size, 64);
   ck_assert_str_eq(f[3].name, "vx");
   ck_assert_uint_eq(f[3].offset, 24);
   mp_src_fields_free(f, n);

   f = mp_src_struct_fields(text, "cell_t", &n, &size);
   ck_assert_uint_eq(n, 8);
   ck_assert_uint_eq(size, sizeof(cell_t));
   ck_assert_uint_eq(field(f, n, "id")->offset, offsetof(cell_t, id));
   ck_assert_uint_eq(field(f, n, "flags")->offset, offsetof(cell_t, flags));
   ck_assert_uint_eq(field(f, n, "flags")->size, sizeof(short[3]));
   ck_assert_uint_eq(field(f, n, "flags")->elem, sizeof(short));
   ck_assert_uint_eq(field(f, n, "z")->offset, offsetof(cell_t, z));
   ck_assert_uint_eq(field(f, n, "next")->offset, offsetof(cell_t, next));
   ck_assert_uint_eq(field(f, n, "w")->offset, offsetof(cell_t, w));
   ck_assert_uint_eq(field(f, n, "n")->offset, offsetof(cell_t, n));
   ck_assert_uint_eq(field(f, n, "f")->offset, offsetof(cell_t, f));
   mp_src_fields_free(f, n);
   /* the same structure by its tag */
   f = mp_src_struct_fields(text, "cell_s", &n, &size);
   ck_assert_uint_eq(size, sizeof(cell_t));
   mp_src_fields_free(f, n);

   /* a class: access labels, a static member and a method skipped */
   f = mp_src_struct_fields(text, "Node", &n, &size);
   ck_assert_uint_eq(n, 3);
   ck_assert_uint_eq(size, sizeof(struct node));
   ck_assert_uint_eq(field(f, n, "level")->offset, offsetof(struct node, level));
   ck_assert_uint_eq(field(f, n, "parent")->offset, offsetof(struct node, parent));
   mp_src_fields_free(f, n);

   /* what it cannot lay out, it does not */
   ck_assert_ptr_null(mp_src_struct_fields(text, "bits", &n, &size));
   ck_assert_ptr_null(mp_src_struct_fields(text, "tagged", &n, &size));
   ck_assert_ptr_null(mp_src_struct_fields(text, "absent", &n, &size));
   ck_assert_uint_eq(n, 0);
}
END_TEST

static void name_is(const mp_src_field *f, uint32_t n, uint64_t size, uint64_t off,
                    uint64_t bytes, const char *want)
{
   mp_test_str("a byte range", mp_src_field_name(f, n, size, off, bytes), want);
}

START_TEST(test_field_names)
{
   uint32_t n;
   uint64_t size;
   mp_src_field *f = mp_src_struct_fields(text, "particle", &n, &size);
   name_is(f, n, size, 0, 8, "x");
   name_is(f, n, size, 24, 8, "vx");
   name_is(f, n, size, 16, 16, "z..vx");        /* one 16-byte store over two */
   name_is(f, n, size, 64 + 48, 8, "mass");     /* the next element's */
   mp_src_fields_free(f, n);
   f = mp_src_struct_fields(text, "Node", &n, &size);
   name_is(f, n, size, 8, 8, "pos[1]");
   name_is(f, n, size, 0, 24, "pos");
   name_is(f, n, size, 28, 4, NULL);             /* padding after level */
   mp_src_fields_free(f, n);
   name_is(NULL, 0, 0, 0, 8, NULL);
}
END_TEST

START_TEST(test_static_owner)
{
   static const char *const src =
      "static int counter;\n"
      "static void evolve(dcomplex u0[NZ][NY][NX], int d[3]);\n"
      "int main(int argc, char **argv)\n"
      "{\n"
      "   static dcomplex u0[NZ][NY][NX];   /* { not a body } */\n"
      "   static dcomplex pad1[3], u1[NZ][NY][NX];\n"
      "   if (argc > 1) { static int once = 0; }\n"
      "   evolve(u0, dims);\n"
      "}\n"
      "static int work(int k) const\n"
      "{\n"
      "   static int u2[64] = { 0 };\n"
      "   return u2[k];\n"
      "}\n";
   char *o;
   o = mp_src_static_owner(src, "u0");
   ck_assert_str_eq(o, "main");
   free(o);
   o = mp_src_static_owner(src, "u1");
   ck_assert_str_eq(o, "main");
   free(o);
   o = mp_src_static_owner(src, "once");
   ck_assert_str_eq(o, "main");
   free(o);
   o = mp_src_static_owner(src, "u2");
   ck_assert_str_eq(o, "work");
   free(o);
   /* a file-scope static, and a name declared nowhere */
   ck_assert_ptr_null(mp_src_static_owner(src, "counter"));
   ck_assert_ptr_null(mp_src_static_owner(src, "absent"));
}
END_TEST

/* A class's data members, not its methods' locals nor its parameters:
   the shapes of LULESH's Domain. */
START_TEST(test_class_declares)
{
   const char *src =
      "template <class T> T *Allocate(size_t n);\n"
      "class Domain {\n"
      "public:\n"
      "   void AllocateElemPersistent(Int_t numElem) // m_fake in a comment;\n"
      "   {\n"
      "      Real_t *m_local = 0;\n"
      "      m_nodelist.resize(8 * numElem);\n"
      "   }\n"
      "   Real_t& x(Index_t idx) { return m_x[idx]; }\n"
      "private:\n"
      "   std::vector<Index_t> m_nodelist;     /* elemToNode connectivity */\n"
      "   Real_t *m_x, *m_y;\n"
      "   Real_t m_e[8];\n"
      "   Int_t m_numElem = 0;\n"
      "};\n"
      "struct Other { double m_q; };\n";
   ck_assert_int_eq(mp_src_class_declares(src, "Domain", "m_nodelist"), 1);
   ck_assert_int_eq(mp_src_class_declares(src, "Domain", "m_x"), 1);
   ck_assert_int_eq(mp_src_class_declares(src, "Domain", "m_y"), 1);
   ck_assert_int_eq(mp_src_class_declares(src, "Domain", "m_e"), 1);
   ck_assert_int_eq(mp_src_class_declares(src, "Domain", "m_numElem"), 1);
   /* a method's local, a method, a comment, another class's member */
   ck_assert_int_eq(mp_src_class_declares(src, "Domain", "m_local"), 0);
   ck_assert_int_eq(mp_src_class_declares(src, "Domain", "x"), 0);
   ck_assert_int_eq(mp_src_class_declares(src, "Domain", "m_fake"), 0);
   ck_assert_int_eq(mp_src_class_declares(src, "Domain", "m_q"), 0);
   ck_assert_int_eq(mp_src_class_declares(src, "Other", "m_q"), 1);
   ck_assert_int_eq(mp_src_class_declares(src, "Absent", "m_x"), 0);
}
END_TEST

/* The class whose code holds a line: inside its body (and a method
   defined there), in a method defined outside it, in none. */
START_TEST(test_class_at)
{
   const char *src =
      "/* a comment { over\n"                                /* 1 */
      "   two lines } */\n"                                  /* 2 */
      "struct Domain : public Base {\n"                      /* 3 */
      "   void alloc(int n) { m_x = Allocate<double>(n); }\n" /* 4 */
      "   double *m_x;\n"                                    /* 5 */
      "};\n"                                                 /* 6 */
      "template <class T> void Mesh<T>::build(int n) const\n" /* 7 */
      "{\n"                                                  /* 8 */
      "   if (n) { m_cells = new T[n]; }  // '}' in a comment\n" /* 9 */
      "}\n"                                                  /* 10 */
      "static void free_fn(void)\n"                          /* 11 */
      "{\n"                                                  /* 12 */
      "   const char *s = \"{ struct Fake {\";\n"             /* 13 */
      "}\n";                                                 /* 14 */
   char *c;
   c = mp_src_class_at(src, 4);
   ck_assert_str_eq(c, "Domain");
   free(c);
   c = mp_src_class_at(src, 5);
   ck_assert_str_eq(c, "Domain");
   free(c);
   c = mp_src_class_at(src, 9);
   ck_assert_str_eq(c, "Mesh");
   free(c);
   ck_assert_ptr_null(mp_src_class_at(src, 1));
   ck_assert_ptr_null(mp_src_class_at(src, 13));
   ck_assert_ptr_null(mp_src_class_at(src, 40));
}
END_TEST

int main(void)
{
   Suite *s = suite_create("srctype");
   TCase *tc = tcase_create("core");
   tcase_add_test(tc, test_pointee_type);
   tcase_add_test(tc, test_struct_fields);
   tcase_add_test(tc, test_field_names);
   tcase_add_test(tc, test_static_owner);
   tcase_add_test(tc, test_class_declares);
   tcase_add_test(tc, test_class_at);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
