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
      vs->predicted += l->predicted;
      vs->predicted_true += l->predicted_true;
      vs->predicted_invalidations += l->predicted_invalidations;
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

mp_share_summary *mp_share_summarise(const mp_sharing *s, const mp_vars *vs,
                                     int (*block_of)(uint64_t addr, uint64_t *start),
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
         uint64_t addr = w->line * line_size, start;
         if (block_of(addr + first_touched(s, w), &start)) {
            w->has_offset = 1;
            w->offset = (int64_t)(addr - start);
         }
      }
   return ss;
}

const mp_share_var *mp_share_var_of(const mp_share_summary *ss, uint32_t var)
{
   return ss == NULL || var >= ss->n_vars ? NULL : &ss->vars[var];
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

