/*--------------------------------------------------------------------*/
/*--- memprof: the loops as the report shows them.                 ---*/
/*---                                              mp_loop_results.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
   See mp_loop_results.h.
*/
#include "mp_loop_results.h"
#include "mp_facts.h"
#include "mp_util.h"

#define MIN_FORMULA_ACCESSES 16  /* fewer: too little to call it a pattern */

/*------------------------------------------------------------*/
/*--- Each loop                                            ---*/
/*------------------------------------------------------------*/

/* The class of a loop's code, as a variable's: its head's object
   decides.  Loops of the C runtime or the loader get no advice and are
   folded in the annotator's Loops section, as their variables are. */
static void describe_loop(mp_results *res, const mp_adapter_queries *ask, uint32_t id)
{
   const mp_finished *an = res->an;
   mp_loop_result *lr = &res->loop[id];
   const char *path;
   lr->loop = mp_loops_get(an->loops, id);
   path = ask && ask->code_object ? ask->code_object(lr->loop->head) : NULL;
   lr->cls = path ? mp_class_of_object(path) : MP_CLASS_PROGRAM;
   lr->class_name = mp_class_name(lr->cls);
   if (path)
      lr->object = mp_strdup("mp.results.loopobj", mp_object_base(path));
   lr->function = mp_vars_location_fn(res->vs, lr->loop->fn);
   lr->where = mp_facts_loop_where(an, id);
   if (an->streams) {
      lr->streams = mp_streams_get(an->streams, id);
      lr->flagged = mp_streams_flagged(an->streams, id);
      lr->accesses = lr->streams ? lr->streams->accesses : 0;
   }
}

/* With --sample=lines the loops are seen in the detail windows alone,
   so a loop's count from its instances is of a few windows (a loop of
   1.4% of LULESH's accesses came out at 0.4%, below the advice's
   threshold): its own instructions' exact counts are a floor. */
static void floor_exact_accesses(mp_results *res)
{
   const mp_finished *an = res->an;
   uint64_t *own;
   uint32_t i;
   if (an->instrs == NULL)
      return;
   own = mp_calloc("mp.results.loopown", res->n_loops + 1, sizeof *own);
   for (i = 0; i < an->n_instrs; i++) {
      const mp_instr_fact *f = &an->instrs[i];
      if (f->known && f->executed > 0 && f->loop < res->n_loops)
         own[f->loop] += f->executed;
   }
   for (i = 0; i < res->n_loops; i++)
      if (own[i] > res->loop[i].accesses)
         res->loop[i].accesses = own[i];
   mp_free(own);
}

/*------------------------------------------------------------*/
/*--- The loops shown                                      ---*/
/*------------------------------------------------------------*/

typedef struct {
   uint32_t loop;
   uint64_t accesses;
} loop_rank;

static int loop_rank_before(const loop_rank *a, const loop_rank *b)
{
   if (a->accesses != b->accesses)
      return a->accesses > b->accesses;
   return a->loop < b->loop;
}

static int loop_rank_cmp(const void *a, const void *b)
{
   return loop_rank_before(a, b) ? -1 : loop_rank_before(b, a) ? 1 : 0;
}

/* The loops that accessed memory, busiest first; *n_out their number.
   Loops that ran but did not access memory in the collected part
   (--toggle-collect) are left out, unless an inner loop needs them as
   its parent. */
static loop_rank *rank_loops(const mp_results *res, uint32_t *n_out)
{
   loop_rank *r = mp_malloc("mp.results.loops", (res->n_loops + 1) * sizeof *r);
   uint32_t i, k = 0;
   for (i = 0; i < res->n_loops; i++) {
      const mp_loop_result *lr = &res->loop[i];
      if (lr->loop->entries == 0 || lr->loop->excursion || lr->streams == NULL
          || lr->accesses == 0)
         continue;
      r[k].loop = i;
      r[k].accesses = lr->accesses;
      k++;
   }
   mp_sort(r, k, sizeof *r, loop_rank_cmp);
   *n_out = k;
   return r;
}

/* The busiest loops, then the ancestors they need, in id order. */
static void choose_shown(mp_results *res)
{
   uint32_t n_ranked, i, k = 0;
   loop_rank *r = rank_loops(res, &n_ranked);
   uint8_t *listed = mp_calloc("mp.results.loops", res->n_loops + 1, 1);
   uint8_t *needed = mp_calloc("mp.results.loops", res->n_loops + 1, 1);
   if (n_ranked > MP_LOOPS_SHOWN)
      n_ranked = MP_LOOPS_SHOWN;
   res->loops_shown = mp_malloc("mp.results.shown", (res->n_loops + 1) * sizeof(uint32_t));
   for (i = 0; i < n_ranked; i++) {
      uint32_t p;
      res->loops_shown[k++] = r[i].loop;
      listed[r[i].loop] = 1;
      for (p = res->loop[r[i].loop].loop->parent; p != MP_LOOP_NONE;
           p = res->loop[p].loop->parent)
         needed[p] = 1;
   }
   for (i = 0; i < res->n_loops; i++)
      if (needed[i] && !listed[i])
         res->loops_shown[k++] = i;
   res->n_loops_shown = k;
   mp_free(needed);
   mp_free(listed);
   mp_free(r);
}

/*------------------------------------------------------------*/
/*--- Their formulas                                       ---*/
/*------------------------------------------------------------*/

typedef struct {
   uint32_t loop;
   uint32_t index;        /* mp_formula_at index */
   uint64_t accesses;
} formula_ref;

static int formula_before(const formula_ref *a, const formula_ref *b)
{
   if (a->loop != b->loop)
      return a->loop < b->loop;
   if (a->accesses != b->accesses)
      return a->accesses > b->accesses;
   return a->index < b->index;
}

