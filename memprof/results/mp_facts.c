/*--------------------------------------------------------------------*/
/*--- memprof: what the finished analyses say.           mp_facts.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
   See mp_facts.h.
*/
#include "mp_facts.h"
#include "mp_util.h"

uint32_t mp_facts_instr_loop(const mp_finished *an, uint32_t instr)
{
   const mp_instr_fact *f;
   if (an->loops == NULL || instr >= an->n_instrs)
      return MP_LOOP_NONE;
   f = &an->instrs[instr];
   if (!f->known)
      return MP_LOOP_NONE;
   /* The forest is complete at exit; the cast only lets its memo of
      (function, address) be filled. */
   return mp_loops_innermost((mp_loops *)an->loops, f->fn, f->iaddr);
}

char *mp_facts_loop_where(const mp_finished *an, uint32_t l)
{
   const mp_loop *lp = mp_loops_get(an->loops, l);
   if (lp->first_line == 0)
      return mp_asprintf("%s", lp->file ? lp->file : "?");
   if (lp->first_line == lp->last_line)
      return mp_asprintf("%s:%u", lp->file ? lp->file : "?", lp->first_line);
   return mp_asprintf("%s:%u-%u", lp->file ? lp->file : "?", lp->first_line,
                      lp->last_line);
}

int64_t mp_facts_instr_step(const mp_finished *an, uint32_t instr, uint32_t l,
                            int *known)
{
   uint32_t inner = mp_facts_instr_loop(an, instr), k;
   const mp_formula_instr *fi;
   *known = 0;
   if (inner == MP_LOOP_NONE || an->formula == NULL)
      return 0;
   fi = mp_formula_get(an->formula,
                       (uint64_t)mp_loops_get(an->loops, inner)->depth << 32 | instr);
   if (fi == NULL || !mp_formula_fits(fi, NULL))
      return 0;
   /* The vector is of the loops of the instruction's function, the
      outermost (depth 1) first. */
   k = mp_loops_get(an->loops, l)->depth;
   if (k == 0 || k > fi->depth || !(fi->known >> (k - 1) & 1))
      return 0;
   *known = 1;
   return fi->coef[k - 1];
}

uint64_t mp_facts_struct_size(const mp_finished *an, uint32_t var)
{
   mp_struct_layout l;
   uint64_t size;
   if (an->structs == NULL)
      return 0;
   mp_memset(&l, 0, sizeof l);
   if (!mp_structs_infer(an->structs, var, &l))
      return 0;
   size = l.n_groups >= 2 ? l.size : 0;
   mp_struct_layout_clear(&l);
   return size;
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

mp_structure *mp_facts_structure(const mp_finished *an, const mp_adapter_queries *ask,
                                 uint32_t var)
{
   mp_structure *s;
   uint32_t i;
   const mp_struct_unit *units = NULL;
   uint32_t n_units = 0;
   uint64_t declared_size = 0;
   if (an->structs == NULL)
      return NULL;
   if (ask && ask->declared_members)
      units = ask->declared_members(var, &n_units, &declared_size);
   s = mp_calloc("mp.facts.struct", 1, sizeof *s);
   if (!mp_structs_infer_declared(an->structs, var, units, n_units, declared_size,
                                  &s->layout)) {
      mp_free(s);
      return NULL;
   }
   mp_structs_cover_overlaps(&s->layout);
   s->names = mp_calloc("mp.facts.fnames", s->layout.n_fields + 1, sizeof *s->names);
   for (i = 0; i < s->layout.n_fields && ask && ask->field_name; i++)
      s->names[i] = ask->field_name(var, s->layout.fields[i].offset,
                                    s->layout.fields[i].size);
   s->split = split_text(&s->layout, s->names);
   s->overlapping = mp_facts_fields_overlap(&s->layout);
   return s;
}

void mp_structure_free(mp_structure *s)
{
   uint32_t i;
   if (s == NULL)
      return;
   for (i = 0; i < s->layout.n_fields; i++)
      if (s->names[i])
         mp_free(s->names[i]);
   mp_free(s->names);
   mp_free(s->split);
   if (s->dot)
      mp_free(s->dot);
   mp_struct_layout_clear(&s->layout);
   mp_free(s);
}

int mp_facts_fields_overlap(const mp_struct_layout *l)
{
   uint32_t i;
   for (i = 0; i + 1 < l->n_fields; i++)
      if (l->fields[i].offset + l->fields[i].size > l->fields[i + 1].offset)
         return 1;
   return l->n_fields > 0
          && l->fields[l->n_fields - 1].offset + l->fields[l->n_fields - 1].size > l->size;
}

int mp_facts_cache_cfg(const mp_finished *an, mp_cache_cfg *out)
{
   const mp_report_cache *rc = an->cache;
   uint32_t k;
   if (rc == NULL)
      return 0;
   mp_memset(out, 0, sizeof *out);
   out->n_levels = rc->n_levels;
   for (k = 0; k < out->n_levels; k++)
      out->level[k] = rc->level[k];
   out->cores = rc->cores;
   /* The replays classify as the run did (they report no split, but
      the sampled shadow is the cheaper), and prefetch as it did. */
   if (rc->cache) {
      out->sample_shift = mp_cache_sample_shift(rc->cache);
      out->prefetch = *mp_cache_prefetch_config(rc->cache);
   }
   return 1;
}

uint32_t mp_facts_transfer_cycles(const mp_finished *an)
{
   const mp_report_cache *c = an->cache;
   uint32_t k;
   if (c == NULL)
      return 0;
   for (k = 0; k < c->n_levels; k++)
      if (c->level[k].shared_by >= c->cores)
         return c->latency[k];
   return c->latency[c->n_levels];
}
