/*--------------------------------------------------------------------*/
/*--- memprof: the variable table and its access counts.  mp_vars.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Data structures and their cost per access:
   - variables: a growing array of pointers, indexed by id (O(1)).
   - per-location counts: a chained hash on (var, loc); records are
     never moved, so the adapter caches the pointer per instruction and
     the hot path usually does no lookup at all.
   - footprint: the distinct (var, line) pairs.  A direct-indexed shadow
     (mp_granmap, 4 bytes per line touched) holds each line's owner, the
     first variable that touched it; the owner's pair is counted when it
     takes the line.  Only the pairs of other variables on an owned line
     (small heap blocks sharing a line, a stack line used by successive
     frames) and of lines above 2^44 go to an open-addressing set (16
     bytes per slot at <= 50% load).  So an array costs its footprint
     4 bytes per line, not the set's 32 to 96, and an access costs one
     shadow look-up, none when the line is the variable's previous one
     (a sequential scan touches a line many times in a row).
*/
#include "mp_granmap.h"
#include "mp_util.h"
#include "mp_vars.h"

typedef struct {
   char *where, *fn;
   char *object;      /* code without line information: its object, or NULL */
   uint32_t hash;
} mp_location;

typedef struct {
   uint64_t line_plus1;   /* 0: empty slot */
   uint64_t var;
} mp_fp_slot;

#define LC_CHUNK 1024

struct mp_vars {
   uint32_t line_shift;

   mp_var **vars;
   uint32_t n_vars, cap_vars;

   mp_location *locs;
   uint32_t n_locs, cap_locs;
   uint32_t *loc_heads;      /* hash -> loc id + 1, chained by loc_next */
   uint32_t *loc_next;
   uint32_t loc_buckets;     /* power of two */

   mp_line_counts **lc_heads;
   uint32_t lc_buckets;      /* power of two */
   uint64_t n_lc;
   mp_line_counts *lc_chunk; /* records are carved from chunks */
   uint32_t lc_chunk_used;
   mp_line_counts **chunks;
   uint32_t n_chunks, cap_chunks;

   mp_fp_slot *fp;
   uint64_t fp_cap;          /* power of two */
   uint64_t fp_used;
   mp_granmap *fp_owner;     /* line -> var id + 1 of its first toucher */
   /* mp_vars_rank_lines: the sample's ranks, or NULL */
   const uint32_t *fp_rank;
   uint64_t fp_set_mask;
   uint32_t fp_set_bits, fp_sets;
};

#define FP_UNSAMPLED UINT64_MAX

/* The footprint's number for line (mp_vars_rank_lines). */
static inline uint64_t fp_line(const mp_vars *vs, uint64_t line)
{
   uint32_t r;
   if (vs->fp_rank == NULL)
      return line;
   r = vs->fp_rank[line & vs->fp_set_mask];
   return r == 0 ? FP_UNSAMPLED : (line >> vs->fp_set_bits) * vs->fp_sets + (r - 1);
}

void mp_vars_rank_lines(mp_vars *vs, const uint32_t *rank, uint64_t set_mask,
                        uint32_t set_bits, uint32_t n_sets)
{
   vs->fp_rank = rank;
   vs->fp_set_mask = set_mask;
   vs->fp_set_bits = set_bits;
   vs->fp_sets = n_sets;
}

/*------------------------------------------------------------*/
/*--- Hashing                                              ---*/
/*------------------------------------------------------------*/

static uint32_t hash_str(const char *s, uint32_t h)
{
   if (!s)
      return h ^ 0x9e3779b9u;
   for (; *s; s++)
      h = (h ^ (unsigned char)*s) * 16777619u;
   return h;
}

static int str_eq(const char *a, const char *b)
{
   if (!a || !b)
      return a == b;
   return mp_strcmp(a, b) == 0;
}

static char *dup_or_null(const char *s)
{
   return s ? mp_strdup("mp.vars.dup", s) : NULL;
}

/*------------------------------------------------------------*/
/*--- Table                                                ---*/
/*------------------------------------------------------------*/

mp_vars *mp_vars_new(uint32_t line_size)
{
   mp_vars *vs = mp_calloc("mp.vars.new.1", 1, sizeof *vs);
   mp_assert(line_size >= 1 && (line_size & (line_size - 1)) == 0);
   while ((1u << vs->line_shift) < line_size)
      vs->line_shift++;
   vs->loc_buckets = 1024;
   vs->loc_heads = mp_calloc("mp.vars.new.2", vs->loc_buckets, sizeof(uint32_t));
   vs->lc_buckets = 4096;
   vs->lc_heads = mp_calloc("mp.vars.new.3", vs->lc_buckets, sizeof(mp_line_counts *));
   vs->fp_cap = 4096;
   vs->fp = mp_calloc("mp.vars.new.4", vs->fp_cap, sizeof(mp_fp_slot));
   vs->fp_owner = mp_granmap_new();
   return vs;
}

