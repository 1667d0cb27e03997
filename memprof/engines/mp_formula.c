/*--------------------------------------------------------------------*/
/*--- memprof: affine access formulas (MTL).           mp_formula.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Data structures (the method is in mp_formula.h):
   - recs[]: one record per instruction, in order of first access; the
     reference vector and the coefficients are arrays of its depth.
   - index: open addressing, instruction -> position in recs[] + 1.

   Arithmetic is done modulo 2^64 (uint64_t), as addresses are: a
   product or a sum that wraps still compares right, and no signed
   overflow can happen.  Only the division that derives a coefficient
   is signed, on differences that are small in any real nest.
*/
#include "mp_formula.h"

typedef struct {
   uint64_t instr;
   uint32_t pos;             /* index in recs[] + 1; 0: empty */
} slot;

struct mp_formula {
   mp_formula_instr **recs;
   uint32_t n, cap;
   slot *index;
   uint32_t index_cap;       /* a power of two; n <= index_cap / 2 */
};

mp_formula *mp_formula_new(void)
{
   return mp_calloc("mp.formula.new", 1, sizeof(mp_formula));
}

void mp_formula_free(mp_formula *f)
{
   uint32_t i;
   for (i = 0; i < f->n; i++) {
      if (f->recs[i]->coef) mp_free(f->recs[i]->coef);
      if (f->recs[i]->ref) mp_free(f->recs[i]->ref);
      if (f->recs[i]->hi) mp_free(f->recs[i]->hi);
      mp_free(f->recs[i]);
   }
   if (f->recs) mp_free(f->recs);
   if (f->index) mp_free(f->index);
   mp_free(f);
}

static inline uint32_t hash(uint64_t instr, uint32_t cap)
{
   return (uint32_t)((instr * 0x9E3779B97F4A7C15ULL) >> 32) & (cap - 1);
}

static void index_grow(mp_formula *f)
{
   slot *old = f->index;
   uint32_t old_cap = f->index_cap, i;
   f->index_cap = old_cap ? 2 * old_cap : 64;
   f->index = mp_calloc("mp.formula.index", f->index_cap, sizeof(slot));
   for (i = 0; i < old_cap; i++)
      if (old[i].pos) {
         uint32_t j = hash(old[i].instr, f->index_cap);
         while (f->index[j].pos)
            j = (j + 1) & (f->index_cap - 1);
         f->index[j] = old[i];
      }
   if (old)
      mp_free(old);
}

const mp_formula_instr *mp_formula_get(const mp_formula *f, uint64_t instr)
{
   uint32_t i;
   if (f->index_cap == 0)
      return NULL;
   for (i = hash(instr, f->index_cap); f->index[i].pos; i = (i + 1) & (f->index_cap - 1))
      if (f->index[i].instr == instr)
         return f->recs[f->index[i].pos - 1];
   return NULL;
}

uint32_t mp_formula_count(const mp_formula *f) { return f->n; }

const mp_formula_instr *mp_formula_at(const mp_formula *f, uint32_t index)
{
   return index < f->n ? f->recs[index] : NULL;
}

/* r's reference is the access (iters, addr): what was fitted before
   is forgotten. */
static void start_fit(mp_formula_instr *r, const uint64_t *iters, uint32_t depth,
                      uint64_t addr, uint64_t block_start)
{
   uint32_t i;
   r->depth = depth;
   r->has_block = block_start != MP_FORMULA_NO_BLOCK;
   r->accesses = 1;
   r->fits = r->mismatches = r->unresolved = 0;
   r->known = 0;
   if (depth > MP_FORMULA_MAX_DEPTH) {      /* no room for the known bits */
      r->mismatches = 1;
      return;
   }
   if (r->coef)
      mp_free(r->coef);
   if (r->ref)
      mp_free(r->ref);
   if (r->hi)
      mp_free(r->hi);
   r->coef = mp_calloc("mp.formula.coef", depth ? depth : 1, sizeof(int64_t));
   r->ref = mp_calloc("mp.formula.ref", depth ? depth : 1, sizeof(uint64_t));
   r->hi = mp_calloc("mp.formula.hi", depth ? depth : 1, sizeof(uint64_t));
   for (i = 0; i < depth; i++)
      r->ref[i] = r->hi[i] = iters[i];
   r->ref_addr = r->has_block ? addr - block_start : addr;
   r->ref_block = r->has_block ? block_start : 0;
   r->fits = 1;
}

