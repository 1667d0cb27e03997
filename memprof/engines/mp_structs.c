/*--------------------------------------------------------------------*/
/*--- memprof: structure splitting advice, after StructSlim.       ---*/
/*---                                                  mp_structs.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Owns the streams (instruction, variable, loop) and everything derived
   from them at the end: structure size, fields, affinity, groups, and
   the DOT text of the affinity graph.  See mp_structs.h for the model.

   Data structures and cost per access:
   - streams: one growable array of records; a stream is created on the
     first access of an instruction to a variable in a loop and never
     removed, so there are at most (instructions x variables x loops)
     of them, bounded by the code, not by the trace.  A record holds the
     first and last offset (bytes from the block's start), the running
     GCD of offset differences, and the access and cycle counts.
   - per instruction (a growable array indexed by the dense instruction
     id): the index of its most recently used stream, the head of a
     chain through the instruction's other streams kept move-to-front.
     An instruction nearly always touches one variable in one loop, so
     the head matches and the access costs one index, one compare and
     one division.  Worst case: the length of the chain.
   - per variable (a growable array indexed by the variable id): the
     head of a list of its streams, walked only by mp_structs_infer.

   Invariant: for a stream, stride = gcd over its successive offset
   differences (0 while every offset was the same), so every offset the
   stream touched is congruent to first_off modulo stride.  Hence, once
   the structure size S divides the stride (or the stride is 0), every
   access of the stream hit the field first_off mod S: the per-stream
   state is enough to attribute fields after the fact, without keeping
   per-(field, loop) sums on the hot path.  S is the GCD of the strides
   taken into the size (those above their access size), so S divides
   each of them; only a stream left out of the size GCD can fail to
   divide, and it is then "mixed".

   Notes:
   - loop 0 (outside any loop) is no loop: its cycles count in a
     field's total (the denominator of Eq. 7) but never as a loop in
     which two fields are accessed together.
   - a field is an offset; two offsets whose accesses overlap (a
     whole-structure copy next to field reads) stay two fields.
   - one structure type per variable is assumed (a heap site allocating
     different types gets the GCD of their sizes).
*/

#include "mp_structs.h"

#define NONE UINT32_MAX

typedef struct {
   uint32_t var, loop;      /* the stream's key, with the instruction */
   uint32_t size;           /* bytes: the widest access */
   uint32_t next_instr;     /* next stream of the same instruction, NONE */
   uint32_t next_var;       /* next stream of the same variable, NONE */
   uint64_t first_off;      /* bytes from its block's start, first access */
   uint64_t last_off;       /* bytes, the latest access */
   uint64_t stride;         /* bytes: gcd of offset differences, 0 = none yet */
   uint64_t accesses;
   uint64_t cycles;
} stream;

struct mp_structs {
   stream   *streams;
   uint32_t  n_streams, cap_streams;
   uint32_t *instr_head;    /* by instruction id: its latest stream, NONE */
   uint32_t  n_instrs;      /* entries of instr_head */
   uint32_t *var_head;      /* by variable id: its newest stream, NONE */
   uint32_t  n_vars;        /* entries of var_head */
};

static uint64_t gcd64(uint64_t a, uint64_t b)
{
   while (b) {
      uint64_t t = a % b;
      a = b;
      b = t;
   }
   return a;
}

/*------------------------------------------------------------*/
/*--- Life cycle                                           ---*/
/*------------------------------------------------------------*/

mp_structs *mp_structs_new(void)
{
   mp_structs *s = mp_calloc("mp.structs.new.1", 1, sizeof *s);
   return s;
}

void mp_structs_free(mp_structs *s)
{
   if (!s)
      return;
   mp_free(s->streams);
   mp_free(s->instr_head);
   mp_free(s->var_head);
   mp_free(s);
}

void mp_structs_reset(mp_structs *s)
{
   uint32_t i;
   s->n_streams = 0;
   for (i = 0; i < s->n_instrs; i++)
      s->instr_head[i] = NONE;
   for (i = 0; i < s->n_vars; i++)
      s->var_head[i] = NONE;
}

