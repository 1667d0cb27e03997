/*--------------------------------------------------------------------*/
/*--- memprof: the report's sections on threads: sharing,          ---*/
/*--- communication, NUMA.                       mp_report_threads.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Turns what mp_sharing saw per cache line into per-variable counts
   (shared, true and false lines, the worst lines with each thread's
   bytes and source lines), and writes variables[].sharing,
   variables[].numa, the top-level "communication" pairs and the
   "communication_matrix" (docs/json-format.md).  Next to each observed
   transfer count goes the count predicted for a parallel run
   (mp_sharing_predict); the worst lines are the worst by it, since it
   does not depend on Valgrind's interleaving.  A line holding several
   variables counts for each of them: two adjacent globals written by
   two threads both suffer the false sharing.
*/
#include "mp_report_threads.h"

#define WORST_LINES     5
#define TOP_PAIRS       20

typedef struct {
   uint64_t line;
   int is_true;
   uint32_t false_pairs, true_pairs;
   uint64_t transfers;
   uint64_t predicted, predicted_true, predicted_invalidations;
   const mp_sharing_thread *threads;
   uint32_t n_threads;
} worst_line;

typedef struct {
   uint64_t shared, true_lines, false_lines;
   uint64_t predicted, predicted_true, predicted_invalidations;
   uint32_t touched;                /* a line of it was touched by 2+ threads */
   worst_line worst[WORST_LINES];   /* most transfers first */
   uint32_t n_worst;
} var_sharing;

struct mp_share_summary {
   const mp_sharing *sharing;
   var_sharing *vars;               /* indexed by variable id */
   uint32_t n_vars;
};

/* Orders worst lines: more predicted transfers, then more observed,
   then more threads, then lower address (so the output does not depend
   on hash order). */
static int worse(const worst_line *a, const worst_line *b)
{
   if (a->predicted != b->predicted)
      return a->predicted > b->predicted;
   if (a->transfers != b->transfers)
      return a->transfers > b->transfers;
   if (a->n_threads != b->n_threads)
      return a->n_threads > b->n_threads;
   return a->line < b->line;
}

static void keep_worst(var_sharing *vs, const worst_line *w)
{
   uint32_t i = vs->n_worst < WORST_LINES ? vs->n_worst++ : WORST_LINES;
   if (i == WORST_LINES) {
      if (!worse(w, &vs->worst[WORST_LINES - 1]))
         return;
      i = WORST_LINES - 1;
   }
   while (i > 0 && worse(w, &vs->worst[i - 1])) {
      vs->worst[i] = vs->worst[i - 1];
      i--;
   }
   vs->worst[i] = *w;
}

static void summarise_line(const mp_sharing_line *l, void *arg)
{
   mp_share_summary *ss = arg;
   uint32_t i;
   for (i = 0; i < l->n_vars; i++) {
      var_sharing *vs;
      if (l->vars[i] >= ss->n_vars)
         continue;
      vs = &ss->vars[l->vars[i]];
      vs->touched = 1;
      if (!l->shared)
         continue;
      vs->shared++;
      if (l->is_true)
         vs->true_lines++;
      else
         vs->false_lines++;
      vs->predicted += l->predicted;
      vs->predicted_true += l->predicted_true;
      vs->predicted_invalidations += l->predicted_invalidations;
      {
         worst_line w;
         w.line = l->line;
         w.is_true = l->is_true;
         w.false_pairs = l->false_pairs;
         w.true_pairs = l->true_pairs;
         w.transfers = l->transfers;
         w.predicted = l->predicted;
         w.predicted_true = l->predicted_true;
         w.predicted_invalidations = l->predicted_invalidations;
         w.threads = l->threads;
         w.n_threads = l->n_threads;
         keep_worst(vs, &w);
      }
   }
}