void mp_vars_free(mp_vars *vs)
{
   uint32_t i, k;
   for (i = 0; i < vs->n_vars; i++) {
      mp_var *v = vs->vars[i];
      for (k = 0; k < v->n_alloc_stack; k++)
         mp_free(v->alloc_stack[k]);
      if (v->alloc_stack) mp_free(v->alloc_stack);
      if (v->where) mp_free(v->where);
      if (v->named_by) mp_free(v->named_by);
      if (v->function) mp_free(v->function);
      if (v->object) mp_free(v->object);
      if (v->cache) mp_free(v->cache);
      if (v->reuse) mp_free(v->reuse);
      if (v->numa) mp_free(v->numa);
      mp_free(v->name);
      mp_free(v);
   }
   if (vs->vars) mp_free(vs->vars);
   for (i = 0; i < vs->n_locs; i++) {
      if (vs->locs[i].where) mp_free(vs->locs[i].where);
      if (vs->locs[i].fn) mp_free(vs->locs[i].fn);
      if (vs->locs[i].object) mp_free(vs->locs[i].object);
   }
   if (vs->locs) mp_free(vs->locs);
   if (vs->loc_next) mp_free(vs->loc_next);
   mp_free(vs->loc_heads);
   for (i = 0; i < vs->n_chunks; i++) {
      uint32_t n = (vs->chunks[i] == vs->lc_chunk) ? vs->lc_chunk_used : LC_CHUNK;
      for (k = 0; k < n; k++)
         if (vs->chunks[i][k].reuse.bins)
            mp_free(vs->chunks[i][k].reuse.bins);
      mp_free(vs->chunks[i]);
   }
   if (vs->chunks) mp_free(vs->chunks);
   mp_free(vs->lc_heads);
   mp_free(vs->fp);
   mp_granmap_free(vs->fp_owner);
   mp_free(vs);
}

mp_var *mp_vars_add(mp_vars *vs, mp_var_kind kind, const char *name,
                    const char *where, uint64_t size)
{
   mp_var *v;
   if (vs->n_vars == vs->cap_vars) {
      vs->cap_vars = vs->cap_vars ? 2 * vs->cap_vars : 256;
      vs->vars = mp_realloc("mp.vars.add.1", vs->vars,
                            vs->cap_vars * sizeof(mp_var *));
   }
   v = mp_calloc("mp.vars.add.2", 1, sizeof *v);
   v->id = vs->n_vars;
   v->kind = kind;
   v->name = mp_strdup("mp.vars.add.3", name);
   v->where = dup_or_null(where);
   v->size = size;
   vs->vars[vs->n_vars++] = v;
   return v;
}

mp_var *mp_vars_get(const mp_vars *vs, uint32_t id)
{
   mp_assert(id < vs->n_vars);
   return vs->vars[id];
}

void mp_var_set_owner(mp_var *v, const char *path)
{
   if (v->object)
      mp_free(v->object);
   v->object = path ? mp_strdup("mp.vars.object", mp_object_base(path)) : NULL;
   v->cls = mp_class_of_object(path);
}

uint32_t mp_vars_count(const mp_vars *vs) { return vs->n_vars; }

uint32_t mp_vars_line_size(const mp_vars *vs) { return 1u << vs->line_shift; }

uint32_t mp_vars_line_shift(const mp_vars *vs) { return vs->line_shift; }

const char *mp_var_kind_name(mp_var_kind k)
{
   switch (k) {
   case MP_VAR_GLOBAL: return "global";
   case MP_VAR_HEAP:   return "heap";
   case MP_VAR_STACK:  return "stack";
   case MP_VAR_OTHER:  return "other";
   }
   return "other";
}

/*------------------------------------------------------------*/
/*--- Source locations                                     ---*/
/*------------------------------------------------------------*/

static void loc_rehash(mp_vars *vs)
{
   uint32_t i;
   mp_free(vs->loc_heads);
   vs->loc_buckets *= 2;
   vs->loc_heads = mp_calloc("mp.vars.loc.1", vs->loc_buckets, sizeof(uint32_t));
   for (i = 0; i < vs->n_locs; i++) {
      uint32_t b = vs->locs[i].hash & (vs->loc_buckets - 1);
      vs->loc_next[i] = vs->loc_heads[b];
      vs->loc_heads[b] = i + 1;
   }
}

