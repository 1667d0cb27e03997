/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_fusion_replay: both orders are the loops written out
   by hand and fed to a cache; fusing two sweeps over the same arrays
   saves the second sweep's misses; the dependence check agrees with a
   brute-force comparison of every pair of accesses in both orders, on
   hand-made cases and on random nests. */
#include <stdlib.h>
#include "mp_fusion_replay.h"
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

#define N 512
#define A 0x100000
#define B 0x200000
#define C 0x300000

static mp_nest_ref ref(uint64_t base, int64_t step, int is_write, uint64_t pc)
{
   mp_nest_ref r;
   memset(&r, 0, sizeof r);
   r.base = base;
   r.step[0] = step;
   r.size = 8;
   r.is_write = is_write;
   r.pc = pc;
   return r;
}

static mp_nest one_loop(const mp_nest_ref *refs, uint32_t n_refs, uint64_t trips)
{
   mp_nest n;
   memset(&n, 0, sizeof n);
   n.n_loops = 1;
   n.trips[0] = trips;
   n.refs = refs;
   n.n_refs = n_refs;
   return n;
}

/* for i: b[i] = 2 * a[i];  for i: c[i] = b[i] + a[i]; */
static void two_sweeps(mp_nest_ref *ra, mp_nest_ref *rb, mp_nest *pa, mp_nest *pb)
{
   ra[0] = ref(A, 8, 0, 0x1000);
   ra[1] = ref(B, 8, 1, 0x1004);
   rb[0] = ref(B, 8, 0, 0x2000);
   rb[1] = ref(A, 8, 0, 0x2004);
   rb[2] = ref(C, 8, 1, 0x2008);
   *pa = one_loop(ra, 2, N);
   *pb = one_loop(rb, 3, N);
}

static void feed(mp_cache *c, mp_whatif_run *out, uint64_t addr, int is_write, uint64_t pc)
{
   mp_cache_outcome o;
   mp_cache_access(c, 0, addr, 8, is_write, 0, pc, &o);
   mp_whatif_count(out, &o, 1, latency);
}

START_TEST(test_is_the_written_loops)
{
   mp_cache_cfg cfg = small_cache();
   mp_nest_ref ra[2], rb[3];
   mp_nest pa, pb;
   const mp_nest *parts[2] = { &pa, &pb };
   mp_whatif_run seq, fused, want;
   mp_cache *c;
   uint64_t i;
   two_sweeps(ra, rb, &pa, &pb);
   ck_assert_uint_eq(mp_fusion_accesses(parts, 2, 0), 5 * N);
   ck_assert(mp_fusion_replay(parts, 2, 0, 0, 0, &cfg, latency, &seq));
   ck_assert(mp_fusion_replay(parts, 2, 0, 1, 0, &cfg, latency, &fused));
   /* as they ran */
   memset(&want, 0, sizeof want);
   c = mp_whatif_new_cache(&cfg);
   for (i = 0; i < N; i++) {
      feed(c, &want, A + 8 * i, 0, 0x1000);
      feed(c, &want, B + 8 * i, 1, 0x1004);
   }
   for (i = 0; i < N; i++) {
      feed(c, &want, B + 8 * i, 0, 0x2000);
      feed(c, &want, A + 8 * i, 0, 0x2004);
      feed(c, &want, C + 8 * i, 1, 0x2008);
   }
   mp_cache_free(c);
   ck_assert_uint_eq(seq.accesses, want.accesses);
   ck_assert_uint_eq(seq.misses[0], want.misses[0]);
   ck_assert_uint_eq(seq.cycles, want.cycles);
   /* 4 KiB per array through a 1 KiB cache: each sweep misses once
      per line of each array it walks (64 lines each) */
   ck_assert_uint_eq(seq.misses[0], 5 * N / 8);
   /* fused: the second body finds a and b's lines */
   memset(&want, 0, sizeof want);
   c = mp_whatif_new_cache(&cfg);
   for (i = 0; i < N; i++) {
      feed(c, &want, A + 8 * i, 0, 0x1000);
      feed(c, &want, B + 8 * i, 1, 0x1004);
      feed(c, &want, B + 8 * i, 0, 0x2000);
      feed(c, &want, A + 8 * i, 0, 0x2004);
      feed(c, &want, C + 8 * i, 1, 0x2008);
   }
   mp_cache_free(c);
   ck_assert_uint_eq(fused.misses[0], want.misses[0]);
   ck_assert_uint_eq(fused.cycles, want.cycles);
   ck_assert_uint_eq(fused.misses[0], 3 * N / 8);
}
END_TEST

