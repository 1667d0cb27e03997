/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_vars (per-variable and per-location counts, thread
   sets, footprint in cache lines) against a brute-force reference, of
   mp_report's rows (sorting, folding of small variables) and of
   mp_summary's (the program's ranked, identical rows merged, the rest
   folded per object), and of the exit summary's writer. */
#include "mp_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_advice.h"
#include "mp_exit_summary.h"
#include "mp_report.h"
#include "mp_summary.h"
#include "mp_util.h"
#include "mp_vars.h"

#define N_VARS 6
#define N_LOCS 5
#define N_TIDS 4
#define LINE 64

/* The reference: plain arrays, and the footprint as a list of every
   (var, line) pair seen, searched linearly. */
typedef struct {
   mp_counts var[N_VARS];
   mp_counts at[N_VARS][N_LOCS];
   int thread_seen[N_VARS][N_TIDS + 1];
   uint64_t *pairs;   /* var, line, var, line, ... */
   size_t n_pairs;
} reference;

static void ref_count(mp_counts *c, const mp_event *e)
{
   if (e->is_write) { c->writes++; c->write_bytes += e->size; }
   else             { c->reads++;  c->read_bytes += e->size; }
}

static int ref_has_pair(const reference *r, uint32_t var, uint64_t line)
{
   size_t k;
   for (k = 0; k < r->n_pairs; k++)
      if (r->pairs[2 * k] == var && r->pairs[2 * k + 1] == line)
         return 1;
   return 0;
}

static void ref_access(reference *r, const mp_event *e)
{
   uint64_t l;
   ref_count(&r->var[e->var], e);
   ref_count(&r->at[e->var][e->loc], e);
   r->thread_seen[e->var][e->tid] = 1;
   for (l = e->addr / LINE; l <= (e->addr + e->size - 1) / LINE; l++) {
      if (!ref_has_pair(r, e->var, l)) {
         r->pairs = realloc(r->pairs, (r->n_pairs + 1) * 2 * sizeof(uint64_t));
         r->pairs[2 * r->n_pairs] = e->var;
         r->pairs[2 * r->n_pairs + 1] = l;
         r->n_pairs++;
      }
   }
}

static uint64_t ref_lines(const reference *r, uint32_t var)
{
   uint64_t n = 0;
   size_t k;
   for (k = 0; k < r->n_pairs; k++)
      n += r->pairs[2 * k] == var;
   return n;
}

static uint32_t ref_threads(const reference *r, uint32_t var)
{
   uint32_t n = 0, t;
   for (t = 0; t <= N_TIDS; t++)
      n += r->thread_seen[var][t];
   return n;
}

static int counts_eq(const mp_counts *a, const mp_counts *b)
{
   return a->reads == b->reads && a->writes == b->writes
          && a->read_bytes == b->read_bytes && a->write_bytes == b->write_bytes;
}

/* Compares table and reference; returns the number of mismatches. */
static int compare(mp_vars *vs, const reference *r, uint32_t loc_ids[N_LOCS])
{
   int bad = 0;
   uint32_t v, l;
   for (v = 0; v < N_VARS; v++) {
      const mp_var *var = mp_vars_get(vs, v);
      bad += !counts_eq(&var->c, &r->var[v]);
      bad += var->lines != ref_lines(r, v);
      bad += var->n_threads != ref_threads(r, v);
      for (l = 0; l < N_LOCS; l++)
         bad += !counts_eq(&mp_vars_line_counts(vs, v, loc_ids[l])->c, &r->at[v][l]);
   }
   return bad;
}

/* shared: every variable draws from one small address space, as small
   heap blocks sharing lines do, with one access in eight on lines above
   2^44 (beyond the footprint's shadow); otherwise each variable has its
   own space. */
static void random_event(mp_event *e, uint32_t loc_ids[N_LOCS], uint32_t *loc_index,
                         int shared)
{
   static const uint32_t sizes[] = { 1, 2, 4, 8, 16, 32, 512 };
   memset(e, 0, sizeof *e);
   e->var = (uint32_t)(rng() % N_VARS);
   /* Small address space per variable, so lines repeat and straddles
      (an 8-byte access at offset 60) happen often. */
   e->addr = 0x10000 * (e->var + 1) + rng() % 4096;
   if (shared)
      e->addr = (rng() % 8 == 0 ? (1ULL << 52) : 0x10000) + rng() % 4096;
   e->size = sizes[rng() % 7];
   e->is_write = (uint32_t)(rng() & 1);
   e->tid = 1 + (uint32_t)(rng() % N_TIDS);
   *loc_index = (uint32_t)(rng() % N_LOCS);
   e->loc = loc_ids[*loc_index];
}

static mp_vars *make_table(uint32_t loc_ids[N_LOCS])
{
   mp_vars *vs = mp_vars_new(LINE);
   char name[16], where[16];
   uint32_t v, l;
   for (v = 0; v < N_VARS; v++) {
      snprintf(name, sizeof name, "v%u", v);
      mp_vars_add(vs, MP_VAR_HEAP, name, NULL, 100 * (v + 1));
   }
   for (l = 0; l < N_LOCS; l++) {
      snprintf(where, sizeof where, "t.c:%u", l + 1);
      loc_ids[l] = mp_vars_location(vs, where, "f");
   }
   return vs;
}

/* One access counted and flushed at once, as an instruction that moves
   to another variable after it would. */
static void access_now(mp_vars *vs, const mp_event *e)
{
   mp_held_counts h;
   memset(&h, 0, sizeof h);
   mp_vars_access(vs, e, &h);
   mp_vars_flush_held(vs, e->var, mp_vars_line_counts(vs, e->var, e->loc), &h);
}

/* What the tool's instruction record keeps of its counts (mp_instr):
   the variable it holds counts of, that variable's counts record at
   its location, and the counts held. */
typedef struct {
   uint32_t var;
   mp_line_counts *lc;
   mp_held_counts held;
} holder;

/* The holder of e's location, flushed first if it held another
   variable's counts (the tool's access helper). */
static holder *holder_for(mp_vars *vs, holder *hs, uint32_t li, const mp_event *e)
{
   holder *h = &hs[li];
   if (h->lc == NULL || h->var != e->var) {
      if (h->lc != NULL)
         mp_vars_flush_held(vs, h->var, h->lc, &h->held);
      h->lc = mp_vars_line_counts(vs, e->var, e->loc);
      h->var = e->var;
   }
   return h;
}

static void flush_holders(mp_vars *vs, holder *hs, uint32_t n)
{
   uint32_t i;
   for (i = 0; i < n; i++)
      if (hs[i].lc != NULL)
         mp_vars_flush_held(vs, hs[i].var, hs[i].lc, &hs[i].held);
}

static void random_run(int shared, int seed)
{
   uint32_t loc_ids[N_LOCS];
   mp_vars *vs = make_table(loc_ids);
   reference *r = calloc(1, sizeof *r);
   holder hs[N_LOCS];
   int i, in_footprint = 0;
   memset(hs, 0, sizeof hs);
   rng_state = 0x9e3779b97f4a7c15ULL + (uint64_t)seed;
   for (i = 0; i < 20000; i++) {
      mp_event e, ref_e;
      holder *h;
      uint32_t li;
      random_event(&e, loc_ids, &li, shared);
      ref_e = e;
      ref_e.loc = li;
      /* Each location is one instruction holding its counts; now and
         then every holder is flushed, as an output written while the
         run goes on does (an execve). */
      h = holder_for(vs, hs, li, &e);
      if (i % 997 == 0)
         flush_holders(vs, hs, N_LOCS);
      /* A third of the time after a prefetch, which changes nothing. */
      if (i % 3 == 0)
         mp_vars_prefetch(vs, &e, &h->held);
      /* An access of one line the variable touched before may come
         through the entry that skips the footprint (the tool's L1 hits
         on a line the variable filled): the footprint must not change. */
      if (e.addr / LINE == (e.addr + e.size - 1) / LINE
          && ref_has_pair(r, e.var, e.addr / LINE) && (i & 2)) {
         mp_vars_access_in_footprint(vs, &e, &h->held);
         in_footprint++;
      } else {
         mp_vars_access(vs, &e, &h->held);
      }
      ref_access(r, &ref_e);
   }
   flush_holders(vs, hs, N_LOCS);
   ck_assert_int_eq(compare(vs, r, loc_ids), 0);
   ck_assert_msg(in_footprint > 1000, "%d accesses skipped the footprint", in_footprint);
   free(r->pairs);
   free(r);
   mp_vars_free(vs);
}