uint32_t mp_vars_location(mp_vars *vs, const char *where, const char *fn)
{
   uint32_t h = hash_str(fn, hash_str(where, 2166136261u));
   uint32_t b = h & (vs->loc_buckets - 1);
   uint32_t i;
   for (i = vs->loc_heads[b]; i; i = vs->loc_next[i - 1]) {
      mp_location *l = &vs->locs[i - 1];
      if (l->hash == h && str_eq(l->where, where) && str_eq(l->fn, fn))
         return i - 1;
   }
   if (vs->n_locs == vs->cap_locs) {
      vs->cap_locs = vs->cap_locs ? 2 * vs->cap_locs : 1024;
      vs->locs = mp_realloc("mp.vars.loc.2", vs->locs,
                            vs->cap_locs * sizeof(mp_location));
      vs->loc_next = mp_realloc("mp.vars.loc.3", vs->loc_next,
                                vs->cap_locs * sizeof(uint32_t));
   }
   i = vs->n_locs++;
   vs->locs[i].where = dup_or_null(where);
   vs->locs[i].fn = dup_or_null(fn);
   vs->locs[i].object = NULL;
   vs->locs[i].hash = h;
   vs->loc_next[i] = vs->loc_heads[b];
   vs->loc_heads[b] = i + 1;
   if (vs->n_locs > 2 * vs->loc_buckets)
      loc_rehash(vs);
   return i;
}

const char *mp_vars_location_where(const mp_vars *vs, uint32_t loc)
{
   mp_assert(loc < vs->n_locs);
   return vs->locs[loc].where;
}

const char *mp_vars_location_fn(const mp_vars *vs, uint32_t loc)
{
   mp_assert(loc < vs->n_locs);
   return vs->locs[loc].fn;
}

void mp_vars_location_set_object(mp_vars *vs, uint32_t loc, const char *object)
{
   mp_assert(loc < vs->n_locs);
   if (vs->locs[loc].object == NULL && object != NULL)
      vs->locs[loc].object = dup_or_null(object);
}

const char *mp_vars_location_object(const mp_vars *vs, uint32_t loc)
{
   mp_assert(loc < vs->n_locs);
   return vs->locs[loc].object;
}

/*------------------------------------------------------------*/
/*--- Per-location counts                                  ---*/
/*------------------------------------------------------------*/

static uint32_t lc_bucket(const mp_vars *vs, uint32_t var, uint32_t loc)
{
   return (uint32_t)mp_mix64(((uint64_t)var << 32) | loc) & (vs->lc_buckets - 1);
}

static void lc_rehash(mp_vars *vs)
{
   uint32_t old_n = vs->lc_buckets, i;
   mp_line_counts **old = vs->lc_heads;
   vs->lc_buckets *= 2;
   vs->lc_heads = mp_calloc("mp.vars.lc.1", vs->lc_buckets, sizeof(mp_line_counts *));
   for (i = 0; i < old_n; i++) {
      mp_line_counts *lc = old[i], *next;
      for (; lc; lc = next) {
         uint32_t b = lc_bucket(vs, lc->var, lc->loc);
         next = lc->hash_next;
         lc->hash_next = vs->lc_heads[b];
         vs->lc_heads[b] = lc;
      }
   }
   mp_free(old);
}

static mp_line_counts *lc_alloc(mp_vars *vs)
{
   if (!vs->lc_chunk || vs->lc_chunk_used == LC_CHUNK) {
      if (vs->n_chunks == vs->cap_chunks) {
         vs->cap_chunks = vs->cap_chunks ? 2 * vs->cap_chunks : 16;
         vs->chunks = mp_realloc("mp.vars.lc.2", vs->chunks,
                                 vs->cap_chunks * sizeof(mp_line_counts *));
      }
      vs->lc_chunk = mp_calloc("mp.vars.lc.3", LC_CHUNK, sizeof(mp_line_counts));
      vs->chunks[vs->n_chunks++] = vs->lc_chunk;
      vs->lc_chunk_used = 0;
   }
   vs->lc_chunk[vs->lc_chunk_used].id = (vs->n_chunks - 1) * LC_CHUNK + vs->lc_chunk_used;
   return &vs->lc_chunk[vs->lc_chunk_used++];
}

mp_line_counts *mp_vars_line_counts(mp_vars *vs, uint32_t var, uint32_t loc)
{
   uint32_t b = lc_bucket(vs, var, loc);
   mp_line_counts *lc;
   for (lc = vs->lc_heads[b]; lc; lc = lc->hash_next)
      if (lc->var == var && lc->loc == loc)
         return lc;
   lc = lc_alloc(vs);
   lc->var = var;
   lc->loc = loc;
   lc->hash_next = vs->lc_heads[b];
   vs->lc_heads[b] = lc;
   if (++vs->n_lc > 2 * (uint64_t)vs->lc_buckets)
      lc_rehash(vs);
   return lc;
}

