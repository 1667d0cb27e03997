/*--------------------------------------------------------------------*/
/*--- memprof: what the exit summary ranks.           mp_summary.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Runs once, at exit, on the report's rows: two sorts, O(n log n).
*/
#include "mp_summary.h"
#include "mp_rows.h"
#include "mp_share.h"
#include "mp_util.h"

static mp_var_class row_class(const mp_report_row *r)
{
   /* the --min-var-size fold mixes every class: unattributed */
   return r->var ? r->var->cls : MP_CLASS_OTHER;
}

static int ranked(const mp_report_row *r, int show_runtime)
{
   return show_runtime || mp_class_is_programs(row_class(r));
}

/* What ranks a row: its cycles, or its accesses without a cache
   simulation. */
static uint64_t row_rank(const mp_report_row *r, int by_cycles)
{
   return by_cycles ? r->cache.cycles : r->accesses;
}

static int cmp_str(const char *a, const char *b)
{
   if (!a || !b)
      return a ? 1 : (b ? -1 : 0);
   return mp_strcmp(a, b);
}

/* The frames of a heap site's allocation stack from the allocating one
   to the one its where names ("... (file:line)"), all of them if none
   does: what the site's code is, before who called it. */
static uint32_t naming_frames(const mp_var *v)
{
   char *tag;
   uint32_t k;
   if (!v->where)
      return v->n_alloc_stack;
   tag = mp_asprintf("(%s)", v->where);
   for (k = 0; k < v->n_alloc_stack && !mp_strstr(v->alloc_stack[k], tag); k++)
      ;
   mp_free(tag);
   return k < v->n_alloc_stack ? k + 1 : v->n_alloc_stack;
}

static int cmp_frames(const mp_var *a, const mp_var *b)
{
   uint32_t na = naming_frames(a), nb = naming_frames(b), k;
   int c;
   for (k = 0; k < na && k < nb; k++)
      if ((c = mp_strcmp(a->alloc_stack[k], b->alloc_stack[k])))
         return c;
   return na < nb ? -1 : (na > nb);
}

/* The rows a user takes for one: same kind, name, where, function and
   owner, and for heap sites the same code up to the line that names
   them: two call chains that reach one allocation line (a function
   that allocates, called from two places) make two sites, but one
   line of the source.  Sites named after a line further out, past
   code without line information (zlib's allocations named after the
   thread's start), stay apart.  The fold stands alone. */
static int cmp_identity(const void *a_, const void *b_)
{
   const mp_report_row *a = a_, *b = b_;
   const mp_var *va = a->var, *vb = b->var;
   int c;
   if (!va || !vb)
      return va ? 1 : (vb ? -1 : 0);
   if (va->kind != vb->kind)
      return va->kind < vb->kind ? -1 : 1;
   if ((c = cmp_str(va->name, vb->name)) || (c = cmp_str(va->where, vb->where))
       || (c = cmp_str(va->function, vb->function)) || (c = cmp_str(va->object, vb->object)))
      return c;
   if (va->cls != vb->cls)
      return va->cls < vb->cls ? -1 : 1;
   return va->kind == MP_VAR_HEAP ? cmp_frames(va, vb) : 0;
}

static void add_row(mp_report_row *to, const mp_report_row *from)
{
   mp_counts_add(&to->c, &from->c);
   to->accesses += from->accesses;
   mp_cache_counts_add(&to->cache, &from->cache);
   to->stall += from->stall;
   /* as the annotator merges: the largest */
   if (from->lines > to->lines)
      to->lines = from->lines;
   if (from->size > to->size)
      to->size = from->size;
   if (from->n_threads > to->n_threads)
      to->n_threads = from->n_threads;
   if (to->has_ci)
      mp_report_row_add_estimate(to, from);
}

/* The ranked rows, identical ones merged. */
static void rank_rows(mp_summary *s, const mp_report_row *rows, uint32_t n,
                      int show_runtime, int by_cycles)
{
   uint32_t i, k = 0;
   s->rows = mp_calloc("mp.summary.rows", n + 1, sizeof *s->rows);
   for (i = 0; i < n; i++)
      if (ranked(&rows[i], show_runtime))
         s->rows[k++] = rows[i];
   mp_sort(s->rows, k, sizeof *s->rows, cmp_identity);
   for (i = 0, s->n_rows = 0; i < k; i++) {
      if (s->n_rows > 0 && s->rows[i].var
          && cmp_identity(&s->rows[s->n_rows - 1], &s->rows[i]) == 0)
         add_row(&s->rows[s->n_rows - 1], &s->rows[i]);
      else
         s->rows[s->n_rows++] = s->rows[i];
   }
   mp_report_sort_rows(s->rows, s->n_rows, by_cycles);
}