mp_share_summary *mp_share_summarise(const mp_sharing *s, const mp_vars *vs)
{
   mp_share_summary *ss = mp_calloc("mp.share.sum", 1, sizeof *ss);
   ss->sharing = s;
   ss->n_vars = mp_vars_count(vs);
   ss->vars = mp_calloc("mp.share.sum", ss->n_vars + 1, sizeof *ss->vars);
   mp_sharing_foreach_line(s, summarise_line, ss);
   return ss;
}

void mp_share_free(mp_share_summary *ss)
{
   if (ss == NULL)
      return;
   mp_free(ss->vars);
   mp_free(ss);
}

void mp_share_var_lines(const mp_share_summary *ss, uint32_t var,
                        uint64_t *shared, uint64_t *true_lines, uint64_t *false_lines)
{
   *shared = *true_lines = *false_lines = 0;
   if (ss == NULL || var >= ss->n_vars)
      return;
   *shared = ss->vars[var].shared;
   *true_lines = ss->vars[var].true_lines;
   *false_lines = ss->vars[var].false_lines;
}

void mp_share_var_predicted(const mp_share_summary *ss, uint32_t var,
                            uint64_t *transfers, uint64_t *false_transfers,
                            uint64_t *invalidations)
{
   *transfers = *false_transfers = *invalidations = 0;
   if (ss == NULL || var >= ss->n_vars)
      return;
   *transfers = ss->vars[var].predicted;
   *false_transfers = ss->vars[var].predicted - ss->vars[var].predicted_true;
   *invalidations = ss->vars[var].predicted_invalidations;
}

uint32_t mp_share_transfer_cycles(const mp_report_config *cfg)
{
   const mp_report_cache *c = cfg->cache;
   uint32_t k;
   if (c == NULL)
      return 0;
   for (k = 0; k < c->n_levels; k++)
      if (c->level[k].shared_by >= c->cores)
         return c->latency[k];
   return c->latency[c->n_levels];
}

/* The byte ranges a mask covers, as [[first, last], ...]. */
static void write_byte_ranges(mp_json *j, const mp_sharing *s, uint64_t mask)
{
   uint32_t n = mp_sharing_groups(s), b = 0;
   mp_json_begin_array(j);
   while (b < n) {
      uint32_t e, first, last, dummy;
      if (!(mask >> b & 1)) {
         b++;
         continue;
      }
      for (e = b; e + 1 < n && (mask >> (e + 1) & 1); e++)
         ;
      mp_sharing_group_bytes(s, b, &first, &dummy);
      mp_sharing_group_bytes(s, e, &dummy, &last);
      mp_json_begin_array(j);
      mp_json_u64(j, first);
      mp_json_u64(j, last);
      mp_json_end_array(j);
      b = e + 1;
   }
   mp_json_end_array(j);
}

static void write_line_thread(mp_json *j, const mp_vars *vs, const mp_sharing *s,
                              const mp_sharing_thread *t)
{
   uint32_t i;
   mp_json_begin_object(j);
   mp_json_kv_u64(j, "thread", t->tid);
   mp_json_kv_u64(j, "reads", t->reads);
   mp_json_kv_u64(j, "writes", t->writes);
   mp_json_key(j, "read_bytes");
   write_byte_ranges(j, s, t->read_mask);
   mp_json_key(j, "write_bytes");
   write_byte_ranges(j, s, t->write_mask);
   mp_json_key(j, "where");
   mp_json_begin_array(j);
   for (i = 0; i < t->n_locs; i++) {
      /* Locations differ by function too: print each file:line once. */
      const char *w = mp_vars_location_where(vs, t->locs[i]);
      uint32_t k;
      int seen = 0;
      for (k = 0; k < i && !seen; k++) {
         const char *o = mp_vars_location_where(vs, t->locs[k]);
         seen = (o == w) || (o && w && mp_strcmp(o, w) == 0);
      }
      if (!seen)
         mp_json_string(j, w);
   }
   mp_json_end_array(j);
   mp_json_end_object(j);
}