/* Makes index id valid in a table of *n entries, new ones NONE. */
static uint32_t *grow_index(uint32_t *tab, uint32_t *n, uint32_t id)
{
   uint32_t m = *n ? *n : 64, i;
   mp_assert(id != NONE);
   while (m <= id)
      m = m > UINT32_MAX / 2 ? UINT32_MAX : 2 * m;
   tab = mp_realloc("mp.structs.index.1", tab, (size_t)m * sizeof *tab);
   for (i = *n; i < m; i++)
      tab[i] = NONE;
   *n = m;
   return tab;
}

/*------------------------------------------------------------*/
/*--- The hot path                                         ---*/
/*------------------------------------------------------------*/

/* The index of the stream (instr, var, loop), made if new, moved to the
   front of the instruction's chain. */
static uint32_t find_stream(mp_structs *s, uint32_t instr, uint32_t var, uint32_t loop)
{
   uint32_t h = s->instr_head[instr], prev = NONE, i;
   stream *st;
   for (i = h; i != NONE; prev = i, i = s->streams[i].next_instr) {
      st = &s->streams[i];
      if (st->var == var && st->loop == loop) {
         if (prev != NONE) {        /* move to front */
            s->streams[prev].next_instr = st->next_instr;
            st->next_instr = h;
            s->instr_head[instr] = i;
         }
         return i;
      }
   }
   if (var >= s->n_vars)
      s->var_head = grow_index(s->var_head, &s->n_vars, var);
   if (s->n_streams == s->cap_streams) {
      mp_assert(s->cap_streams < NONE / 2);
      s->cap_streams = s->cap_streams ? 2 * s->cap_streams : 256;
      s->streams = mp_realloc("mp.structs.streams.1", s->streams,
                              (size_t)s->cap_streams * sizeof *s->streams);
   }
   i = s->n_streams++;
   st = &s->streams[i];
   mp_memset(st, 0, sizeof *st);
   st->var = var;
   st->loop = loop;
   st->next_instr = h;
   s->instr_head[instr] = i;
   st->next_var = s->var_head[var];
   s->var_head[var] = i;
   return i;
}

uint32_t mp_structs_access(mp_structs *s, uint32_t instr, uint32_t var,
                           uint64_t addr, uint64_t block_start, uint32_t size,
                           uint32_t loop, uint64_t cycles)
{
   uint64_t off = addr - block_start, d;
   uint32_t h;
   stream *st;
   mp_assert(addr >= block_start);
   if (instr >= s->n_instrs)
      s->instr_head = grow_index(s->instr_head, &s->n_instrs, instr);
   h = s->instr_head[instr];
   if (h == NONE || s->streams[h].var != var || s->streams[h].loop != loop)
      h = find_stream(s, instr, var, loop);
   st = &s->streams[h];

   if (st->accesses == 0) {
      st->first_off = off;
   } else {
      d = off >= st->last_off ? off - st->last_off : st->last_off - off;
      /* The regular case, d == stride, costs no division; a multiple of
         the stride changes nothing; anything else shrinks the GCD. */
      if (d != 0 && d != st->stride) {
         if (st->stride == 0)
            st->stride = d;
         else if (d % st->stride != 0)
            st->stride = gcd64(st->stride, d);
      }
   }
   st->last_off = off;
   st->accesses++;
   st->cycles += cycles;
   if (size > st->size)
      st->size = size;
   return h;
}

uint32_t mp_structs_streams(const mp_structs *s)
{
   return s->n_streams;
}

uint64_t mp_structs_stream_cycles(const mp_structs *s, uint32_t i)
{
   mp_assert(i < s->n_streams);
   return s->streams[i].cycles;
}

void mp_structs_set_stream_cycles(mp_structs *s, uint32_t i, uint64_t cycles)
{
   mp_assert(i < s->n_streams);
   s->streams[i].cycles = cycles;
}

/*------------------------------------------------------------*/
/*--- Inference                                            ---*/
/*------------------------------------------------------------*/

