/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_sharing_predict, the transfers and invalidations a
   parallel run would see on a line.  The reference enumerates every
   interleaving of the threads' accesses (each thread keeping its own
   order), replays each from the definitions (a transfer: a thread's
   first access since another thread wrote the line; an invalidation: a
   write while another thread holds a copy) and keeps the largest
   counts.  The prediction must never be below them (it is an upper
   bound of every interleaving) and at most one per thread above them
   (the bound is nearly reached).  Then the cases of the regression
   tests, with the counts derived by hand, and the lifetimes. */
#include <stdlib.h>
#include <string.h>
#include "mp_sharing.h"
#include "mp_test.h"

#define LINE 64
#define MAX_T 3
#define MAX_A 5

typedef struct {
   int w;
   uint32_t off, size;
} acc;

typedef struct {
   uint32_t n_threads;
   uint32_t n[MAX_T];
   acc a[MAX_T][MAX_A];
} trace;

static mp_event ev(uint32_t tid, uint64_t addr, uint32_t size, int w)
{
   mp_event e;
   memset(&e, 0, sizeof e);
   e.tid = tid;
   e.addr = addr;
   e.size = size;
   e.is_write = (uint32_t)w;
   e.var = 1;
   e.loc = 1;
   return e;
}

typedef struct {
   mp_sharing_prediction p;
   uint32_t lines;
} got;

static void take(const mp_sharing_line *l, void *arg)
{
   got *g = arg;
   g->lines++;
   g->p.transfers += l->predicted;
   g->p.true_transfers += l->predicted_true;
   g->p.invalidations += l->predicted_invalidations;
}

/* The engine's prediction, fed thread after thread (a serial run: the
   prediction must not depend on it). */
static mp_sharing_prediction predict(const trace *t)
{
   mp_sharing *s = mp_sharing_new(LINE);
   mp_sharing_outcome o;
   got g;
   uint32_t th, k;
   for (th = 0; th < t->n_threads; th++)
      for (k = 0; k < t->n[th]; k++) {
         mp_event e = ev(th + 1, 0x4000 + t->a[th][k].off, t->a[th][k].size, t->a[th][k].w);
         mp_sharing_access(s, &e, &o);
      }
   memset(&g, 0, sizeof g);
   mp_sharing_foreach_line(s, take, &g);
   mp_sharing_free(s);
   return g.p;
}

/*--- The reference ---*/

typedef struct {
   const trace *t;
   uint32_t pos[MAX_T];
   uint32_t order[MAX_T * MAX_A];
   uint32_t len;
   uint64_t best_transfers, best_invalidations;
} search;

static void replay(search *s)
{
   uint32_t pos[MAX_T] = { 0 }, i, th;
   int last_writer = -1, wrote_since[MAX_T], holds[MAX_T];
   uint64_t transfers = 0, invalidations = 0;
   for (th = 0; th < MAX_T; th++)
      wrote_since[th] = holds[th] = 0;
   for (i = 0; i < s->len; i++) {
      const acc *a;
      th = s->order[i];
      a = &s->t->a[th][pos[th]++];
      /* A transfer: another thread wrote since this one's last access. */
      if (last_writer >= 0 && (uint32_t)last_writer != th && wrote_since[th])
         transfers++;
      wrote_since[th] = 0;
      if (a->w) {
         uint32_t o, other = 0;
         for (o = 0; o < s->t->n_threads; o++)
            if (o != th && holds[o]) {
               other = 1;
               holds[o] = 0;
            }
         invalidations += other;
         last_writer = (int)th;
         for (o = 0; o < s->t->n_threads; o++)
            if (o != th)
               wrote_since[o] = 1;
      }
      holds[th] = 1;
   }
   if (transfers > s->best_transfers)
      s->best_transfers = transfers;
   if (invalidations > s->best_invalidations)
      s->best_invalidations = invalidations;
}

static void enumerate(search *s, uint32_t depth, uint32_t total)
{
   uint32_t th;
   if (depth == total) {
      s->len = total;
      replay(s);
      return;
   }
   for (th = 0; th < s->t->n_threads; th++)
      if (s->pos[th] < s->t->n[th]) {
         s->pos[th]++;
         s->order[depth] = th;
         enumerate(s, depth + 1, total);
         s->pos[th]--;
      }
}

