/*--------------------------------------------------------------------*/
/*--- memprof: which loop carries each variable's far reuses.      ---*/
/*---                                                mp_carriers.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
   See mp_carriers.h.
*/
#include "mp_carriers.h"
#include "mp_loops.h"

struct mp_carriers {
   uint64_t far;
   mp_var_carriers **vars;   /* by variable id, NULL until its first */
   uint32_t n_vars;
   uint64_t added, unseen;   /* for -v */
};

mp_carriers *mp_carriers_new(uint64_t far)
{
   mp_carriers *c = mp_calloc("mp.carriers", 1, sizeof *c);
   c->far = far ? far : 1;
   return c;
}

void mp_carriers_reset(mp_carriers *c)
{
   uint32_t i;
   for (i = 0; i < c->n_vars; i++)
      if (c->vars[i]) {
         mp_free(c->vars[i]);
         c->vars[i] = NULL;
      }
}

void mp_carriers_free(mp_carriers *c)
{
   mp_carriers_reset(c);
   if (c->vars)
      mp_free(c->vars);
   mp_free(c);
}

void mp_carriers_counts(const mp_carriers *c, uint64_t *added, uint64_t *unseen)
{
   *added = c->added;
   *unseen = c->unseen;
}

static mp_var_carriers *var_table(mp_carriers *c, uint32_t var)
{
   if (var >= c->n_vars) {
      uint32_t n = c->n_vars ? c->n_vars : 64;
      while (n <= var)
         n *= 2;
      c->vars = mp_realloc("mp.carriers.vars", c->vars, n * sizeof *c->vars);
      mp_memset(c->vars + c->n_vars, 0, (n - c->n_vars) * sizeof *c->vars);
      c->n_vars = n;
   }
   if (!c->vars[var]) {
      c->vars[var] = mp_calloc("mp.carriers.var", 1, sizeof **c->vars);
      c->vars[var]->other.loop = MP_LOOP_NONE;
   }
   return c->vars[var];
}

void mp_carriers_add(mp_carriers *c, uint32_t var, uint32_t loop, uint64_t distance)
{
   mp_var_carriers *vc;
   mp_carrier *k = NULL;
   uint32_t i;
   if (distance < c->far)
      return;
   vc = var_table(c, var);
   for (i = 0; i < vc->n; i++)
      if (vc->slot[i].loop == loop) {
         k = &vc->slot[i];
         break;
      }
   if (!k && vc->n < MP_CARRIER_SLOTS) {
      k = &vc->slot[vc->n++];
      k->loop = loop;
   }
   if (!k)
      k = &vc->other;
   c->added++;
   k->total++;
   k->bins[mp_reuse_bin(distance)]++;
}

void mp_carriers_add_pair(mp_carriers *c, uint32_t var, uint32_t carrier, uint32_t from,
                          uint32_t to, const uint32_t across[2], uint64_t distance)
{
   mp_var_carriers *vc;
   mp_loop_pair *p = NULL;
   uint32_t i;
   if (distance < c->far || from == to || from == MP_LOOP_NONE || to == MP_LOOP_NONE)
      return;
   vc = var_table(c, var);
   for (i = 0; i < vc->n_pairs && !p; i++)
      if (vc->pair[i].k.loop == carrier && vc->pair[i].from == from && vc->pair[i].to == to)
         p = &vc->pair[i];
   if (!p && vc->n_pairs == MP_CARRIER_PAIRS) {
      p = &vc->pair[0];
      for (i = 1; i < vc->n_pairs; i++)
         if (vc->pair[i].k.total < p->k.total
             || (vc->pair[i].k.total == p->k.total && vc->pair[i].admitted < p->admitted))
            p = &vc->pair[i];
      mp_memset(p, 0, sizeof *p);
   } else if (!p)
      p = &vc->pair[vc->n_pairs++];
   if (p->k.total == 0) {
      p->admitted = vc->admissions++;
      p->k.loop = carrier;
      p->from = from;
      p->to = to;
      p->across[0] = p->across[1] = MP_LOOP_NONE;
   }
   if (across[0] != MP_LOOP_NONE) {
      p->across[0] = across[0];
      p->across[1] = across[1];
   }
   p->k.total++;
   p->k.bins[mp_reuse_bin(distance)]++;
}

void mp_carriers_unseen(mp_carriers *c, uint32_t var)
{
   c->unseen++;
   var_table(c, var)->unseen++;
}

const mp_var_carriers *mp_carriers_of(const mp_carriers *c, uint32_t var)
{
   return var < c->n_vars ? c->vars[var] : NULL;
}

uint32_t mp_carriers_var_bound(const mp_carriers *c)
{
   return c->n_vars;
}

void mp_carriers_take(mp_carriers *c, uint32_t var, const mp_var_carriers *vc)
{
   *var_table(c, var) = *vc;
}

void mp_carriers_take_counts(mp_carriers *c, uint64_t added, uint64_t unseen)
{
   c->added = added;
   c->unseen = unseen;
}

uint64_t mp_carrier_beyond(const mp_carrier *k, uint64_t lines)
{
   uint64_t n = 0, lo, hi;
   uint32_t b;
   for (b = 0; b < MP_REUSE_N_BINS; b++) {
      mp_reuse_bin_bounds(b, &lo, &hi);
      if (lo >= lines)
         n += k->bins[b];
   }
   return n;
}

const mp_carrier *mp_carriers_top(const mp_var_carriers *vc, uint64_t lines,
                                  mp_carrier_loop_fn is_loop, void *arg,
                                  uint64_t *known, uint64_t *carried)
{
   const mp_carrier *top = NULL;
   uint64_t best = 0, none = 0;
   uint32_t i;
   *known = mp_carrier_beyond(&vc->other, lines);
   for (i = 0; i < vc->n; i++) {
      const mp_carrier *k = &vc->slot[i];
      uint64_t n = mp_carrier_beyond(k, lines);
      *known += n;
      if (k->loop == MP_LOOP_NONE || (is_loop && !is_loop(k->loop, arg)))
         none += n;
      else if (n > best) {
         best = n;
         top = k;
      }
   }
   *carried = best > none ? best : none;
   return best > none ? top : NULL;
}
