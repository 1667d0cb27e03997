/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_sharing: crafted cases (MACPO's Listing 4 pattern,
   its padded fix, a lock-protected counter, a ping-pong), then random
   traces against a brute-force reference that keeps every access and
   recomputes byte sets, classification, transfers, pairs and matrix
   cells from the definitions, by scanning the whole history. */
#include "mp_sharing.h"
#include "mp_test.h"

#define LINE 64

static mp_event ev(uint32_t tid, uint64_t addr, uint32_t size, int w,
                   uint32_t var, uint32_t loc)
{
   mp_event e;
   memset(&e, 0, sizeof e);
   e.tid = tid;
   e.addr = addr;
   e.size = size;
   e.is_write = (uint32_t)w;
   e.var = var;
   e.loc = loc;
   return e;
}

typedef struct {
   uint64_t lines, shared, true_lines, false_lines, transfers;
} line_summary;

static void summarise(const mp_sharing_line *l, void *arg)
{
   line_summary *s = arg;
   s->lines++;
   s->transfers += l->transfers;
   if (!l->shared)
      return;
   s->shared++;
   if (l->is_true)
      s->true_lines++;
   else
      s->false_lines++;
}

static line_summary summary_of(const mp_sharing *s)
{
   line_summary sum;
   memset(&sum, 0, sizeof sum);
   mp_sharing_foreach_line(s, summarise, &sum);
   return sum;
}

/* MACPO Listing 4: four threads increment interleaved elements of one
   array (thread t owns bytes 8t..8t+7 of the line): false sharing. */
START_TEST(test_false_sharing)
{
   mp_sharing *s = mp_sharing_new(LINE);
   mp_sharing_outcome o;
   uint32_t it, t;
   for (it = 0; it < 10; it++)
      for (t = 1; t <= 4; t++) {
         mp_event r = ev(t, 0x1000 + 8 * (t - 1), 8, 0, 7, 40);
         mp_event w = ev(t, 0x1000 + 8 * (t - 1), 8, 1, 7, 41);
         mp_sharing_access(s, &r, &o);
         mp_sharing_access(s, &w, &o);
      }
   {
      line_summary sum = summary_of(s);
      ck_assert_uint_eq(sum.shared, 1);
      ck_assert_uint_eq(sum.false_lines, 1);
      ck_assert_uint_eq(sum.true_lines, 0);
      /* Every read but thread 1's first follows another thread's write. */
      ck_assert_uint_eq(sum.transfers, 10 * 4 - 1);
   }
   {
      uint32_t n, i;
      mp_sharing_cell *c = mp_sharing_cells(s, &n);
      /* 1->2, 2->3, 3->4, 4->1 */
      ck_assert_uint_eq(n, 4);
      for (i = 0; i < n; i++) {
         ck_assert_uint_eq(c[i].true_lines, 0);
         ck_assert_uint_eq(c[i].bytes, 0);
      }
      mp_free(c);
   }
   mp_sharing_free(s);
}
END_TEST

static void pair_counts(const mp_sharing_line *l, void *arg)
{
   *(uint32_t *)arg = l->false_pairs * 100 + l->true_pairs;
}

/* Workers own disjoint slots, the main thread reads them all at the end:
   the line is still falsely shared (the workers' pairs), though the
   main thread's pairs share it truly. */
START_TEST(test_false_with_final_read)
{
   mp_sharing *s = mp_sharing_new(LINE);
   mp_sharing_outcome o;
   uint32_t t, found = 0;
   for (t = 2; t <= 4; t++) {
      mp_event w = ev(t, 0x1000 + 8 * t, 8, 1, 7, 41);
      mp_sharing_access(s, &w, &o);
   }
   for (t = 2; t <= 4; t++) {
      mp_event r = ev(1, 0x1000 + 8 * t, 8, 0, 7, 50);
      mp_sharing_access(s, &r, &o);
   }
   {
      line_summary sum = summary_of(s);
      ck_assert_uint_eq(sum.false_lines, 1);
      ck_assert_uint_eq(sum.true_lines, 0);
   }
   mp_sharing_foreach_line(s, pair_counts, &found);
   ck_assert_uint_eq(found, 3 * 100 + 3);   /* 3 false pairs, 3 true */
   mp_sharing_free(s);
}
END_TEST