static void reference(const trace *t, uint64_t *transfers, uint64_t *invalidations)
{
   search s;
   uint32_t th, total = 0;
   memset(&s, 0, sizeof s);
   s.t = t;
   for (th = 0; th < t->n_threads; th++)
      total += t->n[th];
   enumerate(&s, 0, total);
   *transfers = s.best_transfers;
   *invalidations = s.best_invalidations;
}

/* Random traces of 2 or 3 threads, each access on its own bytes or on
   a byte another thread uses. */
START_TEST(test_random_vs_reference)
{
   uint32_t round;
   rng_state = 0x9e3779b97f4a7c15ULL + (uint64_t)_i * 7919;
   for (round = 0; round < 60; round++) {
      trace t;
      uint64_t ref_t, ref_i;
      mp_sharing_prediction p;
      uint32_t th, k;
      memset(&t, 0, sizeof t);
      t.n_threads = 2 + (uint32_t)(rng() % 2);
      for (th = 0; th < t.n_threads; th++) {
         /* 3 threads of up to 4 accesses: 34,650 interleavings. */
         t.n[th] = 1 + (uint32_t)(rng() % (t.n_threads == 2 ? MAX_A : 4));
         for (k = 0; k < t.n[th]; k++) {
            t.a[th][k].w = (int)(rng() % 2);
            t.a[th][k].off = rng() % 4 == 0 ? 0 : 8 * (th + 1);
            t.a[th][k].size = 8;
         }
      }
      reference(&t, &ref_t, &ref_i);
      p = predict(&t);
      ck_assert_msg(p.transfers >= ref_t && p.transfers <= ref_t + t.n_threads,
                    "round %u: predicted %llu transfers, best interleaving %llu", round,
                    (unsigned long long)p.transfers, (unsigned long long)ref_t);
      ck_assert_msg(p.invalidations >= ref_i && p.invalidations <= ref_i + t.n_threads,
                    "round %u: predicted %llu invalidations, best interleaving %llu",
                    round, (unsigned long long)p.invalidations, (unsigned long long)ref_i);
      ck_assert_uint_le(p.true_transfers, p.transfers);
   }
}
END_TEST

/* Two threads incrementing their own 8 bytes of one line, n times
   each (a read and a write per increment): each thread's 2n accesses
   meet the other's n writes, n transfers each way; each thread's n
   writes meet 2n accesses of the other, n invalidations each.  All
   false.  The best interleaving (r1 r2 w1 w2 ...) reaches 2n - 1. */
START_TEST(test_false_counters)
{
   trace t;
   uint32_t th, k;
   uint64_t ref_t, ref_i;
   mp_sharing_prediction p;
   memset(&t, 0, sizeof t);
   t.n_threads = 2;
   for (th = 0; th < 2; th++) {
      t.n[th] = 4;
      for (k = 0; k < 4; k++) {
         t.a[th][k].w = k % 2;
         t.a[th][k].off = 8 * th;
         t.a[th][k].size = 8;
      }
   }
   p = predict(&t);
   ck_assert_uint_eq(p.transfers, 4);
   ck_assert_uint_eq(p.true_transfers, 0);
   ck_assert_uint_eq(p.invalidations, 4);
   reference(&t, &ref_t, &ref_i);
   ck_assert_uint_eq(ref_t, 3);
   ck_assert_uint_eq(ref_i, 4);
}
END_TEST

/* The same at the scale of the regression test: 10^6 increments each
   give 2 * 10^6 predicted transfers, whatever the serial order. */
START_TEST(test_false_counters_large)
{
   mp_sharing *s = mp_sharing_new(LINE);
   mp_sharing_outcome o;
   got g;
   uint32_t th, k;
   mp_sharing_thread_start(s, 2);
   mp_sharing_thread_start(s, 3);
   for (th = 2; th <= 3; th++)
      for (k = 0; k < 1000000; k++) {
         mp_event r = ev(th, 0x4000 + 8 * th, 8, 0), w = ev(th, 0x4000 + 8 * th, 8, 1);
         mp_sharing_access(s, &r, &o);
         mp_sharing_access(s, &w, &o);
      }
   mp_sharing_thread_end(s, 2);
   mp_sharing_thread_end(s, 3);
   memset(&g, 0, sizeof g);
   mp_sharing_foreach_line(s, take, &g);
   ck_assert_uint_eq(g.lines, 1);
   ck_assert_uint_eq(g.p.transfers, 2000000);
   ck_assert_uint_eq(g.p.true_transfers, 0);
   ck_assert_uint_eq(g.p.invalidations, 2000000);
   mp_sharing_free(s);
}
END_TEST

