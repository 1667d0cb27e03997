/*--------------------------------------------------------------------*/
/*--- memprof: the report's sections on loops and structures.      ---*/
/*---                                             mp_report_loops.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Writes the top-level "loops" (each loop's lines, trip counts,
   concurrent streams and the access formulas of its instructions) and
   variables[].struct (StructSlim's inferred structure, field affinity
   and suggested split), as docs/json-format.md describes them; and the
   same structures as Graphviz DOT for --affinity-dot.
*/
#include "mp_report_loops.h"
#include "mp_util.h"

#define MAX_LOOPS          100   /* the busiest loops reported */
#define FORMULAS_PER_LOOP  10
#define MIN_FORMULA_ACCESSES 16  /* fewer: too little to call it a pattern */

typedef struct {
   uint32_t loop;
   uint64_t accesses;
} loop_rank;

typedef struct {
   uint32_t loop;
   uint32_t index;        /* mp_formula_at index */
   uint64_t accesses;
} formula_ref;

static int loop_rank_before(const loop_rank *a, const loop_rank *b)
{
   if (a->accesses != b->accesses)
      return a->accesses > b->accesses;
   return a->loop < b->loop;
}

static int formula_before(const formula_ref *a, const formula_ref *b)
{
   if (a->loop != b->loop)
      return a->loop < b->loop;
   if (a->accesses != b->accesses)
      return a->accesses > b->accesses;
   return a->index < b->index;
}