/* The padded fix: each thread's element on a line of its own. */
START_TEST(test_padded)
{
   mp_sharing *s = mp_sharing_new(LINE);
   mp_sharing_outcome o;
   uint32_t it, t;
   for (it = 0; it < 10; it++)
      for (t = 1; t <= 4; t++) {
         mp_event w = ev(t, 0x1000 + LINE * (t - 1), 8, 1, 7, 41);
         mp_sharing_access(s, &w, &o);
         ck_assert_uint_eq(o.transfers, 0);
      }
   ck_assert_uint_eq(summary_of(s).lines, 0);
   mp_sharing_free(s);
}
END_TEST

/* A counter under a lock: every thread reads and writes the same bytes. */
START_TEST(test_true_sharing)
{
   mp_sharing *s = mp_sharing_new(LINE);
   mp_sharing_outcome o;
   uint32_t it, t;
   for (it = 0; it < 5; it++)
      for (t = 1; t <= 3; t++) {
         mp_event r = ev(t, 0x2000, 4, 0, 3, 10);
         mp_event w = ev(t, 0x2000, 4, 1, 3, 11);
         mp_sharing_access(s, &r, &o);
         ck_assert_uint_eq(o.transfers, (it || t > 1) ? 1 : 0);
         ck_assert_uint_eq(o.true_transfers, o.transfers);
         mp_sharing_access(s, &w, &o);
         ck_assert_uint_eq(o.transfers, 0);
      }
   {
      line_summary sum = summary_of(s);
      ck_assert_uint_eq(sum.true_lines, 1);
      ck_assert_uint_eq(sum.false_lines, 0);
   }
   {
      uint32_t n;
      mp_sharing_pair *p = mp_sharing_pairs(s, &n);
      ck_assert_uint_eq(n, 1);
      ck_assert_uint_eq(p[0].writer_loc, 11);
      ck_assert_uint_eq(p[0].reader_loc, 10);
      ck_assert_uint_eq(p[0].transfers, 14);
      ck_assert_uint_eq(p[0].true_transfers, 14);
      mp_free(p);
   }
   {
      uint32_t n, i;
      mp_sharing_cell *c = mp_sharing_cells(s, &n);
      ck_assert_uint_eq(n, 3);
      for (i = 0; i < n; i++)
         ck_assert_uint_eq(c[i].bytes, 4 * c[i].true_lines);
      mp_free(c);
   }
   mp_sharing_free(s);
}
END_TEST

/* Producer/consumer ping-pong on a flag line and a data line: the top
   pair is the producer's write to the data and the consumer's read. */
START_TEST(test_ping_pong)
{
   mp_sharing *s = mp_sharing_new(LINE);
   mp_sharing_outcome o;
   uint32_t it;
   for (it = 0; it < 100; it++) {
      mp_event wd = ev(1, 0x3000, 8, 1, 1, 20);   /* producer: data = x */
      mp_event wf = ev(1, 0x3040, 4, 1, 2, 21);   /* flag = 1 */
      mp_event rf = ev(2, 0x3040, 4, 0, 2, 30);   /* consumer: while (!flag) */
      mp_event rd = ev(2, 0x3000, 8, 0, 1, 31);   /* y = data */
      mp_event cf = ev(2, 0x3040, 4, 1, 2, 32);   /* flag = 0 */
      mp_event pf = ev(1, 0x3040, 4, 0, 2, 22);   /* producer: while (flag) */
      mp_sharing_access(s, &wd, &o);
      mp_sharing_access(s, &wf, &o);
      mp_sharing_access(s, &rf, &o);
      mp_sharing_access(s, &rd, &o);
      mp_sharing_access(s, &cf, &o);
      mp_sharing_access(s, &pf, &o);
   }
   {
      uint32_t n;
      mp_sharing_pair *p = mp_sharing_pairs(s, &n);
      ck_assert_uint_ge(n, 3);
      /* 21->30 (flag), 20->31 (data), 32->22 (flag back): 100 each */
      ck_assert_uint_eq(p[0].transfers, 100);
      ck_assert_uint_eq(p[1].transfers, 100);
      ck_assert_uint_eq(p[2].transfers, 100);
      ck_assert_uint_eq(p[0].writer_loc, 20);
      ck_assert_uint_eq(p[0].reader_loc, 31);
      mp_free(p);
   }
   mp_sharing_free(s);
}
END_TEST