/* A one-off write next to a hot private counter: thread 1 writes 7
   bytes once, thread 2 increments its counter n times.  Thread 2 gets
   min(2n, 1) = 1 transfer, thread 1 min(1, n) = 1: 2 in all, however
   hot the counter. */
START_TEST(test_one_off_write)
{
   mp_sharing *s = mp_sharing_new(LINE);
   mp_sharing_outcome o;
   got g;
   uint32_t k;
   mp_event once = ev(1, 0x4000, 7, 1);
   mp_sharing_thread_start(s, 2);
   mp_sharing_access(s, &once, &o);
   for (k = 0; k < 100000; k++) {
      mp_event r = ev(2, 0x4010, 8, 0), w = ev(2, 0x4010, 8, 1);
      mp_sharing_access(s, &r, &o);
      mp_sharing_access(s, &w, &o);
   }
   memset(&g, 0, sizeof g);
   mp_sharing_foreach_line(s, take, &g);
   ck_assert_uint_eq(g.p.transfers, 2);
   ck_assert_uint_eq(g.p.true_transfers, 0);
   ck_assert_uint_eq(g.p.invalidations, 2);
   mp_sharing_free(s);
}
END_TEST

/* Producer and consumer: thread 1 writes a slot n times, thread 2
   reads it m times (m > n): n transfers, all true, n invalidations. */
START_TEST(test_producer_consumer)
{
   trace t;
   uint32_t k;
   uint64_t ref_t, ref_i;
   mp_sharing_prediction p;
   memset(&t, 0, sizeof t);
   t.n_threads = 2;
   t.n[0] = 3;
   t.n[1] = 5;
   for (k = 0; k < 3; k++)
      t.a[0][k] = (acc){ 1, 0, 8 };
   for (k = 0; k < 5; k++)
      t.a[1][k] = (acc){ 0, 0, 8 };
   p = predict(&t);
   ck_assert_uint_eq(p.transfers, 3);
   ck_assert_uint_eq(p.true_transfers, 3);
   ck_assert_uint_eq(p.invalidations, 3);
   reference(&t, &ref_t, &ref_i);
   ck_assert_uint_eq(ref_t, 3);
   ck_assert_uint_eq(ref_i, 3);
}
END_TEST

/* A mixed line: thread 1 writes bytes 0-7 twice, thread 2 writes
   bytes 8-15 5 times, thread 3 reads bytes 0-7 5 times.  Thread 3 gets
   min(5, 2 + 5) = 5 transfers, 2/7 of them (thread 1's share of the
   writes) true: 1.43, rounded to 1.  Threads 1 and 2 get min(2, 5) = 2
   and min(5, 2) = 2, false (neither touched the other's bytes, thread 3
   wrote none). */
START_TEST(test_true_split)
{
   trace t;
   uint32_t k;
   mp_sharing_prediction p;
   memset(&t, 0, sizeof t);
   t.n_threads = 3;
   t.n[0] = 2;
   t.n[1] = 5;
   t.n[2] = 5;
   for (k = 0; k < 2; k++)
      t.a[0][k] = (acc){ 1, 0, 8 };
   for (k = 0; k < 5; k++)
      t.a[1][k] = (acc){ 1, 8, 8 };
   for (k = 0; k < 5; k++)
      t.a[2][k] = (acc){ 0, 0, 8 };
   p = predict(&t);
   ck_assert_uint_eq(p.transfers, 9);
   ck_assert_uint_eq(p.true_transfers, 1);
   /* Invalidations: thread 1 min(2, 10), thread 2 min(5, 7). */
   ck_assert_uint_eq(p.invalidations, 7);
}
END_TEST

/* Lifetimes: thread 2 ended before thread 3 was created (a join in
   between): they never meet, nothing is predicted; thread 4, created
   before thread 3 ended, meets it. */
