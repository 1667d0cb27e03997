/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_nest_replay: a replay is the same simulation as the
   nested loops written out by hand in that order and fed to a cache;
   the column walk of a matrix whose column does not fit misses at every
   access, and interchanged once per line; a padded layout moves the
   padded array's references only; bad nests are refused. */
#include "mp_nest_replay.h"
#include "mp_test.h"

/* 1 KiB: 4 sets of 4 ways, 64-byte lines (16 lines), one core. */
static mp_cache_cfg small_cache(void)
{
   mp_cache_cfg c;
   memset(&c, 0, sizeof c);
   c.n_levels = 1;
   c.level[0].size = 1024;
   c.level[0].assoc = 4;
   c.level[0].line = 64;
   c.level[0].shared_by = 1;
   c.cores = 1;
   return c;
}

static const uint32_t latency[2] = { 4, 200 };

/* double m[64][64] at 0x100000 read by columns: for j, for i m[i][j];
   loop 0 is j (step 8), loop 1 is i (step 512). */
static mp_nest column_walk(mp_nest_ref *ref)
{
   mp_nest n;
   memset(&n, 0, sizeof n);
   memset(ref, 0, sizeof *ref);
   ref->base = 0x100000;
   ref->step[0] = 8;
   ref->step[1] = 512;
   ref->size = 8;
   ref->pc = 0x401000;
   n.n_loops = 2;
   n.trips[0] = 64;
   n.trips[1] = 64;
   n.order[0] = 0;
   n.order[1] = 1;
   n.refs = ref;
   n.n_refs = 1;
   return n;
}

START_TEST(test_column_walk)
{
   mp_cache_cfg c = small_cache();
   mp_nest_ref ref;
   mp_nest n = column_walk(&ref);
   mp_whatif_run before, after;
   ck_assert_uint_eq(mp_nest_accesses(&n), 4096);
   ck_assert(mp_nest_replay(&n, &c, latency, &before));
   /* a column is 64 lines, the cache 16: every access misses */
   ck_assert_uint_eq(before.accesses, 4096);
   ck_assert_uint_eq(before.misses[0], 4096);
   ck_assert_uint_eq(before.cycles, 4096 * 200);
   n.order[0] = 1;
   n.order[1] = 0;
   ck_assert(mp_nest_replay(&n, &c, latency, &after));
   /* by rows: one miss per 8 doubles */
   ck_assert_uint_eq(after.accesses, 4096);
   ck_assert_uint_eq(after.misses[0], 512);
   ck_assert_uint_eq(after.cycles, 512 * 200 + 3584 * 4);
}
END_TEST

/* Three loops, two references (a load and a store with negative and
   zero steps), every order: the replay is the hand-written nest. */
START_TEST(test_is_the_written_nest)
{
   static const uint32_t orders[6][3] = {
      { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 }
   };
   mp_cache_cfg c = small_cache();
   mp_nest_ref refs[2];
   mp_nest n;
   uint32_t o;
   memset(refs, 0, sizeof refs);
   memset(&n, 0, sizeof n);
   refs[0].base = 0x200000;
   refs[0].step[0] = 4096;
   refs[0].step[1] = 8;
   refs[0].step[2] = 640;
   refs[0].size = 8;
   refs[0].pc = 0x1000;
   refs[1].base = 0x300000 + 7 * 72;
   refs[1].step[0] = 0;
   refs[1].step[1] = -72;
   refs[1].step[2] = 24;
   refs[1].size = 4;
   refs[1].is_write = 1;
   refs[1].pc = 0x1008;
   n.n_loops = 3;
   n.trips[0] = 3;
   n.trips[1] = 7;
   n.trips[2] = 11;
   n.refs = refs;
   n.n_refs = 2;
   for (o = 0; o < 6; o++) {
      mp_whatif_run r;
      mp_cache *direct;
      const char *err;
      uint64_t cnt[3], misses = 0, cycles = 0, accesses = 0;
      memcpy(n.order, orders[o], sizeof orders[o]);
      ck_assert(mp_nest_replay(&n, &c, latency, &r));
      direct = mp_cache_new(&c, &err);
      for (cnt[orders[o][0]] = 0; cnt[orders[o][0]] < n.trips[orders[o][0]];
           cnt[orders[o][0]]++)
         for (cnt[orders[o][1]] = 0; cnt[orders[o][1]] < n.trips[orders[o][1]];
              cnt[orders[o][1]]++)
            for (cnt[orders[o][2]] = 0; cnt[orders[o][2]] < n.trips[orders[o][2]];
                 cnt[orders[o][2]]++) {
               uint32_t k;
               for (k = 0; k < 2; k++) {
                  mp_cache_outcome oc;
                  uint64_t a = refs[k].base;
                  uint32_t l;
                  for (l = 0; l < 3; l++)
                     a += (uint64_t)(refs[k].step[l] * (int64_t)cnt[l]);
                  mp_cache_access(direct, 0, a, refs[k].size, refs[k].is_write, 0,
                                  refs[k].pc, &oc);
                  misses += oc.missed[0];
                  cycles += latency[oc.served_by];
                  accesses++;
               }
            }
      ck_assert_uint_eq(r.accesses, accesses);
      ck_assert_uint_eq(r.misses[0], misses);
      ck_assert_uint_eq(r.cycles, cycles);
      mp_cache_free(direct);
   }
}
END_TEST