/* Freed memory handed to another thread is not sharing. */
START_TEST(test_forget)
{
   mp_sharing *s = mp_sharing_new(LINE);
   mp_sharing_outcome o;
   mp_event w1 = ev(1, 0x4000, 8, 1, 5, 1), w2 = ev(2, 0x4000, 8, 1, 5, 2);
   mp_event w3 = ev(1, 0x4040, 8, 1, 5, 1), w4 = ev(2, 0x4040, 8, 1, 5, 2);
   mp_sharing_access(s, &w1, &o);
   mp_sharing_access(s, &w3, &o);
   mp_sharing_forget(s, 0x4000, 0x40, MP_SHARING_NO_VAR);   /* the first line only */
   mp_sharing_access(s, &w2, &o);
   ck_assert_uint_eq(o.transfers, 0);
   mp_sharing_access(s, &w4, &o);
   ck_assert_uint_eq(o.transfers, 1);
   ck_assert_uint_eq(summary_of(s).shared, 1);
   mp_sharing_forget(s, 0x0, 1ULL << 40, MP_SHARING_NO_VAR);   /* the walk */
   ck_assert_uint_eq(mp_sharing_lines(s), 0);
   mp_sharing_free(s);
}
END_TEST

/* A freed block's shared lines still count in the report, and the
   memory's next owner starts afresh: a line two threads shared, then
   freed and written by a third thread, is one shared line with its one
   transfer, beside a fresh record of one thread; a line only one thread
   touched is dropped. */
START_TEST(test_forget_keeps_shared)
{
   mp_sharing *s = mp_sharing_new(LINE);
   mp_sharing_outcome o;
   mp_event w1 = ev(1, 0x4000, 8, 1, 5, 1), w2 = ev(2, 0x4008, 8, 1, 5, 2);
   mp_event w3 = ev(3, 0x4000, 8, 1, 5, 3), w4 = ev(1, 0x4040, 8, 1, 5, 1);
   line_summary sum;
   mp_sharing_access(s, &w1, &o);
   mp_sharing_access(s, &w2, &o);
   ck_assert_uint_eq(o.transfers, 1);
   mp_sharing_access(s, &w4, &o);
   mp_sharing_forget(s, 0x4000, 0x80, 7);
   ck_assert_uint_eq(mp_sharing_lines(s), 0);
   mp_sharing_access(s, &w3, &o);
   ck_assert_uint_eq(o.transfers, 0);
   sum = summary_of(s);
   ck_assert_uint_eq(sum.lines, 1);
   ck_assert_uint_eq(sum.shared, 1);
   ck_assert_uint_eq(sum.false_lines, 1);
   ck_assert_uint_eq(sum.transfers, 1);
   mp_sharing_free(s);
}
END_TEST

typedef struct {
   uint32_t live, retired, var;
   uint64_t start, len;
} records_seen;

static void count_record(const mp_sharing_line *l, void *arg)
{
   records_seen *r = arg;
   if (l->freed_id == 0) {
      r->live++;
      return;
   }
   r->retired++;
   r->var = l->freed_var;
   r->start = l->freed_start;
   r->len = l->freed_len;
}

/* A block smaller than a line, across two lines it shares with its
   neighbours, freed after two threads wrote it: the lines stay live
   (the neighbours' bytes), and a copy of each is retired with the
   block and its variable, for the placements only: the report still
   counts two lines, not four. */