/* The threads of a worst line, in thread order. */
static void write_line_threads(mp_json *j, const mp_vars *vs, const mp_sharing *s,
                               const worst_line *w)
{
   uint32_t last = 0;
   mp_json_key(j, "threads");
   mp_json_begin_array(j);
   for (;;) {
      const mp_sharing_thread *t, *next = NULL;
      for (t = w->threads; t; t = t->next)
         if (t->tid > last && (next == NULL || t->tid < next->tid))
            next = t;
      if (next == NULL)
         break;
      write_line_thread(j, vs, s, next);
      last = next->tid;
   }
   mp_json_end_array(j);
}

/* The first byte of the line any thread touched: a byte of one of the
   line's variables, to find the block the offset is relative to. */
static uint32_t first_touched(const mp_sharing *s, const worst_line *w)
{
   const mp_sharing_thread *t;
   uint64_t mask = 0;
   uint32_t first = 0, last;
   for (t = w->threads; t; t = t->next)
      mask |= t->read_mask | t->write_mask;
   if (mask)
      mp_sharing_group_bytes(s, (uint32_t)__builtin_ctzll(mask), &first, &last);
   return first;
}

static void write_worst_line(mp_json *j, const mp_vars *vs, const mp_sharing *s,
                             const worst_line *w, uint32_t line_size,
                             const mp_report_config *cfg)
{
   uint64_t addr = w->line * line_size, start;
   char hex[32];
   mp_json_begin_object(j);
   mp_snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)addr);
   mp_json_kv_string(j, "line", hex);
   mp_json_key(j, "offset");
   if (cfg->block_of && cfg->block_of(addr + first_touched(s, w), &start))
      mp_json_i64(j, (int64_t)(addr - start));
   else
      mp_json_null(j);
   mp_json_kv_string(j, "kind", w->is_true ? "true" : "false");
   mp_json_kv_u64(j, "false_pairs", w->false_pairs);
   mp_json_kv_u64(j, "true_pairs", w->true_pairs);
   mp_json_kv_u64(j, "transfers", w->transfers);
   mp_json_kv_u64(j, "predicted_transfers", w->predicted);
   mp_json_kv_u64(j, "predicted_false_transfers", w->predicted - w->predicted_true);
   mp_json_kv_u64(j, "predicted_invalidations", w->predicted_invalidations);
   write_line_threads(j, vs, s, w);
   mp_json_end_object(j);
}

/* Padding per thread: each core's bytes of a line move to a line of
   their own (line' = line * cores + core), as padding each thread's
   data to the line size does for disjoint bytes. */
typedef struct {
   uint32_t shift, cores;
} pad_map;

#define WHATIF_PAD 1     /* the mp_whatif_recall kind of this replay */

static uint64_t map_pad(void *arg, const mp_whatif_access *a)
{
   const pad_map *m = arg;
   uint64_t line = a->addr >> m->shift, off = a->addr & ((1ULL << m->shift) - 1);
   return ((line * m->cores + a->core) << m->shift) | off;
}

/* The replay before padding ran the recorded accesses in Valgrind's
   order, one thread at a time: its coherence misses are the few of that
   order.  A parallel run has the predicted false transfers instead, each
   an L1 miss served at mp_share_transfer_cycles: the run before padding
   counts those, the run after keeps what the padded replay gives (its
   coherence misses, from true sharing, stay). */
static inline uint64_t mp_min_seen(uint64_t a, uint64_t b) { return a < b ? a : b; }

static void as_in_parallel(mp_whatif_run *before, uint64_t predicted_false,
                           const mp_report_config *cfg)
{
   uint64_t seen = before->coherence[0], per = mp_share_transfer_cycles(cfg);
   /* The line's prediction counts for each variable on it: the
      variable's share is at most one transfer per access replayed. */
   if (predicted_false > before->accesses)
      predicted_false = before->accesses;
   before->misses[0] = before->misses[0] - seen + predicted_false;
   before->coherence[0] = predicted_false;
   uint64_t less = (seen - mp_min_seen(seen, predicted_false)) * per;
   before->cycles = before->cycles - (less < before->cycles ? less : before->cycles)
                  + (predicted_false > seen ? (predicted_false - seen) * per : 0);
}