static int fold_by_cycles;

static int cmp_folds(const void *a_, const void *b_)
{
   const mp_summary_fold *a = a_, *b = b_;
   uint64_t na = mp_counts_accesses(&a->c), nb = mp_counts_accesses(&b->c);
   int c;
   if (fold_by_cycles && a->stall != b->stall)
      return a->stall > b->stall ? -1 : 1;
   if (fold_by_cycles && a->cycles != b->cycles)
      return a->cycles > b->cycles ? -1 : 1;
   if (na != nb)
      return na > nb ? -1 : 1;
   if ((c = cmp_str(a->object, b->object)))
      return c;
   return a->cls < b->cls ? -1 : (a->cls > b->cls);
}

/* One fold per (class, object) of the rows not ranked, counting as one
   variable the rows the table would merge: a linear search per row,
   over a handful of objects. */
static void fold_rows(mp_summary *s, const mp_report_row *rows, uint32_t n,
                      int show_runtime, int by_cycles)
{
   uint32_t i, f, k = 0, cap = 0;
   mp_report_row *rest = mp_calloc("mp.summary.rest", n + 1, sizeof *rest);
   for (i = 0; i < n; i++)
      if (!ranked(&rows[i], show_runtime))
         rest[k++] = rows[i];
   mp_sort(rest, k, sizeof *rest, cmp_identity);
   for (i = 0; i < k; i++) {
      const mp_report_row *r = &rest[i];
      mp_var_class cls = row_class(r);
      const char *object = r->var ? r->var->object : NULL;
      mp_summary_fold *fo;
      for (f = 0; f < s->n_folds; f++)
         if (s->folds[f].cls == cls && cmp_str(s->folds[f].object, object) == 0)
            break;
      if (f == s->n_folds) {
         if (s->n_folds == cap) {
            cap = cap ? 2 * cap : 8;
            s->folds = mp_realloc("mp.summary.folds", s->folds, cap * sizeof *s->folds);
         }
         fo = &s->folds[s->n_folds++];
         mp_memset(fo, 0, sizeof *fo);
         fo->cls = cls;
         fo->class_name = mp_class_name(cls);
         fo->object = object;
         fo->by_place = cls == MP_CLASS_RUNTIME && object && mp_class_by_place(object);
      }
      fo = &s->folds[f];
      if (r->var && (fo->top == NULL || row_rank(r, by_cycles) > fo->top_rank)) {
         fo->top = r->var;
         fo->top_rank = row_rank(r, by_cycles);
      }
      mp_counts_add(&fo->c, &r->c);
      fo->accesses += r->accesses;
      fo->cycles += r->cache.cycles;
      fo->stall += r->stall;
      if (i == 0 || !r->var || cmp_identity(&rest[i - 1], r) != 0)
         fo->n_vars++;
   }
   mp_free(rest);
   fold_by_cycles = by_cycles;
   mp_sort(s->folds, s->n_folds, sizeof *s->folds, cmp_folds);
}

mp_summary *mp_summary_make(const mp_report_row *rows, uint32_t n_rows,
                            int show_runtime, int by_cycles)
{
   mp_summary *s = mp_calloc("mp.summary", 1, sizeof *s);
   uint32_t i;
   for (i = 0; i < n_rows; i++) {
      s->reads += rows[i].c.reads;
      s->writes += rows[i].c.writes;
      s->all_rank += row_rank(&rows[i], by_cycles);
      if (mp_class_is_programs(row_class(&rows[i])))
         s->program_rank += row_rank(&rows[i], by_cycles);
   }
   rank_rows(s, rows, n_rows, show_runtime, by_cycles);
   fold_rows(s, rows, n_rows, show_runtime, by_cycles);
   return s;
}

/*------------------------------------------------------------*/
/*--- The output file's entries                            ---*/
/*------------------------------------------------------------*/

/* Whether the file holds r in full (mp_file_entry).  The others are
   summed up, one line per twin set: in an MPI run, tens of thousands
   of MPI's and hwloc's variables whose per-line records made files of
   a hundred megabytes per rank. */