void mp_vars_foreach_line(const mp_vars *vs,
                          void (*fn)(const mp_line_counts *lc, void *arg),
                          void *arg)
{
   uint32_t i;
   for (i = 0; i < vs->n_chunks; i++) {
      uint32_t n = (vs->chunks[i] == vs->lc_chunk) ? vs->lc_chunk_used : LC_CHUNK;
      uint32_t k;
      for (k = 0; k < n; k++)
         fn(&vs->chunks[i][k], arg);
   }
}

/* The busiest location of each static local, by variable id. */
typedef struct {
   const mp_vars *vs;
   uint64_t *best;     /* accesses at the busiest location so far */
   uint32_t *loc;
} static_locals;

static void busiest_location(const mp_line_counts *lc, void *arg)
{
   static_locals *sl = arg;
   const mp_var *v = mp_vars_get(sl->vs, lc->var);
   uint64_t n = mp_counts_accesses(&lc->c);
   if (v && v->static_local && n > sl->best[lc->var]) {
      sl->best[lc->var] = n;
      sl->loc[lc->var] = lc->loc;
   }
}

void mp_vars_name_static_locals(mp_vars *vs)
{
   uint32_t n = mp_vars_count(vs), i;
   static_locals sl;
   sl.vs = vs;
   sl.best = mp_calloc("mp.vars.sl.best", n + 1, sizeof *sl.best);
   sl.loc = mp_calloc("mp.vars.sl.loc", n + 1, sizeof *sl.loc);
   mp_vars_foreach_line(vs, busiest_location, &sl);
   for (i = 0; i < n; i++) {
      mp_var *v = mp_vars_get(vs, i);
      const char *fn = v->function ? v->function
                       : sl.best[i] ? mp_vars_location_fn(vs, sl.loc[i]) : NULL;
      char *shown, *name;
      if (!v->static_local || !fn || mp_counts_accesses(&v->c) == 0)
         continue;
      shown = mp_short_name(fn);
      name = mp_asprintf("%s::%s", shown ? shown : fn, v->name);
      if (!v->function)
         v->function = mp_asprintf("%s", fn);
      mp_free(v->name);
      v->name = name;
      v->static_local = 0;   /* named once, if the report is made again */
      if (shown)
         mp_free(shown);
   }
   mp_free(sl.best);
   mp_free(sl.loc);
}

static const mp_vars *sorting_vars;

static int by_name(const void *a, const void *b)
{
   uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
   int c = mp_strcmp(sorting_vars->vars[x]->name, sorting_vars->vars[y]->name);
   return c ? c : (x > y) - (x < y);
}

/* A named local of a frame, not yet qualified. */
static int plain_stack_local(const mp_var *v)
{
   return v->kind == MP_VAR_STACK && v->function && mp_strncmp(v->name, "stack:", 6) != 0
          && mp_strstr(v->name, "::") == NULL;
}

void mp_vars_qualify_shared_locals(mp_vars *vs)
{
   uint32_t n = mp_vars_count(vs), *ids = mp_calloc("mp.vars.names", n + 1, sizeof *ids);
   uint32_t m = 0, i, j, k;
   for (i = 0; i < n; i++)
      if (vs->vars[i]->name && mp_class_is_programs(vs->vars[i]->cls))
         ids[m++] = i;
   sorting_vars = vs;
   mp_sort(ids, m, sizeof *ids, by_name);
   for (i = 0; i < m; i = j) {
      for (j = i + 1; j < m && mp_strcmp(vs->vars[ids[i]]->name, vs->vars[ids[j]]->name) == 0; j++)
         ;
      for (k = i; j - i > 1 && k < j; k++) {
         mp_var *v = vs->vars[ids[k]];
         char *shown, *name;
         if (!plain_stack_local(v))
            continue;
         shown = mp_short_name(v->function);
         name = mp_asprintf("%s::%s", shown ? shown : v->function, v->name);
         if (shown)
            mp_free(shown);
         mp_free(v->name);
         v->name = name;
      }
   }
   mp_free(ids);
}

/*------------------------------------------------------------*/
/*--- Footprint: the set of (variable, line) pairs         ---*/
/*------------------------------------------------------------*/

/* Inserts (var, line); returns 1 if it was not there yet. */
static int fp_insert(mp_vars *vs, uint64_t var, uint64_t line);

