/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_whatif: a replay without a map is the same
   simulation as feeding the accesses to a cache directly; the budgets;
   a split map on StructSlim's Figure 1 pattern halves the misses (the
   loop reads 8 of every 16 bytes: split, it reads 8 of 8). */
#include "mp_whatif.h"
#include "mp_test.h"

/* 1 KiB direct-mapped-ish: 4 sets of 4 ways, 64-byte lines, one core. */
static mp_cache_cfg small_cache(uint32_t cores)
{
   mp_cache_cfg c;
   memset(&c, 0, sizeof c);
   c.n_levels = 1;
   c.level[0].size = 1024;
   c.level[0].assoc = 4;
   c.level[0].line = 64;
   c.level[0].shared_by = 1;
   c.cores = cores;
   return c;
}

static const uint32_t latency[2] = { 4, 200 };

START_TEST(test_identity_is_direct)
{
   mp_cache_cfg c = small_cache(2);
   mp_whatif *w = mp_whatif_new(1 << 20, 1 << 20);
   mp_cache *direct;
   const char *err;
   mp_whatif_run r;
   uint64_t misses = 0, cycles = 0;
   uint32_t i;
   rng_state = 42;
   direct = mp_cache_new(&c, &err);
   for (i = 0; i < 50000; i++) {
      uint64_t addr = 0x10000 + rng() % 8192;
      uint32_t size = 1u << (rng() % 4), core = (uint32_t)(rng() % 2);
      int wr = rng() % 3 == 0;
      mp_cache_outcome o;
      mp_whatif_record(w, 7, addr, 0x10000, size, wr, core);
      mp_cache_access(direct, core, addr, size, wr, 7, 0, &o);
      misses += o.missed[0];
      cycles += latency[o.served_by];
   }
   ck_assert(mp_whatif_replay(w, 7, &c, latency, NULL, NULL, &r));
   ck_assert_uint_eq(r.accesses, 50000);
   ck_assert_uint_eq(r.misses[0], misses);
   ck_assert_uint_eq(r.cycles, cycles);
   ck_assert(mp_whatif_complete(w, 7));
   ck_assert(!mp_whatif_replay(w, 8, &c, latency, NULL, NULL, &r));   /* nothing recorded */
   mp_cache_free(direct);
   mp_whatif_free(w);
}
END_TEST

START_TEST(test_budgets)
{
   mp_whatif *w = mp_whatif_new(100, 150);
   uint32_t i;
   for (i = 0; i < 120; i++)
      mp_whatif_record(w, 1, 0x1000 + i, 0x1000, 4, 0, 0);
   for (i = 0; i < 120; i++)
      mp_whatif_record(w, 2, 0x9000 + i, 0x9000, 4, 0, 0);
   ck_assert_uint_eq(mp_whatif_recorded(w, 1), 100);   /* per variable */
   ck_assert_uint_eq(mp_whatif_recorded(w, 2), 50);    /* what is left in all */
   ck_assert(!mp_whatif_complete(w, 1));
   mp_whatif_reset(w);
   ck_assert_uint_eq(mp_whatif_recorded(w, 1), 0);
   mp_whatif_free(w);
}
END_TEST

/* mp_whatif_count_spent, then mp_whatif_record when it declines, keeps
   the same traces and counts as mp_whatif_record alone, and declines
   until a budget (of the variable, then of all) is spent. */
START_TEST(test_count_spent)
{
   mp_whatif *all = mp_whatif_new(100, 250), *counted = mp_whatif_new(100, 250);
   uint32_t i, declined = 0;
   rng_state = 7;
   for (i = 0; i < 2000; i++) {
      uint32_t var = (uint32_t)(rng() % 4);
      uint64_t addr = 0x1000 * (var + 1) + rng() % 256;
      mp_whatif_record(all, var, addr, 0x1000 * (var + 1), 4, 0, 0);
      if (!mp_whatif_count_spent(counted, var)) {
         declined++;
         mp_whatif_record(counted, var, addr, 0x1000 * (var + 1), 4, 0, 0);
      }
      ck_assert_uint_eq(mp_whatif_recorded(counted, var), mp_whatif_recorded(all, var));
      ck_assert_int_eq(mp_whatif_complete(counted, var), mp_whatif_complete(all, var));
   }
   ck_assert_uint_eq(declined, 250);   /* the whole budget, and no more */
   mp_whatif_free(all);
   mp_whatif_free(counted);
}
END_TEST

/* struct { int a, b, c, d } x[N], the loop reads a and c: the split puts
   { a, c } in 8-byte records. */
static uint64_t split_ac(void *arg, const mp_whatif_access *a)
{
   uint64_t o = a->addr - a->block, e = o / 16, f = o % 16;
   (void)arg;
   if (f == 0 || f == 8)
      return (1ULL << 44) + a->block + e * 8 + (f == 0 ? 0 : 4);
   return (2ULL << 44) + a->block + e * 8 + (f == 4 ? 0 : 4);
}

START_TEST(test_split_halves_misses)
{
   mp_cache_cfg c = small_cache(1);
   mp_whatif *w = mp_whatif_new(1 << 20, 1 << 20);
   mp_whatif_run before, after;
   uint64_t block = 0x40000, i;
   const uint64_t n = 4096;            /* 64 KiB of structs: much more than 1 KiB */
   for (i = 0; i < n; i++) {
      mp_whatif_record(w, 3, block + 16 * i, block, 4, 0, 0);
      mp_whatif_record(w, 3, block + 16 * i + 8, block, 4, 0, 0);
   }
   ck_assert(mp_whatif_replay(w, 3, &c, latency, NULL, NULL, &before));
   ck_assert(mp_whatif_replay(w, 3, &c, latency, split_ac, NULL, &after));
   /* before: one miss per 64-byte line = per 4 elements; after: per 8 */
   ck_assert_uint_eq(before.misses[0], n / 4);
   ck_assert_uint_eq(after.misses[0], n / 8);
   ck_assert_uint_eq(before.cycles, (2 * n - n / 4) * 4 + (n / 4) * 200);
   mp_whatif_free(w);
}
END_TEST

static Suite *whatif_suite(void)
{
   Suite *s = suite_create("whatif");
   TCase *tc = tcase_create("core");
   tcase_add_test(tc, test_identity_is_direct);
   tcase_add_test(tc, test_budgets);
   tcase_add_test(tc, test_count_spent);
   tcase_add_test(tc, test_split_halves_misses);
   suite_add_tcase(s, tc);
   return s;
}

int main(void)
{
   return mp_test_run(whatif_suite());
}
