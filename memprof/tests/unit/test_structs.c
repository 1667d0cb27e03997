/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_structs against a brute-force reference written here
   independently: it keeps every access in a list, finds each stream's
   accesses by a linear search, takes a stream's stride as the GCD of
   every offset's distance to the stream's first offset (not of
   successive differences, as the engine does), calls a stream mixed by
   looking at every one of its offsets modulo the size, sums cycles per
   (field, loop) access by access, and groups fields by recomputing the
   least pairwise affinity of every pair of groups at every step.
   Random traces of arrays of structures (sizes 8..256, random fields,
   random field subsets per loop, several blocks per variable at aligned
   and unaligned starts, instructions shared between variables, the
   loops interleaved, optionally sampled) must give the same layout;
   unsampled traces must also give the true size and fields.  Crafted
   traces (StructSlim's Figure 1, a hot field, plain arrays) check the
   numbers by hand. */
#include "mp_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mp_structs.h"

/*------------------------------------------------------------*/
/*--- Traces                                               ---*/
/*------------------------------------------------------------*/

typedef struct {
   uint32_t instr, var, size, loop;
   uint64_t addr, block, cycles;
} access_rec;

typedef struct {
   access_rec *a;
   uint32_t n, cap;
} trace;

/* Feeds one access to the engine (if any) and appends it to the trace. */
static void feed(mp_structs *s, trace *t, uint32_t instr, uint32_t var, uint64_t addr,
                 uint64_t block, uint32_t size, uint32_t loop, uint64_t cycles)
{
   if (s)
      mp_structs_access(s, instr, var, addr, block, size, loop, cycles);
   if (!t)
      return;
   if (t->n == t->cap) {
      t->cap = t->cap ? 2 * t->cap : 1024;
      t->a = realloc(t->a, t->cap * sizeof *t->a);
   }
   t->a[t->n++] = (access_rec){ instr, var, size, loop, addr, block, cycles };
}

/*------------------------------------------------------------*/
/*--- The reference                                        ---*/
/*------------------------------------------------------------*/

static uint64_t ref_gcd(uint64_t a, uint64_t b)
{
   /* subtraction-free, as the engine's, but written recursively */
   return b == 0 ? a : ref_gcd(b, a % b);
}

static uint64_t udiff(uint64_t a, uint64_t b)
{
   return a > b ? a - b : b - a;
}

/* 'broken' differences raw addresses, as the paper's Eq. 2 literally
   does: used once to show that the comparison can fail (blocks of a
   heap site are not aligned on the structure size). */
static uint64_t ref_off(const access_rec *r, int broken)
{
   return broken ? r->addr : r->addr - r->block;
}

/* Fills out (zeroed first) as mp_structs_infer must; returns 0/1. */
static int ref_infer(const trace *t, uint32_t var, double threshold, int broken,
                     mp_struct_layout *out)
{
   uint32_t *skey_instr, *skey_loop, *sof, n_s = 0, i, k, j;
   uint64_t *sfirst, *sg, *ssize, S = 0, tot_c = 0, tot_a = 0;
   int *mixed;
   uint64_t *foff = NULL;
   uint32_t nf = 0, *loops = NULL, nl = 0;
   uint64_t *w, *cnt;
   int by_count;

   memset(out, 0, sizeof *out);
   skey_instr = calloc(t->n + 1, sizeof *skey_instr);
   skey_loop = calloc(t->n + 1, sizeof *skey_loop);
   sof = calloc(t->n + 1, sizeof *sof);
   sfirst = calloc(t->n + 1, sizeof *sfirst);
   sg = calloc(t->n + 1, sizeof *sg);
   ssize = calloc(t->n + 1, sizeof *ssize);
   mixed = calloc(t->n + 1, sizeof *mixed);
   for (i = 0; i < t->n; i++) {
      const access_rec *r = &t->a[i];
      if (r->var != var)
         continue;
      for (k = 0; k < n_s; k++)
         if (skey_instr[k] == r->instr && skey_loop[k] == r->loop)
            break;
      if (k == n_s) {
         skey_instr[k] = r->instr;
         skey_loop[k] = r->loop;
         sfirst[k] = ref_off(r, broken);
         n_s++;
      }
      sof[i] = k;
      sg[k] = ref_gcd(sg[k], udiff(ref_off(r, broken), sfirst[k]));
      if (r->size > ssize[k])
         ssize[k] = r->size;
      tot_c += r->cycles;
      tot_a++;
      if (r->loop != 0) {
         for (j = 0; j < nl && loops[j] != r->loop; j++)
            ;
         if (j == nl) {
            loops = realloc(loops, (nl + 1) * sizeof *loops);
            loops[nl++] = r->loop;
         }
      }
   }
   for (k = 0; k < n_s; k++)
      if (sg[k] > ssize[k])
         S = ref_gcd(sg[k], S);
   if (S == 0)
      goto none;
   by_count = tot_c == 0;

   /* mixed streams: some offset falls elsewhere modulo S */
   for (i = 0; i < t->n; i++)
      if (t->a[i].var == var && ref_off(&t->a[i], broken) % S != sfirst[sof[i]] % S)
         mixed[sof[i]] = 1;
   /* the fields: distinct offsets of the other streams, sorted */
   for (i = 0; i < t->n; i++) {
      uint64_t o;
      if (t->a[i].var != var || mixed[sof[i]])
         continue;
      o = ref_off(&t->a[i], broken) % S;
      for (j = 0; j < nf && foff[j] != o; j++)
         ;
      if (j == nf) {
         foff = realloc(foff, (nf + 1) * sizeof *foff);
         foff[nf++] = o;
      }
   }
   if (nf < 2)
      goto none;
   for (j = 1; j < nf; j++)                 /* insertion sorts */
      for (k = j; k > 0 && foff[k - 1] > foff[k]; k--) {
         uint64_t x = foff[k]; foff[k] = foff[k - 1]; foff[k - 1] = x;
      }
   for (j = 1; j < nl; j++)
      for (k = j; k > 0 && loops[k - 1] > loops[k]; k--) {
         uint32_t x = loops[k]; loops[k] = loops[k - 1]; loops[k - 1] = x;
      }

   /* weights per (field, loop); column nl is "outside any loop" */
   w = calloc((size_t)nf * (nl + 1), sizeof *w);
   cnt = calloc((size_t)nf * (nl + 1), sizeof *cnt);
   out->size = S;
   out->by_count = by_count;
   out->cycles = by_count ? tot_a : tot_c;
   out->n_streams = n_s;
   out->n_fields = nf;
   out->fields = calloc(nf, sizeof *out->fields);
   for (i = 0; i < t->n; i++) {
      const access_rec *r = &t->a[i];
      uint64_t o, wt;
      uint32_t f, L;
      if (r->var != var)
         continue;
      wt = by_count ? 1 : r->cycles;
      if (mixed[sof[i]]) {
         out->mixed_cycles += wt;
         out->mixed_accesses++;
         continue;
      }
      o = ref_off(r, broken) % S;
      for (f = 0; foff[f] != o; f++)
         ;
      for (L = 0; L < nl && loops[L] != r->loop; L++)
         ;
      w[(size_t)f * (nl + 1) + L] += wt;
      cnt[(size_t)f * (nl + 1) + L]++;
      out->fields[f].accesses++;
      out->fields[f].cycles += wt;
      if (r->size > out->fields[f].size)
         out->fields[f].size = r->size;
   }
   for (k = 0; k < n_s; k++)
      out->n_mixed += mixed[k];
   for (j = 0; j < nf; j++) {
      mp_struct_field *f = &out->fields[j];
      uint32_t L;
      f->offset = foff[j];
      f->loops = calloc(nl + 1, sizeof *f->loops);
      f->loop_cycles = calloc(nl + 1, sizeof *f->loop_cycles);
      for (L = 0; L < nl; L++)
         if (cnt[(size_t)j * (nl + 1) + L]) {
            f->loops[f->n_loops] = loops[L];
            f->loop_cycles[f->n_loops++] = w[(size_t)j * (nl + 1) + L];
         }
      f->cycles_outside = w[(size_t)j * (nl + 1) + nl];
      f->share = out->cycles ? (double)f->cycles / (double)out->cycles : 0.0;
      out->field_cycles += f->cycles;
   }
   out->covered = out->cycles ? (double)out->field_cycles / (double)out->cycles : 0.0;

   /* Eq. 7, pair by pair, loop by loop */
   out->affinity = calloc((size_t)nf * nf, sizeof *out->affinity);
   for (j = 0; j < nf; j++)
      for (k = 0; k < nf; k++) {
         uint64_t num = 0, den = out->fields[j].cycles + out->fields[k].cycles;
         uint32_t L;
         for (L = 0; L < nl; L++)
            if (cnt[(size_t)j * (nl + 1) + L] && cnt[(size_t)k * (nl + 1) + L])
               num += w[(size_t)j * (nl + 1) + L] + w[(size_t)k * (nl + 1) + L];
         MP_STRUCT_AFF(out, j, k) = j == k ? 1.0 : den ? (double)num / (double)den : 0.0;
      }

   /* complete link, recomputed from the matrix at every step */
   {
      uint32_t *lab = malloc(nf * sizeof *lab), a, b, x, y, g;
      for (j = 0; j < nf; j++)
         lab[j] = j;
      for (;;) {
         double best = -1;
         uint32_t ba = 0, bb = 0;
         for (a = 0; a < nf; a++)
            for (b = a + 1; b < nf; b++) {
               double m = 2;
               if (lab[a] != a || lab[b] != b)
                  continue;
               for (x = 0; x < nf; x++)
                  for (y = 0; y < nf; y++)
                     if (lab[x] == a && lab[y] == b && MP_STRUCT_AFF(out, x, y) < m)
                        m = MP_STRUCT_AFF(out, x, y);
               if (m > best) {
                  best = m;
                  ba = a;
                  bb = b;
               }
            }
         if (best < 0 || best < threshold)
            break;
         for (x = 0; x < nf; x++)
            if (lab[x] == bb)
               lab[x] = ba;
      }
      out->threshold = threshold;
      out->group_start = calloc(nf + 1, sizeof *out->group_start);
      out->group_fields = calloc(nf, sizeof *out->group_fields);
      for (a = 0, g = 0, x = 0; a < nf; a++) {
         if (lab[a] != a)
            continue;
         out->group_start[g] = x;
         for (y = 0; y < nf; y++)
            if (lab[y] == a) {
               out->group_fields[x++] = y;
               out->fields[y].group = g;
            }
         g++;
      }
      out->group_start[g] = x;
      out->n_groups = g;
      free(lab);
   }
   free(w);
   free(cnt);
   free(foff);
   free(loops);
   free(skey_instr); free(skey_loop); free(sof); free(sfirst); free(sg); free(ssize); free(mixed);
   return 1;

none:
   memset(out, 0, sizeof *out);
   free(foff);
   free(loops);
   free(skey_instr); free(skey_loop); free(sof); free(sfirst); free(sg); free(ssize); free(mixed);
   return 0;
}

/*------------------------------------------------------------*/
/*--- Comparison                                           ---*/
/*------------------------------------------------------------*/

static uint32_t report_budget;
/* What the random traces exercised, for the log. */
static uint32_t seen_split, seen_mixed, seen_by_count, seen_loopless;

#define DIFF(what, e, r) do {                                              \
      if ((e) != (r)) {                                                   \
         if (report_budget) {                                             \
            report_budget--;                                              \
            fprintf(stderr, "var %u: %s: engine %llu, reference %llu\n",  \
                    var, what, (unsigned long long)(e), (unsigned long long)(r)); \
         }                                                                \
         bad++;                                                           \
      }                                                                   \
   } while (0)

