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
   (mp_sharing_predict).  Only writes what the results hold (mp_share.h).
*/
#include "mp_report_threads.h"
#include "mp_util.h"

/* The byte ranges a mask covers, as [[first, last], ...]. */
static void write_byte_ranges(mp_json *j, const mp_share_summary *ss, uint64_t mask)
{
   uint32_t n = ss->n_groups, b = 0;
   mp_json_begin_array(j);
   while (b < n) {
      uint32_t e;
      if (!(mask >> b & 1)) {
         b++;
         continue;
      }
      for (e = b; e + 1 < n && (mask >> (e + 1) & 1); e++)
         ;
      mp_json_begin_array(j);
      mp_json_u64(j, ss->group_first[b]);
      mp_json_u64(j, ss->group_last[e]);
      mp_json_end_array(j);
      b = e + 1;
   }
   mp_json_end_array(j);
}

static void write_line_thread(mp_json *j, const mp_share_summary *ss,
                              const mp_share_thread *t)
{
   uint32_t i;
   mp_json_begin_object(j);
   mp_json_kv_u64(j, "thread", t->tid);
   mp_json_kv_u64(j, "reads", t->reads);
   mp_json_kv_u64(j, "writes", t->writes);
   mp_json_key(j, "read_bytes");
   write_byte_ranges(j, ss, t->read_mask);
   mp_json_key(j, "write_bytes");
   write_byte_ranges(j, ss, t->write_mask);
   mp_json_key(j, "where");
   mp_json_begin_array(j);
   for (i = 0; i < t->n_where; i++)
      mp_json_string(j, t->where[i]);
   mp_json_end_array(j);
   mp_json_end_object(j);
}

/* The threads of a worst line, in thread order. */
static void write_line_threads(mp_json *j, const mp_share_summary *ss,
                               const mp_share_line *w)
{
   uint32_t i;
   mp_json_key(j, "threads");
   mp_json_begin_array(j);
   for (i = 0; i < w->n_by_tid; i++)
      write_line_thread(j, ss, &w->by_tid[i]);
   mp_json_end_array(j);
}

static void write_worst_line(mp_json *j, const mp_share_summary *ss,
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
   write_line_threads(j, ss, w);
   mp_json_end_object(j);
}

/* The placements of its blocks (mp_share_var.place_*): at which
   offsets of a line a block would falsely share. */
static void write_placements(mp_json *j, const mp_share_var *s)
{
   uint32_t i;
   mp_json_key(j, "placements");
   mp_json_begin_object(j);
   mp_json_kv_u64(j, "step", s->place_step);
   mp_json_kv_u64(j, "evaluated", s->place_n);
   mp_json_kv_u64(j, "current", s->place_current);
   mp_json_kv_u64(j, "blocks", s->place_blocks);
   mp_json_key(j, "false_at");
   mp_json_begin_array(j);
   for (i = 0; i < s->place_n; i++)
      if (s->false_at >> i & 1)
         mp_json_u64(j, (uint64_t)i * s->place_step);
   mp_json_end_array(j);
   mp_json_end_object(j);
}

/* A variable no line of which two threads touched is shown when a
   placement of its blocks would make them share one. */
int mp_report_sharing_shown(const mp_results *res, const mp_var *v)
{
   const mp_share_var *s = mp_share_var_of(res->share, v->id);
   return s && (s->touched || v->transfers != 0 || s->false_at != 0);
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
   if (res->cache && v->cache) {
      mp_json_kv_u64(j, "invalidations", v->cache->invalidations);
      mp_json_kv_u64(j, "invalidations_suffered", v->cache->invalidations_suffered);
      mp_json_kv_u64(j, "coherence_misses", v->cache->cause[0][MP_MISS_COHERENCE]);
   }
   if (s->place_blocks)
      write_placements(j, s);
   mp_json_key(j, "worst_lines");
   mp_json_begin_array(j);
   for (i = 0; i < s->n_worst; i++)
      write_worst_line(j, res->share, &s->worst[i], res->run->line_size);
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

static void write_pairs(mp_json *j, const mp_share_summary *ss)
{
   uint32_t i;
   mp_json_key(j, "communication");
   mp_json_begin_array(j);
   for (i = 0; i < ss->n_pairs; i++) {
      const mp_share_pair *p = &ss->pairs[i];
      mp_json_begin_object(j);
      mp_json_kv_string(j, "from", p->from);
      mp_json_kv_string(j, "from_fn", p->from_fn);
      mp_json_kv_string(j, "to", p->to);
      mp_json_kv_string(j, "to_fn", p->to_fn);
      mp_json_kv_string(j, "variable", p->variable);
      mp_json_kv_u64(j, "count", p->transfers);
      mp_json_kv_u64(j, "true", p->true_transfers);
      mp_json_kv_u64(j, "false", p->transfers - p->true_transfers);
      mp_json_end_object(j);
   }
   mp_json_end_array(j);
}

static void write_matrix(mp_json *j, const mp_share_summary *ss)
{
   uint32_t i;
   mp_json_key(j, "communication_matrix");
   mp_json_begin_object(j);
   mp_json_key(j, "threads");
   mp_json_begin_array(j);
   for (i = 0; i < ss->n_threads; i++)
      mp_json_u64(j, ss->threads[i]);
   mp_json_end_array(j);
   mp_json_key(j, "cells");
   mp_json_begin_array(j);
   for (i = 0; i < ss->n_cells; i++) {
      const mp_sharing_cell *c = &ss->cells[i];
      mp_json_begin_object(j);
      mp_json_kv_u64(j, "from", c->from);
      mp_json_kv_u64(j, "to", c->to);
      mp_json_kv_u64(j, "true_lines", c->true_lines);
      mp_json_kv_u64(j, "false_lines", c->false_lines);
      mp_json_kv_u64(j, "bytes", c->bytes);
      mp_json_end_object(j);
   }
   mp_json_end_array(j);
   mp_json_end_object(j);
}

void mp_report_write_communication(mp_json *j, const mp_share_summary *ss)
{
   write_pairs(j, ss);
   write_matrix(j, ss);
}