/* Loop 1 of a 3 x 11 nest tiled by 4 (tiles of 4, 4 and 3), the loop
   over the tiles outermost: the replay is the hand-written tiled nest,
   and the same iterations as untiled. */
START_TEST(test_tiled)
{
   mp_cache_cfg c = small_cache();
   mp_nest_ref refs[2];
   mp_nest n;
   mp_whatif_run r, plain;
   mp_cache *direct;
   const char *err;
   uint64_t tt, c0, p, misses = 0, cycles = 0, accesses = 0;
   memset(refs, 0, sizeof refs);
   memset(&n, 0, sizeof n);
   refs[0].base = 0x200000;
   refs[0].step[0] = 8;
   refs[0].step[1] = 1024;
   refs[0].size = 8;
   refs[1].base = 0x280000;
   refs[1].step[0] = 2048;
   refs[1].step[1] = -8;
   refs[1].size = 8;
   refs[1].is_write = 1;
   n.n_loops = 2;
   n.trips[0] = 3;
   n.trips[1] = 11;
   n.order[0] = 0;
   n.order[1] = 1;
   n.refs = refs;
   n.n_refs = 2;
   ck_assert(mp_nest_replay(&n, &c, latency, &plain));
   n.tiled = 1;
   n.tile = 4;
   n.order[0] = 2;
   n.order[1] = 0;
   n.order[2] = 1;
   ck_assert(mp_nest_replay(&n, &c, latency, &r));
   direct = mp_cache_new(&c, &err);
   for (tt = 0; tt < 3; tt++)
      for (c0 = 0; c0 < 3; c0++)
         for (p = 0; p < 4 && tt * 4 + p < 11; p++) {
            uint32_t k;
            for (k = 0; k < 2; k++) {
               mp_cache_outcome oc;
               uint64_t a = refs[k].base + (uint64_t)(refs[k].step[0] * (int64_t)c0)
                            + (uint64_t)(refs[k].step[1] * (int64_t)(tt * 4 + p));
               mp_cache_access(direct, 0, a, 8, refs[k].is_write, 0, 0, &oc);
               misses += oc.missed[0];
               cycles += latency[oc.served_by];
               accesses++;
            }
         }
   ck_assert_uint_eq(r.accesses, 66);
   ck_assert_uint_eq(plain.accesses, 66);
   ck_assert_uint_eq(r.misses[0], misses);
   ck_assert_uint_eq(r.cycles, cycles);
   n.tiled = 2;                          /* no such loop */
   ck_assert(!mp_nest_replay(&n, &c, latency, &r));
   mp_cache_free(direct);
}
END_TEST

/* A limit replays the first accesses of each order: the first 640 of
   the column walk are 640 misses; of the row walk, 10 rows of 64
   doubles, 8 lines each: 80. */
START_TEST(test_limit)
{
   mp_cache_cfg c = small_cache();
   mp_nest_ref ref;
   mp_nest n = column_walk(&ref);
   mp_whatif_run r;
   n.limit = 640;
   ck_assert(mp_nest_replay(&n, &c, latency, &r));
   ck_assert_uint_eq(r.accesses, 640);
   ck_assert_uint_eq(r.misses[0], 640);
   n.order[0] = 1;
   n.order[1] = 0;
   ck_assert(mp_nest_replay(&n, &c, latency, &r));
   ck_assert_uint_eq(r.accesses, 640);
   ck_assert_uint_eq(r.misses[0], 80);
}
END_TEST