/* Mismatches between two layouts (doubles compared exactly: both sides
   divide the same integers). */
static uint32_t compare_layouts(uint32_t var, const mp_struct_layout *e,
                                const mp_struct_layout *r)
{
   uint32_t bad = 0, i, j;
   DIFF("size", e->size, r->size);
   DIFF("n_fields", e->n_fields, r->n_fields);
   DIFF("cycles", e->cycles, r->cycles);
   DIFF("field_cycles", e->field_cycles, r->field_cycles);
   DIFF("mixed_cycles", e->mixed_cycles, r->mixed_cycles);
   DIFF("mixed_accesses", e->mixed_accesses, r->mixed_accesses);
   DIFF("n_streams", e->n_streams, r->n_streams);
   DIFF("n_mixed", e->n_mixed, r->n_mixed);
   DIFF("by_count", e->by_count, r->by_count);
   DIFF("covered", e->covered != r->covered, 0);
   DIFF("n_groups", e->n_groups, r->n_groups);
   if (bad || e->n_fields != r->n_fields)
      return bad;
   for (i = 0; i < e->n_fields; i++) {
      const mp_struct_field *a = &e->fields[i], *b = &r->fields[i];
      DIFF("field offset", a->offset, b->offset);
      DIFF("field size", a->size, b->size);
      DIFF("field accesses", a->accesses, b->accesses);
      DIFF("field cycles", a->cycles, b->cycles);
      DIFF("field cycles outside", a->cycles_outside, b->cycles_outside);
      DIFF("field share", a->share != b->share, 0);
      DIFF("field group", a->group, b->group);
      DIFF("field n_loops", a->n_loops, b->n_loops);
      for (j = 0; j < a->n_loops && j < b->n_loops; j++) {
         DIFF("field loop", a->loops[j], b->loops[j]);
         DIFF("field loop cycles", a->loop_cycles[j], b->loop_cycles[j]);
      }
      for (j = 0; j < e->n_fields; j++)
         DIFF("affinity", MP_STRUCT_AFF(e, i, j) != MP_STRUCT_AFF(r, i, j), 0);
   }
   for (i = 0; i <= e->n_groups; i++)
      DIFF("group start", e->group_start[i], r->group_start[i]);
   for (i = 0; i < e->n_fields; i++)
      DIFF("group fields", e->group_fields[i], r->group_fields[i]);
   return bad;
}