START_TEST(test_forget_block_inside_lines)
{
   mp_sharing *s = mp_sharing_new(LINE);
   mp_sharing_outcome o;
   mp_event w1 = ev(1, 0x4030, 8, 1, 5, 1), w2 = ev(2, 0x4048, 8, 1, 5, 2);
   mp_event w3 = ev(2, 0x4038, 8, 1, 5, 2), w4 = ev(1, 0x4040, 8, 1, 5, 1);
   records_seen seen;
   line_summary sum;
   mp_sharing_access(s, &w1, &o);
   mp_sharing_access(s, &w2, &o);
   mp_sharing_access(s, &w3, &o);
   mp_sharing_access(s, &w4, &o);
   sum = summary_of(s);
   ck_assert_uint_eq(sum.shared, 2);
   mp_sharing_forget(s, 0x4030, 0x20, 9);   /* 0x4030..0x404f */
   ck_assert_uint_eq(mp_sharing_lines(s), 2);
   mp_memset(&seen, 0, sizeof seen);
   mp_sharing_foreach_record(s, count_record, &seen);
   ck_assert_uint_eq(seen.live, 2);
   ck_assert_uint_eq(seen.retired, 2);
   ck_assert_uint_eq(seen.var, 9);
   ck_assert_uint_eq(seen.start, 0x4030);
   ck_assert_uint_eq(seen.len, 0x20);
   sum = summary_of(s);
   ck_assert_uint_eq(sum.shared, 2);
   mp_sharing_free(s);
}
END_TEST

/* A block one thread wrote, beside a neighbour another thread wrote on
   its first line: its own lines are released (the neighbour's thread
   does not make them shared), only the edge line's copy is kept. */
START_TEST(test_forget_neighbour_not_block)
{
   mp_sharing *s = mp_sharing_new(LINE);
   mp_sharing_outcome o;
   mp_event mine1 = ev(1, 0x4010, 8, 1, 5, 1), mine2 = ev(1, 0x4050, 8, 1, 5, 1);
   mp_event mine3 = ev(1, 0x4090, 8, 1, 5, 1), other = ev(2, 0x4000, 8, 1, 5, 2);
   records_seen seen;
   mp_sharing_access(s, &mine1, &o);
   mp_sharing_access(s, &mine2, &o);
   mp_sharing_access(s, &mine3, &o);
   mp_sharing_access(s, &other, &o);
   ck_assert_uint_eq(mp_sharing_lines(s), 3);
   mp_sharing_forget(s, 0x4010, 0x100, 5);   /* 0x4010..0x410f */
   ck_assert_uint_eq(mp_sharing_lines(s), 1);  /* the neighbour's line */
   mp_memset(&seen, 0, sizeof seen);
   mp_sharing_foreach_record(s, count_record, &seen);
   ck_assert_uint_eq(seen.live, 1);
   ck_assert_uint_eq(seen.retired, 1);
   ck_assert_uint_eq(seen.var, 5);
   mp_sharing_free(s);
}
END_TEST

