/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_loops: the static forest against a brute-force
   containment computation over random ranges found in random order, and
   the dynamic part on simulated execution traces whose entries,
   iterations and iteration vectors follow from the trace by hand. */
#include "mp_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_loops.h"

/*------------------------------------------------------------*/
/*--- Static forest vs brute force                         ---*/
/*------------------------------------------------------------*/

#define MAX_LOOPS 256
#define MAX_EDGES (3 * MAX_LOOPS)

typedef struct {
   uint32_t fn;
   uint64_t head, tail;      /* final range */
   uint64_t cur_tail;        /* its range's end from the edges so far
                                (ref_shape), 0 if none is known */
   int active;               /* a loop, not an excursion (ref_shape) */
   uint32_t id;              /* the engine's id, once known */
} ref_loop;

typedef struct {
   uint32_t loop;            /* index in ref_loop[] */
   uint64_t branch;
   int excursion;            /* ref_shape's verdict */
} ref_edge;

typedef struct {
   ref_loop loops[MAX_LOOPS];
   uint32_t n;
   ref_edge edges[MAX_EDGES];
   uint32_t n_edges;
} ref_set;

/* Properly nested ranges, as structured code gives: walking addresses
   up, open a loop, close the innermost open one, or do neither. */
static void gen_nested(ref_set *r, uint32_t fn, uint32_t n_loops)
{
   uint32_t stack[MAX_LOOPS], sp = 0, made = 0;
   uint64_t a = 0x10000 * (fn + 1);
   while (made < n_loops || sp > 0) {
      uint64_t x = rng() % 3;
      a += 4 * (1 + rng() % 4);
      if (x == 0 && made < n_loops) {
         r->loops[r->n].fn = fn;
         r->loops[r->n].head = a;
         stack[sp++] = r->n++;
         made++;
      } else if (x == 1 && sp > 0) {
         r->loops[stack[--sp]].tail = a;
      }
   }
}

/* Arbitrary ranges: distinct heads, overlaps without nesting allowed. */
static void gen_overlapping(ref_set *r, uint32_t fn, uint32_t n_loops)
{
   uint32_t i, j;
   for (i = 0; i < n_loops; i++) {
      ref_loop *L = &r->loops[r->n];
      int dup;
      do {
         L->head = 0x10000 * (fn + 1) + 4 * (rng() % 200);
         for (dup = 0, j = r->n - i; j < r->n; j++)
            dup |= r->loops[j].head == L->head;
      } while (dup);
      L->fn = fn;
      L->tail = L->head + 4 * (rng() % 60);
      r->n++;
   }
}

/* 1 to 3 back edges per loop: one at the tail, others below it. */
static void gen_edges(ref_set *r)
{
   uint32_t i, k, extra;
   for (i = 0; i < r->n; i++) {
      ref_loop *L = &r->loops[i];
      r->edges[r->n_edges].loop = i;
      r->edges[r->n_edges++].branch = L->tail;
      for (extra = (uint32_t)(rng() % 3), k = 0; k < extra; k++) {
         r->edges[r->n_edges].loop = i;
         r->edges[r->n_edges++].branch = L->head + 4 * (rng() % ((L->tail - L->head) / 4 + 1));
      }
   }
   for (i = r->n_edges; i > 1; i--) {       /* random discovery order */
      ref_edge e;
      k = (uint32_t)(rng() % i);
      e = r->edges[i - 1];
      r->edges[i - 1] = r->edges[k];
      r->edges[k] = e;
   }
}

static int ref_known(const ref_loop *L) { return L->cur_tail != 0 && L->active; }

/* Whether P, as shaped so far, is one an edge from b to head h returns
   into from past its tail. */
static int ref_returns_into(const ref_loop *P, uint32_t fn, uint64_t h, uint64_t b)
{
   return P->cur_tail != 0 && P->active && P->fn == fn && P->head < h && h <= P->cur_tail
          && P->cur_tail < b;
}

/* The definition of mp_loops.h's excursions, over the first n edges,
   by brute force: an edge returning into a loop from past its tail is
   no loop's and stretches the loops it returns into; found in rounds,
   all of a round at once, until none is left. */
static void ref_shape(ref_set *r, uint32_t n)
{
   uint32_t i, k, j;
   int more = 1;
   for (k = 0; k < n; k++)
      r->edges[k].excursion = 0;
   while (more) {
      int found[MAX_EDGES] = { 0 }, grew = 1;
      for (i = 0; i < r->n; i++) {
         r->loops[i].cur_tail = 0;
         r->loops[i].active = 0;
      }
      for (k = 0; k < n; k++) {
         ref_loop *L = &r->loops[r->edges[k].loop];
         if (L->cur_tail == 0)
            L->cur_tail = L->head;
         if (r->edges[k].excursion)
            continue;
         L->active = 1;
         if (r->edges[k].branch > L->cur_tail)
            L->cur_tail = r->edges[k].branch;
      }
      while (grew)
         for (grew = 0, k = 0; k < n; k++)
            for (j = 0; j < r->n && r->edges[k].excursion; j++) {
               const ref_loop *E = &r->loops[r->edges[k].loop];
               if (ref_returns_into(&r->loops[j], E->fn, E->head, r->edges[k].branch)) {
                  r->loops[j].cur_tail = r->edges[k].branch;
                  grew = 1;
               }
            }
      for (more = 0, k = 0; k < n; k++) {
         const ref_loop *E = &r->loops[r->edges[k].loop];
         for (j = 0; j < r->n && !r->edges[k].excursion; j++)
            if (ref_returns_into(&r->loops[j], E->fn, E->head, r->edges[k].branch))
               found[k] = more = 1;
      }
      for (k = 0; k < n; k++)
         r->edges[k].excursion |= found[k];
   }
}

/* The definition, by brute force over the loops known so far: the
   containers of L, and the best (smallest, higher head on a tie). */
static uint32_t ref_parent(const ref_set *r, uint32_t i)
{
   const ref_loop *L = &r->loops[i];
   uint32_t j, best = UINT32_MAX;
   for (j = 0; j < r->n; j++) {
      const ref_loop *P = &r->loops[j];
      uint64_t sp, sb;
      if (j == i || !ref_known(P) || P->fn != L->fn)
         continue;
      if (!(P->head < L->head && L->cur_tail <= P->cur_tail))
         continue;
      if (best == UINT32_MAX) { best = j; continue; }
      sp = P->cur_tail - P->head;
      sb = r->loops[best].cur_tail - r->loops[best].head;
      if (sp < sb || (sp == sb && P->head > r->loops[best].head))
         best = j;
   }
   return best;
}

static uint32_t ref_innermost(const ref_set *r, uint32_t fn, uint64_t a)
{
   uint32_t j, best = UINT32_MAX;
   for (j = 0; j < r->n; j++) {
      const ref_loop *P = &r->loops[j];
      uint64_t sp, sb;
      if (!ref_known(P) || P->fn != fn || a < P->head || a > P->cur_tail)
         continue;
      if (best == UINT32_MAX) { best = j; continue; }
      sp = P->cur_tail - P->head;
      sb = r->loops[best].cur_tail - r->loops[best].head;
      if (sp < sb || (sp == sb && P->head > r->loops[best].head))
         best = j;
   }
   return best;
}

/* Mismatches between the engine and the reference; 'corrupt' deepens
   one reference loop to prove that the comparison can fail. */
static int compare_forest(mp_loops *l, const ref_set *r, int corrupt)
{
   uint32_t i, j, depth[MAX_LOOPS] = { 0 }, children[MAX_LOOPS], parent[MAX_LOOPS];
   int bad = 0;
   for (i = 0; i < r->n; i++) {
      parent[i] = ref_known(&r->loops[i]) ? ref_parent(r, i) : UINT32_MAX;
      children[i] = 0;
   }
   for (i = 0; i < r->n; i++) {
      if (!ref_known(&r->loops[i]))
         continue;
      for (depth[i] = 1, j = parent[i]; j != UINT32_MAX; j = parent[j])
         depth[i]++;
      if (parent[i] != UINT32_MAX)
         children[parent[i]]++;
   }
   if (corrupt)
      depth[r->edges[0].loop]++;
   for (i = 0; i < r->n; i++) {
      const ref_loop *L = &r->loops[i];
      const mp_loop *e;
      if (!ref_known(L))
         continue;
      e = mp_loops_get(l, L->id);
      if (!e) { bad++; continue; }
      if (e->excursion) { bad++; continue; }
      bad += e->fn != L->fn || e->head != L->head || e->tail != L->cur_tail;
      bad += e->parent != (parent[i] == UINT32_MAX ? MP_LOOP_NONE : r->loops[parent[i]].id);
      bad += e->depth != depth[i];
      bad += e->n_children != children[i];
   }
   /* the innermost loop at random addresses, memoised or not */
   for (i = 0; i < 40; i++) {
      uint32_t fn = (uint32_t)(rng() % 3);
      uint64_t a = 0x10000 * (fn + 1) + 4 * (rng() % 1000);
      uint32_t want = ref_innermost(r, fn, a);
      bad += mp_loops_innermost(l, fn, a) != (want == UINT32_MAX ? MP_LOOP_NONE : r->loops[want].id);
   }
   return bad;
}

