/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the parts of the cache simulation that stand on their
   own (mp_cache_int.h), each against a brute-force reference written
   here: coherence's set of invalidated lines (a plain array of flags),
   the miss causes' fully-associative shadows, exact and sampled (a
   plain MRU-first list, searched linearly), and the cold bits as cores
   become active and lines spread over many chunks (a bit mask per line
   of the cores that accessed it).  The whole simulation is checked
   against its own reference in test_cache.c; here each part's own
   structure is, on streams that reach its rare paths (growth, wrap-
   around, deletion, respreading) far more often. */
#include "mp_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_cache.h"
#include "mp_cache_int.h"

static mp_cache_cfg one_level(uint32_t cores, uint64_t size, uint32_t assoc,
                              uint32_t sample_shift)
{
   mp_cache_cfg cfg;
   memset(&cfg, 0, sizeof cfg);
   cfg.n_levels = 1;
   cfg.cores = cores;
   cfg.level[0].size = size;
   cfg.level[0].assoc = assoc;
   cfg.level[0].line = 64;
   cfg.level[0].shared_by = 1;
   cfg.sample_shift = sample_shift;
   return cfg;
}

static mp_cache *new_or_fail(mp_cache_cfg cfg)
{
   const char *err = NULL;
   mp_cache *c = mp_cache_new(&cfg, &err);
   ck_assert_msg(c != NULL, "mp_cache_new: %s", err ? err : "?");
   return c;
}

/*------------------------------------------------------------*/
/*--- Coherence: the lines invalidated at an instance      ---*/
/*------------------------------------------------------------*/

/* Key k's line number: runs of consecutive lines (what the hash spreads
   best), lines a power of two apart (what it spreads worst) and lines
   near the top of the line numbers. */
static uint64_t key_line(uint32_t k)
{
   switch (k % 3) {
   case 0:  return k;
   case 1:  return (uint64_t)k << 20;
   default: return (1ULL << 58) - 1 - k;
   }
}

