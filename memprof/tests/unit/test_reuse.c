/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_reuse against a brute-force reference that keeps the
   whole trace and answers each access by walking back through it: the
   thread's previous access to the line, any write by another thread in
   between, the group's previous access, and the distinct lines in
   between counted one by one.  O(n^2), no shared code with the engine.
   Also: MACPO's Table II and III, the written-by-another rule by hand,
   cold counts, bounded memory over long runs, the error of each
   sampling mode against exact (printed), bins, and the cost per access
   (printed; MP_REUSE_BENCH=1 runs the full 10M accesses). */
#include "mp_test.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mp_reuse.h"

/*------------------------------------------------------------*/
/*--- Traces                                               ---*/
/*------------------------------------------------------------*/

typedef struct {
   uint32_t *tid, *grp, *x;   /* x: the line's index, 0..footprint-1 */
   uint64_t *line;            /* what the engine sees */
   uint8_t *w;
   uint32_t n, cap, footprint;
} trace;

static void trace_init(trace *t, uint32_t cap, uint32_t footprint)
{
   t->tid = calloc(cap, sizeof *t->tid);
   t->grp = calloc(cap, sizeof *t->grp);
   t->x = calloc(cap, sizeof *t->x);
   t->line = calloc(cap, sizeof *t->line);
   t->w = calloc(cap, 1);
   t->n = 0;
   t->cap = cap;
   t->footprint = footprint;
}

static void trace_fini(trace *t)
{
   free(t->tid);
   free(t->grp);
   free(t->x);
   free(t->line);
   free(t->w);
}

static void trace_add(trace *t, uint32_t tid, uint32_t grp, uint32_t x, int w)
{
   /* no ck_assert per access: each one is a message to Check's runner */
   if (t->n >= t->cap || x >= t->footprint)
      ck_abort_msg("trace overflow");
   t->tid[t->n] = tid;
   t->grp[t->n] = grp;
   t->x[t->n] = x;
   t->line[t->n] = 0x7f0000001ull + x;
   t->w[t->n] = (uint8_t)w;
   t->n++;
}

/* Renames the lines: x becomes base + x * step.  Consecutive lines
   share a block in the engine's tables; other names give SHARDS another
   sample. */
static void relabel(trace *t, uint64_t base, uint64_t step)
{
   uint32_t i;
   for (i = 0; i < t->n; i++)
      t->line[i] = base + t->x[i] * step;
}

static double rng01(void) { return (double)(rng() >> 11) / 9007199254740992.0; }

typedef struct {
   uint32_t threads, groups, footprint, n;
   double writes;      /* fraction of writes */
   double local;       /* fraction drawn from the thread's recent lines */
   double migrate;     /* per access: a thread moves to another group */
   int stagger;        /* thread k starts after k * n / (2 * threads) accesses */
} gen_cfg;

/* Threads run in bursts of 1..64 accesses (as Valgrind schedules them);
   thread k has tid 3k+1 (sparse ids) and starts in group k % groups. */
static void generate(trace *t, const gen_cfg *g)
{
   uint32_t recent[16][8] = { { 0 } }, grp_of[16], k, burst = 0, cur = 0;
   ck_assert_uint_le(g->threads, 16);
   for (k = 0; k < g->threads; k++) {
      grp_of[k] = k % g->groups;
      for (uint32_t j = 0; j < 8; j++)
         recent[k][j] = (uint32_t)(rng() % g->footprint);
   }
   trace_init(t, g->n, g->footprint);
   while (t->n < g->n) {
      uint32_t x;
      if (burst == 0) {
         uint32_t started = g->stagger ? 1 + t->n / (g->n / (2 * g->threads)) : g->threads;
         cur = (uint32_t)(rng() % (started < g->threads ? started : g->threads));
         burst = 1 + (uint32_t)(rng() % 64);
      }
      burst--;
      if (rng01() < g->migrate)
         grp_of[cur] = (grp_of[cur] + 1) % g->groups;
      x = rng01() < g->local ? recent[cur][rng() % 8] : (uint32_t)(rng() % g->footprint);
      recent[cur][rng() % 8] = x;
      trace_add(t, 3 * cur + 1, grp_of[cur], x, rng01() < g->writes);
   }
}

/*------------------------------------------------------------*/
/*--- The brute-force reference                            ---*/
/*------------------------------------------------------------*/

static uint32_t *seen;
static uint32_t seen_epoch;

/* Distinct lines among accesses (from, to) of the trace whose tid (or
   grp, when by_group) matches access 'to'. */
static uint64_t distinct_between(const trace *t, long from, uint32_t to, int by_group)
{
   uint64_t n = 0;
   long k;
   seen_epoch++;
   for (k = from + 1; k < (long)to; k++) {
      if (by_group ? t->grp[k] != t->grp[to] : t->tid[k] != t->tid[to])
         continue;
      if (seen[t->x[k]] != seen_epoch) {
         seen[t->x[k]] = seen_epoch;
         n++;
      }
   }
   return n;
}

/* 'broken' forgets the written-by-another rule: used once to show that
   the comparison can fail. */
static int ref_access(const trace *t, uint32_t i, uint64_t *dist, int broken)
{
   long j, k, jg;
   int written = 0;
   for (j = (long)i - 1; j >= 0; j--)
      if (t->tid[j] == t->tid[i] && t->x[j] == t->x[i])
         break;
   for (k = j + 1; j >= 0 && k < (long)i; k++)
      if (t->x[k] == t->x[i] && t->w[k] && t->tid[k] != t->tid[i])
         written = 1;
   if (j >= 0 && (!written || broken)) {
      *dist = distinct_between(t, j, i, 0);
      return MP_REUSE_PRIVATE;
   }
   for (jg = (long)i - 1; jg >= 0; jg--)
      if (t->grp[jg] == t->grp[i] && t->x[jg] == t->x[i])
         break;
   if (jg >= 0) {
      *dist = distinct_between(t, jg, i, 1);
      return MP_REUSE_SHARED;
   }
   *dist = 0;
   return MP_REUSE_COLD;
}