static void fp_grow(mp_vars *vs)
{
   mp_fp_slot *old = vs->fp;
   uint64_t old_cap = vs->fp_cap, i;
   vs->fp_cap *= 2;
   vs->fp = mp_calloc("mp.vars.fp.1", vs->fp_cap, sizeof(mp_fp_slot));
   vs->fp_used = 0;
   for (i = 0; i < old_cap; i++)
      if (old[i].line_plus1)
         fp_insert(vs, old[i].var, old[i].line_plus1 - 1);
   mp_free(old);
}

static int fp_insert(mp_vars *vs, uint64_t var, uint64_t line)
{
   uint64_t mask = vs->fp_cap - 1;
   uint64_t i = mp_mix64(line * 0x9e3779b97f4a7c15ULL ^ var) & mask;
   for (;;) {
      mp_fp_slot *s = &vs->fp[i];
      if (s->line_plus1 == 0) {
         s->line_plus1 = line + 1;
         s->var = var;
         if (++vs->fp_used * 2 > vs->fp_cap)
            fp_grow(vs);
         return 1;
      }
      if (s->line_plus1 == line + 1 && s->var == var)
         return 0;
      i = (i + 1) & mask;
   }
}

/*------------------------------------------------------------*/
/*--- The hot path                                         ---*/
/*------------------------------------------------------------*/

static void note_thread(mp_var *v, uint32_t tid)
{
   uint64_t bit;
   if (tid == v->last_tid)
      return;
   v->last_tid = tid;
   if (tid >= MP_MAX_THREADS)
      tid = MP_MAX_THREADS - 1;  /* beyond Valgrind's default limit: lumped */
   bit = 1ULL << (tid & 63);
   if (!(v->threads[tid >> 6] & bit)) {
      v->threads[tid >> 6] |= bit;
      v->n_threads++;
   }
}

/* The lines of e new to h, in its variable's footprint: the shadow's
   owner of each, else the set; the variable's record is read only for a
   line it did not own. */
static void note_lines(mp_vars *vs, const mp_event *e, mp_held_counts *h)
{
   uint64_t first = mp_event_first_line(e, vs->line_shift);
   uint64_t last = mp_event_last_line(e, vs->line_shift);
   uint64_t l;
   for (l = first; l <= last; l++) {
      if (l + 1 == h->last_line_plus1)
         continue;
      h->last_line_plus1 = l + 1;
      if (mp_vars_footprint_add(vs, e->var, l))
         mp_vars_get(vs, e->var)->lines++;
   }
}

int mp_vars_footprint_add(mp_vars *vs, uint32_t var, uint64_t line)
{
   line = fp_line(vs, line);
   if (line == FP_UNSAMPLED)
      return 0;
   if ((line >> 44) == 0) {
      /* One granule of the shadow per line. */
      uint64_t slot = line << MP_GRANULE_SHIFT;
      uint32_t owner = mp_granmap_get(vs->fp_owner, slot);
      if (owner == var + 1)
         return 0;
      if (owner == 0) {
         mp_granmap_set(vs->fp_owner, slot, 1, var + 1);
         return 1;
      }
   }
   return fp_insert(vs, var, line);
}

uint32_t mp_vars_footprint_add_access(mp_vars *vs, const mp_event *e)
{
   uint64_t l, last = mp_event_last_line(e, vs->line_shift);
   uint32_t added = 0;
   for (l = mp_event_first_line(e, vs->line_shift); l <= last; l++)
      added += (uint32_t)mp_vars_footprint_add(vs, e->var, l);
   return added;
}

void mp_vars_set_lines(mp_vars *vs, uint32_t var, uint64_t lines)
{
   mp_vars_get(vs, var)->lines = lines;
}

void mp_vars_prefetch(const mp_vars *vs, const mp_event *e, const mp_held_counts *h)
{
   uint64_t l = mp_event_first_line(e, vs->line_shift);
   if (l + 1 != h->last_line_plus1 && (l = fp_line(vs, l)) != FP_UNSAMPLED
       && (l >> 44) == 0)
      mp_granmap_prefetch(vs->fp_owner, l << MP_GRANULE_SHIFT);
}

/* The access's counts, and its thread if new to h. */
static inline void count_held(mp_vars *vs, const mp_event *e, mp_held_counts *h)
{
   if (e->is_write) {
      h->writes++;
      h->write_bytes += e->size;
   } else {
      h->reads++;
      h->read_bytes += e->size;
   }
   if (h->tid_plus1 != e->tid + 1) {
      h->tid_plus1 = e->tid + 1;
      note_thread(mp_vars_get(vs, e->var), e->tid);
   }
}

void mp_vars_access(mp_vars *vs, const mp_event *e, mp_held_counts *h)
{
   count_held(vs, e, h);
   note_lines(vs, e, h);
}