static int in_full(const mp_results *res, const mp_report_row *r)
{
   if (res->run->output_all || !r->var || mp_class_is_programs(r->var->cls))
      return 1;
   return res->run->show_runtime && row_rank(r, res->by_cycles) * 1000
          >= res->summary->all_rank * MP_DETAIL_THRESHOLD_PERMILLE;
}

/* As memprof_annotate takes two rows for one. */
static int cmp_twins(const mp_report_row *a, const mp_report_row *b)
{
   const mp_var *va = a->var, *vb = b->var;
   int c;
   if (va->kind != vb->kind)
      return va->kind < vb->kind ? -1 : 1;
   if ((c = cmp_str(va->name, vb->name)) || (c = cmp_str(va->where, vb->where))
       || (c = cmp_str(va->function, vb->function)) || (c = cmp_str(va->object, vb->object)))
      return c;
   return va->cls < vb->cls ? -1 : (va->cls > vb->cls);
}

static const mp_report_row *twin_rows;

static int cmp_twin_index(const void *a_, const void *b_)
{
   uint32_t a = *(const uint32_t *)a_, b = *(const uint32_t *)b_;
   int c = cmp_twins(&twin_rows[a], &twin_rows[b]);
   return c ? c : (a < b ? -1 : (a > b));
}

static int entry_by_cycles;

static uint64_t entry_rank(const mp_file_entry *e)
{
   return entry_by_cycles ? e->sum.cache.cycles : e->sum.accesses;
}

static int cmp_entries(const void *a_, const void *b_)
{
   const mp_file_entry *a = a_, *b = b_;
   if (entry_by_cycles && a->sum.stall != b->sum.stall)
      return a->sum.stall > b->sum.stall ? -1 : 1;
   if (entry_rank(a) != entry_rank(b))
      return entry_rank(a) > entry_rank(b) ? -1 : 1;
   return a->row < b->row ? -1 : (a->row > b->row);
}

mp_file_entry *mp_summary_file_entries(const mp_results *res, uint32_t *n_out)
{
   const mp_report_row *rows = res->rows;
   uint32_t n = res->n_rows, i, k = 0, n_rest = 0;
   uint32_t *rest = mp_calloc("mp.summary.frest", n + 1, sizeof *rest);
   mp_file_entry *e = mp_calloc("mp.summary.entries", n + 1, sizeof *e);
   for (i = 0; i < n; i++) {
      if (in_full(res, &rows[i])) {
         e[k].row = i;
         e[k++].sum = rows[i];
      } else {
         rest[n_rest++] = i;
      }
   }
   twin_rows = rows;
   mp_sort(rest, n_rest, sizeof *rest, cmp_twin_index);
   for (i = 0; i < n_rest; i++) {
      const mp_report_row *r = &rows[rest[i]];
      if (i == 0 || cmp_twins(&rows[rest[i - 1]], r) != 0) {
         e[k].row = rest[i];
         e[k].summary = 1;
         e[k++].sum = *r;
      } else {
         add_row(&e[k - 1].sum, r);
         if (rest[i] < e[k - 1].row)
            e[k - 1].row = rest[i];
      }
      e[k - 1].blocks += r->var->blocks;
      e[k - 1].alloc_bytes += r->var->alloc_bytes;
   }
   mp_free(rest);
   entry_by_cycles = res->by_cycles;
   mp_sort(e, k, sizeof *e, cmp_entries);
   *n_out = k;
   return e;
}

const char **mp_summary_program_objects(const mp_results *res, uint32_t *n_out)
{
   const char **objects = mp_calloc("mp.summary.pobjs", res->n_rows + 1, sizeof *objects);
   uint32_t i, k, n = 0;
   for (i = 0; i < res->n_rows; i++) {
      const mp_var *v = res->rows[i].var;
      if (!v || !v->object || !mp_class_is_programs(v->cls))
         continue;
      for (k = 0; k < n && mp_strcmp(objects[k], v->object) != 0; k++)
         ;
      if (k == n)
         objects[n++] = v->object;
   }
   *n_out = n;
   return objects;
}

/*------------------------------------------------------------*/
/*--- Threads                                              ---*/
/*------------------------------------------------------------*/

/* Whether the summary names v: the program's, unless show_runtime
   (the others are folded per object). */
static int names(const mp_var *v, int show_runtime)
{
   return show_runtime || mp_class_is_programs(v->cls);
}

/* Keeps c among the worst: most false transfers predicted (its rank),
   then most falsely shared lines; the first found first among equals. */