START_TEST(test_lifetimes)
{
   mp_sharing *s = mp_sharing_new(LINE);
   mp_sharing_outcome o;
   got g;
   uint32_t k;
   mp_sharing_thread_start(s, 2);
   for (k = 0; k < 10; k++) {
      mp_event w = ev(2, 0x4000, 8, 1);
      mp_sharing_access(s, &w, &o);
   }
   mp_sharing_thread_end(s, 2);
   mp_sharing_thread_start(s, 3);
   for (k = 0; k < 10; k++) {
      mp_event w = ev(3, 0x4008, 8, 1);
      mp_sharing_access(s, &w, &o);
   }
   ck_assert(!mp_sharing_concurrent(s, 2, 3));
   ck_assert(mp_sharing_concurrent(s, 1, 2));
   ck_assert(mp_sharing_concurrent(s, 1, 3));
   memset(&g, 0, sizeof g);
   mp_sharing_foreach_line(s, take, &g);
   ck_assert_uint_eq(g.lines, 1);
   ck_assert_uint_eq(g.p.transfers, 0);
   ck_assert_uint_eq(g.p.invalidations, 0);
   mp_sharing_thread_start(s, 4);
   mp_sharing_thread_end(s, 3);
   ck_assert(mp_sharing_concurrent(s, 3, 4));
   for (k = 0; k < 4; k++) {
      mp_event w = ev(4, 0x4010, 8, 1);
      mp_sharing_access(s, &w, &o);
   }
   memset(&g, 0, sizeof g);
   mp_sharing_foreach_line(s, take, &g);
   /* 3 <-> 4: min(10, 4) + min(4, 10) both ways. */
   ck_assert_uint_eq(g.p.transfers, 8);
   ck_assert_uint_eq(g.p.invalidations, 8);
   mp_sharing_free(s);
}
END_TEST

/*--- Placements ---*/

/* The placement reference works byte by byte: each thread's touched
   and written bytes of the block (offsets from its start, widened to
   whole byte groups as the engine sees them), moved to start
   `placement` bytes into a line, and every line and pair of threads
   checked.  Other threads touch the lines around the block: their
   bytes are not the block's and must not count. */
#define P_MAX_T   3
#define P_MAX_LEN 256

typedef struct {
   uint8_t touched[P_MAX_T][P_MAX_LEN], written[P_MAX_T][P_MAX_LEN];
   int concurrent[P_MAX_T][P_MAX_T];
} block_trace;

static int ref_false_at(const block_trace *b, uint32_t len, uint32_t line,
                        uint32_t placement)
{
   uint32_t k, x, y, o;
   for (k = 0; k * line < placement + len; k++)
      for (x = 0; x < P_MAX_T; x++)
         for (y = x + 1; y < P_MAX_T; y++) {
            int tx = 0, ty = 0, wr = 0, meet = 0;
            for (o = 0; o < len; o++) {
               if ((placement + o) / line != k)
                  continue;
               tx |= b->touched[x][o];
               ty |= b->touched[y][o];
               wr |= b->written[x][o] | b->written[y][o];
               meet |= (b->written[x][o] && b->touched[y][o])
                     || (b->written[y][o] && b->touched[x][o]);
            }
            if (tx && ty && wr && !meet && b->concurrent[x][y])
               return 1;
         }
   return 0;
}

typedef struct {
   mp_sharing_rec recs[64];
   uint32_t n;
   uint64_t first, last;
} recs_of;

static void take_rec(const mp_sharing_line *l, void *arg)
{
   recs_of *r = arg;
   uint32_t i;
   if (l->line < r->first || l->line > r->last)
      return;
   for (i = r->n++; i > 0 && r->recs[i - 1].line > l->line; i--)
      r->recs[i] = r->recs[i - 1];
   r->recs[i].line = l->line;
   r->recs[i].threads = l->threads;
}