void mp_vars_access_counts(mp_vars *vs, const mp_event *e, mp_held_counts *h)
{
   count_held(vs, e, h);
}

void mp_vars_access_in_footprint(mp_vars *vs, const mp_event *e, mp_held_counts *h)
{
   count_held(vs, e, h);
   /* Kept as note_lines would: the next access's cheapest filter. */
   h->last_line_plus1 = mp_event_first_line(e, vs->line_shift) + 1;
}

static mp_cache_counts *cache_counts(mp_var *v);

static void add_held(mp_counts *c, const mp_held_counts *h)
{
   c->reads += h->reads;
   c->writes += h->writes;
   c->read_bytes += h->read_bytes;
   c->write_bytes += h->write_bytes;
}

void mp_vars_flush_held(mp_vars *vs, uint32_t var, mp_line_counts *lc, mp_held_counts *h)
{
   mp_var *v = mp_vars_get(vs, var);
   add_held(&v->c, h);
   add_held(&lc->c, h);
   if (h->l1_hits)
      mp_cache_counts_l1_hits(cache_counts(v), &lc->cache, h->l1_hits, h->l1_cycles);
   mp_memset(h, 0, sizeof *h);
}

void mp_cache_counts_l1_hits(mp_cache_counts *cc, mp_line_cache *lc, uint64_t hits,
                             uint64_t cycles)
{
   cc->hits[0] += hits;
   cc->served[0] += hits;
   cc->cycles += cycles;
   lc->cycles += cycles;
}

static mp_cache_counts *cache_counts(mp_var *v)
{
   if (!v->cache)
      v->cache = mp_calloc("mp.vars.cache", 1, sizeof *v->cache);
   return v->cache;
}

void mp_cache_counts_outcome(mp_cache_counts *cc, mp_line_cache *lc,
                             const mp_cache_outcome *o, uint32_t n_levels,
                             const uint32_t *latency)
{
   uint32_t k;
   /* An L1 hit, most accesses, evicted nothing: no write-back or miss
      to count. */
   if (!o->missed[0]) {
      cc->hits[0]++;
      if (o->prefetched[0])   /* one level, prefetching into L1 */
         cc->prefetched[0]++;
      cc->served[0]++;
      cc->cycles += latency[0];
      lc->cycles += latency[0];
      if (o->invalidations) {
         cc->invalidations += o->invalidations;
         lc->invalidations += o->invalidations;
      }
      return;
   }
   for (k = 0; k < n_levels; k++)
      cc->writebacks[k] += o->writebacks[k];
   /* Level k is reached when every level above it missed. */
   for (k = 0; k < n_levels; k++) {
      if (!o->missed[k]) {
         cc->hits[k]++;
         if (o->prefetched[k]) {
            uint32_t j;
            cc->prefetched[k]++;
            for (j = 0; j < k; j++)
               cc->covered[j][o->cause[j]]++;
         }
         break;
      }
      cc->misses[k]++;
      cc->cause[k][o->cause[k]]++;
      lc->misses[k]++;
   }
   cc->served[o->served_by]++;
   cc->invalidations += o->invalidations;
   cc->cycles += latency[o->served_by];
   lc->cycles += latency[o->served_by];
   lc->invalidations += o->invalidations;
   if (o->cause[0] == MP_MISS_COHERENCE)   /* L1 missed: hits returned above */
      lc->coherence_misses++;
}

void mp_vars_cache_access(mp_vars *vs, const mp_event *e, mp_line_counts *lc,
                          const mp_cache_outcome *o, uint32_t n_levels,
                          const uint32_t *latency)
{
   mp_cache_counts_outcome(cache_counts(mp_vars_get(vs, e->var)), &lc->cache, o, n_levels,
                           latency);
}

void mp_cache_counts_split(mp_cache_counts *cc, uint32_t n_levels,
                           const uint64_t level_cause[][MP_MISS_N_CAUSES])
{
   uint32_t k;
   for (k = 0; k < n_levels; k++) {
      mp_cache_split_unclassified(cc->cause[k], level_cause[k]);
      mp_cache_split_unclassified(cc->covered[k], level_cause[k]);
   }
}

void mp_vars_split_unclassified(mp_vars *vs, uint32_t n_levels,
                                const uint64_t level_cause[][MP_MISS_N_CAUSES])
{
   uint32_t i;
   for (i = 0; i < vs->n_vars; i++)
      if (vs->vars[i]->cache)
         mp_cache_counts_split(vs->vars[i]->cache, n_levels, level_cause);
}

mp_cache_counts *mp_vars_cache_counts(mp_vars *vs, uint32_t var)
{
   return cache_counts(mp_vars_get(vs, var));
}