static int formula_cmp(const void *a, const void *b)
{
   return formula_before(a, b) ? -1 : formula_before(b, a) ? 1 : 0;
}

/* A formula with a counter in it (a constant address is not a pattern
   worth a formula). */
static int has_counter(const mp_formula_instr *fi)
{
   uint32_t k;
   for (k = 0; k < fi->depth; k++)
      if ((fi->known >> k & 1) && fi->coef[k] != 0)
         return 1;
   return 0;
}

/* The formulas that fit, grouped by the innermost loop of their
   instruction, busiest first; *n_out their number. */
static formula_ref *fitting_formulas(const mp_finished *an, uint32_t *n_out)
{
   uint32_t n = mp_formula_count(an->formula), i, k = 0;
   formula_ref *out = mp_malloc("mp.results.formulas", (n + 1) * sizeof *out);
   for (i = 0; i < n; i++) {
      const mp_formula_instr *fi = mp_formula_at(an->formula, i);
      uint32_t loop;
      if (fi->accesses < MIN_FORMULA_ACCESSES || !mp_formula_fits(fi, NULL)
          || !has_counter(fi)
          || (uint32_t)fi->instr >= an->n_instrs
          || !an->instrs[(uint32_t)fi->instr].known)
         continue;
      loop = mp_facts_instr_loop(an, (uint32_t)fi->instr);
      /* Records made before an enclosing loop was found are superseded
         by the one over the whole nest. */
      if (loop == MP_LOOP_NONE || mp_loops_get(an->loops, loop)->depth != fi->depth)
         continue;
      out[k].loop = loop;
      out[k].index = i;
      out[k].accesses = fi->accesses;
      k++;
   }
   mp_sort(out, k, sizeof *out, formula_cmp);
   *n_out = k;
   return out;
}

/* The formula's terms in the counters, without its constant (reported
   apart as the base): "8*i1 + 1088*i2 + 217600*i3", in a new
   allocation (freed with mp_free). */
static char *formula_terms(const mp_formula_instr *fi)
{
   char one, *buf, *cut;
   size_t size = (size_t)mp_formula_format(fi, &one, 1) + 1;
   buf = mp_malloc("mp.results.formula", size);
   mp_formula_format(fi, buf, size);
   cut = buf + mp_strlen(buf);
   while (cut > buf && !(cut[-1] == ' ' && cut - buf >= 2 && (cut[-2] == '+' || cut[-2] == '-')))
      cut--;
   /* cut is after "+ " or "- " of the last term: a constant has no '*' */
   if (cut > buf) {
      const char *p;
      int has_var = 0;
      for (p = cut; *p; p++)
         has_var |= *p == '*';
      if (!has_var && cut - buf >= 3)
         cut[-3] = '\0';
   }
   return buf;
}

static void describe_formula(const mp_results *res, const mp_formula_instr *fi,
                             mp_formula_result *out)
{
   /* the low 32 bits of the key: the instruction id */
   const mp_instr_fact *in = &res->an->instrs[(uint32_t)fi->instr];
   out->where = mp_vars_location_where(res->vs, in->loc);
   out->variable = in->var < mp_vars_count(res->vs) ? mp_vars_get(res->vs, in->var)->name
                   : NULL;
   out->terms = formula_terms(fi);
   /* The address (or offset in the block) at all counters 0: counters
      count back edges, so with the loop test at the bottom (-O0) the
      first pass has counter 1 and the base is one step before. */
   out->base = mp_formula_base(fi);
   out->in_block = fi->has_block != 0;
   mp_formula_fits(fi, &out->fit);
   out->accesses = fi->accesses;
}

/* The busiest formulas of each loop shown. */
static void shown_formulas(mp_results *res)
{
   uint32_t n_f, i, k;
   formula_ref *f = fitting_formulas(res->an, &n_f);
   uint8_t *shown = mp_calloc("mp.results.loops", res->n_loops + 1, 1);
   for (k = 0; k < res->n_loops_shown; k++)
      shown[res->loops_shown[k]] = 1;
   for (i = 0; i < n_f; i++) {
      mp_loop_result *lr = &res->loop[f[i].loop];
      if (!shown[f[i].loop] || lr->n_formulas == MP_FORMULAS_PER_LOOP)
         continue;
      if (lr->formulas == NULL)
         lr->formulas = mp_calloc("mp.results.lformulas", MP_FORMULAS_PER_LOOP,
                                  sizeof *lr->formulas);
      describe_formula(res, mp_formula_at(res->an->formula, f[i].index),
                       &lr->formulas[lr->n_formulas++]);
   }
   mp_free(shown);
   mp_free(f);
}

void mp_loop_results_build(mp_results *res, const mp_adapter_queries *ask)
{
   uint32_t i;
   res->n_loops = mp_loops_count(res->an->loops);
   res->loop = mp_calloc("mp.results.loops", res->n_loops + 1, sizeof *res->loop);
   for (i = 0; i < res->n_loops; i++)
      describe_loop(res, ask, i);
   floor_exact_accesses(res);
   choose_shown(res);
   if (res->an->formula)
      shown_formulas(res);
}

void mp_loop_results_free(mp_results *res)
{
   uint32_t i, k;
   for (i = 0; i < res->n_loops; i++) {
      mp_loop_result *lr = &res->loop[i];
      if (lr->object)
         mp_free(lr->object);
      mp_free(lr->where);
      for (k = 0; k < lr->n_formulas; k++)
         mp_free(lr->formulas[k].terms);
      if (lr->formulas)
         mp_free(lr->formulas);
   }
   if (res->loop)
      mp_free(res->loop);
   if (res->loops_shown)
      mp_free(res->loops_shown);
}