static void run_forest(int nested, uint64_t seed, int corrupt)
{
   ref_set *r = calloc(1, sizeof *r);
   mp_loops *l = mp_loops_new();
   uint32_t fn, e, next_id = 0;
   rng_state = seed;
   for (fn = 0; fn < 3; fn++) {
      uint32_t n = 1 + (uint32_t)(rng() % 40);
      if (nested)
         gen_nested(r, fn, n);
      else
         gen_overlapping(r, fn, n);
   }
   gen_edges(r);
   for (e = 0; e < r->n; e++)
      r->loops[e].id = UINT32_MAX;
   for (e = 0; e < r->n_edges; e++) {
      ref_loop *L = &r->loops[r->edges[e].loop];
      if (L->id == UINT32_MAX)
         L->id = next_id++;       /* ids are dense, by the first edge to a head */
      uint32_t id = mp_loops_add_back_edge(l, L->fn, r->edges[e].branch, L->head, NULL, NULL, NULL, NULL);
      uint32_t i;
      ref_shape(r, e + 1);
      /* one loop per head, a demoted one for an excursion's edge */
      ck_assert_uint_eq(id, L->id);
      for (i = 0; i < r->n; i++)
         if (r->loops[i].cur_tail != 0 && !r->loops[i].active && r->loops[i].id < mp_loops_count(l))
            ck_assert(mp_loops_get(l, r->loops[i].id)->excursion);
      if (!corrupt)
         ck_assert_int_eq(compare_forest(l, r, 0), 0);
   }
   ck_assert_uint_eq(mp_loops_count(l), r->n);
   if (corrupt) {
      ck_assert_int_gt(compare_forest(l, r, 1), 0);
   } else if (nested) {
      /* Once every edge is known, nested ranges need no tie-break: the
         parent is the container with the highest head and the depth is
         the number of containers. */
      uint32_t i, j;
      for (i = 0; i < r->n; i++) {
         const mp_loop *d = mp_loops_get(l, r->loops[i].id);
         uint32_t n_cont = 0, best = UINT32_MAX;
         for (j = 0; j < r->n; j++) {
            const ref_loop *P = &r->loops[j];
            if (j != i && P->fn == r->loops[i].fn && P->head < r->loops[i].head
                && r->loops[i].tail <= P->tail) {
               n_cont++;
               if (best == UINT32_MAX || P->head > r->loops[best].head)
                  best = j;
            }
         }
         ck_assert_uint_eq(d->depth, n_cont + 1);
         ck_assert_uint_eq(d->parent, best == UINT32_MAX ? MP_LOOP_NONE : r->loops[best].id);
      }
   }
   mp_loops_free(l);
   free(r);
}

START_TEST(test_forest_nested_random)      { run_forest(1, 0x1234567ULL + 7919 * (uint64_t)_i, 0); }
END_TEST
START_TEST(test_forest_overlapping_random) { run_forest(0, 0xabcdefULL + 104729 * (uint64_t)_i, 0); }
END_TEST
START_TEST(test_forest_mismatch_is_detected) { run_forest(1, 42, 1); }
END_TEST

/* Found in the "wrong" order: inner loops first, then a parent that
   adopts them, then a tail that grows past a sibling. */
START_TEST(test_forest_by_hand)
{
   mp_loops *l = mp_loops_new();
   uint32_t a = mp_loops_add_back_edge(l, 1, 0x150, 0x130, NULL, NULL, NULL, NULL);  /* [130,150] */
   uint32_t b = mp_loops_add_back_edge(l, 1, 0x180, 0x170, NULL, NULL, NULL, NULL);  /* [170,180] */
   uint32_t o, o2;
   ck_assert_uint_eq(mp_loops_get(l, a)->parent, MP_LOOP_NONE);
   o = mp_loops_add_back_edge(l, 1, 0x160, 0x110, NULL, NULL, NULL, NULL);           /* [110,160] */
   ck_assert_uint_eq(mp_loops_get(l, a)->parent, o);
   ck_assert_uint_eq(mp_loops_get(l, a)->depth, 2);
   ck_assert_uint_eq(mp_loops_get(l, b)->parent, MP_LOOP_NONE);
   o2 = mp_loops_add_back_edge(l, 1, 0x190, 0x110, NULL, NULL, NULL, NULL);          /* grows to [110,190] */
   ck_assert_uint_eq(o2, o);
   ck_assert_uint_eq(mp_loops_get(l, o)->tail, 0x190);
   ck_assert_uint_eq(mp_loops_get(l, b)->parent, o);
   ck_assert_uint_eq(mp_loops_get(l, o)->n_children, 2);
   /* another function's ranges never nest with these */
   ck_assert_uint_eq(mp_loops_get(l, mp_loops_add_back_edge(l, 2, 0x140, 0x138, NULL, NULL,
                                                             NULL, NULL))->parent,
                     MP_LOOP_NONE);
   ck_assert_uint_eq(mp_loops_add_back_edge(l, 1, 0x100, 0x108, NULL, NULL, NULL, NULL),
                     MP_LOOP_NONE);
   ck_assert_uint_eq(mp_loops_innermost(l, 1, 0x140), a);
   ck_assert_uint_eq(mp_loops_innermost(l, 1, 0x165), o);
   ck_assert_uint_eq(mp_loops_innermost(l, 1, 0x191), MP_LOOP_NONE);
   mp_loops_free(l);
}
END_TEST

/* The same edges in two orders make the same forest, excursions and
   all (mp_loops.h). */
START_TEST(test_forest_order_free)
{
   ref_set *r = calloc(1, sizeof *r);
   mp_loops *x = mp_loops_new(), *y = mp_loops_new();
   uint32_t fn, e, i, excursions = 0;
   rng_state = 0x0dd5eedULL + 31 * (uint64_t)_i;
   for (fn = 0; fn < 3; fn++)
      gen_overlapping(r, fn, 1 + (uint32_t)(rng() % 40));
   gen_edges(r);
   for (e = 0; e < r->n_edges; e++)
      mp_loops_add_back_edge(x, r->loops[r->edges[e].loop].fn, r->edges[e].branch,
                             r->loops[r->edges[e].loop].head, NULL, NULL, NULL, NULL);
   for (e = r->n_edges; e-- > 0;)
      mp_loops_add_back_edge(y, r->loops[r->edges[e].loop].fn, r->edges[e].branch,
                             r->loops[r->edges[e].loop].head, NULL, NULL, NULL, NULL);
   ck_assert_uint_eq(mp_loops_count(x), mp_loops_count(y));
   for (i = 0; i < mp_loops_count(x); i++) {
      const mp_loop *a = mp_loops_get(x, i), *b = NULL, *pa, *pb;
      uint32_t j;
      for (j = 0; j < mp_loops_count(y); j++)
         if (mp_loops_get(y, j)->fn == a->fn && mp_loops_get(y, j)->head == a->head)
            b = mp_loops_get(y, j);
      ck_assert_ptr_nonnull(b);
      ck_assert_int_eq(a->excursion, b->excursion);
      excursions += (uint32_t)a->excursion;
      if (a->excursion)
         continue;
      ck_assert_uint_eq(a->tail, b->tail);
      ck_assert_uint_eq(a->depth, b->depth);
      ck_assert_uint_eq(a->n_children, b->n_children);
      pa = a->parent == MP_LOOP_NONE ? NULL : mp_loops_get(x, a->parent);
      pb = b->parent == MP_LOOP_NONE ? NULL : mp_loops_get(y, b->parent);
      ck_assert(pa == NULL ? pb == NULL : pb != NULL && pa->head == pb->head);
   }
   ck_assert_uint_gt(excursions, 0);   /* the shapes met excursions */
   mp_loops_free(x);
   mp_loops_free(y);
   free(r);
}
END_TEST

START_TEST(test_source_lines)
{
   mp_loops *l = mp_loops_new();
   uint32_t o = mp_loops_add_back_edge(l, 1, 0x190, 0x110, "src/mm.c:14", "src/mm.c:10", NULL, NULL);
   uint32_t i = mp_loops_add_back_edge(l, 1, 0x150, 0x130, "src/mm.c:12", "src/mm.c:12", NULL, NULL);
   const mp_loop *L = mp_loops_get(l, o);
   ck_assert_str_eq(L->file, "src/mm.c");
   ck_assert_uint_eq(L->first_line, 10);
   ck_assert_uint_eq(L->last_line, 14);
   mp_loops_add_line(l, 1, 0x140, "src/mm.c:13", NULL, NULL);     /* inside both */
   mp_loops_add_line(l, 1, 0x140, "inl.h:99", NULL, NULL);        /* inlined: ignored */
   mp_loops_add_line(l, 1, 0x180, "src/mm.c:16", NULL, NULL);     /* the outer only */
   mp_loops_add_line(l, 1, 0x140, NULL, NULL, NULL);
   mp_loops_add_line(l, 1, 0x140, "nonsense", NULL, NULL);
   ck_assert_uint_eq(L->last_line, 16);
   L = mp_loops_get(l, i);
   ck_assert_uint_eq(L->first_line, 12);
   ck_assert_uint_eq(L->last_line, 13);
   L = mp_loops_get(l, mp_loops_add_back_edge(l, 1, 0x300, 0x2f0, NULL, NULL, NULL, NULL));
   ck_assert_ptr_null(L->file);
   ck_assert_uint_eq(L->first_line, 0);
   mp_loops_free(l);
}
END_TEST

/* The scope each test address is the code of, and how often it was
   asked. */
typedef struct {
   const char *fn;
   int asked;
} scope_probe;

static const char *probe_scope(void *arg)
{
   scope_probe *p = arg;
   p->asked++;
   return p->fn;
}

/* A function of the same file inlined into a loop does not stretch the
   loop's lines to its own (scale() inlined as the first instructions of
   main's loop, or syrk's kernel loop given init_array's line 39 at -O2):
   the back edge's branch, the loop's own increment and test, names the
   file and the scope; the target and the body's lines widen the range
   only in that scope, and the scope is asked only for a line outside
   the range. */