/*------------------------------------------------------------*/
/*--- Random arrays of structures                          ---*/
/*------------------------------------------------------------*/

#define MAX_VARS 3
#define MAX_FIELDS 64
#define MAX_BLOCKS 4
#define MAX_TASKS 24

typedef struct {
   uint32_t size;                          /* bytes */
   uint32_t n_fields;
   uint32_t off[MAX_FIELDS], fsize[MAX_FIELDS];
   uint32_t n_blocks, n_elem;
   uint64_t start[MAX_BLOCKS];
   uint32_t accessed[MAX_FIELDS];          /* by some non-mixed loop */
   int no_cycles;
} gen_var;

/* One running loop over one variable: the interleaving unit. */
typedef struct {
   uint32_t var, loop, step;
   uint32_t n_f, f[MAX_FIELDS], instr[MAX_FIELDS];
   uint32_t sweep;                         /* 0, or the byte size of a memset-like sweep */
   uint32_t block;                         /* cursor: block and element (or byte) */
   uint64_t pos;
} gen_task;

typedef struct {
   uint32_t n_vars;
   gen_var v[MAX_VARS];
   uint32_t n_tasks;
   gen_task t[MAX_TASKS];
   uint32_t drop_pct;                      /* sampling: % of accesses dropped */
} gen;

static const uint64_t latencies[] = { 4, 12, 40, 200 };

/* Random structure: fields of 1, 2, 4 or 8 bytes, aligned on their size,
   with holes, at least two of them. */
static void gen_struct(gen_var *v)
{
   uint32_t o = 0;
   do {
      v->size = 8 + (uint32_t)(rng() % 249);
      v->n_fields = 0;
      for (o = 0; o < v->size && v->n_fields < MAX_FIELDS;) {
         uint32_t fs = 1u << (rng() % 4);
         if (o % fs || o + fs > v->size || rng() % 4 == 0) {
            o++;
            continue;
         }
         v->off[v->n_fields] = o;
         v->fsize[v->n_fields++] = fs;
         o += fs;
      }
   } while (v->n_fields < 2);
}