START_TEST(test_random_against_reference)
{
   random_run(0, _i);
}
END_TEST

/* Variables sharing lines: each line's first variable is counted through
   the shadow, the others through the set. */
START_TEST(test_random_shared_lines)
{
   random_run(1, _i);
}
END_TEST

/* The cache's counts through the instructions' holders equal those
   counted at every access: an L1 hit with nothing else to count is held,
   any other outcome counted at once, in any mix. */
START_TEST(test_cache_counts_held)
{
   static const uint32_t latency[] = { 4, 12, 40, 200 };
   uint32_t loc_ids[N_LOCS];
   mp_vars *at_once = make_table(loc_ids), *held = make_table(loc_ids);
   holder hs[N_LOCS];
   uint32_t v, l;
   int i;
   memset(hs, 0, sizeof hs);
   rng_state = 0x2545f4914f6cdd1dULL;
   for (i = 0; i < 20000; i++) {
      mp_cache_outcome o;
      mp_event e;
      uint32_t li, k, r = (uint32_t)(rng() % 10);
      random_event(&e, loc_ids, &li, 0);
      memset(&o, 0, sizeof o);
      if (r == 7)
         o.invalidations = 1;
      else if (r == 8)
         o.prefetched[0] = 1;
      else if (r == 9) {
         o.served_by = 1 + (uint32_t)(rng() % 3);
         for (k = 0; k < o.served_by; k++) {
            o.missed[k] = 1;
            o.cause[k] = MP_MISS_CAPACITY;
         }
      }
      mp_vars_cache_access(at_once, &e, mp_vars_line_counts(at_once, e.var, e.loc), &o, 3,
                           latency);
      {
         holder *h = holder_for(held, hs, li, &e);
         mp_vars_cache_access_held(held, &e, h->lc, &h->held, &o, 3, latency);
      }
   }
   flush_holders(held, hs, N_LOCS);
   for (v = 0; v < N_VARS; v++) {
      const mp_cache_counts *a = mp_vars_get(at_once, v)->cache;
      const mp_cache_counts *b = mp_vars_get(held, v)->cache;
      ck_assert_ptr_nonnull(a);
      ck_assert_ptr_nonnull(b);
      ck_assert_uint_gt(a->hits[0], 1000);
      ck_assert_int_eq(memcmp(a, b, sizeof *a), 0);
      for (l = 0; l < N_LOCS; l++) {
         const mp_line_counts *x = mp_vars_line_counts(at_once, v, loc_ids[l]);
         const mp_line_counts *y = mp_vars_line_counts(held, v, loc_ids[l]);
         ck_assert_int_eq(memcmp(&x->cache, &y->cache, sizeof x->cache), 0);
      }
   }
   mp_vars_free(at_once);
   mp_vars_free(held);
}
END_TEST

/* Proves that compare() can fail: a reference that missed one access. */
START_TEST(test_mismatch_is_detected)
{
   uint32_t loc_ids[N_LOCS];
   mp_vars *vs = make_table(loc_ids);
   reference *r = calloc(1, sizeof *r);
   mp_event e;
   memset(&e, 0, sizeof e);
   e.addr = 0x10000; e.size = 8; e.tid = 1; e.var = 0; e.loc = loc_ids[0];
   access_now(vs, &e);
   ck_assert_int_gt(compare(vs, r, loc_ids), 0);
   free(r);
   mp_vars_free(vs);
}
END_TEST

START_TEST(test_straddle_and_locations)
{
   mp_vars *vs = mp_vars_new(64);
   mp_var *v = mp_vars_add(vs, MP_VAR_GLOBAL, "g", "g.c:1", 128);
   mp_event e;
   uint32_t a = mp_vars_location(vs, "g.c:5", "main");
   ck_assert_uint_eq(mp_vars_location(vs, "g.c:5", "main"), a);
   ck_assert_uint_ne(mp_vars_location(vs, "g.c:5", NULL), a);
   ck_assert_uint_ne(mp_vars_location(vs, NULL, "main"), a);
   ck_assert_ptr_eq(mp_vars_location_where(vs, mp_vars_location(vs, NULL, "x")), NULL);
   memset(&e, 0, sizeof e);
   e.var = v->id; e.loc = a; e.tid = 1;
   e.addr = 60; e.size = 8;           /* bytes 60..67: lines 0 and 1 */
   access_now(vs, &e);
   ck_assert_uint_eq(v->lines, 2);
   e.addr = 64; e.size = 64;          /* line 1 only, already seen */
   access_now(vs, &e);
   ck_assert_uint_eq(v->lines, 2);
   e.addr = 127; e.size = 2;          /* lines 1 and 2 */
   e.tid = 7;
   access_now(vs, &e);
   ck_assert_uint_eq(v->lines, 3);
   ck_assert_uint_eq(v->n_threads, 2);
   ck_assert_uint_eq(v->c.reads, 3);
   ck_assert_uint_eq(v->c.read_bytes, 74);
   mp_vars_reset_counts(vs);
   ck_assert_uint_eq(v->c.reads, 0);
   ck_assert_uint_eq(v->lines, 0);
   ck_assert_uint_eq(mp_vars_line_counts(vs, v->id, a)->c.reads, 0);
   access_now(vs, &e);
   ck_assert_uint_eq(v->lines, 2);
   mp_vars_free(vs);
}
END_TEST

START_TEST(test_footprint_grows)
{
   /* An array owning 200,000 lines, and a second variable over the same
      lines, whose pairs all go to the set: several rehashes of it. */
   mp_vars *vs = mp_vars_new(64);
   mp_var *v = mp_vars_add(vs, MP_VAR_HEAP, "big", NULL, 64 << 20);
   mp_var *w = mp_vars_add(vs, MP_VAR_HEAP, "alias", NULL, 64 << 20);
   mp_event e;
   uint64_t i;
   memset(&e, 0, sizeof e);
   e.var = v->id; e.tid = 1; e.size = 8;
   e.loc = mp_vars_location(vs, NULL, NULL);
   for (i = 0; i < 200000; i++) {
      e.addr = i * 64;
      access_now(vs, &e);
   }
   e.var = w->id;
   for (i = 0; i < 200000; i += 2) {
      e.addr = i * 64 + 8;
      access_now(vs, &e);
   }
   for (i = 0; i < 200000; i += 3) {
      e.var = v->id;
      e.addr = i * 64 + 8;
      access_now(vs, &e);
      e.var = w->id;
      access_now(vs, &e);
   }
   ck_assert_uint_eq(v->lines, 200000);
   ck_assert_uint_eq(w->lines, 100000 + 66667 - 33334);
   mp_vars_free(vs);
}
END_TEST

static void touch(mp_vars *vs, mp_var *v, uint32_t n, uint32_t tid)
{
   mp_event e;
   uint32_t i;
   memset(&e, 0, sizeof e);
   e.var = v->id; e.tid = tid; e.size = 4; e.addr = 0x1000;
   e.loc = mp_vars_location(vs, "r.c:1", "f");
   for (i = 0; i < n; i++)
      access_now(vs, &e);
}