START_TEST(test_trips_limit_and_unequal)
{
   mp_cache_cfg cfg = small_cache();
   mp_nest_ref ra[2], rb[3];
   mp_nest pa, pb;
   const mp_nest *parts[2] = { &pa, &pb };
   mp_whatif_run seq, fused;
   two_sweeps(ra, rb, &pa, &pb);
   ck_assert_uint_eq(mp_fusion_accesses(parts, 2, 100), 500);
   pb.trips[0] = 10;
   /* the fused loop runs the longer part's iterations, the shorter
      spread over them */
   ck_assert(mp_fusion_replay(parts, 2, 0, 1, 0, &cfg, latency, &fused));
   ck_assert(mp_fusion_replay(parts, 2, 0, 0, 0, &cfg, latency, &seq));
   ck_assert_uint_eq(fused.accesses, 2 * N + 30);
   ck_assert_uint_eq(seq.accesses, fused.accesses);
   /* under a limit, each part keeps the same share of its iterations
      (a quarter of both here), so that both cover the same data */
   pb.trips[0] = N / 2;
   ck_assert_uint_eq(mp_fusion_accesses(parts, 2, N / 4), N / 4 * 2 + N / 8 * 3);
}
END_TEST

/* Warm: the second pass of the order is counted; loops whose data fit
   the cache miss only cold, and warm not at all. */
START_TEST(test_warm)
{
   mp_cache_cfg cfg = small_cache();
   mp_nest_ref ra[2], rb[3];
   mp_nest pa, pb;
   const mp_nest *parts[2] = { &pa, &pb };
   mp_whatif_run cold, warm;
   two_sweeps(ra, rb, &pa, &pb);
   pa.trips[0] = pb.trips[0] = 16;       /* 2 lines of each array */
   ck_assert(mp_fusion_replay(parts, 2, 0, 0, 0, &cfg, latency, &cold));
   ck_assert(mp_fusion_replay(parts, 2, 0, 0, 1, &cfg, latency, &warm));
   ck_assert_uint_eq(cold.accesses, 80);
   ck_assert_uint_eq(cold.misses[0], 6);
   ck_assert_uint_eq(warm.accesses, 80);
   ck_assert_uint_eq(warm.misses[0], 0);
   ck_assert_uint_eq(warm.cycles, 80 * 4);
}
END_TEST

START_TEST(test_refused)
{
   mp_cache_cfg cfg = small_cache();
   mp_nest_ref ra[2], rb[3];
   mp_nest pa, pb;
   const mp_nest *parts[2] = { &pa, &pb };
   mp_whatif_run r;
   two_sweeps(ra, rb, &pa, &pb);
   ck_assert(!mp_fusion_replay(parts, 0, 0, 1, 0, &cfg, latency, &r));
   pb.n_refs = 0;
   ck_assert(!mp_fusion_replay(parts, 2, 0, 1, 0, &cfg, latency, &r));
   pb.n_refs = 3;
   cfg.level[0].assoc = 3;
   ck_assert(!mp_fusion_replay(parts, 2, 0, 1, 0, &cfg, latency, &r));
}
END_TEST

/*--- The dependences, by brute force ---*/

typedef struct {
   uint32_t part;
   uint64_t i, addr, size;
   int is_write;
   int moves;               /* its reference steps along a loop */
   uint32_t seq, fused;     /* positions in either order */
} access;

typedef struct {
   access *a;
   uint32_t n, cap;
   int fused;
} list;

/* The accesses of parts in sequence, their positions fused filled in
   by matching (part, iteration, index within the iteration). */
