/*--------------------------------------------------------------------*/
/*--- memprof: sharing between threads, per variable.    mp_share.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
   See mp_share.h.
*/
#include "mp_share.h"
#include "mp_util.h"

/* The first byte of the line any thread touched: a byte of one of the
   line's variables, to find the block the offset is relative to. */
static uint32_t first_touched(const mp_sharing *s, const mp_share_line *w)
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

/* Orders worst lines: more predicted transfers, then more observed,
   then more threads, then lower address (so the output does not depend
   on hash order). */
static int worse(const mp_share_line *a, const mp_share_line *b)
{
   if (a->predicted != b->predicted)
      return a->predicted > b->predicted;
   if (a->transfers != b->transfers)
      return a->transfers > b->transfers;
   if (a->n_threads != b->n_threads)
      return a->n_threads > b->n_threads;
   return a->line < b->line;
}

static void keep_worst(mp_share_var *vs, const mp_share_line *w)
{
   uint32_t i = vs->n_worst < MP_SHARE_WORST_LINES ? vs->n_worst++ : MP_SHARE_WORST_LINES;
   if (i == MP_SHARE_WORST_LINES) {
      if (!worse(w, &vs->worst[MP_SHARE_WORST_LINES - 1]))
         return;
      i = MP_SHARE_WORST_LINES - 1;
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
      mp_share_var *vs;
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
      /* its own share of the line's: what its accesses receive */
      vs->predicted += l->var_predicted[i];
      vs->predicted_true += l->var_predicted_true[i];
      vs->predicted_invalidations += l->var_predicted_invalidations[i];
      {
         mp_share_line w;
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

/* The threads of a worst line in thread order, each source line once:
   locations differ by function too. */
static void threads_by_tid(const mp_vars *vs, mp_share_line *w)
{
   const mp_sharing_thread *t;
   uint32_t last = 0, n = 0, i, k;
   for (t = w->threads; t; t = t->next)
      n++;
   w->by_tid = mp_calloc("mp.share.threads", n + 1, sizeof *w->by_tid);
   w->n_by_tid = 0;
   for (;;) {
      const mp_sharing_thread *next = NULL;
      mp_share_thread *o;
      for (t = w->threads; t; t = t->next)
         if (t->tid > last && (next == NULL || t->tid < next->tid))
            next = t;
      if (next == NULL)
         break;
      o = &w->by_tid[w->n_by_tid++];
      o->tid = next->tid;
      o->reads = next->reads;
      o->writes = next->writes;
      o->read_mask = next->read_mask;
      o->write_mask = next->write_mask;
      for (i = 0; i < next->n_locs; i++) {
         const char *wh = mp_vars_location_where(vs, next->locs[i]);
         int seen = 0;
         for (k = 0; k < i && !seen; k++) {
            const char *o2 = mp_vars_location_where(vs, next->locs[k]);
            seen = (o2 == wh) || (o2 && wh && mp_strcmp(o2, wh) == 0);
         }
         if (!seen)
            o->where[o->n_where++] = wh;
      }
      last = next->tid;
   }
}

/* The busiest pairs of source lines, named. */
static void communication_pairs(mp_share_summary *ss, const mp_sharing *s,
                                const mp_vars *vs)
{
   uint32_t n, i;
   mp_sharing_pair *p = mp_sharing_pairs(s, &n);
   ss->n_pairs = n < MP_SHARE_TOP_PAIRS ? n : MP_SHARE_TOP_PAIRS;
   ss->pairs = mp_calloc("mp.share.pairs", ss->n_pairs + 1, sizeof *ss->pairs);
   for (i = 0; i < ss->n_pairs; i++) {
      mp_share_pair *o = &ss->pairs[i];
      o->from = mp_vars_location_where(vs, p[i].writer_loc);
      o->from_fn = mp_vars_location_fn(vs, p[i].writer_loc);
      o->to = mp_vars_location_where(vs, p[i].reader_loc);
      o->to_fn = mp_vars_location_fn(vs, p[i].reader_loc);
      o->variable = mp_vars_get(vs, p[i].var)->name;
      o->transfers = p[i].transfers;
      o->true_transfers = p[i].true_transfers;
   }
   mp_free(p);
}

/* The matrix' cells and the threads they name. */
static void communication_matrix(mp_share_summary *ss, const mp_sharing *s)
{
   uint32_t i, t, max_tid = 0;
   uint8_t *seen;
   ss->cells = mp_sharing_cells(s, &ss->n_cells);
   for (i = 0; i < ss->n_cells; i++) {
      if (ss->cells[i].from > max_tid) max_tid = ss->cells[i].from;
      if (ss->cells[i].to > max_tid) max_tid = ss->cells[i].to;
   }
   seen = mp_calloc("mp.share.matrix", max_tid + 1, 1);
   for (i = 0; i < ss->n_cells; i++)
      seen[ss->cells[i].from] = seen[ss->cells[i].to] = 1;
   ss->threads = mp_calloc("mp.share.mthreads", max_tid + 1, sizeof *ss->threads);
   for (t = 1; t <= max_tid; t++)
      if (seen[t])
         ss->threads[ss->n_threads++] = t;
   mp_free(seen);
}

/*------------------------------------------------------------*/
/*--- Placements                                           ---*/
/*------------------------------------------------------------*/

/* A line record of a block: the block (id: the freed block's, 0 for a
   live one), its variable and the line. */
typedef struct {
   uint64_t id, start, len, line;
   uint32_t var;
   const mp_sharing_thread *threads;
   uint32_t vars[MP_SHARING_LINE_VARS];
   uint32_t n_vars;
} block_line;

typedef struct {
   block_line *v;
   uint32_t n, room;
   const mp_sharing *s;
   const mp_vars *vs;
   int (*block_of)(uint64_t addr, uint64_t *start, uint64_t *len, uint32_t *var);
   uint32_t line_size;
} gathering;

static void push_line(gathering *g, const mp_sharing_line *l, uint64_t id,
                      uint64_t start, uint64_t len, uint32_t var)
{
   block_line *b;
   if (g->n == g->room) {
      g->room = g->room ? 2 * g->room : 256;
      g->v = mp_realloc("mp.share.place", g->v, g->room * sizeof *g->v);
   }
   b = &g->v[g->n++];
   b->id = id;
   b->start = start;
   b->len = len;
   b->var = var;
   b->line = l->line;
   b->threads = l->threads;
   mp_memcpy(b->vars, l->vars, sizeof b->vars);
   b->n_vars = l->n_vars;
}

/* Whether a variable of the line is a heap variable: no other line
   is filed (the stack's and the globals' placements are not the
   allocator's). */
static int holds_heap(const mp_vars *vs, const mp_sharing_line *l)
{
   uint32_t i;
   for (i = 0; i < l->n_vars; i++)
      if (l->vars[i] < mp_vars_count(vs) && mp_vars_get(vs, l->vars[i])->kind == MP_VAR_HEAP)
         return 1;
   return 0;
}

/* Files a record under its block: a retired one under the freed block
   it remembers; a live one under each block holding one of its touched
   byte groups (a line may end one block and start the next), asking
   the adapter once per block met. */
static void gather_record(const mp_sharing_line *l, void *arg)
{
   gathering *g = arg;
   const mp_sharing_thread *t;
   uint64_t mask = 0, base = l->line * g->line_size, end = 0;
   uint32_t b, first, last;
   if (!holds_heap(g->vs, l))
      return;
   if (l->freed_id) {
      push_line(g, l, l->freed_id, l->freed_start, l->freed_len, l->freed_var);
      return;
   }
   for (t = l->threads; t; t = t->next)
      mask |= t->read_mask | t->write_mask;
   for (b = 0; b < 64; b++) {
      uint64_t start, len;
      uint32_t var;
      if (!(mask >> b & 1))
         continue;
      mp_sharing_group_bytes(g->s, b, &first, &last);
      if (base + first < end)
         continue;
      if (!g->block_of(base + first, &start, &len, &var)) {
         end = base + last + 1;
         continue;
      }
      push_line(g, l, 0, start, len, var);
      end = start + len;
   }
}

static int block_line_cmp(const void *a, const void *b)
{
   const block_line *x = a, *y = b;
   if (x->id != y->id)
      return x->id < y->id ? -1 : 1;
   if (x->start != y->start)
      return x->start < y->start ? -1 : 1;
   return x->line < y->line ? -1 : x->line > y->line;
}

/* Whether two threads touched the block's lines b[0..n). */
static int two_threads(const block_line *b, uint32_t n)
{
   uint32_t i, tid = 0;
   const mp_sharing_thread *t;
   for (i = 0; i < n; i++)
      for (t = b[i].threads; t; t = t->next) {
         if (tid == 0)
            tid = t->tid;
         else if (t->tid != tid)
            return 1;
      }
   return 0;
}

/* The block's variable: the one the allocator's records give, else the
   one most of its lines name (a line also names the neighbours whose
   bytes share it: a block of 32 bytes across two lines, amid the
   blocks of other threads, may have more of them than its own). */
static uint32_t block_var(const block_line *b, uint32_t n)
{
   uint32_t i, k, j, best = b[0].n_vars ? b[0].vars[0] : 0, best_n = 0;
   if (b[0].var != MP_SHARING_NO_VAR)
      return b[0].var;
   for (i = 0; i < n; i++)
      for (k = 0; k < b[i].n_vars; k++) {
         uint32_t c = 0;
         for (j = 0; j < n; j++) {
            uint32_t m;
            for (m = 0; m < b[j].n_vars; m++)
               c += b[j].vars[m] == b[i].vars[k];
         }
         if (c > best_n) {
            best_n = c;
            best = b[i].vars[k];
         }
      }
   return best;
}

static void place_block(mp_share_summary *ss, const mp_sharing *s, const mp_vars *vs,
                        const block_line *b, uint32_t n, uint32_t line_size)
{
   uint32_t var = block_var(b, n), i, step, n_place;
   mp_sharing_rec *recs;
   mp_share_var *sv;
   if (var >= ss->n_vars || mp_vars_get(vs, var)->kind != MP_VAR_HEAP)
      return;
   /* Placements 16 bytes apart, as malloc aligns; at most 64 of them. */
   step = line_size < 16 ? line_size : line_size / 64 > 16 ? line_size / 64 : 16;
   n_place = line_size / step;
   recs = mp_malloc("mp.share.recs", n * sizeof *recs);
   for (i = 0; i < n; i++) {
      recs[i].line = b[i].line;
      recs[i].threads = b[i].threads;
   }
   sv = &ss->vars[var];
   if (sv->place_blocks++ == 0)
      sv->place_current = (uint32_t)(b[0].start & (line_size - 1));
   sv->place_step = step;
   sv->place_n = n_place;
   if (sv->place_predicted == NULL)
      sv->place_predicted = mp_calloc("mp.share.place", n_place, sizeof *sv->place_predicted);
   for (i = 0; i < n_place; i++) {
      uint64_t predicted;
      if (mp_sharing_false_at(s, recs, n, b[0].start, b[0].len, i * step, &predicted))
         sv->false_at |= 1ULL << i;
      sv->place_predicted[i] += predicted;
   }
   mp_free(recs);
}

/* Every heap block two threads touched, placed at each 16-byte offset
   of a line.  Cost: the heap lines' records filed in a temporary array
   (about 64 bytes each, less than the engine keeps per record) and
   sorted once, then per block and placement O(its records x
   threads^2); no line without a record is looked at, however long the
   block. */
static void placements(mp_share_summary *ss, const mp_sharing *s, const mp_vars *vs,
                       int (*block_of)(uint64_t addr, uint64_t *start, uint64_t *len,
                                       uint32_t *var),
                       uint32_t line_size)
{
   gathering g;
   uint32_t i, j;
   mp_memset(&g, 0, sizeof g);
   g.s = s;
   g.vs = vs;
   g.block_of = block_of;
   g.line_size = line_size;
   mp_sharing_foreach_record(s, gather_record, &g);
   if (g.n == 0)
      return;
   mp_sort(g.v, g.n, sizeof *g.v, block_line_cmp);
   for (i = 0; i < g.n; i = j) {
      for (j = i + 1; j < g.n && g.v[j].id == g.v[i].id && g.v[j].start == g.v[i].start; j++)
         ;
      if (two_threads(&g.v[i], j - i))
         place_block(ss, s, vs, &g.v[i], j - i, line_size);
   }
   mp_free(g.v);
}

uint32_t mp_share_false_placements(const mp_share_var *sv)
{
   return sv ? (uint32_t)__builtin_popcountll(sv->false_at) : 0;
}

static void byte_groups(mp_share_summary *ss, const mp_sharing *s)
{
   uint32_t b;
   ss->n_groups = mp_sharing_groups(s);
   for (b = 0; b < ss->n_groups && b < 64; b++)
      mp_sharing_group_bytes(s, b, &ss->group_first[b], &ss->group_last[b]);
}

mp_share_summary *mp_share_summarise(const mp_sharing *s, const mp_vars *vs,
                                     int (*block_of)(uint64_t addr, uint64_t *start,
                                                     uint64_t *len, uint32_t *var),
                                     uint32_t line_size)
{
   mp_share_summary *ss = mp_calloc("mp.share.sum", 1, sizeof *ss);
   uint32_t v, i;
   ss->sharing = s;
   ss->n_vars = mp_vars_count(vs);
   ss->vars = mp_calloc("mp.share.sum", ss->n_vars + 1, sizeof *ss->vars);
   mp_sharing_foreach_line(s, summarise_line, ss);
   for (v = 0; v < ss->n_vars && block_of; v++)
      for (i = 0; i < ss->vars[v].n_worst; i++) {
         mp_share_line *w = &ss->vars[v].worst[i];
         uint64_t addr = w->line * line_size, start, len;
         if (block_of(addr + first_touched(s, w), &start, &len, NULL)) {
            w->has_offset = 1;
            w->offset = (int64_t)(addr - start);
         }
      }
   for (v = 0; v < ss->n_vars; v++)
      for (i = 0; i < ss->vars[v].n_worst; i++)
         threads_by_tid(vs, &ss->vars[v].worst[i]);
   byte_groups(ss, s);
   if (block_of)
      placements(ss, s, vs, block_of, line_size);
   communication_pairs(ss, s, vs);
   communication_matrix(ss, s);
   return ss;
}

uint64_t mp_share_placement_worst(const mp_share_var *sv)
{
   uint64_t worst = 0;
   uint32_t i;
   for (i = 0; sv && sv->place_predicted && i < sv->place_n; i++)
      if (sv->place_predicted[i] > worst)
         worst = sv->place_predicted[i];
   return worst;
}

const mp_share_var *mp_share_var_of(const mp_share_summary *ss, uint32_t var)
{
   return ss == NULL || var >= ss->n_vars ? NULL : &ss->vars[var];
}

void mp_share_free(mp_share_summary *ss)
{
   uint32_t v, i;
   if (ss == NULL)
      return;
   for (v = 0; v < ss->n_vars; v++) {
      for (i = 0; i < ss->vars[v].n_worst; i++)
         mp_free(ss->vars[v].worst[i].by_tid);
      if (ss->vars[v].place_predicted)
         mp_free(ss->vars[v].place_predicted);
   }
   mp_free(ss->pairs);
   if (ss->cells)
      mp_free(ss->cells);
   mp_free(ss->threads);
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