/* Static locals named after their function: the one the adapter saw
   first touch it, else that of their busiest location, once. */
static void touch_in(mp_vars *vs, mp_var *v, uint32_t n, const char *where,
                     const char *fn)
{
   mp_event e;
   uint32_t i;
   memset(&e, 0, sizeof e);
   e.var = v->id; e.tid = 1; e.size = 4; e.addr = 0x1000;
   e.loc = mp_vars_location(vs, where, fn);
   for (i = 0; i < n; i++)
      access_now(vs, &e);
}

START_TEST(test_static_locals)
{
   mp_vars *vs = mp_vars_new(64);
   mp_var *u1 = mp_vars_add(vs, MP_VAR_GLOBAL, "u1", NULL, 256);
   mp_var *w = mp_vars_add(vs, MP_VAR_GLOBAL, "w", NULL, 800);
   mp_var *g = mp_vars_add(vs, MP_VAR_GLOBAL, "grid", NULL, 800);
   mp_var *idle = mp_vars_add(vs, MP_VAR_GLOBAL, "idle", NULL, 8);
   u1->static_local = w->static_local = idle->static_local = 1;
   u1->function = strdup("work");          /* inlined into main */
   touch_in(vs, u1, 5, "s.c:2", "main");
   touch_in(vs, w, 2, "s.c:9", "init(int)");
   touch_in(vs, w, 7, "s.c:12", "main::{lambda(int)#1}::operator()(int) const");
   touch_in(vs, g, 3, "s.c:4", "main");
   mp_vars_name_static_locals(vs);
   ck_assert_str_eq(u1->name, "work::u1");
   ck_assert_str_eq(w->name, "main::{lambda(int)#1}::operator()::w");
   ck_assert_str_eq(w->function, "main::{lambda(int)#1}::operator()(int) const");
   ck_assert_str_eq(g->name, "grid");        /* not a static local */
   ck_assert_str_eq(idle->name, "idle");     /* never accessed */
   mp_vars_name_static_locals(vs);           /* a second report */
   ck_assert_str_eq(u1->name, "work::u1");
   mp_vars_free(vs);
}
END_TEST

/* No two program variables share a name: stack locals that would
   (a pointer local named as the heap site it names, y0 in two
   functions) take their function's name; the heap site, a frame, a
   runtime's local and a unique local keep theirs. */
START_TEST(test_shared_locals)
{
   mp_vars *vs = mp_vars_new(64);
   mp_var *site = mp_vars_add(vs, MP_VAR_HEAP, "small_block", NULL, 32);
   mp_var *ptr = mp_vars_add(vs, MP_VAR_STACK, "small_block", NULL, 8);
   mp_var *y0a = mp_vars_add(vs, MP_VAR_STACK, "y0", NULL, 512);
   mp_var *y0b = mp_vars_add(vs, MP_VAR_STACK, "y0", NULL, 512);
   mp_var *frame = mp_vars_add(vs, MP_VAR_STACK, "stack:main", NULL, 0);
   mp_var *one = mp_vars_add(vs, MP_VAR_STACK, "window", NULL, 64);
   mp_var *lib = mp_vars_add(vs, MP_VAR_STACK, "window", NULL, 64);
   ptr->function = strdup("main");
   y0a->function = strdup("cffts1");
   y0b->function = strdup("cffts2(int, dcomplex*)");
   frame->function = strdup("main");
   one->function = strdup("smooth");
   lib->function = strdup("qsort");
   lib->cls = MP_CLASS_RUNTIME;
   mp_vars_qualify_shared_locals(vs);
   ck_assert_str_eq(site->name, "small_block");
   ck_assert_str_eq(ptr->name, "main::small_block");
   ck_assert_str_eq(y0a->name, "cffts1::y0");
   ck_assert_str_eq(y0b->name, "cffts2::y0");
   ck_assert_str_eq(frame->name, "stack:main");
   ck_assert_str_eq(one->name, "window");
   ck_assert_str_eq(lib->name, "window");
   mp_vars_qualify_shared_locals(vs);        /* a second report */
   ck_assert_str_eq(ptr->name, "main::small_block");
   mp_vars_free(vs);
}
END_TEST

START_TEST(test_report_rows_fold)
{
   mp_vars *vs = mp_vars_new(64);
   mp_var *big = mp_vars_add(vs, MP_VAR_GLOBAL, "big", NULL, 4096);
   mp_var *s1 = mp_vars_add(vs, MP_VAR_GLOBAL, "s1", NULL, 8);
   mp_var *s2 = mp_vars_add(vs, MP_VAR_HEAP, "s2", NULL, 16);
   mp_var *named = mp_vars_add(vs, MP_VAR_OTHER, "pool", NULL, 4);
   mp_var *unused = mp_vars_add(vs, MP_VAR_GLOBAL, "unused", NULL, 4);
   mp_report_row *rows;
   uint32_t n;
   named->named_by = strdup("MEMPROF_NAME_RANGE");
   (void)unused;
   touch(vs, big, 20, 1);
   touch(vs, s1, 7, 1);
   touch(vs, s2, 5, 2);
   touch(vs, named, 1, 1);

   rows = mp_report_rows(vs, 0, 0, 0, &n);
   ck_assert_uint_eq(n, 4);              /* unused is not reported */
   ck_assert_str_eq(rows[0].var->name, "big");
   ck_assert_str_eq(rows[1].var->name, "s1");
   ck_assert_str_eq(rows[3].var->name, "pool");
   free(rows);

   rows = mp_report_rows(vs, 100, 0, 0, &n);   /* s1 and s2 fold; pool is named */
   ck_assert_uint_eq(n, 3);
   ck_assert_str_eq(rows[0].var->name, "big");
   ck_assert_ptr_null(rows[1].var);
   ck_assert_uint_eq(rows[1].c.reads, 12);
   ck_assert_uint_eq(rows[1].n_threads, 2);
   ck_assert_uint_eq(rows[1].size, 24);
   ck_assert_str_eq(rows[2].var->name, "pool");
   free(rows);

   /* By estimated cycles: s2's few accesses cost most. */
   s2->cache = calloc(1, sizeof *s2->cache);
   s2->cache->cycles = 1000;
   big->cache = calloc(1, sizeof *big->cache);
   big->cache->cycles = 80;
   rows = mp_report_rows(vs, 0, 1, 0, &n);
   ck_assert_str_eq(rows[0].var->name, "s2");
   ck_assert_str_eq(rows[1].var->name, "big");
   ck_assert_uint_eq(rows[0].cache.cycles, 1000);
   free(rows);

   /* By stall cycles beyond a 4-cycle L1 hit: big's 2,000 accesses all
      hit L1 (8,000 cycles, no stall) and rank after s2, whose 10
      simulated accesses (4 hits, 6 misses) stall 1,000 - 10 * 4
      cycles. */
   s2->cache->hits[0] = 4;
   s2->cache->misses[0] = 6;
   big->cache->hits[0] = 2000;
   big->cache->cycles = 8000;
   rows = mp_report_rows(vs, 0, 1, 4, &n);
   ck_assert_str_eq(rows[0].var->name, "s2");
   ck_assert_uint_eq(rows[0].stall, 1000 - 40);
   ck_assert_str_eq(rows[1].var->name, "big");
   ck_assert_uint_eq(rows[1].stall, 0);
   ck_assert_uint_eq(mp_report_stall(big->cache, 4), 0);
   free(rows);
   mp_vars_free(vs);
}
END_TEST