typedef struct {
   uint32_t mismatches, kinds[4];
} compare_result;

/* Feeds the trace to a fresh exact engine and to the reference; counts
   the accesses where kind or distance differ.  Before each access the
   engine is asked to prefetch other records (a line further on in the
   trace, of another thread; a thread it has never seen), which must
   change nothing. */
static compare_result compare(const trace *t, int broken)
{
   mp_reuse_cfg cfg = { 4, MP_REUSE_EXACT, 0, 0, 0, 0 };
   const char *err = NULL;
   mp_reuse *r = mp_reuse_new(&cfg, &err);
   compare_result res = { 0, { 0 } };
   uint32_t i;
   ck_assert_ptr_nonnull(r);
   seen = calloc(t->footprint, sizeof *seen);
   seen_epoch = 0;
   for (i = 0; i < t->n; i++) {
      uint64_t d, rd;
      int kind;
      mp_reuse_prefetch(r, t->tid[(i * 7 + 3) % t->n], t->line[(i * 13 + 5) % t->n]);
      mp_reuse_prefetch(r, 1000 + i % 3, t->line[i]);
      kind = mp_reuse_access(r, t->tid[i], t->grp[i], t->line[i], t->w[i], &d);
      int rkind = ref_access(t, i, &rd, broken);
      res.kinds[kind]++;
      if (kind != rkind || d != rd) {
         if (res.mismatches < 3 && !broken)
            fprintf(stderr, "access %u (tid %u grp %u x %u w %u): engine %d/%llu, reference %d/%llu\n",
                    i, t->tid[i], t->grp[i], t->x[i], t->w[i], kind,
                    (unsigned long long)d, rkind, (unsigned long long)rd);
         res.mismatches++;
      }
   }
   free(seen);
   mp_reuse_free(r);
   return res;
}

/*------------------------------------------------------------*/
/*--- Exact mode against the reference                     ---*/
/*------------------------------------------------------------*/

static const gen_cfg random_cfgs[] = {
   /* threads groups footprint n     writes local migrate stagger */
   { 1, 1,   40,  20000, 0.3, 0.5, 0,     0 },  /* one thread: the solo path */
   { 1, 1, 3000,  20000, 0.3, 0.2, 0,     0 },  /* long distances: the Fenwick path */
   { 4, 1,   60,  20000, 0.0, 0.5, 0,     0 },  /* reads only: never written */
   { 4, 1,  100,  20000, 0.3, 0.5, 0,     0 },
   { 4, 2,  100,  20000, 0.3, 0.5, 0,     0 },
   { 5, 2, 2000,  20000, 0.2, 0.3, 0,     0 },
   { 8, 3,  400,  20000, 0.5, 0.5, 0,     0 },
   { 3, 3,  200,  20000, 0.3, 0.5, 0,     0 },  /* a thread per group: solo groups */
   { 4, 2,  150,  20000, 0.3, 0.5, 0.002, 0 },  /* threads move between groups */
   { 2, 2,   30,  20000, 0.9, 0.3, 0.01,  0 },
   { 4, 1,  300,  20000, 0.3, 0.5, 0,     1 },  /* late threads join a solo group */
   { 6, 3, 1000,  20000, 0.3, 0.3, 0,     1 },
};
#define N_RANDOM (sizeof random_cfgs / sizeof random_cfgs[0])

START_TEST(test_random_traces)
{
   trace t;
   compare_result res;
   rng_state = 0x9e3779b97f4a7c15ull + (uint64_t)_i;
   generate(&t, &random_cfgs[_i]);
   if (_i % 2)
      relabel(&t, 1ull << 40, 97);
   res = compare(&t, 0);
   printf("reuse random %u: %u threads, %u groups, %u lines, %u accesses: "
          "cold %u private %u shared %u, %u mismatches\n",
          (unsigned)_i, random_cfgs[_i].threads, random_cfgs[_i].groups,
          random_cfgs[_i].footprint, t.n, res.kinds[MP_REUSE_COLD],
          res.kinds[MP_REUSE_PRIVATE], res.kinds[MP_REUSE_SHARED], res.mismatches);
   ck_assert_uint_eq(res.mismatches, 0);
   ck_assert_uint_eq(res.kinds[MP_REUSE_SKIPPED], 0);
   if (random_cfgs[_i].threads > 1)
      ck_assert_uint_gt(res.kinds[MP_REUSE_SHARED], 0);
   trace_fini(&t);
}
END_TEST

START_TEST(test_mismatch_is_detected)
{
   gen_cfg g = { 4, 1, 100, 5000, 0.3, 0.5, 0, 0 };
   trace t;
   rng_state = 12345;
   generate(&t, &g);
   ck_assert_uint_gt(compare(&t, 1).mismatches, 0);
   ck_assert_uint_eq(compare(&t, 0).mismatches, 0);
   trace_fini(&t);
}
END_TEST

/* Cold accesses are the first touches of each line in each group (when
   threads stay in their group). */