/* The first access of instr: the reference. */
static void make(mp_formula *f, uint64_t instr, const uint64_t *iters,
                 uint32_t depth, uint64_t addr, uint64_t block_start)
{
   mp_formula_instr *r = mp_calloc("mp.formula.rec", 1, sizeof *r);
   uint32_t i;
   if (2 * (f->n + 1) > f->index_cap)
      index_grow(f);
   for (i = hash(instr, f->index_cap); f->index[i].pos; i = (i + 1) & (f->index_cap - 1))
      ;
   if (f->n == f->cap) {
      f->cap = f->cap ? 2 * f->cap : 64;
      f->recs = mp_realloc("mp.formula.recs", f->recs, f->cap * sizeof *f->recs);
   }
   f->recs[f->n++] = r;
   f->index[i].instr = instr;
   f->index[i].pos = f->n;
   r->instr = instr;
   start_fit(r, iters, depth, addr, block_start);
}

/* Fits one access to r (not its first). */
static void check(mp_formula_instr *r, const uint64_t *iters, uint32_t depth,
                  uint64_t addr, uint64_t block_start)
{
   uint64_t a, da, pred = 0, unk_dv = 0;
   uint32_t k, n_unknown = 0, unk = 0;
   int has_block = block_start != MP_FORMULA_NO_BLOCK;
   r->accesses++;
   if (depth != r->depth || !r->coef || has_block != (int)r->has_block) {
      r->mismatches++;
      return;
   }
   a = has_block ? addr - block_start : addr;
   da = a - r->ref_addr;
   for (k = 0; k < depth; k++) {
      uint64_t dv = iters[k] - r->ref[k];
      if (dv == 0)
         continue;
      if (r->known >> k & 1) {
         pred += (uint64_t)r->coef[k] * dv;
      } else {
         n_unknown++;
         unk = k;
         unk_dv = dv;
      }
   }
   for (k = 0; k < depth; k++)
      if (iters[k] > r->hi[k])
         r->hi[k] = iters[k];
   if (n_unknown == 0) {
      if (pred == da)
         r->fits++;
      else
         r->mismatches++;
   } else if (n_unknown == 1) {
      /* One counter moved with no coefficient yet: it takes the rest. */
      int64_t rest = (int64_t)(da - pred), dv = (int64_t)unk_dv;
      if (dv == -1 && rest == INT64_MIN) {
         r->mismatches++;
      } else if (rest % dv == 0) {
         r->coef[unk] = rest / dv;
         r->known |= (uint64_t)1 << unk;
         r->fits++;
      } else {
         r->mismatches++;
      }
   } else {
      r->unresolved++;
   }
}