START_TEST(test_report_json_has_required_keys)
{
   mp_vars *vs = mp_vars_new(64);
   mp_var *g = mp_vars_add(vs, MP_VAR_GLOBAL, "we\"ird\n", "a.c:1", 64);
   mp_run run;
   mp_finished an;
   mp_results *res;
   mp_json *j;
   const char *text;
   size_t len;
   static const char *const keys[] = {
      "\"memprof\": 1", "\"command\": \"./p \\\"x\\\"\"", "\"pid\": 42",
      "\"config\"", "\"totals\"", "\"variables\"", "\"name\": \"we\\\"ird\\n\"",
      "\"kind\": \"global\"", "\"where\": \"a.c:1\"", "\"size\": 64",
      "\"reads\": 3", "\"per_line\"", "\"class\": \"runtime\"",
      "\"object\": \"libc.so.6\"",
   };
   size_t k;
   touch(vs, g, 3, 1);
   mp_var_set_owner(g, "/usr/lib/x86_64-linux-gnu/libc.so.6");
   memset(&run, 0, sizeof run);
   memset(&an, 0, sizeof an);
   run.tool_version = "0";
   run.command = "./p \"x\"";
   run.pid = 42;
   run.line_size = 64;
   run.output_all = 1;   /* the C library's variable in full */
   an.vars = vs;
   res = mp_results_build(&run, &an, NULL);
   j = mp_report_json(res);
   ck_assert(mp_json_ok(j));
   text = mp_json_text(j, &len);
   for (k = 0; k < sizeof keys / sizeof keys[0]; k++)
      ck_assert_msg(strstr(text, keys[k]) != NULL, "'%s' not in:\n%s", keys[k], text);
   /* Metrics not built are absent, never zero-filled. */
   ck_assert_ptr_null(strstr(text, "\"cache\""));
   ck_assert_ptr_null(strstr(text, "\"strides\""));
   mp_json_free(j);
   mp_results_free(res);
   mp_vars_free(vs);
}
END_TEST

/* The exit summary is written from the results alone, line by line
   through the caller's print: the counts, the table, the folded
   runtime's data, the output's name. */
static void collect_line(void *arg, const char *line)
{
   mp_strbuf *b = arg;
   ck_assert_ptr_nonnull(strchr(line, '\n'));
   mp_strbuf_add(b, line, strlen(line));
}

START_TEST(test_exit_summary_from_results)
{
   mp_vars *vs = mp_vars_new(64);
   mp_var *g = mp_vars_add(vs, MP_VAR_GLOBAL, "counter\x1b", "a.c:1", 64);
   mp_var *l = mp_vars_add(vs, MP_VAR_GLOBAL, "lib_table", NULL, 64);
   mp_run run;
   mp_finished an;
   mp_results *res;
   mp_strbuf out = MP_STRBUF_INIT;
   static const char *const lines[] = {
      "Accesses: 1,503 (1,503 reads, 0 writes) to 2 variables\n",
      "Top 1 variables by accesses:\n",
      "          1,500           1,500               0  global counter\\x1b (a.c:1)\n",
      "  libc.so.6 (runtime): 3 accesses (0.2%), 1 variable\n",
      "Output: out.json\n",
   };
   size_t k;
   touch(vs, g, 1500, 1);
   touch(vs, l, 3, 1);
   mp_var_set_owner(l, "/usr/lib/x86_64-linux-gnu/libc.so.6");
   memset(&run, 0, sizeof run);
   memset(&an, 0, sizeof an);
   run.tool_version = "0";
   run.line_size = 64;
   run.summary_rows = 10;
   an.vars = vs;
   res = mp_results_build(&run, &an, NULL);
   mp_exit_summary(res, "out.json", 1, collect_line, &out);
   for (k = 0; k < sizeof lines / sizeof lines[0]; k++)
      ck_assert_msg(strstr(out.s, lines[k]) != NULL, "'%s' not in:\n%s", lines[k], out.s);
   mp_free(out.s);
   mp_results_free(res);
   mp_vars_free(vs);
}
END_TEST

/* The results, built once: an array of 32-byte structures whose field
   +24 one loop reads ten times over and whose fields +0, +8, +16 another
   reads once.  1,024 elements are 32 KiB, eight times a 4 KiB L1: the
   hot loop misses every line, 512 a pass; split, its field is an 8 KiB
   array of 128 lines, 128 misses a pass.  The replay must be made once,
   by the build, and what the JSON and the advice say of it must be the
   same numbers; the writer must leave the results as it found them. */
#define SPLIT_N 1024
START_TEST(test_results_split_replayed_once)
{
   mp_vars *vs = mp_vars_new(64);
   mp_var *p = mp_vars_add(vs, MP_VAR_HEAP, "heap@make", "s.c:9", SPLIT_N * 32);
   mp_structs *st = mp_structs_new();
   mp_whatif *w = mp_whatif_new(1 << 20, 1 << 20);
   mp_report_cache rc;
   mp_cache_cfg cc;
   mp_cache *sim;
   const char *err = NULL;
   mp_run run;
   mp_finished an;
   mp_results *res;
   mp_json *j1, *j2;
   const char *t1, *t2;
   char *expect;
   size_t l1, l2;
   uint64_t base = 0x100000, i, pass;
   uint32_t f;
   p->cache = mp_calloc("test", 1, sizeof *p->cache);
   p->cache->cycles = 1000000;
   for (i = 0; i < SPLIT_N; i++)
      for (f = 0; f < 3; f++) {
         mp_structs_access(st, f, p->id, base + 32 * i + 8 * f, base, 8, 2, 200);
         mp_whatif_record(w, p->id, base + 32 * i + 8 * f, base, 8, 0, 0);
      }
   for (pass = 0; pass < 10; pass++)
      for (i = 0; i < SPLIT_N; i++) {
         mp_structs_access(st, 3, p->id, base + 32 * i + 24, base, 8, 1, 200);
         mp_whatif_record(w, p->id, base + 32 * i + 24, base, 8, 0, 0);
      }
   touch(vs, p, 3 * SPLIT_N + 10 * SPLIT_N, 1);
   memset(&rc, 0, sizeof rc);
   rc.n_levels = 1;
   rc.level[0].size = 4096;
   rc.level[0].assoc = 4;
   rc.level[0].line = 64;
   rc.level[0].shared_by = 1;
   rc.latency[0] = 4;
   rc.latency[1] = 200;
   rc.cores = rc.cores_per_socket = 1;
   memset(&cc, 0, sizeof cc);
   cc.n_levels = 1;
   cc.level[0] = rc.level[0];
   cc.cores = 1;
   rc.cache = sim = mp_cache_new(&cc, &err);
   ck_assert_ptr_nonnull(sim);
   memset(&run, 0, sizeof run);
   memset(&an, 0, sizeof an);
   run.tool_version = "0";
   run.line_size = 64;
   run.whatif_split = 1;
   run.whatif_min_gain = 5;
   an.vars = vs;
   an.cache = &rc;
   an.structs = st;
   an.whatif = w;
   res = mp_results_build(&run, &an, NULL);

   ck_assert_ptr_nonnull(res->var[p->id].structure);
   ck_assert_uint_eq(res->var[p->id].structure->layout.n_groups, 2);
   ck_assert(res->var[p->id].split.made);
   ck_assert(res->var[p->id].split.complete);
   ck_assert_uint_eq(res->var[p->id].split.before.accesses, 13 * SPLIT_N);
   /* the hot loop's misses: 512 a pass before, 128 after */
   ck_assert_uint_ge(res->var[p->id].split.before.misses[0], 10 * 512);
   ck_assert_uint_lt(res->var[p->id].split.after.misses[0], 10 * 512 / 2);
   ck_assert_uint_eq(res->n_advice, 1);
   ck_assert_int_eq(res->advice[0].kind, MP_ADVICE_STRUCTURE_SPLITTING);
   expect = mp_asprintf("L1 misses %s -> ",
                        mp_commas(res->var[p->id].split.before.misses[0],
                                  (char[32]){0}, 32));
   ck_assert_ptr_nonnull(strstr(res->advice[0].evidence, expect));
   mp_free(expect);

   j1 = mp_report_json(res);
   j2 = mp_report_json(res);
   t1 = mp_json_text(j1, &l1);
   t2 = mp_json_text(j2, &l2);
   ck_assert_uint_eq(l1, l2);
   ck_assert(memcmp(t1, t2, l1) == 0);
   {
      const char *wi = strstr(t1, "\"what_if\"");
      const char *after, *l1_after;
      char want[64];
      ck_assert_ptr_nonnull(wi);
      snprintf(want, sizeof want, "\"accesses\": %u", 13 * SPLIT_N);
      ck_assert_ptr_nonnull(strstr(wi, want));
      after = strstr(wi, "\"after\"");
      ck_assert_ptr_nonnull(after);
      l1_after = strstr(after, "\"L1\": ");
      ck_assert_ptr_nonnull(l1_after);
      ck_assert_uint_eq(strtoull(l1_after + 6, NULL, 10),
                        res->var[p->id].split.after.misses[0]);
   }
   mp_json_free(j1);
   mp_json_free(j2);
   mp_results_free(res);

   /* Without --what-if=split: the structure, no replay, no "what_if". */
   run.whatif_split = 0;
   res = mp_results_build(&run, &an, NULL);
   ck_assert_ptr_nonnull(res->var[p->id].structure);
   ck_assert(!res->var[p->id].split.made);
   j1 = mp_report_json(res);
   ck_assert_ptr_null(strstr(mp_json_text(j1, &l1), "\"what_if\""));
   mp_json_free(j1);
   mp_results_free(res);
   mp_structs_free(st);
   mp_whatif_free(w);
   mp_cache_free(sim);
   mp_vars_free(vs);
}
END_TEST