static void generate(gen *g, uint32_t seed)
{
   uint32_t i, k, next_instr = 0, next_loop = 1;
   uint64_t cur = 0x10000000;
   memset(g, 0, sizeof *g);
   rng_state = 0x9e3779b97f4a7c15ull ^ ((uint64_t)seed * 0x2545f4914f6cdd1dull + 1);
   g->n_vars = 1 + (uint32_t)(rng() % MAX_VARS);
   g->drop_pct = rng() % 3 == 0 ? 20 + (uint32_t)(rng() % 60) : 0;
   for (i = 0; i < g->n_vars; i++) {
      gen_var *v = &g->v[i];
      int aligned = (int)(rng() & 1);
      gen_struct(v);
      v->n_blocks = 1 + (uint32_t)(rng() % MAX_BLOCKS);
      v->n_elem = 2 + (uint32_t)(rng() % 40);
      v->no_cycles = rng() % 8 == 0;
      for (k = 0; k < v->n_blocks; k++) {
         cur += 16 + rng() % 4096;
         if (aligned)
            cur = (cur + 15) & ~15ull;
         v->start[k] = cur;
         cur += (uint64_t)v->n_elem * v->size;
      }
   }
   /* tasks: loops over field subsets; the first of each variable has
      step 1, so that an unsampled trace shows the true size */
   for (i = 0; i < g->n_vars; i++) {
      uint32_t n = 1 + (uint32_t)(rng() % 5);
      for (k = 0; k < n && g->n_tasks < MAX_TASKS; k++) {
         gen_task *t = &g->t[g->n_tasks++];
         gen_var *v = &g->v[i];
         uint32_t f;
         t->var = i;
         t->loop = rng() % 6 == 0 ? 0 : next_loop++;
         t->step = k == 0 ? 1 : 1 + (uint32_t)(rng() % 3);
         if (k > 0 && rng() % 5 == 0) {
            /* memset-like: every byte in 1-, 2- or 4-byte pieces */
            uint32_t b = 1u << (rng() % 3);
            while (v->size % b)
               b /= 2;
            t->sweep = b;
            t->n_f = 1;
            t->instr[0] = next_instr++;
            continue;
         }
         for (f = 0; f < v->n_fields; f++)
            if (rng() % 3 == 0 || (f == 0 && k == 0)) {
               t->f[t->n_f] = f;
               t->instr[t->n_f++] = next_instr++;
               v->accessed[f] = 1;
            }
         if (k == 0 && t->n_f < 2 && v->n_fields > 1) {
            /* a step-1 loop over two fields, so that S is the truth */
            t->f[t->n_f] = v->n_fields - 1;
            t->instr[t->n_f++] = next_instr++;
            v->accessed[v->n_fields - 1] = 1;
         }
      }
   }
   /* the same instruction on two variables (a function called on both),
      each in its own loop: exercises the engine's per-instruction chain.
      A task that received an instruction gives none, so an instruction
      never reaches two fields of one variable. */
   for (i = 1; i < g->n_tasks; i++)
      if (g->t[i].var != g->t[i - 1].var && !g->t[i].sweep && !g->t[i - 1].sweep
          && g->t[i].n_f && g->t[i - 1].n_f && rng() % 2 == 0) {
         g->t[i].instr[0] = g->t[i - 1].instr[0];
         i++;
      }
   /* and a task run twice at once (two threads in one loop) */
   if (g->n_tasks < MAX_TASKS && rng() % 2 == 0) {
      g->t[g->n_tasks] = g->t[rng() % g->n_tasks];
      g->n_tasks++;
   }
}

/* Runs the tasks interleaved one iteration at a time. */
static void run(gen *g, mp_structs *s, trace *t)
{
   uint32_t live = g->n_tasks, i;
   while (live) {
      gen_task *k = &g->t[rng() % g->n_tasks];
      const gen_var *v = &g->v[k->var];
      uint64_t base;
      if (k->block >= v->n_blocks)
         continue;
      base = v->start[k->block];
      if (k->sweep) {
         uint64_t cyc = v->no_cycles ? 0 : latencies[rng() % 4];
         if (rng() % 100 >= g->drop_pct)
            feed(s, t, k->instr[0], k->var, base + k->pos, base, k->sweep, k->loop, cyc);
         k->pos += k->sweep;
         if (k->pos >= (uint64_t)v->n_elem * v->size) {
            k->pos = 0;
            if (++k->block == v->n_blocks)
               live--;
         }
         continue;
      }
      for (i = 0; i < k->n_f; i++) {
         uint64_t cyc = v->no_cycles ? 0 : latencies[rng() % 4];
         if (rng() % 100 >= g->drop_pct)
            feed(s, t, k->instr[i], k->var, base + k->pos * v->size + v->off[k->f[i]],
                 base, v->fsize[k->f[i]], k->loop, cyc);
      }
      k->pos += k->step;
      if (k->pos >= v->n_elem) {
         k->pos = 0;
         if (++k->block == v->n_blocks)
            live--;
      }
   }
}

/* Against the truth of an unsampled trace: the size and the fields. */
static uint32_t check_truth(const gen_var *v, uint32_t var, int found, const mp_struct_layout *l)
{
   uint32_t bad = 0, n = 0, f, j = 0;
   for (f = 0; f < v->n_fields; f++)
      n += v->accessed[f];
   DIFF("found (truth)", (uint64_t)found, (uint64_t)(n >= 2));
   if (!found || n < 2)
      return bad;
   DIFF("size (truth)", l->size, v->size);
   DIFF("n_fields (truth)", l->n_fields, n);
   for (f = 0; f < v->n_fields && j < l->n_fields; f++)
      if (v->accessed[f]) {
         DIFF("offset (truth)", l->fields[j].offset, v->off[f]);
         DIFF("field size (truth)", l->fields[j].size, v->fsize[f]);
         j++;
      }
   return bad;
}

/* One random trace; returns the mismatches (engine vs reference, plus
   engine vs truth unless sampled or broken). */
static uint32_t random_case(uint32_t seed, int broken, uint32_t *found_out,
                            uint32_t *accesses_out)
{
   gen g;
   trace t = { NULL, 0, 0 };
   mp_structs *s = mp_structs_new();
   uint32_t v, bad = 0, found = 0;
   generate(&g, seed);
   run(&g, s, &t);
   for (v = 0; v < g.n_vars; v++) {
      mp_struct_layout e, r;
      int fe = mp_structs_infer(s, v, &e);
      int fr = ref_infer(&t, v, MP_STRUCTS_GROUP_THRESHOLD, broken, &r);
      uint32_t var = v;
      DIFF("found", (uint64_t)fe, (uint64_t)fr);
      if (fe && fr)
         bad += compare_layouts(v, &e, &r);
      if (!g.drop_pct && !broken)
         bad += check_truth(&g.v[v], v, fe, &e);
      found += fe;
      if (fe) {
         uint32_t f;
         seen_split += e.n_groups > 1;
         seen_mixed += e.n_mixed > 0;
         seen_by_count += e.by_count;
         for (f = 0; f < e.n_fields; f++)
            if (e.fields[f].cycles_outside) {
               seen_loopless++;
               break;
            }
      }
      /* regrouping with another threshold, against the reference */
      if (fe && fr && !broken) {
         mp_struct_layout r2;
         double th = (double)(1 + rng() % 10) / 10.0;
         mp_structs_group(&e, th);
         ref_infer(&t, v, th, 0, &r2);
         bad += compare_layouts(v, &e, &r2);
         mp_struct_layout_clear(&r2);
      }
      mp_struct_layout_clear(&e);
      mp_struct_layout_clear(&r);
   }
   if (found_out)
      *found_out = found;
   if (accesses_out)
      *accesses_out = t.n;
   free(t.a);
   mp_structs_free(s);
   return bad;
}