/* One stream attributed to a field, for sorting by (offset, loop). */
typedef struct {
   uint64_t offset, accesses, weight;  /* weight: cycles, or accesses */
   uint32_t loop, size;
} part;

static int part_before(const part *a, const part *b)
{
   if (a->offset != b->offset)
      return a->offset < b->offset;
   return a->loop < b->loop;
}

/* Bottom-up merge sort (no qsort inside the tool); n log n, stable. */
static void sort_parts(part *p, uint32_t n)
{
   part *tmp, *src = p, *dst, *t;
   uint32_t w, lo, i, j, k, mid, hi;
   if (n < 2)
      return;
   tmp = mp_malloc("mp.structs.sort.1", (size_t)n * sizeof *tmp);
   dst = tmp;
   for (w = 1; w < n; w = w > n / 2 ? n : 2 * w) {
      for (lo = 0; lo < n; lo = hi) {
         mid = lo + w < n ? lo + w : n;
         hi = mid + w < n ? mid + w : n;
         for (i = lo, j = mid, k = lo; k < hi; k++)
            dst[k] = (j >= hi || (i < mid && !part_before(&src[j], &src[i])))
                     ? src[i++] : src[j++];
      }
      t = src; src = dst; dst = t;
   }
   if (src != p)
      mp_memcpy(p, src, (size_t)n * sizeof *p);
   mp_free(tmp);
}

void mp_struct_layout_clear(mp_struct_layout *l)
{
   uint32_t i;
   if (l->fields) {
      for (i = 0; i < l->n_fields; i++) {
         mp_free(l->fields[i].loops);
         mp_free(l->fields[i].loop_cycles);
      }
      mp_free(l->fields);
   }
   mp_free(l->affinity);
   mp_free(l->group_start);
   mp_free(l->group_fields);
   mp_memset(l, 0, sizeof *l);
}

/* Eq. 7 of the paper: A_ij = sum lc_ij / sum l_ij, where lc_ij is the
   latency of fields i and j in the loops that access both, and l_ij
   their latency in the whole program:

      A_ij = sum over loops L accessing i and j of (l_iL + l_jL)
             ------------------------------------------------------
                              l_i + l_j

   (checked on the paper's ART numbers: P and U, together only in loops
   of 1.59% + 2.25%, with 73.3% and 7.1% of the latency, give
   3.84 / 80.4 = 0.05, the value of its Figure 6; I and U give
   10.83 / 12.6 = 0.86).  0 when l_i + l_j is 0; 1 on the diagonal. */
static double affinity(const mp_struct_field *fi, const mp_struct_field *fj)
{
   uint64_t num = 0, den = fi->cycles + fj->cycles;
   uint32_t a = 0, b = 0;
   while (a < fi->n_loops && b < fj->n_loops) {
      if (fi->loops[a] < fj->loops[b]) {
         a++;
      } else if (fi->loops[a] > fj->loops[b]) {
         b++;
      } else {
         num += fi->loop_cycles[a] + fj->loop_cycles[b];
         a++;
         b++;
      }
   }
   return den ? (double)num / (double)den : 0.0;
}

/* Moves part p onto the declared members it covers: onto the one that
   holds it, or split over several (a 16-byte store over two doubles),
   its accesses and weight shared by the bytes each holds.  Appends the
   pieces beyond the first at parts[*n_parts]. */
static void onto_members(part *parts, uint32_t *n_parts, uint32_t p,
                         const mp_struct_unit *units, uint32_t n_units)
{
   part whole = parts[p];
   uint64_t end = whole.offset + whole.size, w_left = whole.weight, a_left = whole.accesses;
   uint32_t u, pieces = 0;
   for (u = 0; u < n_units; u++) {
      uint64_t lo = units[u].offset, hi = units[u].offset + units[u].size, ov;
      part *to;
      if (hi <= whole.offset || lo >= end)
         continue;
      ov = (hi < end ? hi : end) - (lo > whole.offset ? lo : whole.offset);
      to = pieces == 0 ? &parts[p] : &parts[(*n_parts)++];
      *to = whole;
      to->offset = lo;
      to->size = (uint32_t)units[u].size;
      to->weight = whole.weight * ov / whole.size;
      to->accesses = whole.accesses * ov / whole.size;
      w_left -= to->weight;
      a_left -= to->accesses;
      pieces++;
   }
   /* the rounding's remainder to the first piece */
   if (pieces > 0) {
      parts[p].weight += w_left;
      parts[p].accesses += a_left;
   }
}