static void list_accesses(const mp_nest *const *parts, uint32_t k, list *l)
{
   uint32_t p, r, pos = 0;
   uint64_t i, most = 0, j, inner;
   l->n = 0;
   for (p = 0; p < k; p++) {
      inner = parts[p]->n_loops > 1 ? parts[p]->trips[1] : 1;
      for (i = 0; i < parts[p]->trips[0]; i++)
         for (j = 0; j < inner; j++)
            for (r = 0; r < parts[p]->n_refs; r++) {
               const mp_nest_ref *x = &parts[p]->refs[r];
               access *a = &l->a[l->n];
               a->part = p;
               a->i = i;
               a->addr = x->base + (uint64_t)x->step[0] * i
                         + (parts[p]->n_loops > 1 ? (uint64_t)x->step[1] * j : 0);
               a->size = x->size;
               a->is_write = x->is_write;
               a->moves = x->step[0] != 0
                          || (parts[p]->n_loops > 1 && x->step[1] != 0);
               a->seq = l->n++;
            }
      if (parts[p]->trips[0] > most)
         most = parts[p]->trips[0];
   }
   /* fused: part by part, the iterations the fused loop's iteration s
      runs: of the first part, those it places first (it floor(it *
      most / t) = s), of the others those it places last (ceil((it + 1)
      * most / t) - 1 = s) */
   for (i = 0; i < most; i++)
      for (p = 0; p < k; p++) {
         uint64_t t = parts[p]->trips[0], it;
         for (it = 0; it < t; it++) {
            uint64_t at = 2 * t > most ? it
                          : p == 0 ? it * most / t : ((it + 1) * most + t - 1) / t - 1;
            uint32_t x;
            if (at != i)
               continue;
            for (x = 0; x < l->n; x++)
               if (l->a[x].part == p && l->a[x].i == it)
                  l->a[x].fused = pos++;
         }
      }
}

static int overlap(const access *x, const access *y)
{
   return x->addr < y->addr + y->size && y->addr < x->addr + x->size;
}

/* Whether byte b is a loop's own state: no moving reference touches
   it, and the parts that load it are those that store it. */
static int loop_state(const list *l, uint64_t b)
{
   uint32_t x, loaded = 0, stored = 0;
   for (x = 0; x < l->n; x++) {
      const access *a = &l->a[x];
      if (a->addr > b || a->addr + a->size <= b)
         continue;
      if (a->moves)
         return 0;
      if (a->is_write)
         stored |= 1u << a->part;
      else
         loaded |= 1u << a->part;
   }
   return loaded == stored;
}

/* Whether two accesses of different parts, one storing, to a byte not
   a loop's own state, run in the other order fused.  (Each byte's
   loop_state is asked once: memo, over the bytes from the lowest
   access to the highest, -1 not yet asked.) */
static int brute_broken(const mp_nest *const *parts, uint32_t k)
{
   list l;
   uint32_t x, y;
   uint64_t b, lo = UINT64_MAX, hi = 0;
   signed char *memo;
   int broken = 0;
   l.a = calloc(4096, sizeof *l.a);
   list_accesses(parts, k, &l);
   for (x = 0; x < l.n; x++) {
      lo = l.a[x].addr < lo ? l.a[x].addr : lo;
      hi = l.a[x].addr + l.a[x].size > hi ? l.a[x].addr + l.a[x].size : hi;
   }
   memo = malloc(hi > lo ? hi - lo : 1);
   memset(memo, -1, hi > lo ? hi - lo : 1);
   for (x = 0; x < l.n && !broken; x++)
      for (y = x + 1; y < l.n && !broken; y++)
         if (l.a[x].part != l.a[y].part && (l.a[x].is_write || l.a[y].is_write)
             && overlap(&l.a[x], &l.a[y]) && l.a[x].fused > l.a[y].fused)
            for (b = l.a[x].addr; b < l.a[x].addr + l.a[x].size && !broken; b++) {
               if (b < l.a[y].addr || b >= l.a[y].addr + l.a[y].size)
                  continue;
               if (memo[b - lo] < 0)
                  memo[b - lo] = (signed char)loop_state(&l, b);
               broken = !memo[b - lo];
            }
   free(memo);
   free(l.a);
   return broken;
}