#define N_RANDOM 300

START_TEST(test_random_traces)
{
   uint32_t seed, bad = 0, found = 0, vars = 0, n_acc = 0;
   report_budget = 10;
   for (seed = 0; seed < N_RANDOM; seed++) {
      uint32_t f, a;
      gen g;
      generate(&g, seed);
      vars += g.n_vars;
      bad += random_case(seed, 0, &f, &a);
      found += f;
      n_acc += a;
   }
   printf("structs random: %u traces, %u variables, %u laid out (%u split, %u with mixed "
          "streams, %u by count, %u with accesses outside loops), %u accesses, %u mismatches\n",
          N_RANDOM, vars, found, seen_split, seen_mixed, seen_by_count, seen_loopless, n_acc, bad);
   ck_assert_uint_eq(bad, 0);
   ck_assert_uint_gt(found, vars / 2);
   ck_assert_uint_gt(seen_split, 0);
   ck_assert_uint_gt(seen_mixed, 0);
   ck_assert_uint_gt(seen_by_count, 0);
   ck_assert_uint_gt(seen_loopless, 0);
}
END_TEST

/* Differencing raw addresses (the broken reference) disagrees with the
   engine on heap sites whose blocks are not aligned on the structure
   size: the comparison can fail. */
START_TEST(test_mismatch_is_detected)
{
   uint32_t seed, bad = 0;
   report_budget = 0;
   for (seed = 0; seed < 40; seed++)
      bad += random_case(seed, 1, NULL, NULL);
   ck_assert_uint_gt(bad, 0);
}
END_TEST

/*------------------------------------------------------------*/
/*--- By hand                                              ---*/
/*------------------------------------------------------------*/

/* StructSlim's Figure 1: struct type {int a; int b; int c; int d;}
   Arr[N]; loop 1 reads Arr[i].a + Arr[i].c into B[i], loop 2 reads
   Arr[i].b + Arr[i].d into C[i].  Arr is variable 0, B 1, C 2. */
#define FIG1_N 100
static mp_structs *figure1(trace *t)
{
   mp_structs *s = mp_structs_new();
   const uint64_t arr = 0x601040, b = 0x700000, c = 0x800000;
   uint32_t i;
   for (i = 0; i < FIG1_N; i++) {
      feed(s, t, 0, 0, arr + 16 * i + 0, arr, 4, 1, 40);   /* Arr[i].a */
      feed(s, t, 1, 0, arr + 16 * i + 8, arr, 4, 1, 40);   /* Arr[i].c */
      feed(s, t, 2, 1, b + 4 * i, b, 4, 1, 12);            /* B[i] = */
   }
   for (i = 0; i < FIG1_N; i++) {
      feed(s, t, 3, 0, arr + 16 * i + 4, arr, 4, 2, 40);   /* Arr[i].b */
      feed(s, t, 4, 0, arr + 16 * i + 12, arr, 4, 2, 40);  /* Arr[i].d */
      feed(s, t, 5, 2, c + 4 * i, c, 4, 2, 12);            /* C[i] = */
   }
   return s;
}

/* The declared members as the fields: particles of 4 doubles {x, y, z,
   m} (32 bytes), initialised by 16-byte stores (x..y, z..m: loop 1, 10
   cycles each), a hot loop reading x and z (loop 2, 40 cycles each).
   By the store widths the fields would be +0 (16 B) and +16 (16 B),
   each in both loops: no split.  By the members, each store counts 5
   cycles on each member it covers: x and z are in loops 1 and 2, y and
   m in loop 1 only, and the split is { x, z } / { y, m }. */
START_TEST(test_declared_members)
{
   static const mp_struct_unit members[] = { { 0, 8 }, { 8, 8 }, { 16, 8 }, { 24, 8 } };
   mp_structs *s = mp_structs_new();
   const uint64_t p = 0x900000;
   mp_struct_layout l;
   uint32_t i;
   for (i = 0; i < 64; i++) {
      feed(s, NULL, 0, 0, p + 32 * i, p, 16, 1, 10);
      feed(s, NULL, 1, 0, p + 32 * i + 16, p, 16, 1, 10);
   }
   for (i = 0; i < 64; i++) {
      feed(s, NULL, 2, 0, p + 32 * i, p, 8, 2, 40);
      feed(s, NULL, 3, 0, p + 32 * i + 16, p, 8, 2, 40);
   }
   /* by the widths: two 16-byte fields used together, one group */
   ck_assert_int_eq(mp_structs_infer(s, 0, &l), 1);
   ck_assert_uint_eq(l.n_fields, 2);
   ck_assert_uint_eq(l.fields[0].size, 16);
   ck_assert_uint_eq(l.n_groups, 1);
   mp_struct_layout_clear(&l);
   /* by the members */
   ck_assert_int_eq(mp_structs_infer_declared(s, 0, members, 4, 32, &l), 1);
   ck_assert_uint_eq(l.size, 32);
   ck_assert_uint_eq(l.n_fields, 4);
   for (i = 0; i < 4; i++) {
      ck_assert_uint_eq(l.fields[i].offset, 8 * i);
      ck_assert_uint_eq(l.fields[i].size, 8);
   }
   ck_assert_uint_eq(l.fields[0].cycles, 64 * (5 + 40));   /* x */
   ck_assert_uint_eq(l.fields[1].cycles, 64 * 5);          /* y */
   ck_assert_uint_eq(l.fields[0].accesses, 64 + 64 / 2);   /* its share of the stores */
   ck_assert_uint_eq(l.cycles, l.field_cycles);            /* nothing lost to rounding */
   ck_assert_uint_eq(l.n_groups, 2);
   ck_assert_uint_eq(l.fields[0].group, l.fields[2].group);
   ck_assert_uint_eq(l.fields[1].group, l.fields[3].group);
   ck_assert_uint_ne(l.fields[0].group, l.fields[1].group);
   mp_struct_layout_clear(&l);
   /* a declared size the strides do not step by: the widths again */
   ck_assert_int_eq(mp_structs_infer_declared(s, 0, members, 4, 24, &l), 1);
   ck_assert_uint_eq(l.n_fields, 2);
   mp_struct_layout_clear(&l);
   mp_structs_free(s);
}
END_TEST