/* Two loops that each walk 20 arrays at once, above the prefetcher's
   16 streams: one in the program's code, one in the C library's (its
   head's object, as the adapter answers).  Only the program's gets the
   too-many-streams advice; a third loop of the program's, flagged in one
   execution of ten, and a fourth that never iterates get none. */
static const char *code_object_of(uint64_t iaddr)
{
   return iaddr >= 0x2000 ? "/usr/lib/x86_64-linux-gnu/libc.so.6" : "/usr/bin/prog";
}

START_TEST(test_results_runtime_loop_no_advice)
{
   mp_vars *vs = mp_vars_new(64);
   mp_var *g = mp_vars_add(vs, MP_VAR_GLOBAL, "g", "p.c:1", 1 << 20);
   mp_loops *lp = mp_loops_new();
   mp_streams_cfg scfg = { 16 };
   const char *err = NULL;
   mp_streams *st = mp_streams_new(&scfg, &err);
   mp_formula *fo = mp_formula_new();
   mp_adapter_queries ask;
   mp_run run;
   mp_finished an;
   mp_results *res;
   uint32_t mine, theirs, once, flat, loop, k, i, n;
   ck_assert_ptr_nonnull(st);
   /* The loops' functions, as the adapter names them: location ids. */
   for (k = 0; k < 3; k++)
      mp_vars_location(vs, NULL, k == 2 ? "memcpy" : k ? "walk" : "main");
   mine = mp_loops_add_back_edge(lp, 1, 0x1100, 0x1000, "p.c:9", "p.c:5", NULL, NULL);
   theirs = mp_loops_add_back_edge(lp, 2, 0x2100, 0x2000, NULL, NULL, NULL, NULL);
   once = mp_loops_add_back_edge(lp, 1, 0x1900, 0x1800, "p.c:30", "p.c:25", NULL, NULL);
   flat = mp_loops_add_back_edge(lp, 1, 0x1d00, 0x1c00, "p.c:40", "p.c:35", NULL, NULL);
   for (loop = 0; loop < 2; loop++) {
      uint32_t id = loop ? theirs : mine;
      for (i = 0; i < 8; i++)
         for (k = 0; k < 20; k++)
            mp_streams_access(st, 1, id, 1, 0x1000 + 0x1000 * loop + 4 * k, g->id,
                              0x1000000ULL * (k + 1) + 8 * i);
   }
   /* The third walks 20 arrays in its first execution, one in the
      nine others: flagged, but fission would not pay. */
   for (n = 1; n <= 10; n++)
      for (i = 0; i < 8; i++)
         for (k = 0; k < (n == 1 ? 20u : 1u); k++)
            mp_streams_access(st, 1, once, n, 0x1800 + 4 * k, g->id,
                              0x1000000ULL * (k + 1) + 8 * i);
   /* The fourth has 20 streams in its one execution but never
      iterates: the streams are its callees' (Py_RunMain's shape). */
   for (i = 0; i < 8; i++)
      for (k = 0; k < 20; k++)
         mp_streams_access(st, 1, flat, 1, 0x1c00 + 4 * k, g->id,
                           0x1000000ULL * (k + 1) + 8 * i);
   mp_streams_flush(st);
   ck_assert(mp_streams_flagged(st, flat));
   ck_assert(mp_streams_flagged(st, mine));
   ck_assert(mp_streams_flagged(st, theirs));
   ck_assert(mp_streams_flagged(st, once));
   /* The loops run: entered at the head, 7 back edges (none for the
      fourth), left. */
   for (loop = 0; loop < 4; loop++) {
      uint32_t id = loop == 0 ? mine : loop == 1 ? theirs : loop == 2 ? once : flat;
      const mp_loop *L = mp_loops_get(lp, id);
      mp_loops_at(lp, 1, L->fn, L->head);
      for (i = 0; i < (id == flat ? 0u : 7u); i++)
         mp_loops_back_edge_taken(lp, 1, id);
      mp_loops_at(lp, 1, L->fn, L->tail + 4);
   }
   mp_loops_flush(lp);
   ck_assert_uint_eq(mp_loops_get(lp, mine)->iterations, 7);
   touch(vs, g, 3 * 8 * 20 + 8 * 20 + 9 * 8, 1);
   memset(&ask, 0, sizeof ask);
   ask.code_object = code_object_of;
   memset(&run, 0, sizeof run);
   memset(&an, 0, sizeof an);
   run.tool_version = "0";
   run.line_size = 64;
   an.vars = vs;
   an.loops = lp;
   an.streams = st;
   an.formula = fo;
   res = mp_results_build(&run, &an, &ask);
   ck_assert_int_eq(res->loop[mine].cls, MP_CLASS_PROGRAM);
   ck_assert_int_eq(res->loop[theirs].cls, MP_CLASS_RUNTIME);
   ck_assert_str_eq(res->loop[theirs].object, "libc.so.6");
   ck_assert_uint_eq(res->n_advice, 1);
   ck_assert_int_eq(res->advice[0].kind, MP_ADVICE_TOO_MANY_STREAMS);
   ck_assert_uint_eq(res->advice[0].loop, mine);
   mp_results_free(res);
   mp_streams_free(st);
   mp_formula_free(fo);
   mp_loops_free(lp);
   mp_vars_free(vs);
}
END_TEST

/* A variable's reuse histograms are its lines' records summed, made
   again from scratch at each call of mp_vars_reuse_totals. */