int mp_formula_access_exec(mp_formula *f, uint64_t instr, const uint64_t *iters,
                           uint32_t depth, uint64_t addr, uint32_t size, int is_write,
                           uint64_t block_start, uint64_t execution)
{
   mp_formula_instr *r = (mp_formula_instr *)mp_formula_get(f, instr);
   int said = 0;
   if (!r) {
      make(f, instr, iters, depth, addr, block_start);
      r = (mp_formula_instr *)mp_formula_get(f, instr);
      r->execution = execution;
   } else if (execution != r->execution) {
      if (!r->settled && mp_formula_fits(r, NULL))
         r->settled = 1;
      /* An instruction no execution fits (an interpreter's dispatch, a
         pointer chase) is given up on: refitting it forever costs a
         fit per execution for nothing. */
      if (!r->settled && r->refits >= MP_FORMULA_MAX_REFITS)
         r->settled = 1;
      if (!r->settled) {
         start_fit(r, iters, depth, addr, block_start);
         r->execution = execution;
         r->refits++;
         said = MP_FORMULA_REFIT;
      }
   } else if (!r->settled) {
      check(r, iters, depth, addr, block_start);
   } else if (depth == r->depth && r->hi) {
      /* Its execution goes on after another thread's ran (Valgrind runs
         one at a time): its trip counts still grow. */
      uint32_t k;
      for (k = 0; k < depth; k++)
         if (iters[k] > r->hi[k])
            r->hi[k] = iters[k];
   }
   if (size > r->size)
      r->size = size;
   if (is_write)
      r->stores = 1;
   else
      r->loads = 1;
   return r->settled ? said | MP_FORMULA_SETTLED : said;
}

void mp_formula_access(mp_formula *f, uint64_t instr, const uint64_t *iters,
                       uint32_t depth, uint64_t addr, uint64_t block_start)
{
   mp_formula_instr *r = (mp_formula_instr *)mp_formula_get(f, instr);
   if (!r)
      make(f, instr, iters, depth, addr, block_start);
   else
      check(r, iters, depth, addr, block_start);
}

int64_t mp_formula_base(const mp_formula_instr *fi)
{
   uint64_t b = fi->ref_addr;
   uint32_t k;
   if (!fi->coef)
      return 0;
   for (k = 0; k < fi->depth; k++)
      if (fi->known >> k & 1)
         b -= (uint64_t)fi->coef[k] * fi->ref[k];
   return (int64_t)b;
}

int mp_formula_fits(const mp_formula_instr *fi, double *ratio)
{
   if (ratio)
      *ratio = fi->accesses ? (double)fi->fits / (double)fi->accesses : 0.0;
   return fi->accesses > 0 && fi->fits * 100 >= fi->accesses * 99;
}

/*------------------------------------------------------------*/
/*--- Printing                                             ---*/
/*------------------------------------------------------------*/

/* Appends s to buf[0..len-1] at *pos, truncating; *pos counts what
   would have been written. */
static void put(char *buf, size_t len, size_t *pos, const char *s)
{
   for (; *s; s++, (*pos)++)
      if (*pos + 1 < len)
         buf[*pos] = *s;
}

static void put_u64(char *buf, size_t len, size_t *pos, uint64_t v)
{
   char d[24];
   int i = 23;
   d[i] = '\0';
   do {
      d[--i] = (char)('0' + v % 10);
      v /= 10;
   } while (v);
   put(buf, len, pos, d + i);
}

/* " + 8", " - 8", or "-8" / "8" as the first term. */
static void put_signed(char *buf, size_t len, size_t *pos, int64_t v, int first)
{
   uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
   if (first)
      put(buf, len, pos, v < 0 ? "-" : "");
   else
      put(buf, len, pos, v < 0 ? " - " : " + ");
   put_u64(buf, len, pos, m);
}

int mp_formula_format(const mp_formula_instr *fi, char *buf, size_t len)
{
   size_t pos = 0;
   int first = 1;
   uint32_t k;
   int64_t base;
   if (fi->coef)
      for (k = fi->depth; k-- > 0;) {       /* innermost first: i1 */
         if (!(fi->known >> k & 1) || fi->coef[k] == 0)
            continue;
         put_signed(buf, len, &pos, fi->coef[k], first);
         put(buf, len, &pos, "*i");
         put_u64(buf, len, &pos, fi->depth - k);
         first = 0;
      }
   base = mp_formula_base(fi);
   if (fi->has_block && base != 0) {
      put_signed(buf, len, &pos, base, first);
      first = 0;
   }
   if (first)
      put(buf, len, &pos, "0");
   if (len > 0)
      buf[pos < len ? pos : len - 1] = '\0';
   return (int)pos;
}