START_TEST(test_figure1)
{
   trace t = { NULL, 0, 0 };
   mp_structs *s = figure1(&t);
   mp_struct_layout l, r;
   uint32_t i;
   ck_assert_int_eq(mp_structs_infer(s, 0, &l), 1);
   ck_assert_uint_eq(l.size, 16);
   ck_assert_uint_eq(l.n_fields, 4);
   for (i = 0; i < 4; i++) {
      ck_assert_uint_eq(l.fields[i].offset, 4 * i);
      ck_assert_uint_eq(l.fields[i].size, 4);
      ck_assert_uint_eq(l.fields[i].accesses, FIG1_N);
      ck_assert_uint_eq(l.fields[i].cycles, 40 * FIG1_N);
      ck_assert(l.fields[i].share == 0.25);
      ck_assert_uint_eq(l.fields[i].n_loops, 1);
      ck_assert_uint_eq(l.fields[i].loops[0], i % 2 ? 2 : 1);
   }
   ck_assert(l.covered == 1.0);
   ck_assert_uint_eq(l.n_mixed, 0);
   /* a and c always together, b and d too, never across */
   ck_assert(MP_STRUCT_AFF(&l, 0, 2) == 1.0);          /* A(a,c) */
   ck_assert(MP_STRUCT_AFF(&l, 1, 3) == 1.0);          /* A(b,d) */
   ck_assert(MP_STRUCT_AFF(&l, 0, 1) == 0.0);          /* A(a,b) */
   ck_assert(MP_STRUCT_AFF(&l, 0, 3) == 0.0);
   ck_assert(MP_STRUCT_AFF(&l, 2, 1) == 0.0);
   ck_assert(MP_STRUCT_AFF(&l, 3, 3) == 1.0);
   /* the split of the paper: type1 {a, c}, type2 {b, d} */
   ck_assert_uint_eq(l.n_groups, 2);
   ck_assert_uint_eq(l.group_start[1], 2);
   ck_assert_uint_eq(l.fields[l.group_fields[0]].offset, 0);
   ck_assert_uint_eq(l.fields[l.group_fields[1]].offset, 8);
   ck_assert_uint_eq(l.fields[l.group_fields[2]].offset, 4);
   ck_assert_uint_eq(l.fields[l.group_fields[3]].offset, 12);
   ck_assert_uint_eq(l.fields[2].group, 0);
   ck_assert_uint_eq(l.fields[3].group, 1);
   /* and the reference agrees */
   ck_assert_int_eq(ref_infer(&t, 0, MP_STRUCTS_GROUP_THRESHOLD, 0, &r), 1);
   ck_assert_uint_eq(compare_layouts(0, &l, &r), 0);
   mp_struct_layout_clear(&r);
   /* B and C are plain int arrays: no structure */
   ck_assert_int_eq(mp_structs_infer(s, 1, &r), 0);
   ck_assert_int_eq(mp_structs_infer(s, 2, &r), 0);
   ck_assert_uint_eq(r.n_fields, 0);
   ck_assert_ptr_null(r.fields);
   mp_struct_layout_clear(&l);
   mp_structs_free(s);
   free(t.a);
}
END_TEST

/* A hot field: struct {double a, b, c, d;} (32 bytes); loop 1 reads a
   of every element, each access from memory (200 cycles); loop 2 reads
   all four, each from L1 (4 cycles).  l_a = 204 N, l_b = l_c = l_d = 4 N;
   A(a, b) = (4 N + 4 N) / (204 N + 4 N) = 8/208; A(b, c) = 8 N / 8 N = 1.
   The advice splits a out: groups {a} {b, c, d}. */
START_TEST(test_hot_field)
{
   const uint32_t N = 1000;
   const uint64_t base = 0x4000008;            /* not 32-aligned */
   mp_structs *s = mp_structs_new();
   mp_struct_layout l;
   uint32_t i, f;
   for (i = 0; i < N; i++)
      mp_structs_access(s, 10, 7, base + 32 * i, base, 8, 3, 200);
   for (i = 0; i < N; i++)
      for (f = 0; f < 4; f++)
         mp_structs_access(s, 20 + f, 7, base + 32 * i + 8 * f, base, 8, 4, 4);
   ck_assert_int_eq(mp_structs_infer(s, 7, &l), 1);
   ck_assert_uint_eq(l.size, 32);
   ck_assert_uint_eq(l.n_fields, 4);
   ck_assert_uint_eq(l.fields[0].cycles, 204 * N);
   ck_assert_uint_eq(l.fields[0].n_loops, 2);
   ck_assert_uint_eq(l.fields[0].loop_cycles[0], 200 * N);
   ck_assert_uint_eq(l.fields[0].loop_cycles[1], 4 * N);
   ck_assert(l.fields[0].share == 204.0 / 216.0);
   ck_assert(MP_STRUCT_AFF(&l, 0, 1) == 8.0 / 208.0);
   ck_assert(MP_STRUCT_AFF(&l, 1, 2) == 1.0);
   ck_assert(MP_STRUCT_AFF(&l, 2, 3) == 1.0);
   ck_assert_uint_eq(l.n_groups, 2);
   ck_assert_uint_eq(l.group_start[1], 1);         /* {a} */
   ck_assert_uint_eq(l.group_fields[0], 0);
   ck_assert_uint_eq(l.group_start[2], 4);         /* {b, c, d} */
   ck_assert_uint_eq(l.fields[1].group, 1);
   ck_assert_uint_eq(l.fields[3].group, 1);
   /* a threshold below 8/208 keeps the structure whole */
   mp_structs_group(&l, 0.03);
   ck_assert_uint_eq(l.n_groups, 1);
   mp_struct_layout_clear(&l);
   mp_structs_free(s);
}
END_TEST