static void placements_once(uint32_t line, uint32_t seed)
{
   mp_sharing *s = mp_sharing_new(line);
   mp_sharing_outcome out;
   static block_trace b;
   uint32_t group = line > 64 ? line / 64 : 1, t, k, o;
   uint64_t base = 0x10000, start, len;
   recs_of r;
   srand(seed);
   memset(&b, 0, sizeof b);
   start = base + 16 * (uint64_t)(rand() % 8);
   len = 1 + (uint64_t)(rand() % (P_MAX_LEN - 1));
   /* A group the block shares with a neighbour is the block's: keep
      the neighbours out of its groups. */
   len = (len + group - 1) & ~(uint64_t)(group - 1);
   /* Thread 3 may end before thread 2 starts. */
   mp_sharing_thread_start(s, 2);
   if (rand() % 3 == 0) {
      mp_sharing_thread_end(s, 2);
      mp_sharing_thread_start(s, 3);
   } else {
      mp_sharing_thread_start(s, 3);
   }
   for (t = 0; t < P_MAX_T; t++)
      for (k = 0; k < P_MAX_T; k++)
         b.concurrent[t][k] = mp_sharing_concurrent(s, t + 1, k + 1);
   for (t = 0; t < P_MAX_T; t++) {
      uint32_t n = (uint32_t)(rand() % 4);
      for (k = 0; k < n; k++) {
         uint32_t size = 1 + (uint32_t)(rand() % 8);
         uint64_t off = (uint64_t)rand() % len;
         int w = rand() % 2;
         mp_event e;
         uint64_t lo, hi;
         if (off + size > len)
            size = (uint32_t)(len - off);
         e = ev(t + 1, start + off, size, w);
         mp_sharing_access(s, &e, &out);
         lo = (start + off) & ~(uint64_t)(group - 1);
         hi = (start + off + size - 1) | (group - 1);
         for (; lo <= hi; lo++)
            if (lo >= start && lo < start + len) {
               b.touched[t][lo - start] = 1;
               b.written[t][lo - start] |= (uint8_t)w;
            }
      }
      /* A neighbour's bytes on the block's first and last lines. */
      if (start > base && rand() % 2) {
         mp_event e = ev(t + 1, start - 1, 1, 1);
         mp_sharing_access(s, &e, &out);
      }
      if (rand() % 2) {
         mp_event e = ev(t + 1, start + len, 1, 1);
         mp_sharing_access(s, &e, &out);
      }
   }
   memset(&r, 0, sizeof r);
   r.first = start / line;
   r.last = (start + len - 1) / line;
   mp_sharing_foreach_record(s, take_rec, &r);
   for (o = 0; o < line; o += 16) {
      uint64_t predicted;
      int found = mp_sharing_false_at(s, r.recs, r.n, start, len, o, NULL);
      ck_assert_msg(found == ref_false_at(&b, (uint32_t)len, line, o),
                    "seed %u line %u start +%llu len %llu placement %u", seed, line,
                    (unsigned long long)(start - base), (unsigned long long)len, o);
      /* Looking at every moved line finds the same; a falsely shared
         line moves at least once. */
      ck_assert_int_eq(mp_sharing_false_at(s, r.recs, r.n, start, len, o, &predicted), found);
      ck_assert_int_eq(predicted > 0, found);
   }
   mp_sharing_free(s);
}

/* Per variable (mp_sharing_predict_var), the shape of a hand-written
   OpenMP reduction array: a's last 32 bytes share a line with
   partial[4].  main writes a's four doubles there (the fill) and reads
   partial at the end; four workers add into their partial[t] 100 times
   (a read and a write each), the last also reads a's four doubles.
   By hand, others' writes to the line are 304 for a worker (three
   workers' 300, main's 4), 400 for main:
     partial: workers min(200, 304) * 4 = 800, main min(4, 400) = 4
     a:       main min(4, 400) = 4, the last worker min(4, 304) = 4
   and the line's own, 812, is their sum: a is not charged with
   partial's transfers. */
static void take_vars(const mp_sharing_line *l, void *arg)
{
   uint64_t *out = arg;   /* [var a, var partial, line] */
   uint32_t i;
   for (i = 0; i < l->n_vars; i++)
      out[l->vars[i] - 1] += l->var_predicted[i];
   out[2] += l->predicted;
}