int mp_structs_infer(const mp_structs *s, uint32_t var, mp_struct_layout *out)
{
   return mp_structs_infer_declared(s, var, NULL, 0, 0, out);
}

int mp_structs_infer_declared(const mp_structs *s, uint32_t var, const mp_struct_unit *units,
                              uint32_t n_units, uint64_t declared_size, mp_struct_layout *out)
{
   uint64_t S = 0, total_cycles = 0, total_acc = 0;
   uint32_t i, j, n, n_parts = 0, nf, n_whole;
   part *parts;
   mp_struct_layout *l = out;

   mp_memset(out, 0, sizeof *out);
   if (var >= s->n_vars || s->var_head[var] == NONE)
      return 0;

   /* Eq. 5: the size is the GCD of the strides, leaving out the streams
      that walk contiguous bytes (stride <= access size). */
   for (i = s->var_head[var]; i != NONE; i = s->streams[i].next_var) {
      const stream *st = &s->streams[i];
      if (st->stride > st->size)
         S = gcd64(S, st->stride);
      total_cycles += st->cycles;
      total_acc += st->accesses;
      l->n_streams++;
   }
   if (S == 0) {
      mp_memset(out, 0, sizeof *out);
      return 0;
   }
   /* The declared structure, when the strides step by whole elements
      of it: its members are the fields. */
   if (units && n_units > 0 && declared_size > 0 && S % declared_size == 0)
      S = declared_size;
   else
      units = NULL;
   l->size = S;
   l->by_count = total_cycles == 0;
   l->cycles = l->by_count ? total_acc : total_cycles;

   /* Eq. 6: a stream whose stride S divides lies on one field. */
   parts = mp_malloc("mp.structs.parts.1",
                     (size_t)l->n_streams * (units ? n_units : 1) * sizeof *parts);
   for (i = s->var_head[var]; i != NONE; i = s->streams[i].next_var) {
      const stream *st = &s->streams[i];
      uint64_t w = l->by_count ? st->accesses : st->cycles;
      if (st->stride % S != 0) {
         l->n_mixed++;
         l->mixed_cycles += w;
         l->mixed_accesses += st->accesses;
         continue;
      }
      parts[n_parts].offset = st->first_off % S;
      parts[n_parts].loop = st->loop;
      parts[n_parts].size = st->size;
      parts[n_parts].accesses = st->accesses;
      parts[n_parts].weight = w;
      n_parts++;
   }
   for (i = 0, n_whole = n_parts; units && i < n_whole; i++)
      onto_members(parts, &n_parts, i, units, n_units);
   sort_parts(parts, n_parts);

   for (i = 0, nf = 0; i < n_parts; i++)
      nf += i == 0 || parts[i].offset != parts[i - 1].offset;
   if (nf < 2) {                    /* one field: not a structure */
      mp_free(parts);
      mp_memset(out, 0, sizeof *out);
      return 0;
   }

   /* The fields, each with its loops (ascending, by the sort). */
   l->n_fields = nf;
   l->fields = mp_calloc("mp.structs.fields.1", nf, sizeof *l->fields);
   for (i = 0, n = 0; i < n_parts; i = j, n++) {
      mp_struct_field *f = &l->fields[n];
      uint32_t nl = 0;
      for (j = i; j < n_parts && parts[j].offset == parts[i].offset; j++)
         nl += parts[j].loop != 0 && (j == i || parts[j].loop != parts[j - 1].loop);
      f->offset = parts[i].offset;
      f->loops = mp_malloc("mp.structs.loops.1", (nl ? nl : 1) * sizeof *f->loops);
      f->loop_cycles = mp_calloc("mp.structs.loops.2", nl ? nl : 1, sizeof *f->loop_cycles);
      for (j = i; j < n_parts && parts[j].offset == parts[i].offset; j++) {
         const part *p = &parts[j];
         if (p->size > f->size)
            f->size = p->size;
         f->accesses += p->accesses;
         f->cycles += p->weight;
         if (p->loop == 0) {
            f->cycles_outside += p->weight;
         } else {
            if (f->n_loops == 0 || f->loops[f->n_loops - 1] != p->loop)
               f->loops[f->n_loops++] = p->loop;
            f->loop_cycles[f->n_loops - 1] += p->weight;
         }
      }
      mp_assert(f->n_loops == nl);
      f->share = l->cycles ? (double)f->cycles / (double)l->cycles : 0.0;
      l->field_cycles += f->cycles;
   }
   mp_free(parts);
   l->covered = l->cycles ? (double)l->field_cycles / (double)l->cycles : 0.0;

   l->affinity = mp_malloc("mp.structs.aff.1", (size_t)nf * nf * sizeof *l->affinity);
   for (i = 0; i < nf; i++) {
      MP_STRUCT_AFF(l, i, i) = 1.0;
      for (j = i + 1; j < nf; j++)
         MP_STRUCT_AFF(l, i, j) = MP_STRUCT_AFF(l, j, i) =
            affinity(&l->fields[i], &l->fields[j]);
   }
   mp_structs_group(l, MP_STRUCTS_GROUP_THRESHOLD);
   return 1;
}