START_TEST(test_reuse_totals_from_lines)
{
   mp_vars *vs = mp_vars_new(64);
   mp_var *a = mp_vars_add(vs, MP_VAR_GLOBAL, "a", NULL, 4096);
   mp_var *b = mp_vars_add(vs, MP_VAR_GLOBAL, "b", NULL, 4096);
   mp_line_counts *l1 = mp_vars_line_counts(vs, a->id, mp_vars_location(vs, "r.c:1", "f"));
   mp_line_counts *l2 = mp_vars_line_counts(vs, a->id, mp_vars_location(vs, "r.c:2", "f"));
   int round;
   mp_vars_reuse(&l1->reuse, MP_REUSE_COLD, 0);
   mp_vars_reuse(&l1->reuse, MP_REUSE_PRIVATE, 5);          /* bin 3: 4-7 */
   mp_vars_reuse(&l2->reuse, MP_REUSE_PRIVATE, 6);
   mp_vars_reuse(&l2->reuse, MP_REUSE_SHARED, 100);         /* bin 7: 64-127 */
   mp_vars_reuse(&l2->reuse, MP_REUSE_SKIPPED, 0);
   for (round = 0; round < 2; round++) {
      mp_vars_reuse_totals(vs);
      ck_assert_ptr_nonnull(a->reuse);
      ck_assert_ptr_null(b->reuse);                /* no reuse of b */
      ck_assert_uint_eq(a->reuse->cold, 1);
      ck_assert_uint_eq(a->reuse->private_bins[3], 2);
      ck_assert_uint_eq(a->reuse->private_sum, 11);
      ck_assert_uint_eq(a->reuse->shared_bins[7], 1);
      ck_assert_uint_eq(a->reuse->shared_sum, 100);
   }
   mp_vars_free(vs);
}
END_TEST

/* Line records are found again by their id, and a record counted
   apart (an analysis helper's) replaces a line's reuses whole. */
static int cmp_u64(const void *a, const void *b)
{
   uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
   return x < y ? -1 : x > y;
}

/* The footprint as an analysis helper process keeps it
   (mp_vars_footprint_add): a (variable, line) pair is new exactly once,
   however often and in whatever order it comes, lines beyond the
   shadow's reach included; against a sorted list of the distinct
   pairs. */
START_TEST(test_footprint_add_distinct)
{
   enum { N = 200000 };
   mp_vars *vs = mp_vars_new(64);
   uint64_t *pairs = malloc(N * sizeof *pairs), distinct = 0, added = 0;
   int i;
   rng_state = 0x1234567887654321ULL;
   for (i = 0; i < N; i++) {
      uint32_t var = (uint32_t)(rng() % 8);
      /* a few hot lines, shared between variables, and far ones */
      uint64_t line = (rng() % 4) ? rng() % 5000 : (1ULL << 45) + rng() % 100;
      pairs[i] = (line << 3 | var);
      added += (uint64_t)mp_vars_footprint_add(vs, var, line);
   }
   qsort(pairs, N, sizeof *pairs, cmp_u64);
   for (i = 0; i < N; i++)
      distinct += i == 0 || pairs[i] != pairs[i - 1];
   ck_assert_uint_eq(added, distinct);
   ck_assert_uint_gt(distinct, 1000);
   free(pairs);
   mp_vars_free(vs);
}
END_TEST

/* With the sample's ranks (mp_vars_rank_lines) the footprint counts
   the (variable, line) pairs whose line is in the sample, each once,
   and none of the others: against the distinct sampled pairs.  The
   ranks pack the sampled lines of every page together, so a numbering
   that folded two lines into one would count too few. */
START_TEST(test_footprint_ranked_lines)
{
   enum { N = 200000, SETS = 64 };
   mp_vars *vs = mp_vars_new(64);
   uint32_t rank[SETS], n_sets = 0, s;
   uint64_t *pairs = malloc(N * sizeof *pairs), distinct = 0, added = 0, n = 0;
   int i;
   for (s = 0; s < SETS; s++)   /* 1 in 4 of the sets, not neighbours */
      rank[s] = (s * 37 % SETS) % 4 == 1 ? ++n_sets : 0;
   mp_vars_rank_lines(vs, rank, SETS - 1, 6, n_sets);
   rng_state = 0x1234567887654321ULL;
   for (i = 0; i < N; i++) {
      uint32_t var = (uint32_t)(rng() % 8);
      uint64_t line = (rng() % 4) ? rng() % 50000 : (1ULL << 45) + rng() % 1000;
      added += (uint64_t)mp_vars_footprint_add(vs, var, line);
      if (rank[line % SETS])
         pairs[n++] = (line << 3 | var);
   }
   qsort(pairs, n, sizeof *pairs, cmp_u64);
   for (i = 0; i < (int)n; i++)
      distinct += i == 0 || pairs[i] != pairs[i - 1];
   ck_assert_uint_eq(n_sets, 16);
   ck_assert_uint_eq(added, distinct);
   ck_assert_uint_gt(distinct, 1000);
   free(pairs);
   mp_vars_free(vs);
}
END_TEST

START_TEST(test_reuse_set_by_id)
{
   mp_vars *vs = mp_vars_new(64);
   mp_var *a = mp_vars_add(vs, MP_VAR_GLOBAL, "a", NULL, 4096);
   mp_line_counts *l[1500];
   mp_line_reuse apart;
   uint32_t i;
   for (i = 0; i < 1500; i++) {
      char loc[32];
      snprintf(loc, sizeof loc, "r.c:%u", i + 1);
      l[i] = mp_vars_line_counts(vs, a->id, mp_vars_location(vs, loc, "f"));
      ck_assert_uint_eq(l[i]->id, i);
   }
   for (i = 0; i < 1500; i++)
      ck_assert_ptr_eq(mp_vars_line_by_id(vs, i), l[i]);
   ck_assert_ptr_null(mp_vars_line_by_id(vs, 1500));
   ck_assert_ptr_null(mp_vars_line_by_id(vs, 4096));
   memset(&apart, 0, sizeof apart);
   mp_vars_reuse(&apart, MP_REUSE_PRIVATE, 5);
   mp_vars_reuse(&apart, MP_REUSE_COLD, 0);
   mp_vars_reuse(&l[7]->reuse, MP_REUSE_SHARED, 100);   /* replaced */
   mp_vars_reuse_set(&l[7]->reuse, &apart);
   mp_vars_reuse_set(&l[8]->reuse, &apart);
   ck_assert_ptr_ne(l[8]->reuse.bins, apart.bins);      /* a copy */
   memset(&apart, 0, sizeof apart);                     /* no bins */
   mp_vars_reuse(&apart, MP_REUSE_COLD, 0);
   mp_vars_reuse_set(&l[9]->reuse, &apart);
   mp_vars_reuse_totals(vs);
   ck_assert_uint_eq(a->reuse->cold, 3);
   ck_assert_uint_eq(a->reuse->private_bins[3], 2);
   ck_assert_uint_eq(a->reuse->private_sum, 10);
   ck_assert_uint_eq(a->reuse->shared_bins[7], 0);
   ck_assert_uint_eq(a->reuse->shared_sum, 0);
   mp_vars_free(vs);
}
END_TEST

/* A variable of class and object as the adapter makes it, with
   accesses 'n' and cycles 'cycles'. */
static mp_var *owned(mp_vars *vs, mp_var_kind kind, const char *name,
                     const char *where, const char *object, uint32_t n, uint64_t cycles)
{
   mp_var *v = mp_vars_add(vs, kind, name, where, 8);
   mp_var_set_owner(v, object);
   touch(vs, v, n, 1);
   v->cache = calloc(1, sizeof *v->cache);
   v->cache->cycles = cycles;
   v->cache->misses[0] = n / 2;
   return v;
}

/* Gives v an allocation stack of n frames (as Valgrind prints them). */
static void stack_of(mp_var *v, uint32_t n, const char *const *frames)
{
   uint32_t k;
   v->alloc_stack = calloc(n, sizeof(char *));
   for (k = 0; k < n; k++)
      v->alloc_stack[k] = strdup(frames[k]);
   v->n_alloc_stack = n;
}

/* The output file holds in full what a report reads: the program's
   variables, with --show-runtime those above the report's threshold
   (0.1% of the accesses here, no cache simulation), everything with
   --output-all; the others in one-line summaries, twins summed. */