int mp_report_whatif_pad(const mp_var *v, const mp_report_config *cfg,
                         uint64_t predicted_false,
                         mp_whatif_run *before, mp_whatif_run *after)
{
   mp_cache_cfg cc;
   pad_map m;
   if (cfg->whatif == NULL || !cfg->whatif_pad || !mp_report_cache_cfg(cfg, &cc)
       || cc.cores < 2 || mp_whatif_recorded(cfg->whatif, v->id) == 0)
      return 0;
   if (mp_whatif_recall(cfg->whatif, v->id, WHATIF_PAD, before, after))
      return 1;
   m.shift = (uint32_t)__builtin_ctz(cc.level[0].line);
   m.cores = cc.cores;
   if (!mp_whatif_replay(cfg->whatif, v->id, &cc, cfg->cache->latency, NULL, NULL, before)
       || !mp_whatif_replay(cfg->whatif, v->id, &cc, cfg->cache->latency, map_pad, &m,
                            after))
      return 0;
   as_in_parallel(before, predicted_false, cfg);
   mp_whatif_remember(cfg->whatif, v->id, WHATIF_PAD, before, after);
   return 1;
}

void mp_share_write_var(mp_json *j, const mp_share_summary *ss, const mp_vars *vs,
                        const mp_var *v, const mp_report_config *cfg)
{
   const var_sharing *s;
   uint32_t i;
   if (ss == NULL || v->id >= ss->n_vars)
      return;
   s = &ss->vars[v->id];
   if (!s->touched && v->transfers == 0)
      return;
   mp_json_key(j, "sharing");
   mp_json_begin_object(j);
   mp_json_kv_u64(j, "shared_lines", s->shared);
   mp_json_kv_u64(j, "true_lines", s->true_lines);
   mp_json_kv_u64(j, "false_lines", s->false_lines);
   mp_json_kv_u64(j, "transfers", v->transfers);
   mp_json_kv_u64(j, "true_transfers", v->true_transfers);
   mp_json_kv_u64(j, "false_transfers", v->transfers - v->true_transfers);
   mp_json_kv_u64(j, "predicted_transfers", s->predicted);
   mp_json_kv_u64(j, "predicted_true_transfers", s->predicted_true);
   mp_json_kv_u64(j, "predicted_false_transfers", s->predicted - s->predicted_true);
   mp_json_kv_u64(j, "predicted_invalidations", s->predicted_invalidations);
   if (cfg->cache && v->cache) {
      mp_json_kv_u64(j, "invalidations", v->cache->invalidations);
      mp_json_kv_u64(j, "invalidations_suffered", v->cache->invalidations_suffered);
      mp_json_kv_u64(j, "coherence_misses", v->cache->cause[0][MP_MISS_COHERENCE]);
   }
   mp_json_key(j, "worst_lines");
   mp_json_begin_array(j);
   for (i = 0; i < s->n_worst; i++)
      write_worst_line(j, vs, ss->sharing, &s->worst[i], cfg->line_size, cfg);
   mp_json_end_array(j);
   /* Padding removes the false transfers: worth a replay only where a
      parallel run would have some. */
   if (s->predicted > s->predicted_true) {
      mp_whatif_run before, after;
      if (mp_report_whatif_pad(v, cfg, s->predicted - s->predicted_true, &before, &after))
         mp_report_write_whatif(j, "what_if_pad", cfg, v->id, &before, &after);
   }
   mp_json_end_object(j);
}