void mp_vars_cache_set(mp_vars *vs, uint32_t var, const mp_cache_counts *cc)
{
   *cache_counts(mp_vars_get(vs, var)) = *cc;
}

void mp_vars_sharing(mp_vars *vs, const mp_event *e, mp_line_counts *lc,
                     uint32_t transfers, uint32_t true_transfers)
{
   mp_var *v = mp_vars_get(vs, e->var);
   v->transfers += transfers;
   v->true_transfers += true_transfers;
   lc->transfers += transfers;
}

static void note_placer(mp_numa_counts *nc, uint32_t tid, uint32_t socket)
{
   uint32_t i;
   nc->pages++;
   for (i = 0; i < nc->n_placers; i++)
      if (nc->placer[i].tid == tid) {
         nc->placer[i].pages++;
         return;
      }
   if (nc->n_placers < MP_NUMA_PLACERS) {
      nc->placer[nc->n_placers].tid = tid;
      nc->placer[nc->n_placers].socket = socket;
      nc->placer[nc->n_placers].pages = 1;
      nc->n_placers++;
   }
}

void mp_vars_numa_access(mp_vars *vs, const mp_event *e, mp_line_counts *lc,
                         int remote, int from_memory, uint32_t extra_cycles,
                         int first_touch, uint32_t socket)
{
   mp_var *v = mp_vars_get(vs, e->var);
   mp_numa_counts *nc = v->numa;
   if (!nc)
      nc = v->numa = mp_calloc("mp.vars.numa", 1, sizeof *nc);
   if (first_touch)
      note_placer(nc, e->tid, socket);
   if (!remote) {
      nc->local++;
      return;
   }
   nc->remote++;
   if (from_memory) {
      nc->remote_memory++;
      if (v->cache)
         v->cache->cycles += extra_cycles;
      lc->cache.cycles += extra_cycles;
   }
}

void mp_cache_counts_tlb(mp_cache_counts *cc, int missed)
{
   if (missed)
      cc->tlb_misses++;
   else
      cc->tlb_hits++;
}

void mp_cache_counts_retire(mp_cache_counts *cc, uint32_t level, uint64_t hits)
{
   cc->fills[level]++;
   cc->fill_hits[level] += hits;
   if (hits > 0)
      cc->reused_fills[level]++;
}

void mp_vars_reuse(mp_line_reuse *lr, int kind, uint64_t distance)
{
   switch (kind) {
   case MP_REUSE_COLD:
      lr->cold++;
      break;
   case MP_REUSE_PRIVATE:
   case MP_REUSE_SHARED: {
      uint32_t bin = mp_reuse_bin(distance), shared = kind == MP_REUSE_SHARED;
      if (!lr->bins)
         lr->bins = mp_calloc("mp.vars.lreuse", 2, sizeof *lr->bins);
      lr->bins[shared][bin]++;
      lr->sum[shared] += distance;
      lr->n[shared]++;
      break;
   }
   default:   /* sampled out */
      break;
   }
}

void mp_vars_reuse_set(mp_line_reuse *dst, const mp_line_reuse *src)
{
   uint64_t (*bins)[MP_REUSE_N_BINS] = dst->bins;
   if (src->bins && !bins)
      bins = mp_calloc("mp.vars.lreuse", 2, sizeof *bins);
   if (bins) {
      if (src->bins)
         mp_memcpy(bins, src->bins, 2 * sizeof *bins);
      else
         mp_memset(bins, 0, 2 * sizeof *bins);
   }
   *dst = *src;
   dst->bins = bins;
}

mp_line_counts *mp_vars_line_by_id(const mp_vars *vs, uint32_t id)
{
   uint32_t chunk = id / LC_CHUNK, k = id % LC_CHUNK;
   if (chunk >= vs->n_chunks
       || (vs->chunks[chunk] == vs->lc_chunk && k >= vs->lc_chunk_used))
      return NULL;
   return &vs->chunks[chunk][k];
}

static void add_line_reuse(const mp_line_counts *lc, void *arg)
{
   mp_vars *vs = arg;
   mp_var *v = vs->vars[lc->var];
   mp_reuse_counts *rc = v->reuse;
   uint32_t b;
   const mp_line_reuse *lr = &lc->reuse;
   if (lr->cold == 0 && lr->bins == NULL)
      return;
   if (!rc)
      rc = v->reuse = mp_calloc("mp.vars.reuse", 1, sizeof *rc);
   rc->cold += lr->cold;
   rc->private_sum += lr->sum[0];
   rc->shared_sum += lr->sum[1];
   if (lr->bins)
      for (b = 0; b < MP_REUSE_N_BINS; b++) {
         rc->private_bins[b] += lr->bins[0][b];
         rc->shared_bins[b] += lr->bins[1][b];
      }
}