static void keep_shared(mp_summary *s, const mp_summary_shared *c)
{
   uint32_t k;
   for (k = s->n_shared < MP_SUMMARY_SHARED_VARS ? s->n_shared++ : MP_SUMMARY_SHARED_VARS;
        k > 0 && (s->shared[k - 1].rank < c->rank
                  || (s->shared[k - 1].rank == c->rank
                      && s->shared[k - 1].false_lines < c->false_lines));
        k--)
      if (k < MP_SUMMARY_SHARED_VARS)
         s->shared[k] = s->shared[k - 1];
   if (k < MP_SUMMARY_SHARED_VARS)
      s->shared[k] = *c;
}

int mp_summary_schedule_hid(uint64_t predicted_false, uint64_t seen)
{
   return predicted_false >= 100 && predicted_false / 100 >= (seen ? seen : 1);
}

/* The variables with the most false transfers predicted for a parallel
   run, then the most falsely shared lines. */
static void false_sharing(mp_summary *s, const mp_results *res)
{
   uint32_t i;
   s->sharing = 1;
   for (i = 0; i < res->n_rows; i++) {
      const mp_var *v = res->rows[i].var;
      mp_summary_shared c;
      uint64_t true_lines, pred, inv;
      if (!v || !names(v, res->run->show_runtime))
         continue;
      const mp_share_var *sv = mp_share_var_of(res->share, v->id);
      mp_share_var_lines(res->share, v->id, &c.shared_lines, &true_lines, &c.false_lines);
      mp_share_var_predicted(res->share, v->id, &pred, &c.predicted_false, &inv);
      c.false_placements = mp_share_false_placements(sv);
      c.placements = sv ? sv->place_n : 0;
      c.current = sv ? sv->place_current : 0;
      /* True lines with false transfers predicted count too: the
         workers' slots read by the main thread at the end; and a
         layout that shares falsely at another placement of its block,
         lucky where it lies. */
      if (c.false_lines == 0 && c.predicted_false == 0 && c.false_placements == 0)
         continue;
      /* A line counts for each of its variables; none suffers more
         transfers than it makes accesses. */
      if (c.predicted_false > mp_counts_accesses(&v->c))
         c.predicted_false = mp_counts_accesses(&v->c);
      c.var = v;
      c.seen = v->transfers - v->true_transfers;
      c.rank = c.false_lines == 0 && c.predicted_false == 0 ? mp_counts_accesses(&v->c)
                                                             : c.predicted_false;
      keep_shared(s, &c);
   }
   for (i = 0; i < s->n_shared; i++)
      if (mp_summary_schedule_hid(s->shared[i].predicted_false, s->shared[i].seen))
         s->serial_schedule = res->run->fair_sched ? 2 : 1;
}

/* Whether the OpenMP runtime spun its threads' waits: several threads
   ran, the user set no wait policy.  Its accesses are those of the
   variables it owns. */
static void openmp_spin(mp_summary *s, const mp_results *res)
{
   uint32_t i;
   const char *rt = res->run->openmp_runtime;
   if (!rt || res->run->openmp_wait_set || res->totals.threads < 2)
      return;
   s->openmp_spin = rt;
   s->all_accesses = s->reads + s->writes;
   for (i = 0; i < res->n_rows; i++) {
      const mp_var *v = res->rows[i].var;
      if (v && v->object && mp_strcmp(v->object, rt) == 0)
         s->openmp_accesses += res->rows[i].accesses;
   }
}

/* The hit ratio over all accesses, the most remote variable. */
static void numa(mp_summary *s, const mp_results *res)
{
   uint32_t i;
   s->numa = 1;
   for (i = 0; i < res->n_rows; i++) {
      const mp_var *v = res->rows[i].var;
      if (!v || !v->numa)
         continue;
      s->numa_local += v->numa->local;
      s->numa_remote += v->numa->remote;
      if (v->numa->remote > s->numa_worst_remote && names(v, res->run->show_runtime)) {
         s->numa_worst_remote = v->numa->remote;
         s->numa_worst = v;
      }
   }
}

void mp_summary_threads(mp_summary *s, const mp_results *res)
{
   if (res->share)
      false_sharing(s, res);
   if (res->run->page_size)
      numa(s, res);
   openmp_spin(s, res);
}

void mp_summary_free(mp_summary *s)
{
   mp_free(s->rows);
   if (s->folds)
      mp_free(s->folds);
   mp_free(s);
}