/* Plain arrays are no structures. */
START_TEST(test_plain_arrays)
{
   mp_structs *s = mp_structs_new();
   mp_struct_layout l;
   const uint64_t a = 0x5000000;
   uint32_t i;
   /* double a[1000]: read and written element by element */
   for (i = 0; i < 1000; i++) {
      mp_structs_access(s, 0, 0, a + 8 * i, a, 8, 1, 12);
      mp_structs_access(s, 1, 0, a + 8 * i, a, 8, 1, 4);
   }
   ck_assert_int_eq(mp_structs_infer(s, 0, &l), 0);
   /* ... and read every other element in another loop: size 16, but
      one field, and the unit sweeps are mixed */
   for (i = 0; i < 500; i++)
      mp_structs_access(s, 2, 0, a + 16 * i, a, 8, 2, 40);
   ck_assert_int_eq(mp_structs_infer(s, 0, &l), 0);
   /* a lone structure (stride 0 only) */
   for (i = 0; i < 100; i++) {
      mp_structs_access(s, 3, 1, 0x600000, 0x600000, 8, 3, 4);
      mp_structs_access(s, 4, 1, 0x600008, 0x600000, 8, 3, 4);
   }
   ck_assert_int_eq(mp_structs_infer(s, 1, &l), 0);
   /* a variable never seen, and one beyond any seen id */
   ck_assert_int_eq(mp_structs_infer(s, 2, &l), 0);
   ck_assert_int_eq(mp_structs_infer(s, 100000, &l), 0);
   ck_assert_uint_eq(l.size, 0);
   mp_structs_free(s);
}
END_TEST

/* A heap site of three blocks at unaligned starts, struct of 24 bytes,
   fields 0 and 16 read; a byte-wise initialisation of every block is
   mixed.  Raw-address differences would give gcd(24, 0x2011 - 0x1003
   - ...) instead of 24. */
START_TEST(test_blocks_and_mixed)
{
   static const uint64_t starts[3] = { 0x1003, 0x2011, 0x3fff };
   mp_structs *s = mp_structs_new();
   mp_struct_layout l;
   uint32_t b, i;
   for (b = 0; b < 3; b++)
      for (i = 0; i < 24 * 10; i++)                  /* memset, 1 byte at a time */
         mp_structs_access(s, 9, 5, starts[b] + i, starts[b], 1, 1, 4);
   for (b = 0; b < 3; b++)
      for (i = 0; i < 10; i++) {
         mp_structs_access(s, 1, 5, starts[b] + 24 * i, starts[b], 8, 2, 40);
         mp_structs_access(s, 2, 5, starts[b] + 24 * i + 16, starts[b], 4, 2, 40);
      }
   ck_assert_int_eq(mp_structs_infer(s, 5, &l), 1);
   ck_assert_uint_eq(l.size, 24);
   ck_assert_uint_eq(l.n_fields, 2);
   ck_assert_uint_eq(l.fields[0].offset, 0);
   ck_assert_uint_eq(l.fields[0].size, 8);
   ck_assert_uint_eq(l.fields[1].offset, 16);
   ck_assert_uint_eq(l.fields[1].size, 4);
   ck_assert_uint_eq(l.n_mixed, 1);
   ck_assert_uint_eq(l.mixed_accesses, 720);
   ck_assert_uint_eq(l.mixed_cycles, 720 * 4);
   ck_assert_uint_eq(l.cycles, 720 * 4 + 60 * 40);
   ck_assert(l.covered == 2400.0 / 5280.0);
   ck_assert(MP_STRUCT_AFF(&l, 0, 1) == 1.0);
   ck_assert_uint_eq(l.n_groups, 1);
   mp_struct_layout_clear(&l);
   mp_structs_free(s);
}
END_TEST

/* Without cycles (no cache model) the weights are access counts. */
START_TEST(test_by_count)
{
   mp_structs *s = mp_structs_new();
   mp_struct_layout l;
   uint32_t i;
   for (i = 0; i < 30; i++) {
      mp_structs_access(s, 0, 0, 0x1000 + 12 * i, 0x1000, 4, 1, 0);
      mp_structs_access(s, 1, 0, 0x1000 + 12 * i + 4, 0x1000, 4, 1, 0);
   }
   for (i = 0; i < 10; i++)
      mp_structs_access(s, 2, 0, 0x1000 + 12 * i + 8, 0x1000, 4, 0, 0);
   ck_assert_int_eq(mp_structs_infer(s, 0, &l), 1);
   ck_assert_int_eq(l.by_count, 1);
   ck_assert_uint_eq(l.size, 12);
   ck_assert_uint_eq(l.cycles, 70);
   ck_assert_uint_eq(l.fields[2].cycles_outside, 10);
   ck_assert_uint_eq(l.fields[2].n_loops, 0);
   ck_assert(MP_STRUCT_AFF(&l, 0, 1) == 1.0);
   ck_assert(MP_STRUCT_AFF(&l, 0, 2) == 0.0);   /* outside loops: never together */
   ck_assert_uint_eq(l.n_groups, 2);
   mp_struct_layout_clear(&l);
   /* reset forgets everything */
   mp_structs_reset(s);
   ck_assert_int_eq(mp_structs_infer(s, 0, &l), 0);
   mp_structs_free(s);
}
END_TEST