/*------------------------------------------------------------*/
/*--- Grouping                                             ---*/
/*------------------------------------------------------------*/

/* The paper clusters "all fields with high affinities" into subgraphs
   in which "all the edges have high weights", without a number.  Here:
   complete-link agglomeration with the Lance-Williams update (the link
   of a merged group to another is the least of the two links), so a
   group's least pairwise affinity is >= threshold.  The default 0.5
   says: two fields go together when at least half of their combined
   latency is spent in loops that access both; it separates every
   pair the paper separates (ART's P and U, 0.05) and joins every pair
   it joins (I and U 0.86, TSP's x, y, next at 1).
   Ties go to the pair of groups that comes first by smallest field
   index, so the result is deterministic.  O(fields^3). */
/* Adds loop to field f (sorted, with no cycles) unless it is there. */
static void add_loop(mp_struct_field *f, uint32_t loop)
{
   uint32_t k, at = 0;
   for (k = 0; k < f->n_loops; k++) {
      if (f->loops[k] == loop)
         return;
      if (f->loops[k] < loop)
         at = k + 1;
   }
   f->loops = mp_realloc("mp.structs.cover", f->loops, (f->n_loops + 1) * sizeof *f->loops);
   f->loop_cycles = mp_realloc("mp.structs.cover", f->loop_cycles,
                               (f->n_loops + 1) * sizeof *f->loop_cycles);
   for (k = f->n_loops; k > at; k--) {
      f->loops[k] = f->loops[k - 1];
      f->loop_cycles[k] = f->loop_cycles[k - 1];
   }
   f->loops[at] = loop;
   f->loop_cycles[at] = 0;
   f->n_loops++;
}

void mp_structs_cover_overlaps(mp_struct_layout *l)
{
   uint32_t i, j, k;
   int changed = 0;
   for (i = 0; i < l->n_fields; i++)
      for (j = 0; j < l->n_fields; j++) {
         const mp_struct_field *wide = &l->fields[i];
         mp_struct_field *f = &l->fields[j];
         if (i == j || f->offset <= wide->offset || f->offset >= wide->offset + wide->size)
            continue;
         for (k = 0; k < wide->n_loops; k++)
            add_loop(f, wide->loops[k]);
         changed = 1;
      }
   if (!changed)
      return;
   for (i = 0; i < l->n_fields; i++)
      for (j = 0; j < l->n_fields; j++)
         MP_STRUCT_AFF(l, i, j) = i == j ? 1.0 : affinity(&l->fields[i], &l->fields[j]);
   mp_structs_group(l, l->threshold);
}