START_TEST(test_lineset)
{
   enum { KEYS = 3000 };
   mp_cache *c = new_or_fail(one_level(1, 32768, 8, 0));
   lineset s;
   uint8_t *in = calloc(KEYS, 1);
   uint32_t n = 0, i, k;
   memset(&s, 0, sizeof s);
   rng_state = 0x243f6a8885a308d3ULL;
   /* Mostly adds, then mostly removes, then even: the set grows, shrinks
      to empty and grows again. */
   for (i = 0; i < 300000; i++) {
      uint32_t add_in_8 = i < 100000 ? 6 : i < 200000 ? 1 : 4;
      k = (uint32_t)(rng() % KEYS);
      if (rng() % 8 < add_in_8) {
         mpc_lineset_add(c, &s, key_line(k));
         n += !in[k];
         in[k] = 1;
      } else {
         int was = mpc_lineset_remove(&s, key_line(k));
         ck_assert_msg(was == in[k], "step %u: remove of key %u said %d, expected %d",
                       i, k, was, in[k]);
         n -= in[k];
         in[k] = 0;
      }
      ck_assert_uint_eq(s.n, n);
      ck_assert_uint_le(2 * s.n, s.cap);
   }
   /* What is left: each key present exactly when the reference says. */
   for (k = 0; k < KEYS; k++) {
      int was = mpc_lineset_remove(&s, key_line(k));
      ck_assert_int_eq(was, in[k]);
   }
   ck_assert_uint_eq(s.n, 0);
   ck_assert_int_eq(mpc_lineset_remove(&s, key_line(7)), 0);
   mpc_lineset_free(&s);
   free(in);
   mp_cache_free(c);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Miss causes: the fully-associative shadows           ---*/
/*------------------------------------------------------------*/

/* A fully-associative LRU cache of cap lines: a list, MRU first. */
typedef struct {
   uint64_t *line;
   uint32_t n, cap;
} lru_ref;

/* Accesses line; returns whether it hit. */
static int lru_access(lru_ref *r, uint64_t line)
{
   uint32_t i, hit = 0;
   for (i = 0; i < r->n; i++)
      if (r->line[i] == line) {
         hit = 1;
         break;
      }
   if (!hit && r->n < r->cap)
      r->n++;
   if (i == r->n)
      i = r->n - 1;   /* a miss in a full list drops the LRU line */
   memmove(&r->line[1], &r->line[0], i * sizeof(uint64_t));
   r->line[0] = line;
   return hit;
}

/* The lines of the shadow test: a working set of about 1.5 times the
   shadow (key k of 3 * cap / 2), each key a line of key_line's kinds. */
static uint64_t shadow_line(uint32_t cap)
{
   /* Now and then a line never seen again, far away. */
   if (rng() % 64 == 0)
      return (rng() >> 8) | 1ULL << 56;
   return key_line((uint32_t)(rng() % (3 * cap / 2)));
}

/* Runs n accesses through the shadow of the one level of c (made here
   as instance_alloc would) and through the reference, as the core does:
   a line whose last node the test remembers (as a way does) is stepped
   through that node (fa_access_hinted, then mpc_fa_insert on a miss),
   else through the line's own hint or the hash table (fa_access). */
static void check_shadow(mp_cache *c, uint32_t n, const char *what)
{
   instance in;
   lru_ref r;
   uint32_t i, hits = 0;
   enum { MEMO = 4096 };
   uint64_t memo_line[MEMO];
   uint32_t memo_node[MEMO];
   memset(&in, 0, sizeof in);
   in.exact_id = -1;
   mpc_add_shadow(c, 0, &in);
   ck_assert_uint_gt(in.fa.cap, 0);
   ck_assert_int_eq(in.exact_id >= 0, c->lv[0].sample_shift == 0);
   ck_assert_int_eq(in.fa.slot != NULL, c->lv[0].sample_shift > 0);
   r.cap = in.fa.cap;
   r.n = 0;
   r.line = malloc(r.cap * sizeof(uint64_t));
   memset(memo_line, 0xff, sizeof memo_line);
   for (i = 0; i < n; i++) {
      uint64_t line = shadow_line(in.fa.cap);
      uint32_t m = (uint32_t)(mp_mix64(line) % MEMO), node;
      int want = lru_access(&r, line), got;
      if (memo_line[m] == line && rng() % 2) {
         got = fa_access_hinted(&in.fa, line, memo_node[m]);
         node = got ? memo_node[m] : mpc_fa_insert(&in.fa, line, shadow_hint(c, &in, line));
      } else {
         got = fa_access(&in.fa, line, shadow_hint(c, &in, line), &node);
      }
      ck_assert_msg(got == want, "%s, step %u: line %llx %s in the shadow, %s in the "
                    "reference", what, i, (unsigned long long)line,
                    got ? "hit" : "missed", want ? "hit" : "missed");
      ck_assert_uint_lt(node, in.fa.used);
      ck_assert_uint_eq(in.fa.node[node].key, line);
      ck_assert_uint_eq(in.fa.head, node);
      memo_line[m] = line;
      memo_node[m] = node;
      hits += want;
   }
   /* Both outcomes often enough to mean something. */
   ck_assert_msg(hits > n / 10 && hits < n - n / 10, "%s: %u hits of %u", what, hits, n);
   /* The list, MRU to LRU, is the reference's; a sampled shadow's table
      finds every line it holds, and holds nothing else. */
   ck_assert_uint_eq(in.fa.used, r.n);
   {
      uint32_t x = in.fa.head, j, slots = 0;
      for (j = 0; j < r.n; j++) {
         ck_assert_uint_ne(x, NIL);
         ck_assert_uint_eq(in.fa.node[x].key, r.line[j]);
         if (in.fa.slot)
            ck_assert_uint_eq(fa_find(&in.fa, r.line[j], fa_hash(r.line[j])), x);
         x = in.fa.node[x].next;
      }
      ck_assert_uint_eq(x, NIL);
      if (in.fa.slot) {
         for (j = 0; j <= in.fa.smask; j++)
            slots += in.fa.slot[j].node != 0;
         ck_assert_uint_eq(slots, in.fa.used);
      }
   }
   free(r.line);
   mpc_shadow_free(&in);
}

START_TEST(test_shadows)
{
   /* Exact: 512 lines, found through the lines' hints. */
   mp_cache *c = new_or_fail(one_level(1, 32768, 8, 0));
   rng_state = 0x13198a2e03707344ULL;
   check_shadow(c, 200000, "exact shadow of 512 lines");
   mp_cache_free(c);
   /* Sampled 1/16: 16384 lines, a shadow of 1024, found through its
      hash table (the test feeds it every line: the sample is the
      caller's). */
   c = new_or_fail(one_level(1, 1 << 20, 8, MP_CACHE_SAMPLED_SHIFT));
   ck_assert_uint_eq(c->lv[0].sample_shift, MP_CACHE_SAMPLED_SHIFT);
   rng_state = 0xa4093822299f31d0ULL;
   check_shadow(c, 200000, "sampled shadow of 1024 lines");
   mp_cache_free(c);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Cold bits                                            ---*/
/*------------------------------------------------------------*/

/* 40 cores, each with a private L1 of 16 lines, all sharing an L2: a
   miss is cold at a core's L1 exactly when that core never accessed
   the line, and at the L2 when no core did.  The cores become active
   one by one (the cold bits widen from 1 to 8 bytes per line while
   chunks exist), and the lines spread over 256 chunks (the chunks'
   table grows) with a hot set that hits. */
START_TEST(test_cold_bits)
{
   enum { CORES = 40, LINES = 1 << 20, HOT = 64 };
   mp_cache_cfg cfg = one_level(CORES, 1024, 2, 0);
   mp_cache *c;
   uint64_t *mask = calloc(LINES, sizeof(uint64_t));
   uint32_t i, cold = 0, hits = 0;
   cfg.n_levels = 2;
   cfg.level[1] = cfg.level[0];
   cfg.level[1].size = 8192;
   cfg.level[1].assoc = 4;
   cfg.level[1].shared_by = CORES;
   c = new_or_fail(cfg);
   rng_state = 0x082efa98ec4e6c89ULL;
   for (i = 0; i < 400000; i++) {
      uint32_t active = 1 + i / 8000 < CORES ? 1 + i / 8000 : CORES;
      uint32_t core = (uint32_t)(rng() % active);
      uint64_t line = rng() % 2 ? rng() % HOT : rng() % LINES;
      int is_write = rng() % 5 == 0;
      mp_cache_outcome o;
      mp_cache_access(c, core, line * 64 + 8, 8, is_write, 0, 0, &o);
      if (o.missed[0]) {
         int want = !(mask[line] >> core & 1);
         ck_assert_msg((o.cause[0] == MP_MISS_COLD) == want, "step %u: core %u, line %llx: "
                       "L1 cause %u, expected %scold", i, core, (unsigned long long)line,
                       o.cause[0], want ? "" : "not ");
         cold += want;
      } else {
         ck_assert_msg(mask[line] >> core & 1, "step %u: core %u hit line %llx it never "
                       "accessed", i, core, (unsigned long long)line);
         hits++;
      }
      if (o.missed[1])
         ck_assert_msg((o.cause[1] == MP_MISS_COLD) == (mask[line] == 0),
                       "step %u: L2 cause %u for line %llx, accessed before by %llx", i,
                       o.cause[1], (unsigned long long)line, (unsigned long long)mask[line]);
      mask[line] |= 1ULL << core;
   }
   ck_assert_uint_eq(c->n_active, CORES);
   ck_assert_uint_eq(c->width, 8);
   ck_assert_uint_ge(c->n_chunks, 256);
   ck_assert_uint_gt(cold, 1000);
   ck_assert_uint_gt(hits, 1000);
   mp_cache_free(c);
   free(mask);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("cache_parts");
   TCase *tc = tcase_create("core");
   tcase_set_timeout(tc, 120);
   tcase_add_test(tc, test_lineset);
   tcase_add_test(tc, test_shadows);
   tcase_add_test(tc, test_cold_bits);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