void mp_vars_reuse_totals(mp_vars *vs)
{
   uint32_t i;
   for (i = 0; i < vs->n_vars; i++)
      if (vs->vars[i]->reuse)
         mp_memset(vs->vars[i]->reuse, 0, sizeof *vs->vars[i]->reuse);
   mp_vars_foreach_line(vs, add_line_reuse, vs);
}

void mp_vars_reset_counts(mp_vars *vs)
{
   static const mp_line_reuse no_reuse;
   uint32_t i;
   for (i = 0; i < vs->n_vars; i++) {
      mp_var *v = vs->vars[i];
      mp_memset(&v->c, 0, sizeof v->c);
      v->lines = 0;
      if (v->cache)
         mp_memset(v->cache, 0, sizeof *v->cache);
      if (v->reuse)
         mp_memset(v->reuse, 0, sizeof *v->reuse);
      if (v->numa)
         mp_memset(v->numa, 0, sizeof *v->numa);
      v->transfers = v->true_transfers = 0;
      v->last_tid = 0;
      v->n_threads = 0;
      mp_memset(v->threads, 0, sizeof v->threads);
   }
   for (i = 0; i < vs->n_chunks; i++) {
      uint32_t n = (vs->chunks[i] == vs->lc_chunk) ? vs->lc_chunk_used : LC_CHUNK;
      uint32_t k;
      for (k = 0; k < n; k++) {
         mp_memset(&vs->chunks[i][k].c, 0, sizeof(mp_counts));
         mp_memset(vs->chunks[i][k].stride_classes, 0,
                   sizeof vs->chunks[i][k].stride_classes);
         mp_memset(&vs->chunks[i][k].lstride, 0, sizeof vs->chunks[i][k].lstride);
         mp_memset(&vs->chunks[i][k].cache, 0, sizeof vs->chunks[i][k].cache);
         mp_vars_reuse_set(&vs->chunks[i][k].reuse, &no_reuse);
         vs->chunks[i][k].transfers = 0;
         mp_memset(vs->chunks[i][k].in_window, 0, sizeof vs->chunks[i][k].in_window);
      }
   }
   mp_memset(vs->fp, 0, vs->fp_cap * sizeof(mp_fp_slot));
   vs->fp_used = 0;
   mp_granmap_free(vs->fp_owner);
   vs->fp_owner = mp_granmap_new();
}

/*------------------------------------------------------------*/
/*--- Estimates of a sample of the lines                   ---*/
/*------------------------------------------------------------*/

static uint64_t scaled(uint64_t x, int shift)
{
   return shift >= 0 ? x << shift : x >> -shift;
}

static void scale_counts(mp_counts *c, int shift)
{
   c->reads = scaled(c->reads, shift);
   c->writes = scaled(c->writes, shift);
   c->read_bytes = scaled(c->read_bytes, shift);
   c->write_bytes = scaled(c->write_bytes, shift);
}

static void scale_cache_counts(mp_cache_counts *cc, int shift)
{
   uint64_t *f = (uint64_t *)cc;
   size_t i;
   for (i = 0; i < offsetof(mp_cache_counts, sample_line_sq) / sizeof(uint64_t); i++)
      f[i] = scaled(f[i], shift);
}

void mp_vars_scale(mp_vars *vs, int shift)
{
   uint32_t i, k;
   for (i = 0; i < vs->n_vars; i++) {
      mp_var *v = vs->vars[i];
      scale_counts(&v->c, shift);
      if (v->cache)
         scale_cache_counts(v->cache, shift);
      if (v->numa) {
         v->numa->local = scaled(v->numa->local, shift);
         v->numa->remote = scaled(v->numa->remote, shift);
         v->numa->remote_memory = scaled(v->numa->remote_memory, shift);
      }
      v->transfers = scaled(v->transfers, shift);
      v->true_transfers = scaled(v->true_transfers, shift);
      v->lines = scaled(v->lines, shift);
   }
   for (i = 0; i < vs->lc_buckets; i++) {
      mp_line_counts *lc;
      for (lc = vs->lc_heads[i]; lc; lc = lc->hash_next) {
         scale_counts(&lc->c, shift);
         for (k = 0; k < MP_CACHE_MAX_LEVELS; k++)
            lc->cache.misses[k] = scaled(lc->cache.misses[k], shift);
         lc->cache.cycles = scaled(lc->cache.cycles, shift);
         lc->cache.invalidations = scaled(lc->cache.invalidations, shift);
         lc->cache.coherence_misses = scaled(lc->cache.coherence_misses, shift);
         lc->transfers = scaled(lc->transfers, shift);
      }
   }
}