void mp_structs_group(mp_struct_layout *l, double threshold)
{
   uint32_t n = l->n_fields, a, b, i, g;
   double *link;
   uint32_t *rep, *count, *num;

   mp_free(l->group_start);
   mp_free(l->group_fields);
   l->group_start = l->group_fields = NULL;
   l->n_groups = 0;
   l->threshold = threshold;
   if (n == 0)
      return;

   link = mp_malloc("mp.structs.group.1", (size_t)n * n * sizeof *link);
   rep = mp_malloc("mp.structs.group.2", (size_t)n * sizeof *rep);
   mp_memcpy(link, l->affinity, (size_t)n * n * sizeof *link);
   for (i = 0; i < n; i++)
      rep[i] = i;                   /* a group is named by its smallest field */
   for (;;) {
      uint32_t ba = NONE, bb = NONE;
      double best = -1.0;
      for (a = 0; a < n; a++) {
         if (rep[a] != a)
            continue;
         for (b = a + 1; b < n; b++)
            if (rep[b] == b && link[(size_t)a * n + b] > best) {
               best = link[(size_t)a * n + b];
               ba = a;
               bb = b;
            }
      }
      if (ba == NONE || best < threshold)
         break;
      for (i = 0; i < n; i++) {
         double m = link[(size_t)ba * n + i];
         if (link[(size_t)bb * n + i] < m)
            m = link[(size_t)bb * n + i];
         link[(size_t)ba * n + i] = link[(size_t)i * n + ba] = m;
      }
      for (i = 0; i < n; i++)
         if (rep[i] == bb)
            rep[i] = ba;
   }
   mp_free(link);

   /* Number the groups in the order of their smallest field, then lay
      them out as lists. */
   num = mp_malloc("mp.structs.group.3", (size_t)n * sizeof *num);
   count = mp_calloc("mp.structs.group.4", (size_t)n + 1, sizeof *count);
   for (i = 0; i < n; i++) {
      if (rep[i] == i)
         num[i] = l->n_groups++;
      l->fields[i].group = num[rep[i]];
      count[l->fields[i].group + 1]++;
   }
   for (g = 0; g < l->n_groups; g++)
      count[g + 1] += count[g];
   l->group_start = mp_malloc("mp.structs.group.5", ((size_t)l->n_groups + 1) * sizeof *l->group_start);
   l->group_fields = mp_malloc("mp.structs.group.6", (size_t)n * sizeof *l->group_fields);
   mp_memcpy(l->group_start, count, ((size_t)l->n_groups + 1) * sizeof *count);
   for (i = 0; i < n; i++)
      l->group_fields[count[l->fields[i].group]++] = i;
   mp_free(count);
   mp_free(num);
   mp_free(rep);
}

/*------------------------------------------------------------*/
/*--- DOT                                                  ---*/
/*------------------------------------------------------------*/

typedef struct {
   mp_structs_emit_fn emit;
   void *arg;
} dot_out;

static void put(dot_out *o, const char *text)
{
   o->emit(o->arg, text, mp_strlen(text));
}

/* A double in [0, inf) with 'dec' decimals (1..3), by integers. */
static void put_fixed(dot_out *o, double v, int dec)
{
   char tmp[48];
   unsigned long long scale = dec == 1 ? 10 : dec == 2 ? 100 : 1000, q;
   if (!(v >= 0))                   /* also NaN */
      v = 0;
   q = (unsigned long long)(v * (double)scale + 0.5);
   if (dec == 1)
      mp_snprintf(tmp, sizeof tmp, "%llu.%01llu", q / scale, q % scale);
   else if (dec == 2)
      mp_snprintf(tmp, sizeof tmp, "%llu.%02llu", q / scale, q % scale);
   else
      mp_snprintf(tmp, sizeof tmp, "%llu.%03llu", q / scale, q % scale);
   put(o, tmp);
}