START_TEST(test_source_lines_scope)
{
   mp_loops *l = mp_loops_new();
   uint32_t o = mp_loops_add_back_edge(l, 1, 0x190, 0x110, "k.c:26", "k.c:16", "main",
                                       "scale");
   const mp_loop *L = mp_loops_get(l, o);
   scope_probe own = { "main", 0 }, other = { "init", 0 }, none = { NULL, 0 };
   ck_assert_str_eq(L->file, "k.c");
   ck_assert_str_eq(L->scope, "main");
   ck_assert_uint_eq(L->first_line, 26);           /* not scale's 16 */
   ck_assert_uint_eq(mp_loops_add_back_edge(l, 1, 0x190, 0x110, "k.c:26", "k.c:16", "scale",
                                            "scale"), o);
   ck_assert_str_eq(L->scope, "main");              /* the first stays */
   ck_assert_uint_eq(L->first_line, 26);
   mp_loops_add_line(l, 1, 0x140, "k.c:39", probe_scope, &other);
   ck_assert_uint_eq(L->last_line, 26);
   ck_assert_int_eq(other.asked, 1);
   mp_loops_add_line(l, 1, 0x140, "k.c:27", probe_scope, &own);
   ck_assert_uint_eq(L->last_line, 27);
   mp_loops_add_line(l, 1, 0x140, "k.c:27", probe_scope, &other);
   ck_assert_int_eq(other.asked, 1);                /* inside: not asked */
   mp_loops_add_line(l, 1, 0x150, "k.c:25", probe_scope, &none);   /* unknown: kept */
   ck_assert_uint_eq(L->first_line, 25);
   mp_loops_free(l);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Simulated execution                                  ---*/
/*------------------------------------------------------------*/

/* Every exit the engine reports. */
typedef struct {
   uint32_t n;
   uint32_t loop[64];
   uint64_t instance[64], iterations[64];
} exit_log;

static void log_exit(void *arg, uint32_t tid, uint32_t loop, uint64_t instance,
                     uint64_t iterations)
{
   exit_log *x = arg;
   (void)tid;
   if (x->n < 64) {
      x->loop[x->n] = loop;
      x->instance[x->n] = instance;
      x->iterations[x->n++] = iterations;
   }
}

static mp_loops *g_l;
static uint32_t g_tid = 1;

/* The traces run twice: through mp_loops_at, and through
   mp_loops_at_site with a memo per (function, address) as the tool's
   translated call sites keep one; both must tell the same story. */
#define MAX_SITES 64
static int g_use_sites;
static uint32_t n_sites, site_fn[MAX_SITES];
static uint64_t site_addr[MAX_SITES];
static mp_loops_site sites[MAX_SITES];

static mp_loops *new_loops(int use_sites)
{
   g_use_sites = use_sites;
   n_sites = 0;
   memset(sites, 0, sizeof sites);
   return mp_loops_new();
}

static void at(uint32_t fn, uint64_t a)
{
   uint32_t i;
   if (!g_use_sites) {
      mp_loops_at(g_l, g_tid, fn, a);
      return;
   }
   for (i = 0; i < n_sites && !(site_fn[i] == fn && site_addr[i] == a); i++)
      ;
   if (i == n_sites) {
      ck_assert_uint_lt(n_sites, MAX_SITES);
      site_fn[n_sites] = fn;
      site_addr[n_sites++] = a;
   }
   mp_loops_at_site(g_l, g_tid, fn, a, &sites[i]);
}
static void back(uint32_t loop) { mp_loops_back_edge_taken(g_l, g_tid, loop); }

static void check_vector(uint32_t n, uint64_t v0, uint64_t v1)
{
   uint64_t v[4];
   ck_assert_uint_eq(mp_loops_iteration_vector(g_l, g_tid, v, 4), n);
   if (n > 0) ck_assert_uint_eq(v[0], v0);
   if (n > 1) ck_assert_uint_eq(v[1], v1);
}

/* main (fn 1):
     0x100            entry
     O  [0x110,0x190] rotated loop, 4 passes: 0x110 0x120, inner I,
                      0x160 call g, 0x170, 0x190 back branch
     I  [0x130,0x150] rotated, o+2 passes: 0x130 0x140 0x150
     0x1a0            after O
     E  [0x200,0x240] 0x200, 0x210 (break to 0x250 in pass 3), 0x220, 0x240
   g (fn 2):
     0x1000           entry
     G  [0x1010,0x1030] 5 passes: 0x1010 0x1018 0x1028 0x1030; in call 2
                      the search succeeds in pass 1 and returns from 0x1020,
                      inside the loop's range
     0x1040           normal return */
static void run_g(uint32_t G, int call, uint32_t depth_outside)
{
   uint32_t j;
   at(2, 0x1000);
   ck_assert_uint_eq(mp_loops_iteration_vector(g_l, g_tid, NULL, 0), depth_outside);
   for (j = 0; j < 5; j++) {
      at(2, 0x1010);
      at(2, 0x1018);
      if (depth_outside == 1 && call == 1 && j == 2)
         check_vector(2, 1, 2);               /* O's counter, G's counter */
      if (call == 2 && j == 1) {
         at(2, 0x1020);                       /* return from inside G */
         return;
      }
      at(2, 0x1028);
      at(2, 0x1030);
      if (j < 4)
         back(G);
   }
   at(2, 0x1040);
   ck_assert_uint_eq(mp_loops_iteration_vector(g_l, g_tid, NULL, 0), depth_outside);
}

START_TEST(test_trace_nest_call_and_exits)
{
   exit_log x = { 0 };
   uint32_t O, I, E, G, o, i;
   const mp_loop *L;
   uint64_t inst;
   g_l = new_loops(_i);
   mp_loops_set_exit_hook(g_l, log_exit, &x);
   /* the adapter reports back edges at instrumentation, inner ones first */
   I = mp_loops_add_back_edge(g_l, 1, 0x150, 0x130, NULL, NULL, NULL, NULL);
   O = mp_loops_add_back_edge(g_l, 1, 0x190, 0x110, NULL, NULL, NULL, NULL);
   G = mp_loops_add_back_edge(g_l, 2, 0x1030, 0x1010, NULL, NULL, NULL, NULL);
   E = mp_loops_add_back_edge(g_l, 1, 0x240, 0x200, NULL, NULL, NULL, NULL);

   at(1, 0x100);
   ck_assert_uint_eq(mp_loops_current(g_l, g_tid, NULL), MP_LOOP_NONE);
   for (o = 0; o < 4; o++) {
      at(1, 0x110);
      at(1, 0x120);
      for (i = 0; i < o + 2; i++) {
         at(1, 0x130);
         at(1, 0x140);
         if (o == 3 && i == 4)
            check_vector(2, 3, 4);
         at(1, 0x150);
         if (i < o + 1)
            back(I);
      }
      at(1, 0x160);                           /* call g: I has ended */
      ck_assert_uint_eq(mp_loops_current(g_l, g_tid, &inst), O);
      ck_assert_uint_eq(inst, 1);
      run_g(G, (int)o, 1);
      at(1, 0x170);                           /* back in main, in O */
      ck_assert_uint_eq(mp_loops_current(g_l, g_tid, NULL), O);
      at(1, 0x190);
      if (o < 3)
         back(O);
   }
   at(1, 0x1a0);
   ck_assert_uint_eq(mp_loops_current(g_l, g_tid, NULL), MP_LOOP_NONE);
   for (i = 0; i < 4; i++) {
      at(1, 0x200);
      at(1, 0x210);
      if (i == 3)
         break;                               /* to 0x250 */
      at(1, 0x220);
      at(1, 0x240);
      back(E);
   }
   ck_assert_uint_eq(mp_loops_current(g_l, g_tid, NULL), E);
   at(1, 0x250);
   ck_assert_uint_eq(mp_loops_current(g_l, g_tid, NULL), MP_LOOP_NONE);
   mp_loops_thread_exit(g_l, g_tid);

   L = mp_loops_get(g_l, O);
   ck_assert_uint_eq(L->entries, 1);
   ck_assert_uint_eq(L->iterations, 3);
   ck_assert_uint_eq(L->max_iterations, 3);
   ck_assert_uint_eq(L->exits, 1);
   L = mp_loops_get(g_l, I);
   ck_assert_uint_eq(L->entries, 4);
   ck_assert_uint_eq(L->iterations, 1 + 2 + 3 + 4);
   ck_assert_uint_eq(L->max_iterations, 4);
   ck_assert_uint_eq(L->exits, 4);
   ck_assert_uint_eq(L->parent, O);
   ck_assert_uint_eq(L->depth, 2);
   L = mp_loops_get(g_l, G);
   ck_assert_uint_eq(L->entries, 4);
   ck_assert_uint_eq(L->iterations, 4 + 4 + 1 + 4);
   ck_assert_uint_eq(L->max_iterations, 4);
   ck_assert_uint_eq(L->exits, 4);
   ck_assert_uint_eq(L->depth, 1);
   L = mp_loops_get(g_l, E);
   ck_assert_uint_eq(L->entries, 1);
   ck_assert_uint_eq(L->iterations, 3);
   ck_assert_uint_eq(L->exits, 1);

   /* exits in order: per pass of O, I then G; then O; then E */
   ck_assert_uint_eq(x.n, 10);
   for (o = 0; o < 4; o++) {
      ck_assert_uint_eq(x.loop[2 * o], I);
      ck_assert_uint_eq(x.instance[2 * o], o + 1);
      ck_assert_uint_eq(x.iterations[2 * o], o + 1);
      ck_assert_uint_eq(x.loop[2 * o + 1], G);
      ck_assert_uint_eq(x.iterations[2 * o + 1], o == 2 ? 1 : 4);
   }
   ck_assert_uint_eq(x.loop[8], O);
   ck_assert_uint_eq(x.loop[9], E);
   mp_loops_free(g_l);
}
END_TEST

/* The same g called from outside any loop: its early return leaves G
   active (the documented limit) until g runs again outside G; with
   mp_loops_return (R4) the exit is exact. */
START_TEST(test_trace_early_return_without_caller_loop)
{
   int with_return;
   for (with_return = 0; with_return < 2; with_return++) {
      uint32_t G;
      const mp_loop *L;
      g_l = new_loops(_i);
      G = mp_loops_add_back_edge(g_l, 2, 0x1030, 0x1010, NULL, NULL, NULL, NULL);
      mp_loops_add_back_edge(g_l, 1, 0x190, 0x110, NULL, NULL, NULL, NULL);
      at(1, 0x100);
      run_g(G, 2, 0);
      if (with_return)
         mp_loops_return(g_l, g_tid, 2);
      at(1, 0x1a0);                           /* main, outside its loops */
      L = mp_loops_get(g_l, G);
      ck_assert_uint_eq(L->exits, with_return ? 1 : 0);
      ck_assert_uint_eq(mp_loops_current(g_l, g_tid, NULL), with_return ? MP_LOOP_NONE : G);
      run_g(G, 0, 0);                         /* g again: the stale frame goes */
      ck_assert_uint_eq(L->entries, 2);
      ck_assert_uint_eq(L->exits, 2);
      ck_assert_uint_eq(L->iterations, 1 + 4);
      mp_loops_free(g_l);
   }
}
END_TEST

/* gcc -O0: "jmp cond; body: ...; cond: cmp; jl body".  The loop is
   entered at its condition, inside the range but not at the head; each
   pass of the body follows a back edge, so n passes are n iterations
   and the body's first pass sees counter 1. */
/* gcc -O2's layout of a loop with a rare branch: the branch's block
   placed past the back edge, jumping back into the body.  Found in
   either order, it is one loop of the whole range: one instance of
   many iterations, not an instance per iteration. */
START_TEST(test_excursion_keeps_instance)
{
   uint32_t k, n;
   mp_loops *l;
   g_l = l = new_loops(0);
   if (_i == 0) {
      ck_assert_uint_eq(mp_loops_add_back_edge(l, 1, 0x240, 0x180, NULL, NULL, NULL, NULL),
                        0);                    /* a loop, until the next edge */
      k = mp_loops_add_back_edge(l, 1, 0x200, 0x100, NULL, NULL, NULL, NULL);
      ck_assert(mp_loops_get(l, 0)->excursion);
   } else {
      k = mp_loops_add_back_edge(l, 1, 0x200, 0x100, NULL, NULL, NULL, NULL);
      ck_assert_uint_eq(mp_loops_add_back_edge(l, 1, 0x240, 0x180, NULL, NULL, NULL, NULL),
                        1);
      ck_assert(mp_loops_get(l, 1)->excursion);
   }
   ck_assert_uint_eq(mp_loops_get(l, k)->tail, 0x240);
   /* an inner loop of the body, and the excursion's owner for it */
   ck_assert_uint_eq(mp_loops_get(l, mp_loops_add_back_edge(l, 1, 0x1f0, 0x1c0, NULL, NULL,
                                                             NULL, NULL))->parent, k);
   ck_assert_uint_eq(mp_loops_innermost(l, 1, 0x230), k);
   ck_assert_uint_eq(mp_loops_innermost(l, 1, 0x190), k);
   at(1, 0x0f0);
   for (n = 0; n < 10; n++) {
      at(1, 0x100);
      at(1, 0x150);
      if (n % 3 == 0) {
         at(1, 0x230);                          /* the rare block */
         at(1, 0x180);                          /* and back */
      }
      at(1, 0x1f8);
      if (n < 9)
         back(k);
   }
   at(1, 0x300);
   ck_assert_uint_eq(mp_loops_get(l, k)->entries, 1);
   ck_assert_uint_eq(mp_loops_get(l, k)->iterations, 9);
   ck_assert_uint_eq(mp_loops_get(l, k)->max_iterations, 9);
   mp_loops_drop_unentered(l);
   ck_assert(mp_loops_get(l, _i == 0 ? 0 : k)->never_entered == (_i == 0));
   mp_loops_free(l);
}
END_TEST

/* A rotated loop whose rare case is tested at its bottom: the back
   edge falls through into the rare block, which jumps back into the
   body.  That jump is the iteration's back edge; one from a rare block
   left from the middle of the body is not. */
START_TEST(test_excursion_wraps_iteration)
{
   uint32_t k, bottom, middle, n;
   uint64_t v[1];
   mp_loops *l;
   g_l = l = new_loops(0);
   k = mp_loops_add_back_edge(l, 1, 0x1c0, 0x100, NULL, NULL, NULL, NULL);
   bottom = mp_loops_add_back_edge(l, 1, 0x1d0, 0x110, NULL, NULL, NULL, NULL);
   middle = mp_loops_add_back_edge(l, 1, 0x1f0, 0x150, NULL, NULL, NULL, NULL);
   ck_assert(mp_loops_get(l, bottom)->excursion && mp_loops_get(l, middle)->excursion);
   at(1, 0x0f0);
   at(1, 0x110);
   for (n = 0; n < 12; n++) {
      ck_assert_uint_eq(mp_loops_iteration_vector(l, g_tid, v, 1), 1);
      ck_assert_uint_eq(v[0], n);
      if (n % 4 == 1) {                        /* the rare block of the middle */
         at(1, 0x1e0);
         back(middle);
         at(1, 0x150);
      }
      if (n == 11)
         break;
      if (n % 3 == 2) {                        /* the rare block of the bottom */
         mp_loops_back_edge_fell_through(l, g_tid, k);
         at(1, 0x1c4);
         back(bottom);
         at(1, 0x110);
      } else {
         back(k);
         at(1, 0x100);
      }
   }
   mp_loops_back_edge_fell_through(l, g_tid, k);
   at(1, 0x300);
   ck_assert_uint_eq(mp_loops_get(l, k)->entries, 1);
   ck_assert_uint_eq(mp_loops_get(l, k)->iterations, 11);
   ck_assert_uint_eq(mp_loops_get(l, k)->max_iterations, 11);
   mp_loops_free(l);
}
END_TEST

/* LULESH's layout: a backward jump never taken, at the end of code
   that a loop after it jumps back into (the frees the compiler placed
   before that loop).  The jump back follows an inner loop's run, not a
   rare block: no iteration. */
START_TEST(test_excursion_after_inner_loop)
{
   uint32_t p, inner, back_to;
   mp_loops *l;
   g_l = l = new_loops(0);
   p = mp_loops_add_back_edge(l, 1, 0x140, 0x100, NULL, NULL, NULL, NULL);
   inner = mp_loops_add_back_edge(l, 1, 0x1a0, 0x160, NULL, NULL, NULL, NULL);
   back_to = mp_loops_add_back_edge(l, 1, 0x1c0, 0x108, NULL, NULL, NULL, NULL);
   ck_assert_uint_eq(mp_loops_get(l, inner)->parent, p);
   at(1, 0x120);
   mp_loops_back_edge_fell_through(l, g_tid, p);
   at(1, 0x160);
   back(inner);
   at(1, 0x160);
   at(1, 0x1b0);
   back(back_to);                              /* to the frees */
   at(1, 0x108);
   at(1, 0x300);
   ck_assert_uint_eq(mp_loops_get(l, p)->iterations, 0);
   ck_assert_uint_eq(mp_loops_get(l, inner)->iterations, 1);
   mp_loops_free(l);
}
END_TEST

START_TEST(test_trace_jump_to_condition_layout)
{
   uint32_t L, n;
   uint64_t v[1];
   g_l = new_loops(_i);
   L = mp_loops_add_back_edge(g_l, 1, 0x340, 0x300, NULL, NULL, NULL, NULL);
   at(1, 0x2f0);                               /* init; jmp 0x330 */
   at(1, 0x330);                               /* cond */
   ck_assert_uint_eq(mp_loops_get(g_l, L)->entries, 1);
   for (n = 0; n < 7; n++) {
      back(L);
      at(1, 0x300);                            /* body */
      ck_assert_uint_eq(mp_loops_iteration_vector(g_l, g_tid, v, 1), 1);
      ck_assert_uint_eq(v[0], n + 1);
      at(1, 0x330);
   }
   at(1, 0x350);
   ck_assert_uint_eq(mp_loops_get(g_l, L)->iterations, 7);
   ck_assert_uint_eq(mp_loops_get(g_l, L)->max_iterations, 7);
   ck_assert_uint_eq(mp_loops_get(g_l, L)->exits, 1);
   mp_loops_free(g_l);
}
END_TEST

/* Superblock granularity: a superblock that starts before the head and
   runs into the loop; the back edge alone places the thread in it.  A
   loop found while the thread is already inside it counts an entry at
   the first address seen afterwards. */
START_TEST(test_trace_coarse_and_late_discovery)
{
   uint32_t L, M, N;
   g_l = new_loops(_i);
   L = mp_loops_add_back_edge(g_l, 1, 0x340, 0x300, NULL, NULL, NULL, NULL);
   at(1, 0x2f8);                               /* superblock 0x2f8..0x340 */
   back(L);
   ck_assert_uint_eq(mp_loops_current(g_l, g_tid, NULL), L);
   at(1, 0x300);
   back(L);
   at(1, 0x300);
   at(1, 0x2f8 + 0x60);                        /* fell out */
   ck_assert_uint_eq(mp_loops_get(g_l, L)->entries, 1);
   ck_assert_uint_eq(mp_loops_get(g_l, L)->iterations, 2);
   /* now a loop around the code of 0x400..0x480, found mid-way */
   at(1, 0x400);
   at(1, 0x440);
   M = mp_loops_add_back_edge(g_l, 1, 0x480, 0x400, NULL, NULL, NULL, NULL);
   at(1, 0x460);
   ck_assert_uint_eq(mp_loops_current(g_l, g_tid, NULL), M);
   back(M);
   at(1, 0x400);                               /* seen before M was found */
   ck_assert_uint_eq(mp_loops_current(g_l, g_tid, NULL), M);
   ck_assert_uint_eq(mp_loops_get(g_l, M)->entries, 1);
   ck_assert_uint_eq(mp_loops_get(g_l, M)->iterations, 1);
   /* an address first seen outside every loop, later the head of one:
      what was known of it before the loop was found no longer holds */
   at(1, 0x4f0);
   at(1, 0x500);
   ck_assert_uint_eq(mp_loops_current(g_l, g_tid, NULL), MP_LOOP_NONE);
   N = mp_loops_add_back_edge(g_l, 1, 0x540, 0x500, NULL, NULL, NULL, NULL);
   at(1, 0x4f0);
   at(1, 0x500);
   ck_assert_uint_eq(mp_loops_current(g_l, g_tid, NULL), N);
   mp_loops_free(g_l);
}
END_TEST

/* A loop found last whose back edge no thread took (code after main's
   time loop jumping back over it) encloses the nest by its range, but
   no instance of it ever began: at exit it contains nothing, and the
   nest's depths are those its accesses were made at. */
START_TEST(test_drop_unentered)
{
   uint32_t I, O, X;
   g_l = new_loops(0);
   I = mp_loops_add_back_edge(g_l, 1, 0x150, 0x130, NULL, NULL, NULL, NULL);
   O = mp_loops_add_back_edge(g_l, 1, 0x190, 0x110, NULL, NULL, NULL, NULL);
   at(1, 0x110);
   at(1, 0x130);
   back(I);
   at(1, 0x170);
   back(O);
   at(1, 0x1a0);
   X = mp_loops_add_back_edge(g_l, 1, 0x1f0, 0x100, NULL, NULL, NULL, NULL);
   ck_assert_uint_eq(mp_loops_get(g_l, O)->parent, X);
   ck_assert_uint_eq(mp_loops_get(g_l, I)->depth, 3);
   mp_loops_flush(g_l);
   mp_loops_drop_unentered(g_l);
   ck_assert(mp_loops_get(g_l, X)->never_entered);
   ck_assert(!mp_loops_get(g_l, O)->never_entered);
   ck_assert_uint_eq(mp_loops_get(g_l, O)->parent, MP_LOOP_NONE);
   ck_assert_uint_eq(mp_loops_get(g_l, O)->depth, 1);
   ck_assert_uint_eq(mp_loops_get(g_l, I)->parent, O);
   ck_assert_uint_eq(mp_loops_get(g_l, I)->depth, 2);
   ck_assert(mp_loops_within(g_l, I, O));
   ck_assert(mp_loops_within(g_l, I, I));
   ck_assert(!mp_loops_within(g_l, O, I));
   ck_assert(!mp_loops_within(g_l, I, X));
   ck_assert(!mp_loops_within(g_l, MP_LOOP_NONE, O));
   ck_assert_uint_eq(mp_loops_get(g_l, X)->n_children, 0);
   ck_assert_uint_eq(mp_loops_get(g_l, O)->n_children, 1);
   /* an address of I's body is still in I */
   ck_assert_uint_eq(mp_loops_innermost(g_l, 1, 0x140), I);
   mp_loops_free(g_l);
}
END_TEST

/* The sibling loops of a reuse (mp_loops_siblings), by hand: a loop R
   around two adjacent loops A then B, then, outside any loop, X then
   Y.  At each access (mirror) the frames are seen; a copy kept by
   mp_loops_mirror, as the reuse helper keeps one, is sent them and
   answers the same.  A loop no access saw is no sibling. */
static mp_loops *g_copy;

static void mirror(void)
{
   const mp_loop_frame *f;
   uint32_t n = mp_loops_active(g_l, g_tid, &f);
   mp_loops_seen(g_l, g_tid);
   mp_loops_mirror(g_copy, g_tid, f, n, *mp_loops_epoch(g_l), mp_loops_unseen_before(g_l));
}

/* first and last: the loops that ran first and last between them */
static void check_between(uint64_t then, uint32_t carrier, uint32_t from, uint32_t to,
                          uint32_t first, uint32_t last)
{
   mp_loops *both[2] = { g_l, g_copy };
   uint32_t i, f, t, a[2];
   mirror();
   for (i = 0; i < 2; i++) {
      ck_assert_uint_eq(mp_loops_siblings(both[i], g_tid, then, &f, &t, a), carrier);
      ck_assert_uint_eq(f, from);
      ck_assert_uint_eq(t, to);
      ck_assert_uint_eq(a[0], first);
      ck_assert_uint_eq(a[1], last);
   }
}

static void check_across(uint64_t then, uint32_t carrier, uint32_t from, uint32_t to,
                         uint32_t across)
{
   check_between(then, carrier, from, to, across, across);
}

static void check_siblings(uint64_t then, uint32_t carrier, uint32_t from, uint32_t to)
{
   check_across(then, carrier, from, to, MP_LOOP_NONE);
}

START_TEST(test_siblings)
{
   uint32_t R, A, B, C, X, Y, f, t, a[2];
   uint64_t in_a, in_a2, in_a3, in_c, in_c3, in_r, in_x;
   g_l = new_loops(0);
   g_copy = mp_loops_new();
   A = mp_loops_add_back_edge(g_l, 1, 0x160, 0x120, NULL, NULL, NULL, NULL);
   B = mp_loops_add_back_edge(g_l, 1, 0x240, 0x200, NULL, NULL, NULL, NULL);
   C = mp_loops_add_back_edge(g_l, 1, 0x1c0, 0x180, NULL, NULL, NULL, NULL);
   R = mp_loops_add_back_edge(g_l, 1, 0x300, 0x100, NULL, NULL, NULL, NULL);
   X = mp_loops_add_back_edge(g_l, 1, 0x440, 0x400, NULL, NULL, NULL, NULL);
   Y = mp_loops_add_back_edge(g_l, 1, 0x540, 0x500, NULL, NULL, NULL, NULL);
   at(1, 0x100);
   in_r = *mp_loops_epoch(g_l);
   at(1, 0x120);
   in_a = *mp_loops_epoch(g_l);
   mirror();
   back(A);
   at(1, 0x120);
   /* within A: carried by A, no siblings */
   check_siblings(in_a, A, MP_LOOP_NONE, MP_LOOP_NONE);
   at(1, 0x170);
   at(1, 0x200);
   mirror();
   /* from A to B, both in R's iteration */
   check_siblings(in_a, R, A, B);
   /* an access of R's own body, before A: no loop it came from, A ran
      between */
   check_across(in_r, R, MP_LOOP_NONE, B, A);
   back(B);
   at(1, 0x200);
   at(1, 0x250);
   /* the later access in R's body: no loop it goes to, B ran between */
   check_across(in_a, R, A, MP_LOOP_NONE, B);
   /* R's next iteration: A again, then B */
   back(R);
   at(1, 0x100);
   at(1, 0x120);
   in_a2 = *mp_loops_epoch(g_l);
   mirror();
   at(1, 0x170);
   /* C, between them, makes no access */
   at(1, 0x180);
   ck_assert_uint_eq(mp_loops_current(g_l, g_tid, NULL), C);
   in_c = *mp_loops_epoch(g_l);
   at(1, 0x1d0);
   at(1, 0x200);
   check_siblings(in_a2, R, A, B);
   check_siblings(in_c, R, A, B);
   /* R's third iteration: C runs between A and B and makes an access,
      which a fusion of A and B would reorder with B's */
   back(R);
   at(1, 0x100);
   at(1, 0x120);
   in_a3 = *mp_loops_epoch(g_l);
   mirror();
   at(1, 0x170);
   at(1, 0x180);
   in_c3 = *mp_loops_epoch(g_l);
   mirror();
   at(1, 0x1d0);
   at(1, 0x200);
   check_across(in_a3, R, A, B, C);
   /* from C to B: adjacent */
   check_siblings(in_c3, R, C, B);
   /* B of the last iteration to A of this one is between siblings too
      (the rule on them tells which runs first) */
   at(1, 0x250);
   /* from A to R's own body after B: C ran first between them, B last */
   check_between(in_a3, R, A, MP_LOOP_NONE, C, B);
   at(1, 0x310);
   at(1, 0x400);
   in_x = *mp_loops_epoch(g_l);
   mirror();
   back(X);
   at(1, 0x400);
   at(1, 0x450);
   at(1, 0x500);
   /* outside any loop: X then Y, the thread's outermost loops */
   check_siblings(in_x, MP_LOOP_NONE, X, Y);
   check_across(in_a2, MP_LOOP_NONE, R, Y, X);
   /* the epoch before a flush: unseen, no siblings */
   mp_loops_flush(g_l);
   ck_assert_uint_eq(mp_loops_siblings(g_l, g_tid, in_x, &f, &t, a), MP_LOOP_UNSEEN);
   ck_assert_uint_eq(f, MP_LOOP_NONE);
   ck_assert_uint_eq(t, MP_LOOP_NONE);
   ck_assert_uint_eq(a[0], MP_LOOP_NONE);
   ck_assert_uint_eq(a[1], MP_LOOP_NONE);
   mp_loops_free(g_copy);
   mp_loops_free(g_l);
}
END_TEST

/* The variables a loop read and wrote (mp_loops_touch), by hand: R
   around A, then B outside R.  A read in A is noted in A and R, not
   as written; a write in R's own body is noted in R alone; B, which
   ran later, notes nothing of theirs; an instance's accesses reach
   its loop's filters when it ends.  Variables 5, 7 and 9 fall on
   distinct bits of the filters. */
START_TEST(test_touched)
{
   uint32_t R, A, B;
   g_l = new_loops(0);
   A = mp_loops_add_back_edge(g_l, 1, 0x160, 0x120, NULL, NULL, NULL, NULL);
   R = mp_loops_add_back_edge(g_l, 1, 0x300, 0x100, NULL, NULL, NULL, NULL);
   B = mp_loops_add_back_edge(g_l, 1, 0x440, 0x400, NULL, NULL, NULL, NULL);
   at(1, 0x100);
   at(1, 0x120);
   mp_loops_touch(g_l, g_tid, 5, 0, 0);
   mp_loops_touch(g_l, g_tid, 5, 0, 0);
   at(1, 0x170);
   mp_loops_touch(g_l, g_tid, 7, 0, 1);
   at(1, 0x310);
   at(1, 0x400);
   mp_loops_touch(g_l, g_tid, 9, 0, 1);
   /* B's instance runs: its accesses reach its filters when it ends
      (A's and R's have) */
   ck_assert(!mp_loops_written(mp_loops_get(g_l, B), 9));
   mp_loops_flush(g_l);
   ck_assert(mp_loops_touched(mp_loops_get(g_l, A), 5));
   ck_assert(!mp_loops_written(mp_loops_get(g_l, A), 5));
   ck_assert(!mp_loops_touched(mp_loops_get(g_l, A), 7));
   ck_assert(mp_loops_touched(mp_loops_get(g_l, R), 5));
   ck_assert(!mp_loops_written(mp_loops_get(g_l, R), 5));
   ck_assert(mp_loops_touched(mp_loops_get(g_l, R), 7));
   ck_assert(mp_loops_written(mp_loops_get(g_l, R), 7));
   ck_assert(!mp_loops_touched(mp_loops_get(g_l, R), 9));
   ck_assert(!mp_loops_touched(mp_loops_get(g_l, B), 5));
   ck_assert(!mp_loops_touched(mp_loops_get(g_l, B), 7));
   ck_assert(mp_loops_written(mp_loops_get(g_l, B), 9));
   /* A and B share nothing; R and A both hold the read of 5, but only
      R the write of 7, which A did not touch: no dependence between A
      and B; a loop that read 9 would depend on B. */
   ck_assert(!mp_loops_may_depend(mp_loops_get(g_l, A), mp_loops_get(g_l, B)));
   ck_assert(!mp_loops_may_depend(mp_loops_get(g_l, A), mp_loops_get(g_l, A)));
   ck_assert(mp_loops_may_depend(mp_loops_get(g_l, R), mp_loops_get(g_l, R)));
   at(1, 0x100);
   at(1, 0x120);
   mp_loops_touch(g_l, g_tid, 9, 0, 0);
   mp_loops_flush(g_l);
   ck_assert(mp_loops_touched(mp_loops_get(g_l, R), 9));
   ck_assert(mp_loops_may_depend(mp_loops_get(g_l, A), mp_loops_get(g_l, B)));
   ck_assert(mp_loops_may_depend(mp_loops_get(g_l, B), mp_loops_get(g_l, A)));
   /* a frame's part: the same variable at another block is another key */
   at(1, 0x400);
   mp_loops_touch(g_l, g_tid, 11, 3, 1);
   mp_loops_flush(g_l);
   ck_assert(!mp_loops_touched(mp_loops_get(g_l, B), 11));
   mp_loops_free(g_l);
}
END_TEST

/* Two threads in the same loops: separate stacks and counters, distinct
   instance ids.  Thread ids grow the table. */
/* The carrier of a reuse (mp_loops_carrier), by hand: main's nest O
   around I, then a separate loop E; an access's epoch is read when it
   is made, as the tool does, and the carrier asked later. */
START_TEST(test_carrier)
{
   uint32_t O, I, E;
   uint64_t before, in_o, in_i, in_e;
   g_l = new_loops(0);
   I = mp_loops_add_back_edge(g_l, 1, 0x150, 0x130, NULL, NULL, NULL, NULL);
   O = mp_loops_add_back_edge(g_l, 1, 0x190, 0x110, NULL, NULL, NULL, NULL);
   E = mp_loops_add_back_edge(g_l, 1, 0x240, 0x200, NULL, NULL, NULL, NULL);
   at(1, 0x100);
   before = *mp_loops_epoch(g_l);                 /* outside any loop */
   at(1, 0x110);
   in_o = *mp_loops_epoch(g_l);                   /* in O, before I */
   at(1, 0x130);
   in_i = *mp_loops_epoch(g_l);                   /* in I's first instance */
   back(I);
   at(1, 0x130);
   /* reuses made now, in the same instance of I */
   ck_assert_uint_eq(mp_loops_carrier(g_l, g_tid, in_i), I);
   ck_assert_uint_eq(mp_loops_carrier(g_l, g_tid, in_o), O);
   ck_assert_uint_eq(mp_loops_carrier(g_l, g_tid, before), MP_LOOP_NONE);
   /* the next pass of O enters I again: I's first instance is gone */
   at(1, 0x160);
   back(O);
   at(1, 0x110);
   at(1, 0x130);
   ck_assert_uint_eq(mp_loops_carrier(g_l, g_tid, in_i), O);
   ck_assert_uint_eq(mp_loops_carrier(g_l, g_tid, in_o), O);
   /* another thread: its own stack, none of it active */
   ck_assert_uint_eq(mp_loops_carrier(g_l, 2, in_i), MP_LOOP_NONE);
   /* E, after the nest: no loop holds both accesses */
   at(1, 0x1a0);
   at(1, 0x200);
   ck_assert_uint_eq(mp_loops_current(g_l, g_tid, NULL), E);
   ck_assert_uint_eq(mp_loops_carrier(g_l, g_tid, in_i), MP_LOOP_NONE);
   in_e = *mp_loops_epoch(g_l);
   back(E);
   ck_assert_uint_eq(mp_loops_carrier(g_l, g_tid, in_e), E);
   /* a flush (a sampling window) forgets every stack: what came before
      it has no known carrier; after it, loops carry again */
   mp_loops_flush(g_l);
   ck_assert_uint_eq(mp_loops_carrier(g_l, g_tid, in_e), MP_LOOP_UNSEEN);
   at(1, 0x200);
   in_e = *mp_loops_epoch(g_l);
   back(E);
   ck_assert_uint_eq(mp_loops_carrier(g_l, g_tid, in_e), E);
   mp_loops_free(g_l);
}
END_TEST

/* A forget (a detail window's start, the loops followed in the gap)
   keeps the stacks and their counters: earlier accesses have no known
   carrier, later ones are carried by the loops begun before it too. */
START_TEST(test_forget)
{
   uint32_t O, I;
   uint64_t in_i, after, v[2];
   g_l = new_loops(0);
   I = mp_loops_add_back_edge(g_l, 1, 0x150, 0x130, NULL, NULL, NULL, NULL);
   O = mp_loops_add_back_edge(g_l, 1, 0x190, 0x110, NULL, NULL, NULL, NULL);
   at(1, 0x110);
   at(1, 0x130);
   in_i = *mp_loops_epoch(g_l);
   back(I);
   back(I);
   mp_loops_forget(g_l);
   ck_assert_uint_eq(mp_loops_current(g_l, g_tid, NULL), I);
   ck_assert_uint_eq(mp_loops_iteration_vector(g_l, g_tid, v, 2), 2);
   ck_assert(v[0] == 0 && v[1] == 2);
   ck_assert_uint_eq(mp_loops_get(g_l, I)->exits, 0);
   ck_assert_uint_eq(mp_loops_carrier(g_l, g_tid, in_i), MP_LOOP_UNSEEN);
   after = *mp_loops_epoch(g_l);
   back(I);
   ck_assert_uint_eq(mp_loops_carrier(g_l, g_tid, after), I);
   /* the next pass of O: I begins again, after the access */
   at(1, 0x160);
   back(O);
   at(1, 0x130);
   ck_assert_uint_eq(mp_loops_carrier(g_l, g_tid, after), O);
   ck_assert_uint_eq(mp_loops_iteration_vector(g_l, g_tid, v, 2), 2);
   ck_assert(v[0] == 1 && v[1] == 0);
   mp_loops_free(g_l);
}
END_TEST

/* The fast path (mp_loops_settled) against calling in every time: two
   engines with one forest, one called at every event (unwind, then
   at_site), the other (through mp_loops_enter_block) only
   where the settled state does not answer (counting a back edge
   through its pointers, as the generated code does), over random
   blocks, back edges, returns, stack pointers and thread switches.
   The counts and the threads' stacks must agree. */
static void settled_event(mp_loops *l, int fast, uint32_t tid, int kind, uint32_t fn,
                          uint64_t a, uint64_t sp, uint32_t loop, mp_loops_site *site,
                          uint64_t *skipped)
{
   const mp_loops_settled *st = mp_loops_settled_state(l);
   switch (kind) {
   case 0:
      if (fast && st->fn == fn && st->head <= a && a <= st->tail && st->sp == sp) {
         (*skipped)++;
         return;
      }
      /* a block in no loop (as translated now), of another function
         than the innermost frame's */
      if (fast && st->valid && st->sp == sp && st->fn != fn
          && mp_loops_innermost(l, fn, a) == MP_LOOP_NONE) {
         (*skipped)++;
         return;
      }
      if (fast) {               /* as the tool calls it */
         mp_loops_enter_block(l, tid, sp, fn, a, site);
      } else {
         mp_loops_unwind(l, tid, sp);
         mp_loops_at_site(l, tid, fn, a, site);
      }
      return;
   case 1:
      if (fast && st->loop == loop) {
         (*st->loop_iterations)++;
         (*st->frame_iterations)++;
         (*skipped)++;
         return;
      }
      mp_loops_back_edge_taken(l, tid, loop);
      return;
   default:
      if (fast && st->valid && st->fn != fn) {
         (*skipped)++;
         return;
      }
      mp_loops_return(l, tid, fn);
   }
}

START_TEST(test_settled_fast_path)
{
   mp_loops *l[2];
   mp_loops_site site[2][0x60];
   uint32_t loops[2][4], k, step, tid = 1, n;
   uint64_t skipped = 0, ignore = 0, sps[3] = { 0x8000, 0x7f00, 0x7e00 };
   rng_state = 0x5e771edULL + (uint64_t)_i;
   memset(site, 0, sizeof site);
   for (k = 0; k < 2; k++) {
      l[k] = mp_loops_new();
      loops[k][1] = mp_loops_add_back_edge(l[k], 1, 0x190, 0x110, NULL, NULL, NULL, NULL);
      loops[k][2] = mp_loops_add_back_edge(l[k], 2, 0x240, 0x200, NULL, NULL, NULL, NULL);
   }
   for (step = 0; step < 20000; step++) {
      uint64_t r = rng(), a = 0x100 + 4 * (r % 0x58), sp = sps[(r >> 8) % 3];
      uint32_t fn = a < 0x1f0 ? 1 : a < 0x248 ? 2 : 3, kind = (uint32_t)((r >> 12) % 8), which;
      uint32_t loop = (uint32_t)((r >> 16) % 3);
      /* the inner loop is found half way: the outer one has a loop
         inside it from then on */
      if (step == 10000)
         for (k = 0; k < 2; k++) {
            /* in the outer loop, settled on it, when the inner one is
               found; then a block inside the inner one */
            settled_event(l[k], (int)k, tid, 0, 1, 0x118, sps[0], 0, &site[k][6], &ignore);
            loops[k][0] = mp_loops_add_back_edge(l[k], 1, 0x150, 0x130, NULL, NULL, NULL,
                                                 NULL);
            settled_event(l[k], (int)k, tid, 0, 1, 0x138, sps[0], 0, &site[k][14], &ignore);
         }
      if (step < 10000 && loop == 0)
         loop = 1;
      if ((r >> 20) % 64 == 0) {              /* another thread runs */
         tid = tid == 1 ? 2 : 1;
         mp_loops_unsettle(l[1]);
      }
      which = kind < 5 ? 0 : kind < 7 ? 1 : 2;
      if (which == 2)
         fn = 1 + (uint32_t)((r >> 24) % 3);   /* 3: a function with no loop */
      for (k = 0; k < 2; k++)
         settled_event(l[k], (int)k, tid, (int)which, fn, a, sp, loops[k][loop],
                       &site[k][(a - 0x100) / 4], k ? &skipped : &ignore);
      {
         uint64_t vx[4], vy[4];
         uint32_t nx = mp_loops_iteration_vector(l[0], tid, vx, 4);
         ck_assert_uint_eq(mp_loops_iteration_vector(l[1], tid, vy, 4), nx);
         ck_assert_uint_eq(mp_loops_current(l[0], tid, NULL), mp_loops_current(l[1], tid, NULL));
         for (k = 0; k < nx && k < 4; k++)
            ck_assert_uint_eq(vx[k], vy[k]);
      }
   }
   for (k = 0; k < 3; k++) {
      const mp_loop *x = mp_loops_get(l[0], loops[0][k]), *y = mp_loops_get(l[1], loops[1][k]);
      ck_assert_uint_eq(x->entries, y->entries);
      ck_assert_uint_eq(x->iterations, y->iterations);
   }
   for (tid = 1; tid <= 2; tid++) {
      const mp_loop_frame *fx, *fy;
      uint32_t i;
      n = mp_loops_active(l[0], tid, &fx);
      ck_assert_uint_eq(mp_loops_active(l[1], tid, &fy), n);
      for (i = 0; i < n; i++) {
         ck_assert_uint_eq(fx[i].loop, fy[i].loop);
         ck_assert_uint_eq(fx[i].iterations, fy[i].iterations);
      }
   }
   for (k = 0; k < 2; k++)
      mp_loops_flush(l[k]);
   for (k = 0; k < 3; k++) {
      const mp_loop *x = mp_loops_get(l[0], loops[0][k]), *y = mp_loops_get(l[1], loops[1][k]);
      ck_assert_uint_eq(x->exits, y->exits);
      ck_assert_uint_eq(x->max_iterations, y->max_iterations);
   }
   /* the fast path must have answered a good part of the events */
   ck_assert_uint_gt(skipped, 1000);
   mp_loops_free(l[0]);
   mp_loops_free(l[1]);
}
END_TEST

/* A copy of the loops in another process (the reuse helper's) answers
   mp_loops_carrier as the original does when it is mirrored each time
   mp_loops_changes has moved since the thread's last mirror, as the
   producer does (mp_helper.c).  Random blocks, back edges, returns,
   thread switches, forgets and flushes; earlier accesses' epochs are
   kept and their carriers asked of both at every step. */
static void check_mirror(int on_epoch_only)
{
   mp_loops *l = mp_loops_new(), *m = mp_loops_new();
   mp_loops_site site[0x60];
   uint64_t thens[64], sent[3] = { 0, 0, 0 }, sent_epoch[3] = { 0, 0, 0 };
   uint64_t sps[3] = { 0x8000, 0x7f00, 0x7e00 }, ignore = 0, mismatches = 0;
   uint32_t loops[3], step, tid = 1, n_thens = 0, k;
   memset(site, 0, sizeof site);
   loops[0] = mp_loops_add_back_edge(l, 1, 0x150, 0x130, NULL, NULL, NULL, NULL);
   loops[1] = mp_loops_add_back_edge(l, 1, 0x190, 0x110, NULL, NULL, NULL, NULL);
   loops[2] = mp_loops_add_back_edge(l, 2, 0x240, 0x200, NULL, NULL, NULL, NULL);
   for (step = 0; step < 20000; step++) {
      uint64_t r = rng(), a = 0x100 + 4 * (r % 0x58), sp = sps[(r >> 8) % 3];
      uint32_t fn = a < 0x1f0 ? 1 : a < 0x248 ? 2 : 3, kind = (uint32_t)((r >> 12) % 8);
      uint32_t which = kind < 5 ? 0 : kind < 7 ? 1 : 2;
      if ((r >> 20) % 64 == 0)
         tid = tid == 1 ? 2 : 1;
      if ((r >> 26) % 997 == 0)
         mp_loops_forget(l);
      if ((r >> 36) % 4999 == 0)
         mp_loops_flush(l);
      if (which == 2)
         fn = 1 + (uint32_t)((r >> 24) % 3);
      settled_event(l, 0, tid, (int)which, fn, a, sp, loops[(r >> 16) % 3],
                    &site[(a - 0x100) / 4], &ignore);
      /* an access: the producer's check, then the mirror's answers */
      {
         uint64_t now = *mp_loops_epoch(l);
         int stale = on_epoch_only ? sent_epoch[tid] != now
                                   : sent[tid] != *mp_loops_changes(l);
         if (stale) {
            const mp_loop_frame *f;
            uint32_t n = mp_loops_active(l, tid, &f);
            mp_loops_mirror(m, tid, f, n, now, mp_loops_unseen_before(l));
            sent[tid] = *mp_loops_changes(l);
            sent_epoch[tid] = now;
         }
         thens[n_thens++ % 64] = now;
         for (k = 0; k < 64 && k < n_thens; k++)
            mismatches += mp_loops_carrier(l, tid, thens[k])
                          != mp_loops_carrier(m, tid, thens[k]);
      }
   }
   if (on_epoch_only)
      ck_assert_uint_gt(mismatches, 0);
   else
      ck_assert_uint_eq(mismatches, 0);
   mp_loops_free(l);
   mp_loops_free(m);
}

START_TEST(test_mirror) { rng_state = 0x3177a5ULL + (uint64_t)_i; check_mirror(0); }
END_TEST
/* Mirroring only when the epoch moves misses the pops: the test sees it. */
START_TEST(test_mirror_on_epoch_is_detected) { rng_state = 0x3177a5ULL; check_mirror(1); }
END_TEST

/* An execution given back by an excursion found on its first run
   (revive_excursions) is one execution for the carriers, in the engine
   and in a mirror that saw it end or did not (_i: whether an access
   was mirrored while the thread ran the rare block). */
START_TEST(test_excursion_revive_mirrored)
{
   mp_loops *l = mp_loops_new(), *m = mp_loops_new();
   uint32_t p, q, tid = 1, carrier[2], from[2], to[2], across[2][2], k;
   uint64_t during;
   const mp_loop_frame *f;
   uint32_t n;
   p = mp_loops_add_back_edge(l, 1, 0x200, 0x100, NULL, NULL, NULL, NULL);
   q = mp_loops_add_back_edge(l, 1, 0x480, 0x400, NULL, NULL, NULL, NULL);
   mp_loops_at(l, tid, 1, 0x100);
   mp_loops_seen(l, tid);
   during = *mp_loops_epoch(l);
   n = mp_loops_active(l, tid, &f);
   mp_loops_mirror(m, tid, f, n, during, mp_loops_unseen_before(l));
   mp_loops_at(l, tid, 1, 0x230);               /* the rare block, not yet known */
   ck_assert_uint_eq(mp_loops_active(l, tid, &f), 0);
   if (_i) {
      n = mp_loops_active(l, tid, &f);
      mp_loops_mirror(m, tid, f, n, *mp_loops_epoch(l), mp_loops_unseen_before(l));
   }
   mp_loops_add_back_edge(l, 1, 0x240, 0x180, NULL, NULL, NULL, NULL);
   ck_assert_uint_eq(mp_loops_active(l, tid, &f), 1);
   mp_loops_at(l, tid, 1, 0x180);
   mp_loops_back_edge_taken(l, tid, p);
   mp_loops_at(l, tid, 1, 0x100);
   n = mp_loops_active(l, tid, &f);
   mp_loops_mirror(m, tid, f, n, *mp_loops_epoch(l), mp_loops_unseen_before(l));
   mp_loops_at(l, tid, 1, 0x300);               /* p ends */
   mp_loops_at(l, tid, 1, 0x400);               /* q runs */
   mp_loops_seen(l, tid);
   n = mp_loops_active(l, tid, &f);
   mp_loops_mirror(m, tid, f, n, *mp_loops_epoch(l), mp_loops_unseen_before(l));
   ck_assert_uint_eq(mp_loops_get(l, p)->entries, 1);
   carrier[0] = mp_loops_siblings(l, tid, during, &from[0], &to[0], across[0]);
   carrier[1] = mp_loops_siblings(m, tid, during, &from[1], &to[1], across[1]);
   for (k = 0; k < 2; k++) {
      ck_assert_uint_eq(carrier[k], MP_LOOP_NONE);
      ck_assert_uint_eq(from[k], p);
      ck_assert_uint_eq(to[k], q);
      ck_assert_uint_eq(across[k][0], MP_LOOP_NONE);
      ck_assert_uint_eq(across[k][1], MP_LOOP_NONE);
   }
   mp_loops_free(l);
   mp_loops_free(m);
}
END_TEST

START_TEST(test_threads)
{
   uint32_t O, I;
   uint64_t a, b, v[2];
   g_l = mp_loops_new();
   I = mp_loops_add_back_edge(g_l, 1, 0x150, 0x130, NULL, NULL, NULL, NULL);
   O = mp_loops_add_back_edge(g_l, 1, 0x190, 0x110, NULL, NULL, NULL, NULL);
   mp_loops_at(g_l, 1, 1, 0x130);              /* enters O and I at once */
   mp_loops_at(g_l, 300, 1, 0x110);
   mp_loops_back_edge_taken(g_l, 1, I);
   mp_loops_back_edge_taken(g_l, 1, I);
   mp_loops_back_edge_taken(g_l, 300, O);
   mp_loops_at(g_l, 300, 1, 0x140);
   ck_assert_uint_eq(mp_loops_current(g_l, 1, &a), I);
   ck_assert_uint_eq(mp_loops_current(g_l, 300, &b), I);
   ck_assert_uint_ne(a, b);
   ck_assert_uint_eq(mp_loops_iteration_vector(g_l, 1, v, 2), 2);
   ck_assert(v[0] == 0 && v[1] == 2);
   ck_assert_uint_eq(mp_loops_iteration_vector(g_l, 300, v, 2), 2);
   ck_assert(v[0] == 1 && v[1] == 0);
   ck_assert_uint_eq(mp_loops_current(g_l, 7, NULL), MP_LOOP_NONE);
   mp_loops_flush(g_l);
   ck_assert_uint_eq(mp_loops_get(g_l, O)->exits, 2);
   ck_assert_uint_eq(mp_loops_get(g_l, I)->exits, 2);
   ck_assert_uint_eq(mp_loops_get(g_l, I)->max_iterations, 2);
   ck_assert_uint_eq(mp_loops_current(g_l, 1, NULL), MP_LOOP_NONE);
   mp_loops_free(g_l);
}
END_TEST

/* The documented limit of R1: f calling itself from inside its loop
   ends the caller's instance; the return starts a new one.  Iterations
   are all counted. */
START_TEST(test_recursion_limit)
{
   uint32_t L;
   g_l = mp_loops_new();
   L = mp_loops_add_back_edge(g_l, 1, 0x140, 0x110, NULL, NULL, NULL, NULL);
   at(1, 0x100);
   at(1, 0x110);
   back(L);
   at(1, 0x120);                               /* call f */
   at(1, 0x100);                               /* f's entry: leaves L (R1) */
   at(1, 0x150);                               /* the inner f returns */
   at(1, 0x128);                               /* back in the caller's L */
   back(L);
   at(1, 0x150);
   ck_assert_uint_eq(mp_loops_get(g_l, L)->entries, 2);
   ck_assert_uint_eq(mp_loops_get(g_l, L)->iterations, 2);
   mp_loops_free(g_l);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Unwinding by the stack pointer vs a model of the calls ---*/
/*------------------------------------------------------------*/

/* Random call traces over N_FNS functions, each with an outer loop
   [0x100, 0x1f0] and an inner one [0x140, 0x180] at 0x10000 * (fn + 1).
   The reference is the program's own call stack: activations, each at
   loop depth 0, 1 or 2.  The active frames must always be the chains of
   the activations, bottom up, and the entries what the depth changes
   imply, however activations end: a ret the engine is told of
   (mp_loops_return), a jump it is not told of (a PLT stub's indirect
   jump, a tail call), or a longjmp or exception dropping several at
   once.  Recursion is left out: the address rules read it as leaving
   the loop (test_recursion_limit). */
#define N_FNS     6
#define MAX_CALLS 5

typedef struct {
   uint32_t fn, depth;
   uint64_t sp;
} ref_activation;

static const uint64_t depth_addr[3] = { 0x020, 0x110, 0x150 };

static uint64_t fn_base(uint32_t fn) { return 0x10000 * (uint64_t)(fn + 1); }

/* The number of ways the active frames differ from the activations'
   chains. */
static int unwind_check(mp_loops *l, uint32_t loops[N_FNS][2],
                        const ref_activation *act, uint32_t n_act)
{
   const mp_loop_frame *fr;
   uint32_t n = mp_loops_active(l, 1, &fr), i, d, k = 0;
   int bad = 0;
   for (i = 0; i < n_act; i++)
      for (d = 0; d < act[i].depth; d++, k++)
         bad += k >= n || fr[k].loop != loops[act[i].fn][d];
   return bad + (n != k);
}

static void run_unwind(uint64_t seed, int corrupt)
{
   mp_loops *l = mp_loops_new();
   uint32_t loops[N_FNS][2], f, step, i, n_act = 1, deepest = 0, frames;
   int bad = 0;
   uint64_t entries[N_FNS][2] = { { 0 } };
   ref_activation act[MAX_CALLS];
   rng_state = seed;
   for (f = 0; f < N_FNS; f++) {
      loops[f][1] = mp_loops_add_back_edge(l, f, fn_base(f) + 0x180, fn_base(f) + 0x140,
                                           NULL, NULL, NULL, NULL);
      loops[f][0] = mp_loops_add_back_edge(l, f, fn_base(f) + 0x1f0, fn_base(f) + 0x100,
                                           NULL, NULL, NULL, NULL);
   }
   act[0].fn = 0;
   act[0].depth = 0;
   act[0].sp = 0x7fff0000;
   for (step = 0; step < 4000; step++) {
      ref_activation *top = &act[n_act - 1];
      uint32_t op = (uint32_t)(rng() % 8);
      if (op < 4) {                            /* move within the function */
         uint32_t d = (uint32_t)(rng() % 3);
         for (i = top->depth; i < d; i++)
            entries[top->fn][i]++;
         /* leaving the inner loop to the outer one and coming back is
            a new execution of the inner loop, as in the engine */
         top->depth = d;
      } else if (op < 6 && n_act < MAX_CALLS) {   /* a call */
         uint32_t g;
         int on_stack;
         do {
            g = (uint32_t)(rng() % N_FNS);
            for (on_stack = 0, i = 0; i < n_act; i++)
               on_stack |= act[i].fn == g;
         } while (on_stack);
         act[n_act].fn = g;
         act[n_act].depth = 0;
         act[n_act].sp = top->sp - 8 - 16 * (rng() % 8);
         top = &act[n_act++];
      } else if (n_act > 1) {                  /* the end of activations */
         uint32_t how = (uint32_t)(rng() % 3), k = 1;
         if (how == 0)                         /* ret, reported */
            mp_loops_return(l, 1, top->fn);
         else if (how == 2)                    /* longjmp, exception */
            k = 1 + (uint32_t)(rng() % (n_act - 1));
         n_act -= k;
         top = &act[n_act - 1];
      }
      if (!(corrupt && step >= 2000))          /* the engine not told */
         mp_loops_unwind(l, 1, top->sp);
      mp_loops_at(l, 1, top->fn, fn_base(top->fn) + depth_addr[top->depth]);
      bad += unwind_check(l, loops, act, n_act);
      for (frames = 0, i = 0; i < n_act; i++)
         frames += act[i].depth;
      if (frames > deepest)
         deepest = frames;
   }
   if (corrupt) {
      ck_assert_int_gt(bad, 0);
      mp_loops_free(l);
      return;
   }
   ck_assert_int_eq(bad, 0);
   ck_assert_uint_eq(mp_loops_deepest(l), deepest);
   ck_assert_uint_le(deepest, 2 * MAX_CALLS);
   for (f = 0; f < N_FNS; f++)
      for (i = 0; i < 2; i++)
         ck_assert_uint_eq(mp_loops_get(l, loops[f][i])->entries, entries[f][i]);
   mp_loops_free(l);
}

START_TEST(test_unwind_random) { run_unwind(0x5eed + 7919 * (uint64_t)_i, 0); }
END_TEST
/* A missed unwind leaves a dead activation's frames: the check sees it. */
START_TEST(test_unwind_mismatch_is_detected) { run_unwind(0x5eed, 1); }
END_TEST

/* The shape that once grew without bound: main's loop nest calls, from
   its inner loop, a PLT-like stub (a function with a backward jump of
   its own) that leaves by an indirect jump into a callee, which
   returns straight to main.  Only the stack pointer tells the stub's
   frames are gone; main's outer loop keeps one execution. */
START_TEST(test_unwind_stub_loop)
{
   uint32_t O, I, S, k;
   g_l = mp_loops_new();
   I = mp_loops_add_back_edge(g_l, 1, 0x150, 0x130, NULL, NULL, NULL, NULL);
   O = mp_loops_add_back_edge(g_l, 1, 0x190, 0x110, NULL, NULL, NULL, NULL);
   S = mp_loops_add_back_edge(g_l, 3, 0x3010, 0x3000, NULL, NULL, NULL, NULL);
   mp_loops_unwind(g_l, g_tid, 0x8000);
   at(1, 0x100);
   for (k = 0; k < 1000; k++) {
      mp_loops_unwind(g_l, g_tid, 0x8000);
      at(1, 0x110);
      at(1, 0x130);                            /* inner loop: call the stub */
      mp_loops_unwind(g_l, g_tid, 0x7ff8);
      at(3, 0x3004);                           /* in the stub's "loop" */
      at(2, 0x2000);                           /* jmp *GOT: the callee */
      mp_loops_unwind(g_l, g_tid, 0x8000);     /* its ret, to main */
      at(1, 0x170);                            /* after the inner loop */
      ck_assert_uint_eq(mp_loops_current(g_l, g_tid, NULL), O);
      back(O);
   }
   ck_assert_uint_le(mp_loops_deepest(g_l), 3);
   ck_assert_uint_eq(mp_loops_get(g_l, O)->entries, 1);
   ck_assert_uint_eq(mp_loops_get(g_l, I)->entries, 1000);
   ck_assert_uint_eq(mp_loops_get(g_l, S)->entries, 1000);
   ck_assert_uint_eq(mp_loops_get(g_l, S)->exits, 1000);
   mp_loops_free(g_l);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("loops");
   TCase *tc = tcase_create("core");
   tcase_set_timeout(tc, 60);
   tcase_add_loop_test(tc, test_forest_nested_random, 0, 30);
   tcase_add_loop_test(tc, test_forest_overlapping_random, 0, 30);
   tcase_add_test(tc, test_forest_mismatch_is_detected);
   tcase_add_test(tc, test_forest_by_hand);
   tcase_add_loop_test(tc, test_forest_order_free, 0, 20);
   tcase_add_loop_test(tc, test_excursion_keeps_instance, 0, 2);
   tcase_add_test(tc, test_excursion_wraps_iteration);
   tcase_add_test(tc, test_excursion_after_inner_loop);
   tcase_add_loop_test(tc, test_excursion_revive_mirrored, 0, 2);
   tcase_add_test(tc, test_source_lines);
   tcase_add_test(tc, test_source_lines_scope);
   tcase_add_loop_test(tc, test_trace_nest_call_and_exits, 0, 2);
   tcase_add_loop_test(tc, test_trace_early_return_without_caller_loop, 0, 2);
   tcase_add_loop_test(tc, test_trace_jump_to_condition_layout, 0, 2);
   tcase_add_loop_test(tc, test_trace_coarse_and_late_discovery, 0, 2);
   tcase_add_test(tc, test_threads);
   tcase_add_test(tc, test_carrier);
   tcase_add_test(tc, test_siblings);
   tcase_add_test(tc, test_touched);
   tcase_add_test(tc, test_drop_unentered);
   tcase_add_loop_test(tc, test_mirror, 0, 4);
   tcase_add_test(tc, test_mirror_on_epoch_is_detected);
   tcase_add_test(tc, test_forget);
   tcase_add_loop_test(tc, test_settled_fast_path, 0, 8);
   tcase_add_test(tc, test_recursion_limit);
   tcase_add_loop_test(tc, test_unwind_random, 0, 20);
   tcase_add_test(tc, test_unwind_mismatch_is_detected);
   tcase_add_test(tc, test_unwind_stub_loop);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