/* The DOT text of Figure 1, with names, and the buffer's contract. */
START_TEST(test_dot)
{
   trace t = { NULL, 0, 0 };
   mp_structs *s = figure1(&t);
   mp_struct_layout l;
   static const char *const names[4] = { "a", "b\"q", NULL, "d" };
   char buf[4096], small[16];
   size_t n, m;
   ck_assert_int_eq(mp_structs_infer(s, 0, &l), 1);
   n = mp_structs_dot_buf(&l, "Arr", names, buf, sizeof buf);
   ck_assert_uint_lt(n, sizeof buf);
   ck_assert_uint_eq(strlen(buf), n);
   ck_assert_ptr_nonnull(strstr(buf, "graph \"Arr\" {\n"));
   ck_assert_ptr_nonnull(strstr(buf, "label=\"Arr (16 B, fields cover 100.0% of cycles)\""));
   ck_assert_ptr_nonnull(strstr(buf, "  f0 [label=\"a\\n+0, 4 B\\n25.0%\"];\n"));
   ck_assert_ptr_nonnull(strstr(buf, "  f4 [label=\"b\\\"q\\n+4, 4 B\\n25.0%\"];\n"));
   ck_assert_ptr_nonnull(strstr(buf, "  f8 [label=\"+8, 4 B\\n25.0%\"];\n"));
   ck_assert_ptr_nonnull(strstr(buf, "subgraph cluster_0 { label=\"group 1\"; f0; f8; }"));
   ck_assert_ptr_nonnull(strstr(buf, "subgraph cluster_1 { label=\"group 2\"; f4; f12; }"));
   ck_assert_ptr_nonnull(strstr(buf, "  f0 -- f8 [label=\"1.00\", weight=100, penwidth=5.0];\n"));
   ck_assert_ptr_nonnull(strstr(buf, "  f4 -- f12 "));
   ck_assert_ptr_null(strstr(buf, "f0 -- f4"));       /* affinity 0: no edge */
   ck_assert(buf[n - 2] == '}' && buf[n - 1] == '\n');
   /* cut: same length returned, NUL-terminated prefix */
   m = mp_structs_dot_buf(&l, "Arr", names, small, sizeof small);
   ck_assert_uint_eq(m, n);
   ck_assert_uint_eq(strlen(small), sizeof small - 1);
   ck_assert_int_eq(strncmp(small, buf, sizeof small - 1), 0);
   ck_assert_uint_eq(mp_structs_dot_buf(&l, "Arr", names, NULL, 0), n);
   mp_struct_layout_clear(&l);
   mp_structs_free(s);
   free(t.a);
}
END_TEST

/* The hot path: one stream per instruction, several per instruction
   (an instruction alternating between variables), a rough speed. */
START_TEST(test_cost)
{
   mp_structs *s = mp_structs_new();
   mp_struct_layout l;
   const uint64_t n = 4000000;
   uint64_t i;
   clock_t c0 = clock();
   double ns;
   for (i = 0; i < n; i++) {
      uint32_t f = (uint32_t)(i & 3);
      uint64_t e = i >> 2;
      /* instruction f alternates between variables 0 and 1 */
      mp_structs_access(s, f, (uint32_t)(e & 1), 0x100000 + 64 * (e >> 1) + 16 * f,
                        0x100000, 8, 1, 4);
   }
   ns = (double)(clock() - c0) / CLOCKS_PER_SEC * 1e9 / (double)n;
   printf("structs cost: %llu accesses, 4 instructions alternating over 2 variables: %.1f ns/access\n",
          (unsigned long long)n, ns);
   ck_assert_int_eq(mp_structs_infer(s, 1, &l), 1);
   ck_assert_uint_eq(l.size, 64);
   ck_assert_uint_eq(l.n_fields, 4);
   ck_assert_uint_eq(l.n_streams, 4);
   ck_assert_uint_eq(l.n_groups, 1);
   mp_struct_layout_clear(&l);
   mp_structs_free(s);
}
END_TEST

/* A plain double array written by 16-byte vector stores in one loop (as
   an -O2 fill does) and read by two 8-byte loads per 16 bytes in another:
   the inference sees "fields" at 0 (16 bytes wide) and 8, the first in
   both loops, the second only in the reading one, and would split them;
   the vector store covers offset 8 too, so after mp_structs_cover_overlaps
   both fields are in both loops: affinity 1, one group. */
START_TEST(test_cover_overlaps)
{
   mp_structs *s = mp_structs_new();
   mp_struct_layout l;
   uint64_t block = 0x100000, e;
   memset(&l, 0, sizeof l);
   for (e = 0; e < 1000; e++)
      mp_structs_access(s, 1, 5, block + 16 * e, block, 16, 1, 4);      /* loop 1 */
   for (e = 0; e < 1000; e++) {
      mp_structs_access(s, 2, 5, block + 16 * e, block, 8, 2, 4);       /* loop 2 */
      mp_structs_access(s, 3, 5, block + 16 * e + 8, block, 8, 2, 4);
   }
   ck_assert(mp_structs_infer(s, 5, &l));
   ck_assert_uint_eq(l.size, 16);
   ck_assert_uint_eq(l.n_fields, 2);
   ck_assert(MP_STRUCT_AFF(&l, 0, 1) < 0.99);      /* before: field 8 lacks loop 1 */
   mp_structs_cover_overlaps(&l);
   ck_assert(MP_STRUCT_AFF(&l, 0, 1) > 0.999);
   ck_assert_uint_eq(l.n_groups, 1);
   ck_assert_uint_eq(l.fields[1].n_loops, 2);
   mp_struct_layout_clear(&l);
   mp_structs_free(s);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("structs");
   TCase *tc = tcase_create("core");
   tcase_set_timeout(tc, 120);
   tcase_add_test(tc, test_random_traces);
   tcase_add_test(tc, test_mismatch_is_detected);
   tcase_add_test(tc, test_figure1);
   tcase_add_test(tc, test_declared_members);
   tcase_add_test(tc, test_cover_overlaps);
   tcase_add_test(tc, test_hot_field);
   tcase_add_test(tc, test_plain_arrays);
   tcase_add_test(tc, test_blocks_and_mixed);
   tcase_add_test(tc, test_by_count);
   tcase_add_test(tc, test_dot);
   tcase_add_test(tc, test_cost);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