void mp_share_write_numa(mp_json *j, const mp_var *v)
{
   const mp_numa_counts *n = v->numa;
   uint32_t i;
   if (n == NULL)
      return;
   mp_json_key(j, "numa");
   mp_json_begin_object(j);
   mp_json_kv_u64(j, "local", n->local);
   mp_json_kv_u64(j, "remote", n->remote);
   mp_json_kv_double(j, "hit_ratio", n->local + n->remote
                     ? (double)n->local / (double)(n->local + n->remote) : 1.0);
   mp_json_kv_u64(j, "pages", n->pages);
   mp_json_key(j, "first_touch");
   mp_json_begin_array(j);
   for (i = 0; i < n->n_placers; i++) {
      mp_json_begin_object(j);
      mp_json_kv_u64(j, "thread", n->placer[i].tid);
      mp_json_kv_u64(j, "socket", n->placer[i].socket);
      mp_json_kv_u64(j, "pages", n->placer[i].pages);
      mp_json_end_object(j);
   }
   mp_json_end_array(j);
   mp_json_kv_u64(j, "remote_memory", n->remote_memory);
   mp_json_end_object(j);
}

static void write_pairs(mp_json *j, const mp_vars *vs, const mp_sharing *s)
{
   uint32_t n, i;
   mp_sharing_pair *p = mp_sharing_pairs(s, &n);
   mp_json_key(j, "communication");
   mp_json_begin_array(j);
   for (i = 0; i < n && i < TOP_PAIRS; i++) {
      mp_json_begin_object(j);
      mp_json_kv_string(j, "from", mp_vars_location_where(vs, p[i].writer_loc));
      mp_json_kv_string(j, "from_fn", mp_vars_location_fn(vs, p[i].writer_loc));
      mp_json_kv_string(j, "to", mp_vars_location_where(vs, p[i].reader_loc));
      mp_json_kv_string(j, "to_fn", mp_vars_location_fn(vs, p[i].reader_loc));
      mp_json_kv_string(j, "variable", mp_vars_get(vs, p[i].var)->name);
      mp_json_kv_u64(j, "count", p[i].transfers);
      mp_json_kv_u64(j, "true", p[i].true_transfers);
      mp_json_kv_u64(j, "false", p[i].transfers - p[i].true_transfers);
      mp_json_end_object(j);
   }
   mp_json_end_array(j);
   mp_free(p);
}

static void write_matrix(mp_json *j, const mp_sharing *s)
{
   uint32_t n, i, max_tid = 0, t;
   mp_sharing_cell *c = mp_sharing_cells(s, &n);
   uint8_t *seen;
   for (i = 0; i < n; i++) {
      if (c[i].from > max_tid) max_tid = c[i].from;
      if (c[i].to > max_tid) max_tid = c[i].to;
   }
   seen = mp_calloc("mp.share.matrix", max_tid + 1, 1);
   for (i = 0; i < n; i++)
      seen[c[i].from] = seen[c[i].to] = 1;
   mp_json_key(j, "communication_matrix");
   mp_json_begin_object(j);
   mp_json_key(j, "threads");
   mp_json_begin_array(j);
   for (t = 1; t <= max_tid; t++)
      if (seen[t])
         mp_json_u64(j, t);
   mp_json_end_array(j);
   mp_json_key(j, "cells");
   mp_json_begin_array(j);
   for (i = 0; i < n; i++) {
      mp_json_begin_object(j);
      mp_json_kv_u64(j, "from", c[i].from);
      mp_json_kv_u64(j, "to", c[i].to);
      mp_json_kv_u64(j, "true_lines", c[i].true_lines);
      mp_json_kv_u64(j, "false_lines", c[i].false_lines);
      mp_json_kv_u64(j, "bytes", c[i].bytes);
      mp_json_end_object(j);
   }
   mp_json_end_array(j);
   mp_json_end_object(j);
   mp_free(seen);
   mp_free(c);
}

void mp_share_write_communication(mp_json *j, const mp_vars *vs, const mp_sharing *s)
{
   write_pairs(j, vs, s);
   write_matrix(j, s);
}