START_TEST(test_cold_counts)
{
   gen_cfg g = { 6, 3, 500, 20000, 0.3, 0.2, 0, 1 };
   mp_reuse_cfg cfg = { 0, MP_REUSE_EXACT, 0, 0, 0, 0 };
   const char *err;
   mp_reuse *r = mp_reuse_new(&cfg, &err);
   uint8_t touched[3][500];
   uint32_t i, cold = 0, firsts = 0;
   trace t;
   memset(touched, 0, sizeof touched);
   rng_state = 777;
   generate(&t, &g);
   for (i = 0; i < t.n; i++) {
      uint64_t d;
      if (mp_reuse_access(r, t.tid[i], t.grp[i], t.line[i], t.w[i], &d) == MP_REUSE_COLD)
         cold++;
      if (!touched[t.grp[i]][t.x[i]]) {
         touched[t.grp[i]][t.x[i]] = 1;
         firsts++;
      }
   }
   ck_assert_uint_eq(cold, firsts);
   ck_assert_uint_gt(cold, 500);   /* lines are cold once per group */
   trace_fini(&t);
   mp_reuse_free(r);
}
END_TEST

/*------------------------------------------------------------*/
/*--- By hand                                              ---*/
/*------------------------------------------------------------*/

static mp_reuse *exact(void)
{
   mp_reuse_cfg cfg = { 0, MP_REUSE_EXACT, 0, 0, 0, 0 };
   const char *err = NULL;
   mp_reuse *r = mp_reuse_new(&cfg, &err);
   ck_assert_ptr_nonnull(r);
   return r;
}

#define EXPECT(r, tid, grp, line, w, kind, dist) do {                       \
      uint64_t d_ = 99;                                                     \
      ck_assert_int_eq(mp_reuse_access(r, tid, grp, line, w, &d_), kind);   \
      ck_assert_uint_eq(d_, dist);                                          \
   } while (0)

/* MACPO's lines a, b, c, d, e */
enum { LINE_A, LINE_B, LINE_C, LINE_D, LINE_E };

/* The first six accesses of MACPO Tables II and III: a b c b d e on
   cores 1 2 1 2 2 1, one L2 shared by both cores. */
static void macpo_prefix(mp_reuse *r)
{
   EXPECT(r, 1, 0, LINE_A, 0, MP_REUSE_COLD, 0);
   EXPECT(r, 2, 0, LINE_B, 0, MP_REUSE_COLD, 0);
   EXPECT(r, 1, 0, LINE_C, 0, MP_REUSE_COLD, 0);
   EXPECT(r, 2, 0, LINE_B, 0, MP_REUSE_PRIVATE, 0);
   EXPECT(r, 2, 0, LINE_D, 0, MP_REUSE_COLD, 0);
   EXPECT(r, 1, 0, LINE_E, 0, MP_REUSE_COLD, 0);
}

/* MACPO Table II: then 'a' on core 1: private, c and e in between. */
START_TEST(test_macpo_table_2)
{
   mp_reuse *r = exact();
   macpo_prefix(r);
   EXPECT(r, 1, 0, LINE_A, 0, MP_REUSE_PRIVATE, 2);
   mp_reuse_free(r);
}
END_TEST

/* MACPO Table III: the last 'a' on core 2, which never touched it: it
   comes from the shared L2, after b c d e in the merged stream. */
START_TEST(test_macpo_table_3)
{
   mp_reuse *r = exact();
   macpo_prefix(r);
   EXPECT(r, 2, 0, LINE_A, 0, MP_REUSE_SHARED, 4);
   mp_reuse_free(r);
}
END_TEST

START_TEST(test_written_by_another)
{
   mp_reuse *r = exact();
   /* reads by another thread keep the reuse private */
   EXPECT(r, 1, 0, 100, 0, MP_REUSE_COLD, 0);
   EXPECT(r, 1, 0, 101, 0, MP_REUSE_COLD, 0);
   EXPECT(r, 2, 0, 100, 0, MP_REUSE_SHARED, 1);    /* 101 in the merged stream */
   EXPECT(r, 1, 0, 100, 0, MP_REUSE_PRIVATE, 1);   /* 101 in its own stream */
   /* its own write too */
   EXPECT(r, 1, 0, 100, 1, MP_REUSE_PRIVATE, 0);
   EXPECT(r, 1, 0, 100, 0, MP_REUSE_PRIVATE, 0);
   /* thread 1's write invalidated thread 2's copy: 2 reloads from the
      merged stream, where 100 was the last line */
   EXPECT(r, 2, 0, 100, 1, MP_REUSE_SHARED, 0);
   /* and 2's write invalidates 1's: measured from the write, 102 only */
   EXPECT(r, 1, 0, 102, 0, MP_REUSE_COLD, 0);
   EXPECT(r, 1, 0, 100, 0, MP_REUSE_SHARED, 1);
   mp_reuse_free(r);
}
END_TEST

START_TEST(test_written_rule_detail)
{
   mp_reuse *r = exact();
   EXPECT(r, 1, 0, 100, 0, MP_REUSE_COLD, 0);
   EXPECT(r, 2, 0, 100, 0, MP_REUSE_SHARED, 0);
   EXPECT(r, 1, 0, 101, 0, MP_REUSE_COLD, 0);
   EXPECT(r, 2, 0, 100, 1, MP_REUSE_PRIVATE, 0);   /* 2's stream: 100 100 */
   EXPECT(r, 1, 0, 102, 0, MP_REUSE_COLD, 0);
   /* 1's copy was invalidated by 2's write; merged stream since that
      write: 102 */
   EXPECT(r, 1, 0, 100, 0, MP_REUSE_SHARED, 1);
   /* now 1 has it again, unwritten since */
   EXPECT(r, 1, 0, 100, 0, MP_REUSE_PRIVATE, 0);
   /* 2's own write was before 1's accesses: 2's copy is still good */
   EXPECT(r, 2, 0, 100, 0, MP_REUSE_PRIVATE, 0);
   /* a write by 1 invalidates 2's copy */
   EXPECT(r, 1, 0, 103, 1, MP_REUSE_COLD, 0);
   EXPECT(r, 1, 0, 100, 1, MP_REUSE_PRIVATE, 1);   /* 1's stream: 103 */
   EXPECT(r, 2, 0, 100, 0, MP_REUSE_SHARED, 0);
   mp_reuse_free(r);
}
END_TEST