static int loop_rank_cmp(const void *a, const void *b)
{
   return loop_rank_before(a, b) ? -1 : loop_rank_before(b, a) ? 1 : 0;
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
static formula_ref *fitting_formulas(const mp_report_config *cfg, uint32_t *n_out)
{
   uint32_t n = mp_formula_count(cfg->formula), i, k = 0;
   formula_ref *out = mp_malloc("mp.report.formulas", (n + 1) * sizeof *out);
   for (i = 0; i < n; i++) {
      const mp_formula_instr *fi = mp_formula_at(cfg->formula, i);
      uint32_t loc, var, fn, loop;
      uint64_t iaddr;
      if (fi->accesses < MIN_FORMULA_ACCESSES || !mp_formula_fits(fi, NULL)
          || !has_counter(fi)
          || !cfg->instr_info(fi->instr, &loc, &var, &iaddr, &fn))
         continue;
      loop = mp_loops_innermost((mp_loops *)cfg->loops, fn, iaddr);
      /* Records made before an enclosing loop was found are superseded
         by the one over the whole nest. */
      if (loop == MP_LOOP_NONE || mp_loops_get(cfg->loops, loop)->depth != fi->depth)
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
   buf = mp_malloc("mp.report.formula", size);
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

static void write_formula(mp_json *j, const mp_vars *vs, const mp_report_config *cfg,
                          const mp_formula_instr *fi)
{
   char *text;
   double ratio = 0;
   uint32_t loc, var, fn;
   uint64_t iaddr;
   cfg->instr_info(fi->instr, &loc, &var, &iaddr, &fn);
   text = formula_terms(fi);
   mp_formula_fits(fi, &ratio);
   mp_json_begin_object(j);
   mp_json_kv_string(j, "where", mp_vars_location_where(vs, loc));
   mp_json_kv_string(j, "variable", var < mp_vars_count(vs) ? mp_vars_get(vs, var)->name : NULL);
   mp_json_kv_string(j, "formula", text);
   mp_free(text);
   /* The address (or offset in the block) at all counters 0: counters
      count back edges, so with the loop test at the bottom (-O0) the
      first pass has counter 1 and the base is one step before. */
   mp_json_kv_i64(j, "base", mp_formula_base(fi));
   mp_json_kv_bool(j, "in_block", fi->has_block != 0);
   mp_json_kv_double(j, "fit", ratio);
   mp_json_kv_u64(j, "accesses", fi->accesses);
   mp_json_end_object(j);
}

static void write_loop(mp_json *j, const mp_vars *vs, const mp_report_config *cfg,
                       uint32_t id, const formula_ref *f, uint32_t n_f)
{
   const mp_loop *l = mp_loops_get(cfg->loops, id);
   const mp_streams_loop *st = mp_streams_get(cfg->streams, id);
   uint32_t i, shown = 0;
   mp_json_begin_object(j);
   mp_json_kv_u64(j, "id", id);
   mp_json_kv_string(j, "function", mp_vars_location_fn(vs, l->fn));
   mp_json_kv_string(j, "file", l->file);
   mp_json_kv_u64(j, "first_line", l->first_line);
   mp_json_kv_u64(j, "last_line", l->last_line);
   mp_json_kv_u64(j, "depth", l->depth);
   mp_json_key(j, "parent");
   if (l->parent == MP_LOOP_NONE)
      mp_json_null(j);
   else
      mp_json_u64(j, l->parent);
   mp_json_kv_u64(j, "entries", l->entries);
   mp_json_kv_u64(j, "iterations", l->iterations);
   mp_json_kv_double(j, "mean_iterations",
                     l->entries ? (double)l->iterations / (double)l->entries : 0.0);
   mp_json_kv_u64(j, "max_iterations", l->max_iterations);
   mp_json_kv_u64(j, "accesses", st ? st->accesses : 0);
   mp_json_kv_u64(j, "streams", st ? st->max_streams : 0);
   mp_json_kv_double(j, "mean_streams", st && st->instances
                     ? (double)st->streams_sum / (double)st->instances : 0.0);
   mp_json_kv_bool(j, "flagged", mp_streams_flagged(cfg->streams, id));
   mp_json_key(j, "formulas");
   mp_json_begin_array(j);
   for (i = 0; i < n_f && shown < FORMULAS_PER_LOOP; i++)
      if (f[i].loop == id) {
         write_formula(j, vs, cfg, mp_formula_at(cfg->formula, f[i].index));
         shown++;
      }
   mp_json_end_array(j);
   mp_json_end_object(j);
}

void mp_report_write_loops(mp_json *j, const mp_vars *vs, const mp_report_config *cfg)
{
   uint32_t n = mp_loops_count(cfg->loops), i, k = 0, n_f;
   loop_rank *r = mp_malloc("mp.report.loops", (n + 1) * sizeof *r);
   formula_ref *f = fitting_formulas(cfg, &n_f);
   uint8_t *shown = mp_calloc("mp.report.loops", n + 1, 1);
   for (i = 0; i < n; i++) {
      const mp_loop *l = mp_loops_get(cfg->loops, i);
      const mp_streams_loop *st = mp_streams_get(cfg->streams, i);
      /* Loops that ran but did not access memory in the collected part
         (--toggle-collect) are left out, unless an inner loop needs them
         as its parent. */
      if (l->entries == 0 || st == NULL || st->accesses == 0)
         continue;
      r[k].loop = i;
      r[k].accesses = st->accesses;
      k++;
   }
   mp_sort(r, k, sizeof *r, loop_rank_cmp);
   for (i = 0; i < k && i < MAX_LOOPS; i++) {
      uint32_t p;
      shown[r[i].loop] = 1;
      for (p = mp_loops_get(cfg->loops, r[i].loop)->parent; p != MP_LOOP_NONE;
           p = mp_loops_get(cfg->loops, p)->parent)
         shown[p] = 1;
   }
   mp_json_key(j, "loops");
   mp_json_begin_array(j);
   for (i = 0; i < k && i < MAX_LOOPS; i++)
      write_loop(j, vs, cfg, r[i].loop, f, n_f);
   /* then the ancestors the busiest loops need, in id order */
   for (i = 0; i < n; i++) {
      uint32_t q;
      int listed = 0;
      if (!shown[i])
         continue;
      for (q = 0; q < k && q < MAX_LOOPS && !listed; q++)
         listed = r[q].loop == i;
      if (!listed)
         write_loop(j, vs, cfg, i, f, n_f);
   }
   mp_json_end_array(j);
   mp_free(shown);
   mp_free(r);
   mp_free(f);
}

/*------------------------------------------------------------*/
/*--- Structures                                           ---*/
/*------------------------------------------------------------*/

/* names[i]: field i's name from the debug info, or NULL; caller frees
   with free_names. */
static char **field_names(const mp_report_config *cfg, uint32_t var,
                          const mp_struct_layout *l)
{
   char **names = mp_calloc("mp.report.fnames", l->n_fields + 1, sizeof *names);
   uint32_t i;
   for (i = 0; i < l->n_fields && cfg->field_name; i++)
      names[i] = cfg->field_name(var, l->fields[i].offset);
   return names;
}

static void free_names(char **names, uint32_t n)
{
   uint32_t i;
   for (i = 0; i < n; i++)
      if (names[i])
         mp_free(names[i]);
   mp_free(names);
}

/* "{ a, c } / { b, d }", fields by name or +offset; the caller frees
   it. */
static char *split_text(const mp_struct_layout *l, char **names)
{
   mp_strbuf b = MP_STRBUF_INIT;
   uint32_t g, k;
   for (g = 0; g < l->n_groups; g++) {
      mp_strbuf_printf(&b, "%s{ ", g ? " / " : "");
      for (k = l->group_start[g]; k < l->group_start[g + 1]; k++) {
         uint32_t fi = l->group_fields[k];
         if (names[fi])
            mp_strbuf_printf(&b, "%s%s", k > l->group_start[g] ? ", " : "", names[fi]);
         else
            mp_strbuf_printf(&b, "%s+%llu", k > l->group_start[g] ? ", " : "",
                             (unsigned long long)l->fields[fi].offset);
      }
      mp_strbuf_printf(&b, " }");
   }
   return mp_strbuf_take(&b);
}

/* Fields that overlap are not a structure's: a 16-byte vector store
   next to 8-byte loads of the same plain array (an unrolled or
   vectorised loop) looks like fields at 0 and 8 of a 16-byte record. */
static int fields_overlap(const mp_struct_layout *l)
{
   uint32_t i;
   for (i = 0; i + 1 < l->n_fields; i++)
      if (l->fields[i].offset + l->fields[i].size > l->fields[i + 1].offset)
         return 1;
   return l->n_fields > 0
          && l->fields[l->n_fields - 1].offset + l->fields[l->n_fields - 1].size > l->size;
}

#define WHATIF_SPLIT 0   /* mp_whatif_recall kinds: the split here, */
                         /* the padding (1) in mp_report_threads.c */

/* The split layout: each group of fields becomes an array of its own
   (its own region of addresses), its fields packed in offset order;
   bytes in no field stay where they were. */
typedef struct {
   const mp_struct_layout *l;
   uint64_t *pos;          /* per field: its offset in its group's record */
   uint64_t *group_size;   /* per group: the record size */
} split_map;

static uint64_t map_split(void *arg, const mp_whatif_access *a)
{
   const split_map *m = arg;
   const mp_struct_layout *l = m->l;
   uint64_t o, e, f;
   uint32_t i;
   if (a->addr < a->block)
      return a->addr;
   o = a->addr - a->block;
   e = o / l->size;
   f = o % l->size;
   /* the field starting at f, else the (last) one containing it: with
      overlapping fields, an 8-byte load at 24 is the field at 24, not
      the 16-byte vector store at 16 */
   for (i = l->n_fields; i-- > 0;) {
      const mp_struct_field *fd = &l->fields[i];
      if (f >= fd->offset && f < fd->offset + fd->size)
         return ((uint64_t)(fd->group + 1) << 44) + a->block
                + e * m->group_size[fd->group] + m->pos[i] + (f - fd->offset);
   }
   return a->addr;
}

int mp_report_whatif_split(const mp_var *v, const mp_report_config *cfg,
                           const mp_struct_layout *l,
                           mp_whatif_run *before, mp_whatif_run *after)
{
   mp_cache_cfg cc;
   split_map m;
   uint32_t g, k;
   int ok;
   if (cfg->whatif == NULL || !cfg->whatif_split || l->n_groups < 2
       || !mp_report_cache_cfg(cfg, &cc) || mp_whatif_recorded(cfg->whatif, v->id) == 0)
      return 0;
   if (mp_whatif_recall(cfg->whatif, v->id, WHATIF_SPLIT, before, after))
      return 1;
   m.l = l;
   m.pos = mp_calloc("mp.report.split", l->n_fields + 1, sizeof *m.pos);
   m.group_size = mp_calloc("mp.report.split", l->n_groups + 1, sizeof *m.group_size);
   for (g = 0; g < l->n_groups; g++)
      for (k = l->group_start[g]; k < l->group_start[g + 1]; k++) {
         uint32_t fi = l->group_fields[k];
         m.pos[fi] = m.group_size[g];
         m.group_size[g] += l->fields[fi].size;
      }
   ok = mp_whatif_replay(cfg->whatif, v->id, &cc, cfg->cache->latency, NULL, NULL, before)
        && mp_whatif_replay(cfg->whatif, v->id, &cc, cfg->cache->latency, map_split, &m,
                            after);
   mp_free(m.pos);
   mp_free(m.group_size);
   if (ok)
      mp_whatif_remember(cfg->whatif, v->id, WHATIF_SPLIT, before, after);
   return ok;
}

void mp_report_write_struct(mp_json *j, const mp_var *v, const mp_report_config *cfg)
{
   mp_struct_layout l;
   char **names;
   char *text;
   uint32_t i, k;
   mp_memset(&l, 0, sizeof l);
   /* A structure inferred from a few accesses (start-up code walking
      the loader's tables) is noise, not a layout to act on. */
   if (mp_counts_accesses(&v->c) < MP_STRUCT_MIN_ACCESSES
       || !mp_structs_infer(cfg->structs, v->id, &l))
      return;
   mp_structs_cover_overlaps(&l);
   names = field_names(cfg, v->id, &l);
   mp_json_key(j, "struct");
   mp_json_begin_object(j);
   mp_json_kv_u64(j, "size", l.size);
   mp_json_kv_bool(j, "overlapping", fields_overlap(&l));
   mp_json_kv_double(j, "covered", l.covered);
   mp_json_kv_bool(j, "by_count", l.by_count);
   mp_json_key(j, "fields");
   mp_json_begin_array(j);
   for (i = 0; i < l.n_fields; i++) {
      const mp_struct_field *f = &l.fields[i];
      mp_json_begin_object(j);
      mp_json_kv_u64(j, "offset", f->offset);
      mp_json_kv_string(j, "name", names[i]);
      mp_json_kv_u64(j, "size", f->size);
      mp_json_kv_u64(j, "accesses", f->accesses);
      mp_json_kv_double(j, "share", f->share);
      mp_json_key(j, "loops");
      mp_json_begin_array(j);
      for (k = 0; k < f->n_loops; k++)
         mp_json_u64(j, f->loops[k] - 1);   /* the engine's ids are loop + 1 */
      mp_json_end_array(j);
      mp_json_end_object(j);
   }
   mp_json_end_array(j);
   mp_json_key(j, "affinity");
   mp_json_begin_array(j);
   for (i = 0; i < l.n_fields; i++)
      for (k = i + 1; k < l.n_fields; k++) {
         mp_json_begin_array(j);
         mp_json_u64(j, i);
         mp_json_u64(j, k);
         mp_json_double(j, MP_STRUCT_AFF(&l, i, k));
         mp_json_end_array(j);
      }
   mp_json_end_array(j);
   mp_json_key(j, "groups");
   mp_json_begin_array(j);
   for (i = 0; i < l.n_groups; i++) {
      mp_json_begin_array(j);
      for (k = l.group_start[i]; k < l.group_start[i + 1]; k++)
         mp_json_u64(j, l.fields[l.group_fields[k]].offset);
      mp_json_end_array(j);
   }
   mp_json_end_array(j);
   text = split_text(&l, names);
   mp_json_kv_string(j, "split", text);
   mp_free(text);
   {
      mp_whatif_run before, after;
      if (mp_report_whatif_split(v, cfg, &l, &before, &after))
         mp_report_write_whatif(j, "what_if", cfg, v->id, &before, &after);
   }
   mp_json_end_object(j);
   free_names(names, l.n_fields);
   mp_struct_layout_clear(&l);
}

int mp_report_struct_split(const mp_var *v, const mp_report_config *cfg,
                           char **text, uint32_t *n_groups, double *covered,
                           mp_whatif_run *before, mp_whatif_run *after, int *replayed)
{
   mp_struct_layout l;
   char **names;
   mp_memset(&l, 0, sizeof l);
   if (!mp_structs_infer(cfg->structs, v->id, &l))
      return 0;
   mp_structs_cover_overlaps(&l);
   names = field_names(cfg, v->id, &l);
   *text = split_text(&l, names);
   *n_groups = l.n_groups;
   *covered = l.covered;
   *replayed = mp_report_whatif_split(v, cfg, &l, before, after);
   free_names(names, l.n_fields);
   mp_struct_layout_clear(&l);
   return 1;
}

void mp_report_struct_dot(const mp_vars *vs, const mp_report_config *cfg,
                          const uint32_t *vars, uint32_t n_vars,
                          mp_structs_emit_fn emit, void *arg)
{
   uint32_t i;
   for (i = 0; i < n_vars; i++) {
      mp_struct_layout l;
      char **names;
      mp_memset(&l, 0, sizeof l);
      if (!mp_structs_infer(cfg->structs, vars[i], &l))
         continue;
      mp_structs_cover_overlaps(&l);
      names = field_names(cfg, vars[i], &l);
      mp_structs_dot(&l, mp_vars_get(vs, vars[i])->name, (const char *const *)names,
                     emit, arg);
      free_names(names, l.n_fields);
      mp_struct_layout_clear(&l);
   }
}

uint32_t mp_report_instr_loop(const mp_report_config *cfg, uint32_t instr)
{
   uint32_t loc, var, fn;
   uint64_t iaddr;
   if (cfg->loops == NULL || cfg->instr_info == NULL
       || !cfg->instr_info(instr, &loc, &var, &iaddr, &fn))
      return MP_LOOP_NONE;
   /* The forest is complete at exit; the cast only lets its memo of
      (function, address) be filled. */
   return mp_loops_innermost((mp_loops *)cfg->loops, fn, iaddr);
}

char *mp_report_loop_where(const mp_report_config *cfg, uint32_t l)
{
   const mp_loop *lp = mp_loops_get(cfg->loops, l);
   if (lp->first_line == 0)
      return mp_asprintf("%s", lp->file ? lp->file : "?");
   if (lp->first_line == lp->last_line)
      return mp_asprintf("%s:%u", lp->file ? lp->file : "?", lp->first_line);
   return mp_asprintf("%s:%u-%u", lp->file ? lp->file : "?", lp->first_line,
                      lp->last_line);
}

int64_t mp_report_instr_step(const mp_report_config *cfg, uint32_t instr, uint32_t l,
                             int *known)
{
   uint32_t inner = mp_report_instr_loop(cfg, instr), k;
   const mp_formula_instr *fi;
   *known = 0;
   if (inner == MP_LOOP_NONE || cfg->formula == NULL)
      return 0;
   fi = mp_formula_get(cfg->formula,
                       (uint64_t)mp_loops_get(cfg->loops, inner)->depth << 32 | instr);
   if (fi == NULL || !mp_formula_fits(fi, NULL))
      return 0;
   /* The vector is of the loops of the instruction's function, the
      outermost (depth 1) first. */
   k = mp_loops_get(cfg->loops, l)->depth;
   if (k == 0 || k > fi->depth || !(fi->known >> (k - 1) & 1))
      return 0;
   *known = 1;
   return fi->coef[k - 1];
}

uint64_t mp_report_struct_size(const mp_var *v, const mp_report_config *cfg)
{
   mp_struct_layout l;
   uint64_t size;
   if (cfg->structs == NULL)
      return 0;
   mp_memset(&l, 0, sizeof l);
   if (!mp_structs_infer(cfg->structs, v->id, &l))
      return 0;
   size = l.n_groups >= 2 ? l.size : 0;
   mp_struct_layout_clear(&l);
   return size;
}