static mp_results *entries_of(mp_vars *vs, int show_runtime, int output_all)
{
   static mp_run run;
   static mp_finished an;
   memset(&run, 0, sizeof run);
   memset(&an, 0, sizeof an);
   run.tool_version = "0";
   run.line_size = 64;
   run.show_runtime = show_runtime;
   run.output_all = output_all;
   an.vars = vs;
   return mp_results_build(&run, &an, NULL);
}

static uint32_t summaries(const mp_results *res)
{
   uint32_t i, n = 0;
   for (i = 0; i < res->n_file_entries; i++)
      n += res->file_entries[i].summary;
   return n;
}

START_TEST(test_file_entries)
{
   mp_vars *vs = mp_vars_new(64);
   mp_var *grid = mp_vars_add(vs, MP_VAR_GLOBAL, "grid", NULL, 64);
   mp_var *big = mp_vars_add(vs, MP_VAR_GLOBAL, "big", NULL, 64);
   mp_var *t1 = mp_vars_add(vs, MP_VAR_HEAP, "heap@x.c:1", "x.c:1", 16);
   mp_var *t2 = mp_vars_add(vs, MP_VAR_HEAP, "heap@x.c:1", "x.c:1", 16);
   mp_var *tiny = mp_vars_add(vs, MP_VAR_GLOBAL, "tiny", NULL, 8);
   mp_results *res;
   mp_json *j;
   const char *text, *p;
   size_t len;
   int n;
   mp_var_set_owner(grid, "/tmp/prog");
   mp_var_set_owner(big, "/usr/lib/x86_64-linux-gnu/libfoo.so.1");
   mp_var_set_owner(t1, "/usr/lib/x86_64-linux-gnu/libfoo.so.1");
   mp_var_set_owner(t2, "/usr/lib/x86_64-linux-gnu/libfoo.so.1");
   mp_var_set_owner(tiny, "/usr/lib/x86_64-linux-gnu/libfoo.so.1");
   t1->blocks = 2; t1->alloc_bytes = 32;
   t2->blocks = 3; t2->alloc_bytes = 48;
   touch(vs, grid, 5000, 1);
   touch(vs, big, 10, 1);    /* 10 of 5,013: above 0.1% */
   touch(vs, t1, 1, 1);
   touch(vs, t2, 1, 1);
   touch(vs, tiny, 1, 1);    /* 1 of 5,013: below */

   res = entries_of(vs, 0, 0);
   ck_assert_uint_eq(res->n_rows, 5);
   ck_assert_uint_eq(res->n_file_entries, 4);
   ck_assert_uint_eq(summaries(res), 3);
   ck_assert(!res->file_entries[0].summary);
   ck_assert_str_eq(res->rows[res->file_entries[0].row].var->name, "grid");
   /* the twins: one summary, their counts and blocks summed, after big */
   ck_assert_str_eq(res->file_entries[2].sum.var->name, "heap@x.c:1");
   ck_assert_uint_eq(res->file_entries[2].sum.accesses, 2);
   ck_assert_uint_eq(res->file_entries[2].blocks, 5);
   ck_assert_uint_eq(res->file_entries[2].alloc_bytes, 80);
   ck_assert_uint_eq(res->n_program_objects, 1);
   ck_assert_str_eq(res->program_objects[0], "prog");
   j = mp_report_json(res);
   text = mp_json_text(j, &len);
   /* per_line only on grid; a summary on one line */
   for (n = 0, p = text; (p = strstr(p, "\"per_line\"")); p++)
      n++;
   ck_assert_int_eq(n, 1);
   ck_assert_msg(strstr(text, "{\"name\": \"heap@x.c:1\", \"kind\": \"heap\", "
                        "\"class\": \"runtime\", \"where\": \"x.c:1\", \"size\": 16, "
                        "\"reads\": 2,") != NULL, "%s", text);
   ck_assert_msg(strstr(text, "\"blocks\": 5, \"alloc_bytes\": 80, "
                        "\"object\": \"libfoo.so.1\", \"summary\": true}") != NULL, "%s", text);
   ck_assert_msg(strstr(text, "\"objects\": [\"prog\"]") != NULL, "%s", text);
   mp_json_free(j);
   mp_results_free(res);

   /* --show-runtime: big passes the threshold, tiny does not */
   res = entries_of(vs, 1, 0);
   ck_assert_uint_eq(res->n_file_entries, 4);
   ck_assert_uint_eq(summaries(res), 2);
   ck_assert(!res->file_entries[1].summary);
   ck_assert_str_eq(res->rows[res->file_entries[1].row].var->name, "big");
   mp_results_free(res);

   /* --output-all: every row in full, twins apart */
   res = entries_of(vs, 0, 1);
   ck_assert_uint_eq(res->n_file_entries, 5);
   ck_assert_uint_eq(summaries(res), 0);
   mp_results_free(res);
   mp_vars_free(vs);
}
END_TEST