START_TEST(test_dependence_by_hand)
{
   mp_nest_ref ra[2], rb[3];
   mp_nest pa, pb;
   const mp_nest *parts[2] = { &pa, &pb };
   uint32_t e = 9, l = 9, r = 9;
   uint64_t addr = 0;
   two_sweeps(ra, rb, &pa, &pb);
   /* b[i] written, then read at the same i: fusable */
   ck_assert(!mp_fusion_dependence(parts, 2, 0, &e, &l, &r, &addr));
   ck_assert(!brute_broken(parts, 2));
   /* the same of floats: b[i] and b[i + 1] share 8 bytes but are two
      elements, the first stored at i + 1 after the second's i read b[i] */
   ra[0].size = ra[1].size = rb[0].size = rb[1].size = rb[2].size = 4;
   ra[0].step[0] = ra[1].step[0] = rb[0].step[0] = rb[1].step[0] = rb[2].step[0] = 4;
   ck_assert(!mp_fusion_dependence(parts, 2, 0, &e, &l, &r, &addr));
   ck_assert(!brute_broken(parts, 2));
   /* reading b[i + 1] of floats is broken, at the float */
   rb[0].base = B + 4;
   ck_assert(mp_fusion_dependence(parts, 2, 0, &e, &l, &r, &addr));
   ck_assert_uint_eq(addr, B + 4);
   ck_assert(brute_broken(parts, 2));
   /* a read of two floats at once (8 bytes, b[2i] and b[2i + 1]) makes
      the variable's granule no wider: b[i + 1] still breaks it */
   rb[1] = ref(B, 8, 0, 0x2004);
   ck_assert(mp_fusion_dependence(parts, 2, 0, &e, &l, &r, &addr));
   ck_assert(brute_broken(parts, 2));
   two_sweeps(ra, rb, &pa, &pb);
   /* the second loop reads b[i + 1]: written by the first at i + 1,
      after the fused iteration i */
   rb[0].base = B + 8;
   ck_assert(mp_fusion_dependence(parts, 2, 0, &e, &l, &r, &addr));
   ck_assert_uint_eq(e, 0);
   ck_assert_uint_eq(l, 1);
   ck_assert_uint_eq(r, 0);
   ck_assert_uint_eq(addr, B + 8);
   ck_assert(brute_broken(parts, 2));
   /* with one iteration fewer, the second loop's iteration i still runs
      with the first's i, as fusing by hand does */
   pb.trips[0] = N - 1;
   ck_assert(mp_fusion_dependence(parts, 2, 0, &e, &l, &r, &addr));
   ck_assert(brute_broken(parts, 2));
   /* the second loop vectorised by two (half the iterations, 16 bytes
      each), reading b[2i + 2] and b[2i + 3]: spread over the first's,
      its iteration 0 runs in the fused loop's iteration 2, after b[2]
      was stored but before b[3]: broken */
   rb[0] = ref(B + 16, 16, 0, 0x2000);
   rb[0].size = 16;
   rb[1] = ref(A, 16, 0, 0x2004);
   rb[2] = ref(C, 16, 1, 0x2008);
   pb.trips[0] = N / 2 - 1;
   ck_assert(mp_fusion_dependence(parts, 2, 0, &e, &l, &r, &addr));
   ck_assert(brute_broken(parts, 2));
   /* reading b[2i] and b[2i + 1]: stored by the first's 2i and 2i + 1,
      both by its step 2i + 1 */
   rb[0].base = B;
   pb.trips[0] = N / 2;
   ck_assert(!mp_fusion_dependence(parts, 2, 0, &e, &l, &r, &addr));
   ck_assert(!brute_broken(parts, 2));
   two_sweeps(ra, rb, &pa, &pb);
   rb[0].base = B + 8;
   /* b[i - 1] is fine: written at an earlier iteration */
   rb[0].base = B - 8;
   ck_assert(!mp_fusion_dependence(parts, 2, 0, &e, &l, &r, &addr));
   /* a sum kept in memory (step 0) written by the first, read by the
      second: the second's first iteration reads it before the first
      loop's later iterations wrote it */
   ra[1] = ref(B, 0, 1, 0x1004);
   rb[0] = ref(B, 0, 0, 0x2000);
   ck_assert(mp_fusion_dependence(parts, 2, 0, &e, &l, &r, &addr));
   ck_assert(brute_broken(parts, 2));
   /* a counter each loop loads and stores in place: each loop's own */
   ra[1] = ref(B, 0, 1, 0x1004);
   ra[0] = ref(B, 0, 0, 0x1000);
   rb[0] = ref(B, 0, 0, 0x2000);
   rb[1] = ref(B, 0, 1, 0x2004);
   ck_assert(!mp_fusion_dependence(parts, 2, 0, &e, &l, &r, &addr));
   ck_assert(!brute_broken(parts, 2));
   /* unless an array walk touches it too */
   rb[2] = ref(B - 8 * 100, 8, 0, 0x2008);
   pb.trips[0] = 200;
   ck_assert(mp_fusion_dependence(parts, 2, 0, &e, &l, &r, &addr));
   ck_assert(brute_broken(parts, 2));
   two_sweeps(ra, rb, &pa, &pb);
   ra[1] = ref(B, 0, 1, 0x1004);
   rb[0] = ref(B, 0, 0, 0x2000);
   /* two loops that only read the same data never depend */
   ra[1].is_write = 0;
   ck_assert(!mp_fusion_dependence(parts, 2, 0, &e, &l, &r, &addr));
   /* the second loop reads b[i + 1], a dependence, unless the bytes are
      another variable's when it reads them (a stack slot the compiler
      gave to two scopes' locals) */
   two_sweeps(ra, rb, &pa, &pb);
   rb[0].base = B + 8;
   ra[1].var = 1;
   rb[0].var = 1;
   ck_assert(mp_fusion_dependence(parts, 2, 0, &e, &l, &r, &addr));
   rb[0].var = 2;
   ck_assert(!mp_fusion_dependence(parts, 2, 0, &e, &l, &r, &addr));
}
END_TEST