START_TEST(test_per_variable)
{
   mp_sharing *s = mp_sharing_new(LINE);
   mp_sharing_outcome o;
   uint64_t got3[3] = { 0, 0, 0 };
   uint32_t t, k;
   mp_event e;
   for (k = 0; k < 4; k++) {
      e = ev(1, 0x4000 + 8 * k, 8, 1);
      e.var = 1;
      mp_sharing_access(s, &e, &o);
   }
   for (t = 0; t < 4; t++) {
      for (k = 0; k < 100; k++) {
         e = ev(2 + t, 0x4020 + 8 * t, 8, 0);
         e.var = 2;
         mp_sharing_access(s, &e, &o);
         e.is_write = 1;
         mp_sharing_access(s, &e, &o);
      }
      for (k = 0; t == 3 && k < 4; k++) {
         e = ev(2 + t, 0x4000 + 8 * k, 8, 0);
         e.var = 1;
         mp_sharing_access(s, &e, &o);
      }
   }
   for (k = 0; k < 4; k++) {
      e = ev(1, 0x4020 + 8 * k, 8, 0);
      e.var = 2;
      mp_sharing_access(s, &e, &o);
   }
   mp_sharing_foreach_line(s, take_vars, got3);
   ck_assert_uint_eq(got3[0], 8);
   ck_assert_uint_eq(got3[1], 804);
   ck_assert_uint_eq(got3[2], 812);
   mp_sharing_free(s);
}
END_TEST

START_TEST(test_placements_vs_reference)
{
   uint32_t i;
   for (i = 0; i < 3000; i++)
      placements_once(_i == 0 ? 64 : 128, 1000 * (uint32_t)_i + i);
}
END_TEST

/* share_joined's block as derived in share_joined.c: aligned, worker 0
   reading bytes 48-63 and updating 64-71, worker 1 reading 112-127 and
   updating 128-135, main reading both sums: false only at +0. */
START_TEST(test_placements_share_joined)
{
   mp_sharing *s = mp_sharing_new(64);
   mp_sharing_outcome o;
   recs_of r;
   mp_event e[] = { ev(2, 0x1000 + 48, 16, 0), ev(2, 0x1000 + 64, 8, 0),
                    ev(2, 0x1000 + 64, 8, 1), ev(3, 0x1000 + 112, 16, 0),
                    ev(3, 0x1000 + 128, 8, 0), ev(3, 0x1000 + 128, 8, 1),
                    ev(1, 0x1000 + 64, 8, 0), ev(1, 0x1000 + 128, 8, 0) };
   uint32_t i;
   for (i = 0; i < sizeof e / sizeof e[0]; i++)
      mp_sharing_access(s, &e[i], &o);
   mp_sharing_forget(s, 0x1000, 192, MP_SHARING_NO_VAR);
   memset(&r, 0, sizeof r);
   r.first = 0x1000 / 64;
   r.last = (0x1000 + 191) / 64;
   mp_sharing_foreach_record(s, take_rec, &r);
   ck_assert_uint_eq(r.n, 3);       /* line 0, worker 0's only, retired too */
   ck_assert_int_eq(mp_sharing_false_at(s, r.recs, r.n, 0x1000, 192, 0, NULL), 1);
   /* Line 1 at +0: worker 1 (one access) falsely receives worker 0's one
      write; worker 0 receives no write; main read worker 0's own bytes.
      Line 2: worker 1 and main truly share.  One transfer. */
   {
      uint64_t predicted;
      mp_sharing_false_at(s, r.recs, r.n, 0x1000, 192, 0, &predicted);
      ck_assert_uint_eq(predicted, 1);
   }
   for (i = 16; i < 64; i += 16)
      ck_assert_int_eq(mp_sharing_false_at(s, r.recs, r.n, 0x1000, 192, i, NULL), 0);
   mp_sharing_free(s);
}
END_TEST

static Suite *predict_suite(void)
{
   Suite *s = suite_create("predict");
   TCase *tc = tcase_create("core");
   tcase_set_timeout(tc, 120);
   tcase_add_loop_test(tc, test_random_vs_reference, 0, 4);
   tcase_add_test(tc, test_false_counters);
   tcase_add_test(tc, test_false_counters_large);
   tcase_add_test(tc, test_one_off_write);
   tcase_add_test(tc, test_producer_consumer);
   tcase_add_test(tc, test_true_split);
   tcase_add_test(tc, test_lifetimes);
   tcase_add_test(tc, test_per_variable);
   tcase_add_loop_test(tc, test_placements_vs_reference, 0, 2);
   tcase_add_test(tc, test_placements_share_joined);
   suite_add_tcase(s, tc);
   return s;
}

int main(void)
{
   return mp_test_run(predict_suite());
}
