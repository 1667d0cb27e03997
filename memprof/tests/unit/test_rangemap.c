/*--------------------------------------------------------------------*/
/*--- memprof: unit tests for the address range map.                ---*/
/*---                                                test_rangemap.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof, a Valgrind tool that attributes memory
   accesses to data structures.  GPL-2.0-or-later; see COPYING.

   Tests mp_rangemap against a brute-force reference: an unsorted array
   of ranges scanned linearly.  Random operation sequences use a fixed
   seed, so a failure reproduces.  One case corrupts the reference on
   purpose to prove that the comparison can report a mismatch.
*/

#include "mp_rangemap.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* ck_assert records a checkpoint on every call, which costs a write to
   Check's log; the million-operation loops use this instead, which is
   free until it fails. */
#define REQUIRE(e) \
   do { if (!(e)) ck_abort_msg("requirement failed: %s", #e); } while (0)

/*------------------------------------------------------------*/
/*--- Helpers                                              ---*/
/*------------------------------------------------------------*/

/* xorshift64*: small, deterministic, good enough for test inputs. */
static uint64_t rng_state;

static void rng_seed(uint64_t s)
{
   rng_state = s ? s : 1;
}

static uint64_t rng_next(void)
{
   rng_state ^= rng_state >> 12;
   rng_state ^= rng_state << 25;
   rng_state ^= rng_state >> 27;
   return rng_state * 0x2545F4914F6CDD1DULL;
}

static double now_seconds(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *val(uint64_t i)
{
   return (void *)(uintptr_t)(i + 1);
}

/*------------------------------------------------------------*/
/*--- Brute-force reference                                ---*/
/*------------------------------------------------------------*/

typedef struct {
   uint64_t start;
   uint64_t len;
   void *value;
} ref_range;

typedef struct {
   ref_range *r;
   size_t n, cap;
} ref_map;

static void ref_init(ref_map *rm)
{
   rm->n = 0;
   rm->cap = 1024;
   rm->r = malloc(rm->cap * sizeof(ref_range));
}

static void ref_fini(ref_map *rm)
{
   free(rm->r);
}

static uint64_t ref_last(const ref_range *r)
{
   return r->start + (r->len - 1);
}

static int ref_insert(ref_map *rm, uint64_t start, uint64_t len, void *v)
{
   uint64_t last;
   size_t i;

   if (len == 0 || len - 1 > UINT64_MAX - start)
      return -1;
   last = start + (len - 1);
   for (i = 0; i < rm->n; i++)
      if (rm->r[i].start <= last && start <= ref_last(&rm->r[i]))
         return -1;
   if (rm->n == rm->cap) {
      rm->cap *= 2;
      rm->r = realloc(rm->r, rm->cap * sizeof(ref_range));
   }
   rm->r[rm->n].start = start;
   rm->r[rm->n].len = len;
   rm->r[rm->n].value = v;
   rm->n++;
   return 0;
}

static int ref_remove(ref_map *rm, uint64_t start, uint64_t *len_out,
                      void **v_out)
{
   size_t i;
   for (i = 0; i < rm->n; i++) {
      if (rm->r[i].start == start) {
         *len_out = rm->r[i].len;
         *v_out = rm->r[i].value;
         rm->r[i] = rm->r[--rm->n];
         return 1;
      }
   }
   return 0;
}

static int ref_overlaps(const ref_map *rm, uint64_t lo, uint64_t last)
{
   size_t i;
   for (i = 0; i < rm->n; i++)
      if (rm->r[i].start <= last && lo <= ref_last(&rm->r[i]))
         return 1;
   return 0;
}

static const ref_range *ref_lookup(const ref_map *rm, uint64_t addr)
{
   size_t i;
   for (i = 0; i < rm->n; i++)
      if (rm->r[i].start <= addr && addr <= ref_last(&rm->r[i]))
         return &rm->r[i];
   return NULL;
}

/*------------------------------------------------------------*/
/*--- Whole-map comparison                                 ---*/
/*------------------------------------------------------------*/

typedef struct {
   ref_range *out;
   size_t n, cap;
} collect_state;

static int collect_fn(uint64_t start, uint64_t len, void *value, void *arg)
{
   collect_state *cs = arg;
   if (cs->n < cs->cap) {
      cs->out[cs->n].start = start;
      cs->out[cs->n].len = len;
      cs->out[cs->n].value = value;
   }
   cs->n++;
   return 0;
}

static int cmp_start(const void *a, const void *b)
{
   const ref_range *x = a, *y = b;
   return x->start < y->start ? -1 : x->start > y->start;
}

/* Checks one lookup against the expected owner (NULL for none). */
static int probe_mismatch(const mp_rangemap *m, uint64_t addr,
                          const ref_range *want)
{
   uint64_t s = 0, l = 0;
   void *v = NULL;
   int found = mp_rangemap_lookup(m, addr, &s, &l, &v);
   if (!want)
      return found != 0;
   return !found || s != want->start || l != want->len || v != want->value;
}

/* Returns the number of mismatches between map and reference: the
   in-order contents, the count, and lookups at each range's first and
   last byte and on either side of it. */
static size_t compare_with_ref(const mp_rangemap *m, const ref_map *rm)
{
   ref_range *sorted = malloc((rm->n + 1) * sizeof(ref_range));
   collect_state cs;
   size_t bad = 0, i;

   cs.cap = rm->n + 1;
   cs.out = malloc(cs.cap * sizeof(ref_range));
   cs.n = 0;
   mp_rangemap_foreach(m, collect_fn, &cs);
   if (cs.n != rm->n || mp_rangemap_count(m) != rm->n)
      bad++;

   for (i = 0; i < rm->n; i++)
      sorted[i] = rm->r[i];
   qsort(sorted, rm->n, sizeof(ref_range), cmp_start);

   for (i = 0; i < rm->n && i < cs.n; i++) {
      const ref_range *r = &sorted[i];
      const ref_range *next = i + 1 < rm->n ? &sorted[i + 1] : NULL;
      const ref_range *prev = i > 0 ? &sorted[i - 1] : NULL;
      uint64_t last = ref_last(r);

      if (cs.out[i].start != r->start || cs.out[i].len != r->len
          || cs.out[i].value != r->value)
         bad++;
      bad += probe_mismatch(m, r->start, r);
      bad += probe_mismatch(m, last, r);
      if (last != UINT64_MAX)
         bad += probe_mismatch(m, last + 1,
                               next && next->start == last + 1 ? next
                                                               : NULL);
      if (r->start != 0)
         bad += probe_mismatch(m, r->start - 1,
                               prev && ref_last(prev) == r->start - 1
                                  ? prev : NULL);
   }
   free(sorted);
   free(cs.out);
   return bad;
}

/*------------------------------------------------------------*/
/*--- Edge cases                                           ---*/
/*------------------------------------------------------------*/

START_TEST(test_empty)
{
   mp_rangemap *m = mp_rangemap_new();
   uint64_t s = 7, l = 7;
   void *v = val(7);

   ck_assert_uint_eq(mp_rangemap_count(m), 0);
   ck_assert_int_eq(mp_rangemap_lookup(m, 0, &s, &l, &v), 0);
   ck_assert_int_eq(mp_rangemap_lookup(m, UINT64_MAX, NULL, NULL, NULL), 0);
   ck_assert_int_eq(mp_rangemap_remove(m, 0, &l, &v), 0);
   /* Outs are left alone on a miss. */
   ck_assert_uint_eq(s, 7);
   ck_assert_uint_eq(l, 7);
   ck_assert_ptr_eq(v, val(7));
   ck_assert_int_eq(mp_rangemap_check(m), 1);
   mp_rangemap_free(m);
   mp_rangemap_free(NULL);
}
END_TEST

START_TEST(test_bad_lengths)
{
   mp_rangemap *m = mp_rangemap_new();

   ck_assert_int_eq(mp_rangemap_insert(m, 100, 0, val(0)), -1);
   ck_assert_int_eq(mp_rangemap_insert(m, UINT64_MAX, 2, val(0)), -1);
   ck_assert_int_eq(mp_rangemap_insert(m, 2, UINT64_MAX, val(0)), -1);
   ck_assert_int_eq(mp_rangemap_insert(m, UINT64_MAX, UINT64_MAX, val(0)),
                    -1);
   ck_assert_uint_eq(mp_rangemap_count(m), 0);
   mp_rangemap_free(m);
}
END_TEST

START_TEST(test_address_space_ends)
{
   mp_rangemap *m = mp_rangemap_new();
   uint64_t s, l;
   void *v;

   /* [0, 1) */
   ck_assert_int_eq(mp_rangemap_insert(m, 0, 1, val(1)), 0);
   ck_assert_int_eq(mp_rangemap_lookup(m, 0, &s, &l, &v), 1);
   ck_assert_uint_eq(s, 0);
   ck_assert_uint_eq(l, 1);
   ck_assert_ptr_eq(v, val(1));
   ck_assert_int_eq(mp_rangemap_lookup(m, 1, NULL, NULL, NULL), 0);

   /* A range whose last byte is 2^64-1, i.e. ending exactly at 2^64. */
   ck_assert_int_eq(mp_rangemap_insert(m, UINT64_MAX - 15, 16, val(2)), 0);
   ck_assert_int_eq(mp_rangemap_lookup(m, UINT64_MAX, &s, &l, &v), 1);
   ck_assert_uint_eq(s, UINT64_MAX - 15);
   ck_assert_uint_eq(l, 16);
   ck_assert_ptr_eq(v, val(2));
   ck_assert_int_eq(mp_rangemap_lookup(m, UINT64_MAX - 15, NULL, NULL,
                                       NULL), 1);
   ck_assert_int_eq(mp_rangemap_lookup(m, UINT64_MAX - 16, NULL, NULL,
                                       NULL), 0);
   /* One byte more would wrap. */
   ck_assert_int_eq(mp_rangemap_insert(m, UINT64_MAX - 16, 18, val(3)), -1);
   ck_assert_int_eq(mp_rangemap_insert(m, UINT64_MAX - 16, 1, val(3)), 0);
   ck_assert_int_eq(mp_rangemap_remove(m, UINT64_MAX - 15, &l, &v), 1);
   ck_assert_uint_eq(l, 16);
   ck_assert_ptr_eq(v, val(2));
   ck_assert_int_eq(mp_rangemap_check(m), 1);
   mp_rangemap_free(m);

   /* The largest expressible ranges: [0, 2^64-1) and [1, 2^64). */
   m = mp_rangemap_new();
   ck_assert_int_eq(mp_rangemap_insert(m, 0, UINT64_MAX, val(4)), 0);
   ck_assert_int_eq(mp_rangemap_lookup(m, UINT64_MAX - 1, &s, NULL, NULL),
                    1);
   ck_assert_uint_eq(s, 0);
   ck_assert_int_eq(mp_rangemap_lookup(m, UINT64_MAX, NULL, NULL, NULL), 0);
   ck_assert_int_eq(mp_rangemap_insert(m, UINT64_MAX, 1, val(5)), 0);
   ck_assert_int_eq(mp_rangemap_lookup(m, UINT64_MAX, &s, NULL, NULL), 1);
   ck_assert_uint_eq(s, UINT64_MAX);
   ck_assert_int_eq(mp_rangemap_remove(m, 0, NULL, NULL), 1);
   ck_assert_int_eq(mp_rangemap_remove(m, UINT64_MAX, NULL, NULL), 1);
   ck_assert_int_eq(mp_rangemap_insert(m, 1, UINT64_MAX, val(6)), 0);
   ck_assert_int_eq(mp_rangemap_lookup(m, UINT64_MAX, &s, &l, NULL), 1);
   ck_assert_uint_eq(s, 1);
   ck_assert_uint_eq(l, UINT64_MAX);
   ck_assert_int_eq(mp_rangemap_lookup(m, 0, NULL, NULL, NULL), 0);
   ck_assert_int_eq(mp_rangemap_insert(m, 0, 1, val(7)), 0);
   ck_assert_int_eq(mp_rangemap_insert(m, 0, 2, val(7)), -1);
   ck_assert_int_eq(mp_rangemap_check(m), 1);
   mp_rangemap_free(m);
}
END_TEST

START_TEST(test_adjacent_and_boundaries)
{
   mp_rangemap *m = mp_rangemap_new();
   uint64_t s, l;
   void *v;

   ck_assert_int_eq(mp_rangemap_insert(m, 100, 10, val(1)), 0);
   ck_assert_int_eq(mp_rangemap_insert(m, 110, 10, val(2)), 0);
   ck_assert_int_eq(mp_rangemap_insert(m, 90, 10, val(3)), 0);
   ck_assert_uint_eq(mp_rangemap_count(m), 3);

   ck_assert_int_eq(mp_rangemap_lookup(m, 89, NULL, NULL, NULL), 0);
   ck_assert_int_eq(mp_rangemap_lookup(m, 90, &s, NULL, &v), 1);
   ck_assert_uint_eq(s, 90);
   ck_assert_ptr_eq(v, val(3));
   ck_assert_int_eq(mp_rangemap_lookup(m, 99, &s, NULL, NULL), 1);
   ck_assert_uint_eq(s, 90);
   /* start, start+len-1, start+len */
   ck_assert_int_eq(mp_rangemap_lookup(m, 100, &s, &l, &v), 1);
   ck_assert_uint_eq(s, 100);
   ck_assert_uint_eq(l, 10);
   ck_assert_ptr_eq(v, val(1));
   ck_assert_int_eq(mp_rangemap_lookup(m, 109, &s, NULL, NULL), 1);
   ck_assert_uint_eq(s, 100);
   ck_assert_int_eq(mp_rangemap_lookup(m, 110, &s, NULL, &v), 1);
   ck_assert_uint_eq(s, 110);
   ck_assert_ptr_eq(v, val(2));
   ck_assert_int_eq(mp_rangemap_lookup(m, 119, &s, NULL, NULL), 1);
   ck_assert_uint_eq(s, 110);
   ck_assert_int_eq(mp_rangemap_lookup(m, 120, NULL, NULL, NULL), 0);

   /* Removing the middle one opens a gap, not a merge. */
   ck_assert_int_eq(mp_rangemap_remove(m, 100, &l, &v), 1);
   ck_assert_uint_eq(l, 10);
   ck_assert_ptr_eq(v, val(1));
   ck_assert_int_eq(mp_rangemap_lookup(m, 100, NULL, NULL, NULL), 0);
   ck_assert_int_eq(mp_rangemap_lookup(m, 109, NULL, NULL, NULL), 0);
   ck_assert_int_eq(mp_rangemap_lookup(m, 99, NULL, NULL, NULL), 1);
   ck_assert_int_eq(mp_rangemap_lookup(m, 110, NULL, NULL, NULL), 1);
   /* ...and the gap is exactly reusable. */
   ck_assert_int_eq(mp_rangemap_insert(m, 100, 11, val(4)), -1);
   ck_assert_int_eq(mp_rangemap_insert(m, 99, 11, val(4)), -1);
   ck_assert_int_eq(mp_rangemap_insert(m, 100, 10, val(4)), 0);
   ck_assert_int_eq(mp_rangemap_check(m), 1);
   mp_rangemap_free(m);
}
END_TEST

START_TEST(test_overlap_rejected)
{
   static const struct { uint64_t start, len; } bad[] = {
      { 100, 100 },              /* identical */
      { 100, 1 },                /* same start, shorter */
      { 150, 10 },               /* inside */
      { 50, 51 },                /* covers the first byte */
      { 199, 100 },              /* covers the last byte */
      { 50, 300 },               /* encloses */
      { 0, UINT64_MAX },         /* encloses everything */
   };
   mp_rangemap *m = mp_rangemap_new();
   ref_map rm;
   size_t i;

   ref_init(&rm);
   ck_assert_int_eq(mp_rangemap_insert(m, 100, 100, val(1)), 0);
   ck_assert_int_eq(ref_insert(&rm, 100, 100, val(1)), 0);
   for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
      ck_assert_int_eq(mp_rangemap_insert(m, bad[i].start, bad[i].len,
                                          val(9)), -1);
      ck_assert_int_eq(ref_insert(&rm, bad[i].start, bad[i].len, val(9)),
                       -1);
      ck_assert_uint_eq(compare_with_ref(m, &rm), 0);
   }
   /* Touching on either side is not overlapping. */
   ck_assert_int_eq(mp_rangemap_insert(m, 200, 100, val(2)), 0);
   ck_assert_int_eq(mp_rangemap_insert(m, 50, 50, val(3)), 0);
   ck_assert_uint_eq(mp_rangemap_count(m), 3);
   /* Between two neighbours, overlapping only the right one. */
   ck_assert_int_eq(mp_rangemap_remove(m, 100, NULL, NULL), 1);
   ck_assert_int_eq(mp_rangemap_insert(m, 150, 51, val(4)), -1);
   ck_assert_int_eq(mp_rangemap_insert(m, 99, 2, val(4)), -1);
   ck_assert_int_eq(mp_rangemap_insert(m, 100, 100, val(4)), 0);
   ck_assert_int_eq(mp_rangemap_check(m), 1);
   ref_fini(&rm);
   mp_rangemap_free(m);
}
END_TEST

START_TEST(test_remove_needs_exact_start)
{
   mp_rangemap *m = mp_rangemap_new();
   uint64_t l = 42;
   void *v = val(42);

   ck_assert_int_eq(mp_rangemap_insert(m, 1000, 64, val(1)), 0);
   ck_assert_int_eq(mp_rangemap_remove(m, 1001, &l, &v), 0);
   ck_assert_int_eq(mp_rangemap_remove(m, 999, &l, &v), 0);
   ck_assert_uint_eq(l, 42);
   ck_assert_ptr_eq(v, val(42));
   ck_assert_uint_eq(mp_rangemap_count(m), 1);
   ck_assert_int_eq(mp_rangemap_remove(m, 1000, NULL, &v), 1);
   ck_assert_ptr_eq(v, val(1));
   ck_assert_int_eq(mp_rangemap_remove(m, 1000, &l, &v), 0);
   ck_assert_uint_eq(mp_rangemap_count(m), 0);
   mp_rangemap_free(m);
}
END_TEST

static int stop_after_3(uint64_t start, uint64_t len, void *value,
                        void *arg)
{
   uint64_t *seen = arg;
   (void)len;
   (void)value;
   seen[seen[0] + 1] = start;
   seen[0]++;
   return seen[0] == 3;
}

START_TEST(test_foreach_order_and_stop)
{
   mp_rangemap *m = mp_rangemap_new();
   uint64_t seen[11] = { 0 };
   uint64_t i;

   for (i = 0; i < 10; i++)      /* insert out of order */
      ck_assert_int_eq(mp_rangemap_insert(m, ((i * 7) % 10) * 100, 10,
                                          val(i)), 0);
   mp_rangemap_foreach(m, stop_after_3, seen);
   ck_assert_uint_eq(seen[0], 3);
   ck_assert_uint_eq(seen[1], 0);
   ck_assert_uint_eq(seen[2], 100);
   ck_assert_uint_eq(seen[3], 200);
   mp_rangemap_free(m);
}
END_TEST

/*------------------------------------------------------------*/
/*--- The comparison can fail                              ---*/
/*------------------------------------------------------------*/

START_TEST(test_comparison_detects_mismatch)
{
   mp_rangemap *m = mp_rangemap_new();
   ref_map rm;
   uint64_t i;

   ref_init(&rm);
   for (i = 0; i < 100; i++) {
      ck_assert_int_eq(mp_rangemap_insert(m, i * 100, 50, val(i)), 0);
      ck_assert_int_eq(ref_insert(&rm, i * 100, 50, val(i)), 0);
   }
   ck_assert_uint_eq(compare_with_ref(m, &rm), 0);

   /* Corrupt only the reference, three ways; each must be noticed. */
   rm.r[37].len = 51;
   ck_assert_uint_ne(compare_with_ref(m, &rm), 0);
   rm.r[37].len = 50;
   ck_assert_uint_eq(compare_with_ref(m, &rm), 0);

   rm.r[12].value = val(999);
   ck_assert_uint_ne(compare_with_ref(m, &rm), 0);
   rm.r[12].value = val(12);

   rm.n--;                       /* forget the last range */
   ck_assert_uint_ne(compare_with_ref(m, &rm), 0);

   ref_fini(&rm);
   mp_rangemap_free(m);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Random operations against the reference              ---*/
/*------------------------------------------------------------*/

/* Two small windows, at the bottom and the top of the address space,
   so ranges collide often and the 2^64 edge is exercised. */
static uint64_t random_addr(void)
{
   uint64_t off = rng_next() % 65536;
   return (rng_next() & 1) ? off : UINT64_MAX - off;
}

static uint64_t random_len(void)
{
   uint64_t r = rng_next() % 100;
   if (r == 0)
      return 0;                  /* invalid */
   if (r == 1)
      return UINT64_MAX - rng_next() % 4;  /* wraps, or nearly */
   if (r < 10)
      return 1 + rng_next() % 4096;
   return 1 + rng_next() % 64;
}

START_TEST(test_random_vs_reference)
{
   const uint64_t n_ops = 300000;
   mp_rangemap *m = mp_rangemap_new();
   ref_map rm;
   uint64_t op, inserts_ok = 0, inserts_rejected = 0, removes_ok = 0;
   uint64_t lookups_hit = 0, overlaps_hit = 0;
   double t0 = now_seconds();

   rng_seed(0x6d656d70726f66ULL);
   ref_init(&rm);
   for (op = 0; op < n_ops; op++) {
      /* Alternate filling and draining phases so the map is seen at
         many sizes and fill levels. */
      unsigned insert_pct = (op / 25000) % 2 ? 30 : 60;
      unsigned r = (unsigned)(rng_next() % 100);

      if (r < insert_pct) {
         uint64_t s = random_addr(), l = random_len();
         int got = mp_rangemap_insert(m, s, l, val(op));
         int want = ref_insert(&rm, s, l, val(op));
         REQUIRE(got == want);
         if (got == 0)
            inserts_ok++;
         else
            inserts_rejected++;
      } else if (r < insert_pct + 25) {
         uint64_t s, gl = 0, wl = 0;
         void *gv = NULL, *wv = NULL;
         int got, want;
         if (rm.n && (rng_next() & 1))
            s = rm.r[rng_next() % rm.n].start;
         else
            s = random_addr();
         got = mp_rangemap_remove(m, s, &gl, &gv);
         want = ref_remove(&rm, s, &wl, &wv);
         REQUIRE(got == want);
         if (got) {
            REQUIRE(gl == wl);
            REQUIRE(gv == wv);
            removes_ok++;
         }
      } else {
         uint64_t a = random_addr(), s = 0, l = 0;
         void *v = NULL;
         const ref_range *want = ref_lookup(&rm, a);
         int got = mp_rangemap_lookup(m, a, &s, &l, &v);
         /* an interval query around a, of a random width */
         uint64_t w = random_len(), last = a + w < a ? UINT64_MAX : a + w;
         int ov = mp_rangemap_overlaps(m, a, last);
         REQUIRE(ov == ref_overlaps(&rm, a, last));
         overlaps_hit += ov;
         REQUIRE(got == (want != NULL));
         if (want) {
            REQUIRE(s == want->start);
            REQUIRE(l == want->len);
            REQUIRE(v == want->value);
            lookups_hit++;
         }
      }
      REQUIRE(mp_rangemap_count(m) == rm.n);
      if (op % 5000 == 4999) {
         REQUIRE(mp_rangemap_check(m) == 1);
         REQUIRE(compare_with_ref(m, &rm) == 0);
      }
   }
   REQUIRE(mp_rangemap_check(m) == 1);
   REQUIRE(compare_with_ref(m, &rm) == 0);
   /* The mix must really have exercised every outcome. */
   REQUIRE(inserts_ok > 10000);
   REQUIRE(inserts_rejected > 10000);
   REQUIRE(removes_ok > 10000);
   REQUIRE(lookups_hit > 1000);
   REQUIRE(overlaps_hit > lookups_hit);
   printf("rangemap random: %llu ops (%llu inserts ok, %llu rejected, "
          "%llu removes, %llu lookup hits) in %.2f s\n",
          (unsigned long long)n_ops, (unsigned long long)inserts_ok,
          (unsigned long long)inserts_rejected,
          (unsigned long long)removes_ok, (unsigned long long)lookups_hit,
          now_seconds() - t0);
   ref_fini(&rm);
   mp_rangemap_free(m);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Scale                                                ---*/
/*------------------------------------------------------------*/

#define N_BIG 1000000

/* A heap-like pattern: 1M ascending blocks (the worst order for an
   unbalanced tree), looked up, then freed in random order. */
START_TEST(test_million_inserts_then_removes)
{
   mp_rangemap *m = mp_rangemap_new();
   uint64_t *order = malloc(N_BIG * sizeof(uint64_t));
   const uint64_t base = 0x4000000ULL;
   double t0, t_ins, t_look, t_rem;
   uint64_t i;

   t0 = now_seconds();
   for (i = 0; i < N_BIG; i++)
      REQUIRE(mp_rangemap_insert(m, base + i * 48, 40, val(i)) == 0);
   t_ins = now_seconds() - t0;
   REQUIRE(mp_rangemap_count(m) == N_BIG);
   REQUIRE(mp_rangemap_check(m) == 1);

   t0 = now_seconds();
   for (i = 0; i < N_BIG; i++) {
      void *v;
      uint64_t s;
      REQUIRE(mp_rangemap_lookup(m, base + i * 48 + 39, &s, NULL, &v)
              == 1);
      REQUIRE(v == val(i));
      /* The 8-byte gap after each block belongs to nobody. */
      REQUIRE(mp_rangemap_lookup(m, base + i * 48 + 40, NULL, NULL, NULL)
              == 0);
   }
   t_look = now_seconds() - t0;

   rng_seed(12345);
   for (i = 0; i < N_BIG; i++)
      order[i] = i;
   for (i = N_BIG - 1; i > 0; i--) {
      uint64_t k = rng_next() % (i + 1), t = order[i];
      order[i] = order[k];
      order[k] = t;
   }
   t0 = now_seconds();
   for (i = 0; i < N_BIG; i++) {
      uint64_t l;
      void *v;
      REQUIRE(mp_rangemap_remove(m, base + order[i] * 48, &l, &v) == 1);
      REQUIRE(v == val(order[i]));
   }
   t_rem = now_seconds() - t0;
   REQUIRE(mp_rangemap_count(m) == 0);
   REQUIRE(mp_rangemap_check(m) == 1);

   printf("rangemap 1M: insert %.3f s, 2M lookups %.3f s, "
          "remove %.3f s\n", t_ins, t_look, t_rem);
   /* Generous: catches an accidental O(n) per operation, not noise. */
   ck_assert(t_ins + t_rem < 20.0);
   free(order);
   mp_rangemap_free(m);
}
END_TEST

/* Malloc/free churn around a steady live set reuses spare nodes. */
START_TEST(test_churn)
{
   enum { LIVE = 4096 };
   mp_rangemap *m = mp_rangemap_new();
   uint64_t slot[LIVE];
   double t0 = now_seconds();
   uint64_t i, next = 0;

   for (i = 0; i < LIVE; i++) {
      slot[i] = next;
      REQUIRE(mp_rangemap_insert(m, next * 32, 16, val(next)) == 0);
      next++;
   }
   rng_seed(99);
   for (i = 0; i < N_BIG; i++) {
      uint64_t k = rng_next() % LIVE;
      void *v;
      REQUIRE(mp_rangemap_remove(m, slot[k] * 32, NULL, &v) == 1);
      REQUIRE(v == val(slot[k]));
      slot[k] = next;
      REQUIRE(mp_rangemap_insert(m, next * 32, 16, val(next)) == 0);
      next++;
   }
   REQUIRE(mp_rangemap_count(m) == LIVE);
   REQUIRE(mp_rangemap_check(m) == 1);
   printf("rangemap churn: 1M remove+insert pairs at %d live in %.3f s\n",
          LIVE, now_seconds() - t0);
   mp_rangemap_free(m);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Driver                                               ---*/
/*------------------------------------------------------------*/

static Suite *rangemap_suite(void)
{
   Suite *s = suite_create("mp_rangemap");
   TCase *edge = tcase_create("edges");
   TCase *ref = tcase_create("reference");
   TCase *big = tcase_create("scale");

   tcase_add_test(edge, test_empty);
   tcase_add_test(edge, test_bad_lengths);
   tcase_add_test(edge, test_address_space_ends);
   tcase_add_test(edge, test_adjacent_and_boundaries);
   tcase_add_test(edge, test_overlap_rejected);
   tcase_add_test(edge, test_remove_needs_exact_start);
   tcase_add_test(edge, test_foreach_order_and_stop);
   suite_add_tcase(s, edge);

   tcase_add_test(ref, test_comparison_detects_mismatch);
   tcase_add_test(ref, test_random_vs_reference);
   tcase_set_timeout(ref, 120);
   suite_add_tcase(s, ref);

   tcase_add_test(big, test_million_inserts_then_removes);
   tcase_add_test(big, test_churn);
   tcase_set_timeout(big, 120);
   suite_add_tcase(s, big);
   return s;
}

int main(void)
{
   SRunner *sr = srunner_create(rangemap_suite());
   int failed;

   srunner_run_all(sr, CK_NORMAL);
   failed = srunner_ntests_failed(sr);
   srunner_free(sr);
   return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*--------------------------------------------------------------------*/
/*--- end                                            test_rangemap.c ---*/
/*--------------------------------------------------------------------*/