static void put_u64(dot_out *o, uint64_t v)
{
   char tmp[24];
   mp_snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v);
   put(o, tmp);
}

/* The inside of a DOT quoted string: quote and backslash escaped,
   control characters dropped. */
static void put_escaped(dot_out *o, const char *s)
{
   char c[3];
   for (; *s; s++) {
      if ((unsigned char)*s < 0x20)
         continue;
      if (*s == '"' || *s == '\\') {
         c[0] = '\\'; c[1] = *s; c[2] = 0;
      } else {
         c[0] = *s; c[1] = 0;
      }
      put(o, c);
   }
}

void mp_structs_dot(const mp_struct_layout *l, const char *title,
                    const char *const *names, mp_structs_emit_fn emit, void *arg)
{
   dot_out o = { emit, arg };
   uint32_t i, j, g;

   put(&o, "graph \"");
   put_escaped(&o, title ? title : "structure");
   put(&o, "\" {\n  label=\"");
   put_escaped(&o, title ? title : "structure");
   put(&o, " (");
   put_u64(&o, l->size);
   put(&o, " B, fields cover ");
   put_fixed(&o, 100.0 * l->covered, 1);
   put(&o, "% of cycles)\";\n  node [shape=box];\n");

   for (i = 0; i < l->n_fields; i++) {
      const mp_struct_field *f = &l->fields[i];
      put(&o, "  f");
      put_u64(&o, f->offset);
      put(&o, " [label=\"");
      if (names && names[i]) {
         put_escaped(&o, names[i]);
         put(&o, "\\n");
      }
      put(&o, "+");
      put_u64(&o, f->offset);
      put(&o, ", ");
      put_u64(&o, f->size);
      put(&o, " B\\n");
      put_fixed(&o, 100.0 * f->share, 1);
      put(&o, "%\"];\n");
   }
   for (g = 0; g < l->n_groups; g++) {
      if (l->group_start[g + 1] - l->group_start[g] < 2)
         continue;
      put(&o, "  subgraph cluster_");
      put_u64(&o, g);
      put(&o, " { label=\"group ");
      put_u64(&o, g + 1);
      put(&o, "\";");
      for (j = l->group_start[g]; j < l->group_start[g + 1]; j++) {
         put(&o, " f");
         put_u64(&o, l->fields[l->group_fields[j]].offset);
         put(&o, ";");
      }
      put(&o, " }\n");
   }
   for (i = 0; i < l->n_fields; i++) {
      for (j = i + 1; j < l->n_fields; j++) {
         double a = MP_STRUCT_AFF(l, i, j);
         if (!(a > 0))
            continue;
         put(&o, "  f");
         put_u64(&o, l->fields[i].offset);
         put(&o, " -- f");
         put_u64(&o, l->fields[j].offset);
         put(&o, " [label=\"");
         put_fixed(&o, a, 2);
         put(&o, "\", weight=");
         put_u64(&o, (uint64_t)(100.0 * a + 0.5) ? (uint64_t)(100.0 * a + 0.5) : 1);
         put(&o, ", penwidth=");
         put_fixed(&o, 1.0 + 4.0 * a, 1);
         put(&o, "];\n");
      }
   }
   put(&o, "}\n");
}

typedef struct {
   char *buf;
   size_t cap, len;
} dot_buf;

static void buf_emit(void *arg, const char *text, size_t len)
{
   dot_buf *b = arg;
   if (b->len + 1 < b->cap) {
      size_t room = b->cap - 1 - b->len;
      mp_memcpy(b->buf + b->len, text, len < room ? len : room);
   }
   b->len += len;
}

size_t mp_structs_dot_buf(const mp_struct_layout *l, const char *title,
                          const char *const *names, char *buf, size_t cap)
{
   dot_buf b = { buf, cap, 0 };
   mp_structs_dot(l, title, names, buf_emit, &b);
   if (cap > 0)
      buf[b.len < cap ? b.len : cap - 1] = 0;
   return b.len;
}