/* Lines longer than 64 bytes: one mask bit per line/64 bytes. */
START_TEST(test_groups)
{
   mp_sharing *s = mp_sharing_new(128);
   uint32_t f, l;
   ck_assert_uint_eq(mp_sharing_groups(s), 64);
   mp_sharing_group_bytes(s, 3, &f, &l);
   ck_assert_uint_eq(f, 6);
   ck_assert_uint_eq(l, 7);
   mp_sharing_free(s);
   s = mp_sharing_new(32);
   ck_assert_uint_eq(mp_sharing_groups(s), 32);
   mp_sharing_free(s);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Brute-force reference                                ---*/
/*------------------------------------------------------------*/

#define MAXN 3000

static mp_event trace[MAXN];
static uint32_t n_trace;

/* Byte b of line L in access i? */
static int touches(const mp_event *e, uint64_t line, uint32_t b)
{
   uint64_t a = line * LINE + b;
   return a >= e->addr && a < e->addr + e->size;
}

static int touches_line(const mp_event *e, uint64_t line)
{
   return e->addr / LINE <= line && (e->addr + e->size - 1) / LINE >= line;
}

typedef struct {
   uint64_t transfers, true_transfers;
} ref_count;

/* Transfers made by access i on its line 'line', by the definitions. */
static void ref_transfer(uint32_t i, uint64_t line, int *is_transfer, int *is_true,
                         uint32_t *writer, uint32_t *wloc, uint64_t *bytes)
{
   const mp_event *e = &trace[i];
   int32_t j, lw = -1;
   uint32_t b;
   *is_transfer = *is_true = 0;
   *bytes = 0;
   for (j = (int32_t)i - 1; j >= 0; j--)
      if (trace[j].is_write && touches_line(&trace[j], line)) {
         lw = j;
         break;
      }
   if (lw < 0 || trace[lw].tid == e->tid)
      return;
   for (j = lw + 1; j < (int32_t)i; j++)
      if (trace[j].tid == e->tid && touches_line(&trace[j], line))
         return;   /* not the first touch since that write */
   *is_transfer = 1;
   *writer = trace[lw].tid;
   *wloc = trace[lw].loc;
   /* the writer's run: its writes since another thread last wrote */
   for (b = 0; b < LINE; b++) {
      int written = 0;
      for (j = lw; j >= 0; j--) {
         if (!trace[j].is_write || !touches_line(&trace[j], line))
            continue;
         if (trace[j].tid != trace[lw].tid)
            break;
         if (touches(&trace[j], line, b)) {
            written = 1;
            break;
         }
      }
      if (written && touches(e, line, b)) {
         *is_true = 1;
         (*bytes)++;
      }
   }
}

/* The reference classification from the definitions: every pair of
   threads of which one wrote, compared byte by byte. */
static void ref_classify(uint64_t line, int *n_threads, int *shared, int *is_true)
{
   uint32_t i, x, y, b;
   uint64_t seen = 0;
   int written = 0, false_pairs = 0;
   for (i = 0; i < n_trace; i++)
      if (touches_line(&trace[i], line)) {
         seen |= 1ULL << trace[i].tid;
         written |= trace[i].is_write;
      }
   *n_threads = __builtin_popcountll(seen);
   *shared = *n_threads >= 2 && written;
   for (x = 1; x < 64; x++)
      for (y = x + 1; y < 64; y++) {
         int wrote = 0, overlap = 0;
         if (!(seen >> x & 1) || !(seen >> y & 1))
            continue;
         for (i = 0; i < n_trace; i++)
            if ((trace[i].tid == x || trace[i].tid == y) && trace[i].is_write
                && touches_line(&trace[i], line))
               wrote = 1;
         if (!wrote)
            continue;
         for (b = 0; b < LINE && !overlap; b++) {
            int wx = 0, wy = 0, tx = 0, ty = 0;
            for (i = 0; i < n_trace; i++) {
               if (!touches(&trace[i], line, b))
                  continue;
               if (trace[i].tid == x) { tx = 1; wx |= trace[i].is_write; }
               if (trace[i].tid == y) { ty = 1; wy |= trace[i].is_write; }
            }
            overlap = (wx && ty) || (wy && tx);
         }
         false_pairs += !overlap;
      }
   *is_true = *shared && false_pairs == 0;
}

typedef struct {
   uint64_t line;
   int found, shared, is_true;
   uint64_t transfers;
} seen_line;

static void check_line(const mp_sharing_line *l, void *arg)
{
   seen_line *want = arg;
   if (l->line == want->line) {
      want->found = 1;
      want->shared = l->shared;
      want->is_true = l->is_true;
      want->transfers = l->transfers;
   }
}

START_TEST(test_random_vs_reference)
{
   uint32_t round;
   rng_state = 0x5eed0001ULL + (uint64_t)_i * 7919;
   for (round = 0; round < 4; round++) {
      mp_sharing *s = mp_sharing_new(LINE);
      uint32_t n_threads = 2 + rng() % 4, n_lines = 1 + rng() % 6, i;
      uint64_t ref_transfers = 0, ref_true = 0, got_transfers = 0, got_true = 0;
      uint64_t line;
      n_trace = 500 + rng() % 1500;
      for (i = 0; i < n_trace; i++) {
         uint32_t size = 1u << (rng() % 4);
         uint64_t addr = 0x10000 + rng() % (n_lines * LINE);
         if (rng() % 8 == 0)
            size = 1 + rng() % 40;   /* unaligned, may straddle */
         trace[i] = ev(1 + rng() % n_threads, addr, size, rng() % 3 == 0,
                       (uint32_t)(rng() % 3), (uint32_t)(rng() % 5));
      }
      for (i = 0; i < n_trace; i++) {
         mp_sharing_outcome o;
         uint64_t l;
         mp_sharing_access(s, &trace[i], &o);
         got_transfers += o.transfers;
         got_true += o.true_transfers;
         for (l = trace[i].addr / LINE; l <= (trace[i].addr + trace[i].size - 1) / LINE; l++) {
            int t, tt;
            uint32_t w, wl;
            uint64_t bytes;
            ref_transfer(i, l, &t, &tt, &w, &wl, &bytes);
            ref_transfers += t;
            ref_true += tt;
         }
      }
      ck_assert_uint_eq(got_transfers, ref_transfers);
      ck_assert_uint_eq(got_true, ref_true);
      for (line = 0x10000 / LINE; line <= (0x10000 + n_lines * LINE + 40) / LINE; line++) {
         int nt, sh, tr;
         seen_line want;
         memset(&want, 0, sizeof want);
         want.line = line;
         ref_classify(line, &nt, &sh, &tr);
         mp_sharing_foreach_line(s, check_line, &want);
         ck_assert_int_eq(want.found, nt >= 2);
         if (nt >= 2) {
            ck_assert_int_eq(want.shared, sh);
            ck_assert_int_eq(want.is_true, tr);
         }
      }
      /* Pairs and cells against the reference, summed per key. */
      {
         uint32_t np, nc, k;
         mp_sharing_pair *p = mp_sharing_pairs(s, &np);
         mp_sharing_cell *c = mp_sharing_cells(s, &nc);
         for (k = 0; k < np; k++) {
            uint64_t want = 0, want_true = 0;
            for (i = 0; i < n_trace; i++) {
               uint64_t l;
               if (trace[i].loc != p[k].reader_loc || trace[i].var != p[k].var)
                  continue;
               for (l = trace[i].addr / LINE; l <= (trace[i].addr + trace[i].size - 1) / LINE; l++) {
                  int t, tt;
                  uint32_t w, wl;
                  uint64_t bytes;
                  ref_transfer(i, l, &t, &tt, &w, &wl, &bytes);
                  if (t && wl == p[k].writer_loc) {
                     want++;
                     want_true += tt;
                  }
               }
            }
            ck_assert_uint_eq(p[k].transfers, want);
            ck_assert_uint_eq(p[k].true_transfers, want_true);
            if (k > 0)
               ck_assert_uint_ge(p[k - 1].transfers, p[k].transfers);
         }
         for (k = 0; k < nc; k++) {
            uint64_t tl = 0, fl = 0, by = 0;
            for (i = 0; i < n_trace; i++) {
               uint64_t l;
               if (trace[i].tid != c[k].to)
                  continue;
               for (l = trace[i].addr / LINE; l <= (trace[i].addr + trace[i].size - 1) / LINE; l++) {
                  int t, tt;
                  uint32_t w = 0, wl;
                  uint64_t bytes;
                  ref_transfer(i, l, &t, &tt, &w, &wl, &bytes);
                  if (t && w == c[k].from) {
                     tl += tt;
                     fl += !tt;
                     by += bytes;
                  }
               }
            }
            ck_assert_uint_eq(c[k].true_lines, tl);
            ck_assert_uint_eq(c[k].false_lines, fl);
            ck_assert_uint_eq(c[k].bytes, by);
         }
         mp_free(p);
         mp_free(c);
      }
      mp_sharing_free(s);
   }
}
END_TEST

static Suite *sharing_suite(void)
{
   Suite *s = suite_create("sharing");
   TCase *tc = tcase_create("core");
   tcase_set_timeout(tc, 120);
   tcase_add_test(tc, test_false_sharing);
   tcase_add_test(tc, test_padded);
   tcase_add_test(tc, test_false_with_final_read);
   tcase_add_test(tc, test_true_sharing);
   tcase_add_test(tc, test_ping_pong);
   tcase_add_test(tc, test_forget);
   tcase_add_test(tc, test_forget_keeps_shared);
   tcase_add_test(tc, test_forget_block_inside_lines);
   tcase_add_test(tc, test_forget_neighbour_not_block);
   tcase_add_test(tc, test_groups);
   tcase_add_loop_test(tc, test_random_vs_reference, 0, 6);
   suite_add_tcase(s, tc);
   return s;
}

int main(void)
{
   return mp_test_run(sharing_suite());
}
