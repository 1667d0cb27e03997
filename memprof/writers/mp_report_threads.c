/*--------------------------------------------------------------------*/
/*--- memprof: the report's sections on threads: sharing,          ---*/
/*--- communication, NUMA.                       mp_report_threads.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Writes variables[].sharing (the summary mp_share.c made: shared,
   true and false lines, the worst lines with each thread's bytes and
   source lines), variables[].numa, the top-level "communication" pairs
   and the "communication_matrix" (docs/json-format.md).  Next to each
   observed transfer count goes the count predicted for a parallel run
   (mp_sharing_predict).  Only writes.
*/
#include "mp_report_threads.h"

#define TOP_PAIRS       20

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
                               const mp_share_line *w)
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

static void write_worst_line(mp_json *j, const mp_vars *vs, const mp_sharing *s,
                             const mp_share_line *w, uint32_t line_size)
{
   uint64_t addr = w->line * line_size;
   char hex[32];
   mp_json_begin_object(j);
   mp_snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)addr);
   mp_json_kv_string(j, "line", hex);
   mp_json_key(j, "offset");
   if (w->has_offset)
      mp_json_i64(j, w->offset);
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

int mp_report_sharing_shown(const mp_results *res, const mp_var *v)
{
   const mp_share_var *s = mp_share_var_of(res->share, v->id);
   return s && (s->touched || v->transfers != 0);
}

void mp_report_write_sharing(mp_json *j, const mp_results *res, const mp_var *v)
{
   const mp_share_var *s = mp_share_var_of(res->share, v->id);
   uint32_t i;
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
   if (res->an->cache && v->cache) {
      mp_json_kv_u64(j, "invalidations", v->cache->invalidations);
      mp_json_kv_u64(j, "invalidations_suffered", v->cache->invalidations_suffered);
      mp_json_kv_u64(j, "coherence_misses", v->cache->cause[0][MP_MISS_COHERENCE]);
   }
   mp_json_key(j, "worst_lines");
   mp_json_begin_array(j);
   for (i = 0; i < s->n_worst; i++)
      write_worst_line(j, res->vs, res->share->sharing, &s->worst[i], res->run->line_size);
   mp_json_end_array(j);
}

void mp_report_write_numa(mp_json *j, const mp_var *v)
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

void mp_report_write_communication(mp_json *j, const mp_vars *vs, const mp_sharing *s)
{
   write_pairs(j, vs, s);
   write_matrix(j, s);
}