/* Groups are independent merged streams: what threads of another group
   did to a line never makes it warm here, but their writes invalidate
   private copies here. */
START_TEST(test_cross_group)
{
   mp_reuse *r = exact();
   EXPECT(r, 1, 0, 100, 1, MP_REUSE_COLD, 0);
   EXPECT(r, 2, 1, 100, 0, MP_REUSE_COLD, 0);      /* cold for group 1 */
   EXPECT(r, 3, 1, 100, 0, MP_REUSE_SHARED, 0);    /* group 1 has it now */
   EXPECT(r, 1, 0, 101, 0, MP_REUSE_COLD, 0);
   EXPECT(r, 1, 0, 100, 0, MP_REUSE_PRIVATE, 1);   /* group 1 only read */
   EXPECT(r, 3, 1, 100, 1, MP_REUSE_PRIVATE, 0);
   EXPECT(r, 1, 0, 102, 0, MP_REUSE_COLD, 0);
   /* 3 (group 1) wrote: 1 reloads through group 0's stream, whose last
      access to 100 was its own: 102 since */
   EXPECT(r, 1, 0, 100, 0, MP_REUSE_SHARED, 1);
   mp_reuse_free(r);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Compaction and bounded memory                        ---*/
/*------------------------------------------------------------*/

/* Many slot renumberings, every result against the reference. */
START_TEST(test_compaction_exact)
{
   gen_cfg g = { 4, 2, 64, 300000, 0.2, 0.5, 0, 0 };
   mp_reuse_cfg cfg = { 0, MP_REUSE_EXACT, 0, 0, 0, 0 };
   const char *err;
   mp_reuse *r = mp_reuse_new(&cfg, &err);
   mp_reuse_stats st;
   uint64_t bytes_early = 0;
   uint32_t i, bad = 0;
   trace t;
   rng_state = 4242;
   generate(&t, &g);
   seen = calloc(t.footprint, sizeof *seen);
   for (i = 0; i < t.n; i++) {
      uint64_t d, rd;
      int kind = mp_reuse_access(r, t.tid[i], t.grp[i], t.line[i], t.w[i], &d);
      if (kind != ref_access(&t, i, &rd, 0) || d != rd)
         bad++;
      if (i == t.n / 10)
         bytes_early = mp_reuse_bytes(r);
   }
   mp_reuse_get_stats(r, &st);
   printf("reuse compaction: %u accesses over 64 lines, %llu compactions, "
          "%llu bytes at 10%%, %llu at the end\n", t.n,
          (unsigned long long)st.compactions, (unsigned long long)bytes_early,
          (unsigned long long)mp_reuse_bytes(r));
   ck_assert_uint_eq(bad, 0);
   ck_assert_uint_gt(st.compactions, 500);
   ck_assert_uint_eq(mp_reuse_bytes(r), bytes_early);
   free(seen);
   trace_fini(&t);
   mp_reuse_free(r);
}
END_TEST

/* A long run over a bounded footprint: memory is flat once every line
   has been seen, whatever the number of accesses. */
START_TEST(test_memory_bounded)
{
   mp_reuse_cfg cfg = { 0, MP_REUSE_EXACT, 0, 0, 0, 0 };
   const char *err;
   mp_reuse *r = mp_reuse_new(&cfg, &err);
   uint64_t i, b1 = 0, n = 8000000, sum = 0;
   rng_state = 99;
   for (i = 0; i < n; i++) {
      uint64_t d;
      uint32_t th = (uint32_t)((i >> 7) % 4);
      mp_reuse_access(r, th, th / 2, rng() % 2000, (i & 7) == 0, &d);
      sum += d;
      if (i == n / 8)
         b1 = mp_reuse_bytes(r);
   }
   printf("reuse memory: %llu accesses over 2000 lines, 4 threads, 2 groups: "
          "%llu bytes after %llu, %llu after all (%.1f bytes per line per stream)\n",
          (unsigned long long)n, (unsigned long long)b1, (unsigned long long)(n / 8),
          (unsigned long long)mp_reuse_bytes(r), (double)mp_reuse_bytes(r) / 2000 / 6);
   ck_assert_uint_eq(mp_reuse_bytes(r), b1);
   ck_assert_uint_lt(mp_reuse_bytes(r), 6 * 2000 * 64);
   ck_assert_uint_gt(sum, 0);
   mp_reuse_free(r);
}
END_TEST

/* A dense footprint costs its pages, about 8 bytes a line: one thread
   sweeping 1M consecutive lines (64 MB of data) three times, whose
   distances are all the footprint less one. */
START_TEST(test_memory_dense)
{
   mp_reuse_cfg cfg = { 0, MP_REUSE_EXACT, 0, 0, 0, 0 };
   const char *err;
   mp_reuse *r = mp_reuse_new(&cfg, &err);
   uint64_t i, lines = 1u << 20, bad = 0;
   double per_line;
   for (i = 0; i < 3 * lines; i++) {
      uint64_t d;
      int kind = mp_reuse_access(r, 1, 0, 0x10000000 + i % lines, 0, &d);
      if (i < lines ? kind != MP_REUSE_COLD : kind != MP_REUSE_PRIVATE || d != lines - 1)
         bad++;
   }
   per_line = (double)mp_reuse_bytes(r) / (double)lines;
   printf("reuse memory: 1M consecutive lines, one thread: %.2f bytes per line\n", per_line);
   ck_assert_uint_eq(bad, 0);
   ck_assert(per_line < 10.0);
   mp_reuse_free(r);
}
END_TEST

/* Threads that finish free their private streams: 300 threads one after
   the other, each touching the same 1000 lines (a buffer each one
   reuses), end with about the memory of one, where keeping them costs
   300 streams; and every reuse comes out the same. */
START_TEST(test_thread_exit)
{
   mp_reuse_cfg cfg = { 0, MP_REUSE_EXACT, 0, 0, 0, 0 };
   const char *err;
   mp_reuse *r = mp_reuse_new(&cfg, &err), *keep = mp_reuse_new(&cfg, &err);
   uint64_t b1 = 0, d, dk;
   uint32_t t, i;
   for (t = 1; t <= 300; t++) {
      for (i = 0; i < 1000; i++) {
         int k = mp_reuse_access(r, t, 0, 100000 + i, 1, &d);
         int kk = mp_reuse_access(keep, t, 0, 100000 + i, 1, &dk);
         /* and a line all of them share, written by the previous one */
         int s1 = mp_reuse_access(r, t, 0, 42, 1, &d);
         int s2 = mp_reuse_access(keep, t, 0, 42, 1, &dk);
         ck_assert_int_eq(k, kk);
         ck_assert_uint_eq(d, dk);
         ck_assert_int_eq(s1, s2);
         ck_assert_uint_eq(d, dk);
      }
      mp_reuse_thread_exit(r, t);
      if (t == 10)
         b1 = mp_reuse_bytes(r);
   }
   /* the group's stream and one thread's worth; the rest are gone */
   ck_assert_uint_lt(mp_reuse_bytes(r), mp_reuse_bytes(keep) / 10);
   ck_assert_uint_le(mp_reuse_bytes(r), 2 * b1);
   mp_reuse_thread_exit(r, 12345);   /* never seen: nothing to do */
   mp_reuse_free(r);
   mp_reuse_free(keep);
}
END_TEST

START_TEST(test_reset)
{
   gen_cfg g = { 3, 2, 80, 5000, 0.3, 0.5, 0, 0 };
   mp_reuse *r = exact();
   uint64_t *d1 = malloc(5000 * sizeof *d1);
   int *k1 = malloc(5000 * sizeof *k1);
   uint32_t i;
   trace t;
   rng_state = 5;
   generate(&t, &g);
   for (i = 0; i < t.n; i++)
      k1[i] = mp_reuse_access(r, t.tid[i], t.grp[i], t.line[i], t.w[i], &d1[i]);
   mp_reuse_reset(r);
   for (i = 0; i < t.n; i++) {
      uint64_t d;
      int kind = mp_reuse_access(r, t.tid[i], t.grp[i], t.line[i], t.w[i], &d);
      if (kind != k1[i] || d != d1[i])
         ck_abort_msg("access %u differs after the reset", i);
   }
   free(d1);
   free(k1);
   trace_fini(&t);
   mp_reuse_free(r);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Sampling error                                       ---*/
/*------------------------------------------------------------*/

#define H_COLD MP_REUSE_N_BINS   /* the histogram's extra bin */

typedef struct { double h[MP_REUSE_N_BINS + 1]; double total; } histo;

/* A workload with all three kinds of reuse: four threads in two
   groups; each sweeps its own 3000-line array, hits a shared 256-line
   hot set (20% writes) and reads a 50000-line shared table at random. */
static void sampling_trace(trace *t, uint32_t n)
{
   uint32_t pos[4] = { 0 }, cur = 0, burst = 0;
   trace_init(t, n, 4 * 3000 + 256 + 50000);
   while (t->n < n) {
      double u = rng01();
      uint32_t x;
      int w = 0;
      if (burst == 0) {
         cur = (cur + 1) % 4;
         burst = 200;
      }
      burst--;
      if (u < 0.5) {
         x = cur * 3000 + pos[cur];
         pos[cur] = (pos[cur] + 1) % 3000;
         w = pos[cur] % 4 == 0;
      } else if (u < 0.85) {
         x = 12000 + (uint32_t)(rng() % 256);
         w = rng01() < 0.2;
      } else {
         x = 12256 + (uint32_t)(rng() % 50000);
      }
      trace_add(t, cur, cur / 2, x, w);
   }
}

static histo run_histo(const trace *t, const mp_reuse_cfg *cfg, double *ns)
{
   const char *err = NULL;
   mp_reuse *r = mp_reuse_new(cfg, &err);
   histo h;
   struct timespec t0, t1;
   double wgt;
   uint32_t i;
   memset(&h, 0, sizeof h);
   ck_assert_ptr_nonnull(r);
   clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
   for (i = 0; i < t->n; i++) {
      uint64_t d;
      int kind = mp_reuse_access(r, t->tid[i], t->grp[i], t->line[i], t->w[i], &d);
      if (kind == MP_REUSE_COLD)
         h.h[H_COLD]++;
      else if (kind != MP_REUSE_SKIPPED)
         h.h[mp_reuse_bin(d)]++;
   }
   clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
   *ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / t->n;
   wgt = mp_reuse_weight(r);
   for (i = 0; i <= MP_REUSE_N_BINS; i++) {
      h.h[i] *= wgt;
      h.total += h.h[i];
   }
   mp_reuse_free(r);
   return h;
}

/* The miss ratio of a fully associative LRU cache of 2^k lines: the
   share of accesses that are cold or at distance >= 2^k. */
static double miss_ratio(const histo *h, uint32_t k)
{
   double m = h->h[H_COLD];
   uint32_t b;
   for (b = k + 1; b < MP_REUSE_N_BINS; b++)
      m += h->h[b];
   return m / h->total;
}

typedef struct { double count_err, hist_err, mrc_mae, ns; } sample_error;

static sample_error errors_of(const histo *h, const histo *ex)
{
   sample_error e = { 0, 0, 0, 0 };
   uint32_t b, k;
   e.count_err = fabs(h->total - ex->total) / ex->total;
   for (b = 0; b <= MP_REUSE_N_BINS; b++)
      e.hist_err += fabs(h->h[b] / h->total - ex->h[b] / ex->total) / 2;
   for (k = 0; k <= 20; k++)
      e.mrc_mae += fabs(miss_ratio(h, k) - miss_ratio(ex, k)) / 21;
   return e;
}

/* The errors of a sampling configuration: the mean (returned) and the
   worst over 'reps' namings of the lines (SHARDS keeps other lines
   under each; the bursty schedule does not depend on names). */
static sample_error measure(trace *t, const histo *ex, const mp_reuse_cfg *cfg,
                            uint32_t reps, const char *name)
{
   sample_error mean = { 0, 0, 0, 0 }, worst = { 0, 0, 0, 0 };
   uint32_t k;
   for (k = 0; k < reps; k++) {
      double ns;
      histo h;
      sample_error e;
      relabel(t, 0x7f0000001ull + k * 0x10000001ull, 1);
      h = run_histo(t, cfg, &ns);
      e = errors_of(&h, ex);
      mean.count_err += e.count_err / reps;
      mean.hist_err += e.hist_err / reps;
      mean.mrc_mae += e.mrc_mae / reps;
      mean.ns += ns / reps;
      worst.count_err = fmax(worst.count_err, e.count_err);
      worst.hist_err = fmax(worst.hist_err, e.hist_err);
      worst.mrc_mae = fmax(worst.mrc_mae, e.mrc_mae);
   }
   printf("reuse sampling %-22s count error %5.2f%% (worst %5.2f%%)  histogram TV %5.2f%% "
          "(%5.2f%%)  MRC MAE %.4f (%.4f)  %5.1f ns/access\n", name,
          100 * mean.count_err, 100 * worst.count_err, 100 * mean.hist_err,
          100 * worst.hist_err, mean.mrc_mae, worst.mrc_mae, mean.ns);
   return mean;
}

/* Errors against exact on one trace: the total count (weighted), the
   total variation distance between the normalised histograms (bins of
   mp_reuse_bin plus cold), and the mean absolute error of the miss
   ratio curve of fully associative LRU caches of 1..2^20 lines (the
   SHARDS paper's measure). */
START_TEST(test_sampling_error)
{
   mp_reuse_cfg cfg = { 4, MP_REUSE_EXACT, 0, 0, 0, 0 };
   trace t;
   histo ex;
   double ns;
   sample_error e;
   rng_state = 2718281828ull;
   sampling_trace(&t, 2000000);
   ex = run_histo(&t, &cfg, &ns);
   printf("reuse sampling exact: %u accesses, 4 threads, 2 groups, %u lines, "
          "%.0f cold, %.1f ns/access\n", t.n, t.footprint, ex.h[H_COLD], ns);

   cfg.mode = MP_REUSE_SHARDS;
   cfg.rate = 0.1;
   /* bounds a little above what was measured: the trace and the
      namings are fixed, so these catch a regression, not noise */
   e = measure(&t, &ex, &cfg, 8, "SHARDS rate 0.1:");
   ck_assert(e.count_err < 0.08 && e.mrc_mae < 0.02);
   cfg.rate = 0.01;
   e = measure(&t, &ex, &cfg, 8, "SHARDS rate 0.01:");
   ck_assert(e.count_err < 0.2 && e.mrc_mae < 0.05);
   cfg.rate = 0.001;
   measure(&t, &ex, &cfg, 8, "SHARDS rate 0.001:");

   cfg.mode = MP_REUSE_BURSTY;
   cfg.window = 100000;
   cfg.max_gap = 400000;
   e = measure(&t, &ex, &cfg, 1, "bursty 100000/400000:");
   ck_assert(e.count_err < 1e-9);   /* the weight is exact for the total */
   ck_assert(e.mrc_mae < 0.03);
   cfg.window = 10000;
   cfg.max_gap = 100000;
   measure(&t, &ex, &cfg, 1, "bursty 10000/100000:");
   cfg.window = 1000;
   cfg.max_gap = 10000;
   measure(&t, &ex, &cfg, 1, "bursty 1000/10000:");
   trace_fini(&t);
}
END_TEST

START_TEST(test_bursty_schedule)
{
   /* window 3, gaps 3*1, 3*2, 3*3, then capped at 10 */
   static const char expect[] = "TTTsssTTTssssssTTTsssssssssTTTssssssssssTTTssssssssssTTT";
   mp_reuse_cfg cfg = { 0, MP_REUSE_BURSTY, 0, 3, 10, 0 };
   const char *err;
   mp_reuse *r = mp_reuse_new(&cfg, &err);
   char got[sizeof expect];
   uint32_t i;
   for (i = 0; i + 1 < sizeof expect; i++) {
      uint64_t d;
      got[i] = mp_reuse_access(r, 0, 0, i % 5, 0, &d) == MP_REUSE_SKIPPED ? 's' : 'T';
   }
   got[i] = 0;
   ck_assert_str_eq(got, expect);
   mp_reuse_free(r);
}
END_TEST

START_TEST(test_shards_scaling)
{
   /* rate 1 is exact; a line kept at a lower rate has its distance
      scaled: a cyclic sweep over 20000 lines gives ~20000 */
   mp_reuse_cfg cfg = { 0, MP_REUSE_SHARDS, 0.05, 0, 0, 0 };
   const char *err;
   mp_reuse *r = mp_reuse_new(&cfg, &err);
   uint64_t d, sum = 0, n = 0, i;
   for (i = 0; i < 60000; i++) {
      int kind = mp_reuse_access(r, 0, 0, i % 20000, 0, &d);
      if (kind == MP_REUSE_PRIVATE) {
         sum += d;
         n++;
      }
   }
   ck_assert_uint_gt(n, 0);
   printf("reuse SHARDS 0.05 on a 20000-line sweep: %llu reuses kept of 40000, "
          "mean distance %.0f (exact 19999), weight %.2f\n",
          (unsigned long long)n, (double)sum / n, mp_reuse_weight(r));
   ck_assert(fabs((double)sum / n - 19999) < 2000);
   ck_assert(fabs(n * mp_reuse_weight(r) - 40000) < 4000);
   mp_reuse_free(r);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Bins, configuration, cost                            ---*/
/*------------------------------------------------------------*/

/* Reference bin: the smallest b with d < 2^b, by a loop. */
static uint32_t ref_bin(uint64_t d)
{
   uint32_t b = 0;
   while (b < 64 && d >= (1ull << b))
      b++;
   return d >= (1ull << 63) ? 64 : b;
}

START_TEST(test_bins)
{
   uint64_t lo, hi, prev_hi = 0;
   uint32_t b, i;
   ck_assert_uint_eq(mp_reuse_bin(0), 0);
   ck_assert_uint_eq(mp_reuse_bin(1), 1);
   ck_assert_uint_eq(mp_reuse_bin(2), 2);
   ck_assert_uint_eq(mp_reuse_bin(3), 2);
   ck_assert_uint_eq(mp_reuse_bin(4), 3);
   ck_assert_uint_eq(mp_reuse_bin(7), 3);
   ck_assert_uint_eq(mp_reuse_bin(8), 4);
   ck_assert_uint_eq(mp_reuse_bin(UINT64_MAX), 64);
   for (b = 0; b < MP_REUSE_N_BINS; b++) {
      mp_reuse_bin_bounds(b, &lo, &hi);
      if (b > 0)
         ck_assert_uint_eq(lo, prev_hi + 1);
      ck_assert_uint_eq(mp_reuse_bin(lo), b);
      ck_assert_uint_eq(mp_reuse_bin(hi), b);
      prev_hi = hi;
   }
   ck_assert_uint_eq(prev_hi, UINT64_MAX);
   rng_state = 31;
   for (i = 0; i < 100000; i++) {
      uint64_t d = rng() >> (rng() % 64);
      if (mp_reuse_bin(d) != ref_bin(d))
         ck_abort_msg("bin of %llu", (unsigned long long)d);
   }
}
END_TEST

START_TEST(test_bad_config)
{
   mp_reuse_cfg cfg = { 0, MP_REUSE_SHARDS, 0, 0, 0, 0 };
   const char *err = NULL;
   ck_assert_ptr_null(mp_reuse_new(&cfg, &err));
   ck_assert_ptr_nonnull(err);
   cfg.rate = 1.5;
   ck_assert_ptr_null(mp_reuse_new(&cfg, &err));
   cfg.rate = NAN;
   ck_assert_ptr_null(mp_reuse_new(&cfg, &err));
   cfg.rate = 1e-12;
   ck_assert_ptr_null(mp_reuse_new(&cfg, &err));
   cfg.mode = MP_REUSE_BURSTY;
   cfg.window = 0;
   ck_assert_ptr_null(mp_reuse_new(&cfg, &err));
   cfg.mode = (mp_reuse_mode)7;
   ck_assert_ptr_null(mp_reuse_new(&cfg, &err));
   cfg.mode = MP_REUSE_EXACT;
   err = NULL;
   {
      mp_reuse *r = mp_reuse_new(&cfg, &err);
      ck_assert_ptr_nonnull(r);
      ck_assert(mp_reuse_weight(r) == 1.0);
      mp_reuse_free(r);
   }
}
END_TEST

/* Tags (mp_reuse_access_tagged): each tagged access leaves its index
   + 1; a PRIVATE reuse must return what the thread's previous tagged
   access to the line left, found by walking back through the trace (0
   if none: untagged accesses, one in three, leave the tag as it was);
   and kinds and distances must be those of an untagged engine fed the
   same trace. */
START_TEST(test_tags)
{
   mp_reuse_cfg cfg = { 4, MP_REUSE_EXACT, 0, 0, 0, 0 }, tcfg = cfg;
   const char *err = NULL;
   mp_reuse *plain, *tagged;
   uint32_t i, j, bad = 0, private_n = 0;
   uint8_t *with_tag;
   trace t;
   tcfg.tags = 1;
   plain = mp_reuse_new(&cfg, &err);
   tagged = mp_reuse_new(&tcfg, &err);
   rng_state = 0x7a65 + (uint64_t)_i;
   generate(&t, &random_cfgs[_i]);
   with_tag = malloc(t.n);
   for (i = 0; i < t.n; i++) {
      uint64_t d, td;
      uint32_t prev = 0xdead, want = 0;
      int kind = mp_reuse_access(plain, t.tid[i], t.grp[i], t.line[i], t.w[i], &d);
      int tkind;
      with_tag[i] = rng() % 3 != 0;
      if (!with_tag[i]) {
         tkind = mp_reuse_access(tagged, t.tid[i], t.grp[i], t.line[i], t.w[i], &td);
         bad += kind != tkind || d != td;
         continue;
      }
      tkind = mp_reuse_access_tagged(tagged, t.tid[i], t.grp[i], t.line[i], t.w[i],
                                     i + 1, &td, &prev);
      bad += kind != tkind || d != td;
      if (tkind != MP_REUSE_PRIVATE)
         continue;
      private_n++;
      for (j = i; j-- > 0;)
         if (with_tag[j] && t.tid[j] == t.tid[i] && t.line[j] == t.line[i]) {
            want = j + 1;
            break;
         }
      bad += prev != want;
   }
   printf("reuse tags %u: %u private reuses, %u mismatches\n", (unsigned)_i,
          private_n, bad);
   ck_assert_uint_gt(private_n, 0);
   ck_assert_uint_eq(bad, 0);
   free(with_tag);
   trace_fini(&t);
   mp_reuse_free(plain);
   mp_reuse_free(tagged);
}
END_TEST

/* Single thread, uniformly random lines and a cyclic sweep; CPU time,
   so that other processes on the machine matter less. */
START_TEST(test_cost_per_access)
{
   const char *env = getenv("MP_REUSE_BENCH");
   uint64_t n = env && *env == '1' ? 10000000 : 1000000, i, sink = 0;
   uint32_t pass;
   for (pass = 0; pass < 2; pass++) {
      mp_reuse *r = exact();
      struct timespec t0, t1;
      double ns;
      rng_state = 1;
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
      for (i = 0; i < n; i++) {
         uint64_t d, line = pass == 0 ? rng() % 100000 : i % 100000;
         mp_reuse_access(r, 0, 0, line, 0, &d);
         sink += d;
      }
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
      ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / n;
      printf("reuse cost: %llu accesses over 100000 lines, %s, one thread: %.1f ns/access, "
             "%llu bytes\n", (unsigned long long)n, pass == 0 ? "random" : "cyclic sweep",
             ns, (unsigned long long)mp_reuse_bytes(r));
      mp_reuse_free(r);
   }
   ck_assert_uint_gt(sink, 0);
}
END_TEST

/* The L1 oracle (mp_an_reuse.h), against an LRU list of the thread's
   lines (most recent first), for accesses of one to three lines in a
   row, asked as the cache asks: mp_reuse_would_hold for each line of
   the access before the access reaches the history (its earlier lines
   counted as accessed just before), then mp_reuse_access for each,
   whose distance (from the question's count, or counted afresh) must
   say the same.  mp_reuse_recent_lines against the same list.  Enough
   accesses for compactions (slots renumbered). */
static int lru_holds(const uint64_t *lru, uint32_t n, uint64_t first, uint64_t line,
                     uint64_t cap)
{
   /* lines [first, line) go in front, in order: the last is the newest */
   uint64_t extra = line - first, pos = 0;
   uint32_t i;
   for (i = 0; i < n; i++) {
      if (lru[i] == line)
         break;
      if (lru[i] < first || lru[i] >= line)
         pos++;
   }
   if (i == n)
      return 0;
   return pos + extra < cap;
}

static void lru_touch(uint64_t *lru, uint32_t *n, uint64_t line)
{
   uint32_t i;
   for (i = 0; i < *n && lru[i] != line; i++)
      ;
   if (i == *n)
      (*n)++;
   memmove(lru + 1, lru, i * sizeof *lru);
   lru[0] = line;
}

START_TEST(test_l1_oracle)
{
   mp_reuse *r = exact();
   uint64_t lru[512], before[512], got[64];
   uint32_t n = 0, i, k, bad = 0;
   rng_state = 1234;
   for (i = 0; i < 60000; i++) {
      uint32_t span = rng() % 8 == 0 ? 2 + (uint32_t)(rng() % 2) : 1;
      uint64_t first = rng() % 3 ? rng() % 40 : rng() % 300, line;
      uint64_t cap = 1 + rng() % 48;
      uint32_t n_before = n;
      memcpy(before, lru, n * sizeof *lru);
      for (line = first; line < first + span; line++)
         bad += mp_reuse_would_hold(r, 1, first, line, cap)
                != lru_holds(before, n_before, first, line, cap);
      for (line = first; line < first + span; line++) {
         uint64_t d;
         int kind = mp_reuse_access(r, 1, 0, line, rng() % 4 == 0, &d);
         int holds = kind != MP_REUSE_COLD && d < cap;
         bad += holds != lru_holds(before, n_before, first, line, cap);
         lru_touch(lru, &n, line);
      }
      if (i % 997 == 0) {
         uint32_t want = 1 + (uint32_t)(rng() % 64);
         uint32_t m = mp_reuse_recent_lines(r, 1, got, want);
         ck_assert_uint_eq(m, want < n ? want : n);
         for (k = 0; k < m; k++)
            bad += got[k] != lru[m - 1 - k];   /* least recent first */
      }
   }
   ck_assert_uint_eq(bad, 0);
   ck_assert_int_eq(mp_reuse_would_hold(r, 2, 5, 5, 10), 0);   /* unknown thread */
   ck_assert_uint_eq(mp_reuse_recent_lines(r, 2, got, 8), 0);
   mp_reuse_free(r);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("reuse");
   TCase *tc = tcase_create("core");
   setvbuf(stdout, NULL, _IOLBF, 0);   /* a failing test's child exits unflushed */
   tcase_set_timeout(tc, 120);
   tcase_add_loop_test(tc, test_random_traces, 0, N_RANDOM);
   tcase_add_test(tc, test_mismatch_is_detected);
   tcase_add_test(tc, test_cold_counts);
   tcase_add_test(tc, test_macpo_table_2);
   tcase_add_test(tc, test_macpo_table_3);
   tcase_add_test(tc, test_written_by_another);
   tcase_add_test(tc, test_written_rule_detail);
   tcase_add_test(tc, test_cross_group);
   tcase_add_test(tc, test_compaction_exact);
   tcase_add_test(tc, test_memory_bounded);
   tcase_add_test(tc, test_memory_dense);
   tcase_add_test(tc, test_thread_exit);
   tcase_add_test(tc, test_reset);
   tcase_add_test(tc, test_l1_oracle);
   tcase_add_loop_test(tc, test_tags, 0, N_RANDOM);
   tcase_add_test(tc, test_sampling_error);
   tcase_add_test(tc, test_bursty_schedule);
   tcase_add_test(tc, test_shards_scaling);
   tcase_add_test(tc, test_bins);
   tcase_add_test(tc, test_bad_config);
   tcase_add_test(tc, test_cost_per_access);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