START_TEST(test_summary)
{
   static const char *const make20[] = { "0x1091A0: make (p.c:9)", "0x109200: main (p.c:20)" };
   static const char *const make21[] = { "0x1091A0: make (p.c:9)", "0x109210: main (p.c:21)" };
   /* zlib's allocations without line information, named after the
      thread's start: different code, one name */
   static const char *const z1[] = { "0x4000: deflateInit2_ (in /lib/libz.so.1)",
                                     "0x5000: start_thread (pthread_create.c:442)" };
   static const char *const z2[] = { "0x4010: deflateInit2_ (in /lib/libz.so.1)",
                                     "0x5000: start_thread (pthread_create.c:442)" };
   mp_vars *vs = mp_vars_new(64);
   mp_report_row *rows;
   mp_summary *sum;
   uint32_t n;
   /* The runtime's and the loader's cost more than the program's. */
   owned(vs, MP_VAR_OTHER, "libc.so.6:mapped", NULL, "/lib/libc.so.6", 10, 9000);
   owned(vs, MP_VAR_GLOBAL, "main_arena", NULL, "/lib/libc.so.6", 5, 1000);
   owned(vs, MP_VAR_GLOBAL, "_rtld_local", NULL, "/lib64/ld-linux-x86-64.so.2", 5, 4000);
   /* the loader's twin sites: one variable of its fold */
   owned(vs, MP_VAR_HEAP, "heap@rtld-malloc.h:44", "rtld-malloc.h:44",
         "/lib64/ld-linux-x86-64.so.2", 1, 500);
   owned(vs, MP_VAR_HEAP, "heap@rtld-malloc.h:44", "rtld-malloc.h:44",
         "/lib64/ld-linux-x86-64.so.2", 1, 500);
   owned(vs, MP_VAR_GLOBAL, "grid", NULL, "/tmp/prog", 100, 800);
   /* one line reached through two call chains: two sites, one row */
   stack_of(owned(vs, MP_VAR_HEAP, "a", "p.c:9", "/tmp/prog", 3, 300), 2, make20);
   stack_of(owned(vs, MP_VAR_HEAP, "a", "p.c:9", "/tmp/prog", 4, 400), 2, make21);
   /* two allocations named after one line further out: two rows */
   stack_of(owned(vs, MP_VAR_HEAP, "heap@pthread_create.c:442", "pthread_create.c:442",
                  "/tmp/libz.so.1", 1, 120), 2, z1);
   stack_of(owned(vs, MP_VAR_HEAP, "heap@pthread_create.c:442", "pthread_create.c:442",
                  "/tmp/libz.so.1", 1, 110), 2, z2);
   /* the same name at another line: not merged */
   owned(vs, MP_VAR_HEAP, "a", "p.c:12", "/tmp/prog", 1, 650);
   /* unattributed memory */
   owned(vs, MP_VAR_OTHER, "other", NULL, NULL, 2, 2000)->cls = MP_CLASS_OTHER;
   rows = mp_report_rows(vs, 0, 1, 0, &n);
   ck_assert_uint_eq(n, 12);

   sum = mp_summary_make(rows, n, 0, 1);
   /* grid 800, a (p.c:9) 300 + 400 = 700, a (p.c:12) 650, then zlib's
      two: 120 and 110 */
   ck_assert_uint_eq(sum->n_rows, 5);
   ck_assert_str_eq(sum->rows[0].var->name, "grid");
   ck_assert_str_eq(sum->rows[1].var->where, "p.c:9");
   ck_assert_uint_eq(sum->rows[1].cache.cycles, 700);
   ck_assert_uint_eq(mp_counts_accesses(&sum->rows[1].c), 7);
   ck_assert_uint_eq(sum->rows[1].cache.misses[0], 1 + 2);
   ck_assert_str_eq(sum->rows[2].var->where, "p.c:12");
   ck_assert_uint_eq(sum->rows[3].cache.cycles, 120);
   ck_assert_uint_eq(sum->rows[4].cache.cycles, 110);
   /* libc 9000 + 1000, the loader 5000, unattributed 2000 */
   ck_assert_uint_eq(sum->n_folds, 3);
   ck_assert_str_eq(sum->folds[0].object, "libc.so.6");
   ck_assert_int_eq(sum->folds[0].cls, MP_CLASS_RUNTIME);
   ck_assert_uint_eq(sum->folds[0].cycles, 10000);
   ck_assert_uint_eq(mp_counts_accesses(&sum->folds[0].c), 15);
   ck_assert_uint_eq(sum->folds[0].n_vars, 2);
   ck_assert_str_eq(sum->folds[1].object, "ld-linux-x86-64.so.2");
   ck_assert_int_eq(sum->folds[1].cls, MP_CLASS_LOADER);
   ck_assert_uint_eq(sum->folds[1].cycles, 4000 + 500 + 500);
   ck_assert_uint_eq(sum->folds[1].n_vars, 2);
   ck_assert_ptr_null(sum->folds[2].object);
   ck_assert_int_eq(sum->folds[2].cls, MP_CLASS_OTHER);
   ck_assert_uint_eq(sum->folds[2].cycles, 2000);
   mp_summary_free(sum);

   /* --show-runtime=yes: every row ranked, the twins still merged */
   sum = mp_summary_make(rows, n, 1, 1);
   ck_assert_uint_eq(sum->n_rows, 10);
   ck_assert_uint_eq(sum->n_folds, 0);
   ck_assert_str_eq(sum->rows[0].var->name, "libc.so.6:mapped");
   ck_assert_str_eq(sum->rows[1].var->name, "_rtld_local");
   ck_assert_str_eq(sum->rows[2].var->name, "other");
   ck_assert_str_eq(sum->rows[3].var->name, "main_arena");
   ck_assert_str_eq(sum->rows[4].var->name, "heap@rtld-malloc.h:44");
   ck_assert_uint_eq(sum->rows[4].cache.cycles, 1000);
   ck_assert_str_eq(sum->rows[5].var->name, "grid");
   mp_summary_free(sum);

   /* By accesses, without a cache simulation: the fold order too. */
   free(rows);
   rows = mp_report_rows(vs, 0, 0, 0, &n);
   sum = mp_summary_make(rows, n, 0, 0);
   ck_assert_str_eq(sum->rows[0].var->name, "grid");
   ck_assert_str_eq(sum->rows[1].var->where, "p.c:9");
   ck_assert_str_eq(sum->folds[0].object, "libc.so.6");
   ck_assert_str_eq(sum->folds[1].object, "ld-linux-x86-64.so.2");
   mp_summary_free(sum);
   free(rows);
   mp_vars_free(vs);
}
END_TEST

START_TEST(test_summary_fold_and_owners)
{
   mp_vars *vs = mp_vars_new(64);
   mp_report_row *rows;
   mp_summary *sum;
   uint32_t n;
   /* Same name and line but different owners are not one row. */
   owned(vs, MP_VAR_STACK, "stack:_init", NULL, "/tmp/prog", 6, 60);
   owned(vs, MP_VAR_STACK, "stack:_init", NULL, "/lib/libc.so.6", 5, 50);
   owned(vs, MP_VAR_GLOBAL, "small", NULL, "/tmp/prog", 4, 40);
   /* --min-var-size folds small into the report's fold, which mixes
      classes: unattributed, folded with "other" in the summary */
   rows = mp_report_rows(vs, 9, 1, 0, &n);
   sum = mp_summary_make(rows, n, 0, 1);
   ck_assert_uint_eq(sum->n_rows, 0);
   ck_assert_uint_eq(sum->n_folds, 1);
   ck_assert_int_eq(sum->folds[0].cls, MP_CLASS_OTHER);
   ck_assert_uint_eq(sum->folds[0].cycles, 150);
   mp_summary_free(sum);
   free(rows);
   rows = mp_report_rows(vs, 0, 1, 0, &n);
   sum = mp_summary_make(rows, n, 1, 1);
   ck_assert_uint_eq(sum->n_rows, 3);
   ck_assert_str_eq(sum->rows[0].var->object, "prog");
   ck_assert_str_eq(sum->rows[1].var->object, "libc.so.6");
   mp_summary_free(sum);
   free(rows);
   mp_vars_free(vs);
}
END_TEST

/* mp_sort (which orders the report's rows) against libc's qsort, on
   records of several sizes whose bytes after the key must travel with
   it; keys are distinct, so the order is unique. */
static int cmp_key(const void *a, const void *b)
{
   uint32_t x, y;
   memcpy(&x, a, 4);
   memcpy(&y, b, 4);
   return x < y ? -1 : x > y;
}

START_TEST(test_sort)
{
   static const size_t sizes[] = { 4, 5, 24, 203 };
   const size_t n = 3001;
   size_t si, i, j;
   for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
      size_t sz = sizes[si];
      unsigned char *a = malloc(n * sz), *b = malloc(n * sz);
      for (i = 0; i < n; i++) {
         uint32_t key = (uint32_t)(i * 2654435761u);   /* distinct */
         memcpy(a + i * sz, &key, 4);
         for (j = 4; j < sz; j++)
            a[i * sz + j] = (unsigned char)(key >> (j % 4 * 8)) ^ (unsigned char)j;
      }
      memcpy(b, a, n * sz);
      mp_sort(a, n, sz, cmp_key);
      qsort(b, n, sz, cmp_key);
      ck_assert_msg(memcmp(a, b, n * sz) == 0, "records of %zu bytes", sz);
      free(a);
      free(b);
   }
}
END_TEST

int main(void)
{
   Suite *s = suite_create("vars");
   TCase *tc = tcase_create("core");
   tcase_set_timeout(tc, 60);
   tcase_add_loop_test(tc, test_random_against_reference, 0, 4);
   tcase_add_loop_test(tc, test_random_shared_lines, 0, 4);
   tcase_add_test(tc, test_mismatch_is_detected);
   tcase_add_test(tc, test_cache_counts_held);
   tcase_add_test(tc, test_straddle_and_locations);
   tcase_add_test(tc, test_footprint_grows);
   tcase_add_test(tc, test_report_rows_fold);
   tcase_add_test(tc, test_static_locals);
   tcase_add_test(tc, test_report_json_has_required_keys);
   tcase_add_test(tc, test_summary);
   tcase_add_test(tc, test_file_entries);
   tcase_add_test(tc, test_summary_fold_and_owners);
   tcase_add_test(tc, test_sort);
   tcase_add_test(tc, test_exit_summary_from_results);
   tcase_add_test(tc, test_results_split_replayed_once);
   tcase_add_test(tc, test_results_runtime_loop_no_advice);
   tcase_add_test(tc, test_reuse_totals_from_lines);
   tcase_add_test(tc, test_reuse_set_by_id);
   tcase_add_test(tc, test_footprint_add_distinct);
   tcase_add_test(tc, test_footprint_ranked_lines);
   tcase_add_test(tc, test_shared_locals);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