START_TEST(test_dependence_random)
{
   uint32_t t, broken = 0;
   srand(7);
   for (t = 0; t < 400; t++) {
      mp_nest_ref refs[3][3];
      mp_nest nests[3];
      const mp_nest *parts[3] = { &nests[0], &nests[1], &nests[2] };
      uint32_t k = 2 + (uint32_t)rand() % 2, p, r, e, l, x;
      int floats = rand() % 4 == 0;
      uint64_t addr;
      for (p = 0; p < k; p++) {
         uint32_t n_refs = 1 + (uint32_t)rand() % 3;
         for (r = 0; r < n_refs; r++) {
            /* doubles, and in one case in four floats: widths of 4, 8
               and 16 bytes at 4-byte steps */
            uint32_t w = floats ? 4 : 8;
            refs[p][r] = ref(0x1000 + w * (uint64_t)(rand() % 8), (int64_t)w * (rand() % 3 - 1),
                             rand() % 2, 0x100 * p + r);
            refs[p][r].step[1] = (int64_t)w * (rand() % 2);
            refs[p][r].size = rand() % 4 == 0 ? 16 : floats && rand() % 2 ? 8 : w;
         }
         nests[p] = one_loop(refs[p], n_refs, 1 + (uint64_t)(rand() % 6));
         if (rand() % 2) {
            nests[p].n_loops = 2;
            nests[p].trips[1] = 1 + (uint64_t)(rand() % 3);
         }
      }
      ck_assert_int_eq(mp_fusion_dependence(parts, k, 0, &e, &l, &x, &addr),
                       brute_broken(parts, k));
      broken += brute_broken(parts, k);
   }
   /* both outcomes are met */
   ck_assert_uint_gt(broken, 40);
   ck_assert_uint_lt(broken, 360);
}
END_TEST

static Suite *fusion_suite(void)
{
   Suite *s = suite_create("fusion_replay");
   TCase *tc = tcase_create("core");
   tcase_add_test(tc, test_is_the_written_loops);
   tcase_add_test(tc, test_trips_limit_and_unequal);
   tcase_add_test(tc, test_warm);
   tcase_add_test(tc, test_refused);
   tcase_add_test(tc, test_dependence_by_hand);
   tcase_add_test(tc, test_dependence_random);
   suite_add_tcase(s, tc);
   return s;
}

int main(void)
{
   return mp_test_run(fusion_suite());
}