/* double m[8][64] (rows of 512 B) read by columns in the 4-set cache:
   a column's 8 lines all fall in set 0, 4 ways, and every access
   misses (512).  Rows padded by a line (576 B): row r's line is in set
   (r + j / 8) % 4, two per set, and only the 64 lines miss once. */
START_TEST(test_padded_rows)
{
   mp_cache_cfg c = small_cache();
   mp_nest_ref ref;
   mp_nest n = column_walk(&ref);
   mp_nest_pad pad = { 512, 64, 0 };
   mp_whatif_run r;
   n.trips[1] = 8;
   ck_assert(mp_nest_replay(&n, &c, latency, &r));
   ck_assert_uint_eq(r.accesses, 512);
   ck_assert_uint_eq(r.misses[0], 512);
   n.pad = &pad;                         /* no reference into it: as it ran */
   ck_assert(mp_nest_replay(&n, &c, latency, &r));
   ck_assert_uint_eq(r.misses[0], 512);
   ref.origin = 0x100000;
   ck_assert(mp_nest_replay(&n, &c, latency, &r));
   ck_assert_uint_eq(r.accesses, 512);
   ck_assert_uint_eq(r.misses[0], 64);
   ck_assert_uint_eq(r.cycles, 64 * 200 + 448 * 4);
}
END_TEST

/* a[i] and b[i], 1 KiB apart, in a direct-mapped 1 KiB cache: each
   access evicts the other's line (256 misses).  b moved by a line: a
   line of each, 16 per array (32). */
START_TEST(test_shifted_start)
{
   mp_cache_cfg c = small_cache();
   mp_nest_ref refs[2];
   mp_nest n;
   mp_nest_pad pad = { 0, 0, 64 };
   mp_whatif_run r;
   c.level[0].assoc = 1;
   memset(refs, 0, sizeof refs);
   memset(&n, 0, sizeof n);
   refs[0].base = 0x100000;
   refs[0].step[0] = 8;
   refs[0].size = 8;
   refs[1] = refs[0];
   refs[1].base = 0x100400;
   n.n_loops = 1;
   n.trips[0] = 128;
   n.refs = refs;
   n.n_refs = 2;
   ck_assert(mp_nest_replay(&n, &c, latency, &r));
   ck_assert_uint_eq(r.misses[0], 256);
   n.pad = &pad;
   refs[1].origin = 0x100400;
   ck_assert(mp_nest_replay(&n, &c, latency, &r));
   ck_assert_uint_eq(r.accesses, 256);
   ck_assert_uint_eq(r.misses[0], 32);
}
END_TEST

START_TEST(test_refused)
{
   mp_cache_cfg c = small_cache();
   mp_nest_ref ref;
   mp_nest n = column_walk(&ref);
   mp_whatif_run r;
   n.order[1] = 0;                       /* not a permutation */
   ck_assert(!mp_nest_replay(&n, &c, latency, &r));
   n.order[1] = 1;
   n.trips[1] = 0;                       /* no iteration */
   ck_assert(!mp_nest_replay(&n, &c, latency, &r));
   n.trips[1] = 64;
   n.n_refs = 0;
   ck_assert(!mp_nest_replay(&n, &c, latency, &r));
   n.n_refs = 1;
   c.level[0].assoc = 3;                 /* a bad cache */
   ck_assert(!mp_nest_replay(&n, &c, latency, &r));
}
END_TEST

static Suite *nest_suite(void)
{
   Suite *s = suite_create("nest_replay");
   TCase *tc = tcase_create("core");
   tcase_add_test(tc, test_column_walk);
   tcase_add_test(tc, test_is_the_written_nest);
   tcase_add_test(tc, test_limit);
   tcase_add_test(tc, test_tiled);
   tcase_add_test(tc, test_padded_rows);
   tcase_add_test(tc, test_shifted_start);
   tcase_add_test(tc, test_refused);
   suite_add_tcase(s, tc);
   return s;
}

int main(void)
{
   return mp_test_run(nest_suite());
}
