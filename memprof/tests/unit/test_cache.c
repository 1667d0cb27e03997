/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_cache against a brute-force reference written here
   independently: a list per set, a plain MRU-first list for the
   fully-associative shadow, plain lists of the lines each core has
   accessed and of the lines invalidated per cache instance, linear
   searches everywhere, and an invalidation search of every other
   instance on every write.  With a prefetcher, the reference asks its
   own copy of the detectors (mp_prefetch, tested in test_prefetch) and
   fetches the lines it names as the header of mp_cache.h says.  Random
   traces over several geometries and topologies, with and without a
   prefetcher, must give the same outcome on every access, the same
   totals, the same prefetch totals and the same retire counts; crafted
   traces check the numbers by hand. */
#include "mp_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mp_cache.h"
#include "mp_util.h"

#define N_OWNERS 8

/*------------------------------------------------------------*/
/*--- Retire counts, shared by engine and reference        ---*/
/*------------------------------------------------------------*/

typedef struct {
   uint64_t bad;                    /* calls with a level or owner out of range */
   uint64_t retired[3][N_OWNERS];   /* fills that ended */
   uint64_t reused[3][N_OWNERS];    /* ... with at least one hit */
   uint64_t hits[3][N_OWNERS];      /* hits summed over those fills */
} retire_counts;

static void count_retire(void *arg, uint32_t level, uint32_t owner, uint64_t hits)
{
   retire_counts *r = arg;
   /* No ck_assert here: Check logs every passing assertion, and this
      runs millions of times. */
   if (level >= 3 || owner >= N_OWNERS) {
      r->bad++;
      return;
   }
   r->retired[level][owner]++;
   r->reused[level][owner] += hits > 0;
   r->hits[level][owner] += hits;
}

/*------------------------------------------------------------*/
/*--- The reference                                        ---*/
/*------------------------------------------------------------*/

typedef struct {
   uint64_t line;
   int dirty;
   uint32_t owner;
   uint64_t hits;
   int pref;            /* a prefetch filled it, no access touched it */
} rway;

typedef struct {
   rway *ways;          /* sets * assoc; set s holds n[s] ways, MRU first */
   uint32_t *n;
   uint64_t *fa;        /* MRU first, fa_n of at most fa_cap */
   uint32_t fa_n, fa_cap;
   uint64_t *inval;     /* invalidated here and not refilled since */
   size_t n_inval;
} rinst;

typedef struct {
   uint32_t n_levels, cores, line;
   uint32_t sets[3], assoc[3], shared[3], n_inst[3];
   rinst *inst[3];
   mp_cache_totals tot[3];
   retire_counts rc;
   uint64_t **accessed; /* per core: the lines it has accessed */
   size_t *n_accessed;
   mp_prefetch *pf;     /* the detectors, or NULL */
   uint32_t pf_level;
   mp_cache_prefetch_totals pft;
   int fifo;            /* deliberately broken: no LRU update on a hit */
} ref;

static int list_has(const uint64_t *l, size_t n, uint64_t x)
{
   size_t i;
   for (i = 0; i < n; i++)
      if (l[i] == x)
         return 1;
   return 0;
}

static void list_add(uint64_t **l, size_t *n, uint64_t x)
{
   if ((*n & (*n - 1)) == 0)   /* capacity: the next power of two */
      *l = realloc(*l, (*n ? 2 * *n : 1) * sizeof(uint64_t));
   (*l)[(*n)++] = x;
}

static int list_remove(uint64_t *l, size_t *n, uint64_t x)
{
   size_t i;
   for (i = 0; i < *n; i++)
      if (l[i] == x) {
         l[i] = l[--*n];
         return 1;
      }
   return 0;
}

static void ref_init(ref *r, const mp_cache_cfg *cfg)
{
   uint32_t k, i;
   memset(r, 0, sizeof *r);
   r->n_levels = cfg->n_levels;
   r->cores = cfg->cores;
   r->line = cfg->level[0].line;
   r->accessed = calloc(r->cores, sizeof(uint64_t *));
   r->n_accessed = calloc(r->cores, sizeof(size_t));
   if (cfg->prefetch.kind != MP_PREFETCH_NONE) {
      r->pf = mp_prefetch_new(&cfg->prefetch, cfg->cores, r->line);
      r->pf_level = r->n_levels > 1 ? 1 : 0;
   }
   for (k = 0; k < r->n_levels; k++) {
      const mp_cache_level_cfg *L = &cfg->level[k];
      r->assoc[k] = L->assoc;
      r->sets[k] = (uint32_t)(L->size / L->line / L->assoc);
      r->shared[k] = L->shared_by;
      r->n_inst[k] = r->cores / L->shared_by;
      r->inst[k] = calloc(r->n_inst[k], sizeof(rinst));
      for (i = 0; i < r->n_inst[k]; i++) {
         rinst *in = &r->inst[k][i];
         in->ways = calloc((size_t)r->sets[k] * r->assoc[k], sizeof(rway));
         in->n = calloc(r->sets[k], sizeof(uint32_t));
         in->fa_cap = r->sets[k] * r->assoc[k];
         in->fa = calloc(in->fa_cap, sizeof(uint64_t));
      }
   }
}

static void ref_free(ref *r)
{
   uint32_t k, i;
   for (k = 0; k < r->n_levels; k++) {
      for (i = 0; i < r->n_inst[k]; i++) {
         rinst *in = &r->inst[k][i];
         free(in->ways); free(in->n); free(in->fa); free(in->inval);
      }
      free(r->inst[k]);
   }
   for (k = 0; k < r->cores; k++)
      free(r->accessed[k]);
   free(r->accessed);
   free(r->n_accessed);
   if (r->pf)
      mp_prefetch_free(r->pf);
}

static rinst *ref_inst(ref *r, uint32_t k, uint32_t core)
{
   return &r->inst[k][core / r->shared[k]];
}

static rway *ref_set(ref *r, uint32_t k, rinst *in, uint64_t line, uint32_t **n)
{
   uint32_t s = (uint32_t)(line % r->sets[k]);
   *n = &in->n[s];
   return &in->ways[(size_t)s * r->assoc[k]];
}

static int ref_find(ref *r, uint32_t k, rinst *in, uint64_t line)
{
   uint32_t *n, w;
   rway *set = ref_set(r, k, in, line, &n);
   for (w = 0; w < *n; w++)
      if (set[w].line == line)
         return (int)w;
   return -1;
}

/* An LRU fully-associative cache; returns whether it hit. */
static int ref_fa(rinst *in, uint64_t line)
{
   uint32_t i, j;
   for (i = 0; i < in->fa_n; i++)
      if (in->fa[i] == line)
         break;
   int hit = i < in->fa_n;
   if (!hit)
      i = in->fa_n < in->fa_cap ? in->fa_n++ : in->fa_cap - 1;
   for (j = i; j > 0; j--)
      in->fa[j] = in->fa[j - 1];
   in->fa[0] = line;
   return hit;
}

/* A prefetched line that leaves untouched is nobody's fill. */
static void ref_retire(ref *r, uint32_t k, const rway *x)
{
   if (x->pref) {
      if (k == r->pf_level)
         r->pft.useless++;
      return;
   }
   count_retire(&r->rc, k, x->owner, x->hits);
}

/* Whether a core using instance i of level k has accessed the line. */
static int ref_cold(ref *r, uint32_t k, uint32_t i, uint64_t line)
{
   uint32_t c;
   for (c = i * r->shared[k]; c < (i + 1) * r->shared[k]; c++)
      if (list_has(r->accessed[c], r->n_accessed[c], line))
         return 0;
   return 1;
}

/* Evicts the LRU way of a full set (its write-back marks the nearest
   deeper copy dirty), and puts x in front. */
static void ref_fill(ref *r, uint32_t k, uint32_t core, rway x, mp_cache_outcome *out)
{
   rinst *in = ref_inst(r, k, core);
   uint32_t *n;
   rway *set = ref_set(r, k, in, x.line, &n);
   if (*n == r->assoc[k]) {
      rway *v = &set[*n - 1];
      ref_retire(r, k, v);
      if (v->dirty) {
         uint32_t m;
         out->writebacks[k]++;
         r->tot[k].writebacks++;
         for (m = k + 1; m < r->n_levels; m++) {
            rinst *lower = ref_inst(r, m, core);
            int w = ref_find(r, m, lower, v->line);
            if (w >= 0) {
               uint32_t *n2;
               ref_set(r, m, lower, v->line, &n2)[w].dirty = 1;
               break;
            }
         }
      }
      (*n)--;
   }
   memmove(&set[1], &set[0], *n * sizeof(rway));
   set[0] = x;
   (*n)++;
}

/* A prefetch of line by core: nothing if the prefetch level has it;
   else the level below that has it is read (its LRU order and shadow,
   no hit), and the levels from the prefetch level down to it are
   filled, deepest first, marked prefetched. */
static void ref_prefetch(ref *r, uint32_t core, uint64_t line, uint32_t owner,
                         mp_cache_outcome *out)
{
   uint32_t p = r->pf_level, k, served;
   r->pft.requests++;
   if (ref_find(r, p, ref_inst(r, p, core), line) >= 0)
      return;
   r->pft.issued++;
   for (k = p; k < r->n_levels; k++) {
      rinst *in = ref_inst(r, k, core);
      int w;
      ref_fa(in, line);
      w = ref_find(r, k, in, line);
      if (w >= 0) {
         uint32_t *n;
         rway *set = ref_set(r, k, in, line, &n), x = set[w];
         memmove(&set[1], &set[0], (size_t)w * sizeof(rway));
         set[0] = x;
         break;
      }
   }
   served = k;
   while (k-- > p) {
      rinst *in = ref_inst(r, k, core);
      list_remove(in->inval, &in->n_inval, line);
      ref_fill(r, k, core, (rway){ line, 0, owner, 0, 1 }, out);
   }
   (void)served;
}

static void ref_line(ref *r, uint32_t core, uint64_t line, uint64_t addr, int is_write,
                     uint32_t owner, uint64_t pc, mp_cache_outcome *out)
{
   uint32_t k, served;
   int train = 0;       /* a demand miss but for a prefetch */
   for (k = 0; k < r->n_levels; k++) {
      rinst *in = ref_inst(r, k, core);
      int fa_hit = ref_fa(in, line);
      int w = ref_find(r, k, in, line);
      uint8_t cause;
      if (w >= 0) {
         uint32_t *n;
         rway *set = ref_set(r, k, in, line, &n), x = set[w];
         if (k == 0)
            out->owner_hit = x.owner == owner && !x.pref;
         if (!r->fifo || k > 0) {
            memmove(&set[1], &set[0], (size_t)w * sizeof(rway));
            set[0] = x;
            w = 0;
         }
         if (set[w].pref) {
            set[w].pref = 0;
            set[w].owner = owner;
            out->prefetched[k] = 1;
            if (k == r->pf_level)
               r->pft.useful++;
            train |= k == 0;
         } else {
            set[w].hits++;
         }
         break;
      }
      train = 1;
      if (ref_cold(r, k, (uint32_t)(in - r->inst[k]), line))
         cause = MP_MISS_COLD;
      else if (list_remove(in->inval, &in->n_inval, line))
         cause = MP_MISS_COHERENCE;
      else   /* one set: no conflict misses (see the note on prefetches) */
         cause = fa_hit && r->sets[k] > 1 ? MP_MISS_CONFLICT : MP_MISS_CAPACITY;
      if (!out->missed[k]) {
         out->missed[k] = 1;
         out->cause[k] = cause;
      }
   }
   served = k;
   if (served > out->served_by)
      out->served_by = served;
   /* Fill the levels that missed, deepest first. */
   while (k-- > 0)
      ref_fill(r, k, core, (rway){ line, 0, owner, 0, 0 }, out);
   if (!list_has(r->accessed[core], r->n_accessed[core], line))
      list_add(&r->accessed[core], &r->n_accessed[core], line);
   if (is_write) {
      uint32_t i;
      rinst *l1 = ref_inst(r, 0, core);
      uint32_t *n;
      ref_set(r, 0, l1, line, &n)[ref_find(r, 0, l1, line)].dirty = 1;
      for (k = 0; k < r->n_levels; k++)
         for (i = 0; i < r->n_inst[k]; i++) {
            rinst *in = &r->inst[k][i];
            int w, pref;
            if (in == ref_inst(r, k, core) || (w = ref_find(r, k, in, line)) < 0)
               continue;
            rway *set = ref_set(r, k, in, line, &n);
            pref = set[w].pref;
            ref_retire(r, k, &set[w]);
            memmove(&set[w], &set[w + 1], (*n - (uint32_t)w - 1) * sizeof(rway));
            (*n)--;
            if (!pref && !list_has(in->inval, in->n_inval, line))
               list_add(&in->inval, &in->n_inval, line);
            r->tot[k].invalidations++;
            out->invalidations++;
         }
   }
   if (r->pf && train) {
      uint64_t want[MP_PREFETCH_MAX_DEGREE];
      uint32_t m = mp_prefetch_miss(r->pf, core, addr, pc, want), i;
      for (i = 0; i < m; i++)
         ref_prefetch(r, core, want[i], owner, out);
   }
}

static void ref_access(ref *r, uint32_t core, uint64_t addr, uint32_t size,
                       int is_write, uint32_t owner, uint64_t pc, mp_cache_outcome *out)
{
   uint64_t l, first = addr / r->line, last = (addr + (size ? size : 1) - 1) / r->line;
   uint32_t k;
   memset(out, 0, sizeof *out);
   for (l = first; l <= last; l++)
      ref_line(r, core, l, l == first ? addr : l * r->line, is_write, owner, pc, out);
   if (last != first)
      out->owner_hit = 0;   /* said of one-line accesses only */
   for (k = 0; k < r->n_levels && out->served_by >= k; k++) {
      r->tot[k].accesses++;
      if (out->served_by > k) {
         r->tot[k].misses++;
         r->tot[k].cause[out->cause[k]]++;
      } else if (out->prefetched[k]) {
         r->tot[k].prefetched++;
      }
   }
}

static void ref_finish(ref *r)
{
   uint32_t k, i, s, w;
   for (k = 0; k < r->n_levels; k++)
      for (i = 0; i < r->n_inst[k]; i++)
         for (s = 0; s < r->sets[k]; s++)
            for (w = 0; w < r->inst[k][i].n[s]; w++)
               ref_retire(r, k, &r->inst[k][i].ways[(size_t)s * r->assoc[k] + w]);
}

/*------------------------------------------------------------*/
/*--- Configurations and traces                            ---*/
/*------------------------------------------------------------*/

static mp_cache_level_cfg lvl(uint64_t size, uint32_t assoc, uint32_t line, uint32_t shared_by)
{
   mp_cache_level_cfg L = { NULL, size, assoc, line, shared_by };
   return L;
}

static mp_cache_cfg cfg1(uint32_t cores, mp_cache_level_cfg a)
{
   mp_cache_cfg c;
   memset(&c, 0, sizeof c);
   c.n_levels = 1; c.cores = cores; c.level[0] = a;
   return c;
}

static mp_cache_cfg cfg2(uint32_t cores, mp_cache_level_cfg a, mp_cache_level_cfg b)
{
   mp_cache_cfg c = cfg1(cores, a);
   c.n_levels = 2; c.level[1] = b;
   return c;
}

static mp_cache_cfg cfg3(uint32_t cores, mp_cache_level_cfg a, mp_cache_level_cfg b,
                         mp_cache_level_cfg d)
{
   mp_cache_cfg c = cfg2(cores, a, b);
   c.n_levels = 3; c.level[2] = d;
   return c;
}

typedef struct {
   uint32_t core;
   uint64_t addr;
   uint32_t size;
   int is_write;
   uint32_t owner;
   uint64_t pc;
} acc;

/* A trace mixing locality (recent addresses again), random lines over a
   region larger than the caches, a small region every core writes
   (coherence), unaligned accesses (straddles), runs of accesses on one
   core with new cores appearing late (the engine widens its cold bits). */
static acc *make_trace(uint64_t seed, size_t n, uint32_t cores, uint32_t line,
                       uint64_t region_lines)
{
   static const uint32_t sizes[] = { 1, 2, 4, 8, 8, 8, 16, 32 };
   acc *t = malloc(n * sizeof *t);
   uint64_t recent[16] = { 0 }, seq[16] = { 0 };
   uint32_t core = 0, run = 0, max_core = cores > 1 ? 1 : 0;
   size_t i;
   rng_state = seed;
   for (i = 0; i < n; i++) {
      uint64_t r = rng(), a;
      if (run == 0) {
         if (max_core + 1 < cores && rng() % 64 == 0)
            max_core++;
         core = (uint32_t)(rng() % (max_core + 1));
         run = 1 + (uint32_t)(rng() % 40);
      }
      run--;
      switch (r % 8) {
      case 0: case 1: case 2:
         a = recent[rng() % 16] + rng() % (2 * line);
         break;
      case 3:
         a = (rng() % 8) * line + rng() % line;   /* shared hot lines */
         break;
      case 4: case 5:                             /* a stream per core */
         a = seq[core % 16] = (seq[core % 16] + 8) % (region_lines * line);
         break;
      default:
         a = (rng() % region_lines) * line + rng() % line;
      }
      if (rng() % 4 == 0)
         recent[rng() % 16] = a & ~(uint64_t)7;
      t[i].core = core;
      t[i].size = sizes[rng() % 8];
      t[i].addr = rng() % 4 ? a & ~(uint64_t)(t[i].size - 1) : a;
      t[i].is_write = rng() % 10 < 3;
      t[i].owner = (uint32_t)(rng() % N_OWNERS);
      /* an instruction per kind of access (the stride prefetcher's
         key; one for the streams), now and then none */
      t[i].pc = rng() % 16 ? 0x400000 + 16 * (r % 8 == 5 ? 4 : r % 8) : 0;
   }
   return t;
}

/* make_trace's, a third of whose accesses are replaced by two walks
   per core over a region 16 times larger (so that their lines miss): a
   sequential one, 8 bytes at a time, and one of 3 lines and 8 bytes,
   each from its own instruction; a walk starts over now and then. */
static acc *make_prefetch_trace(uint64_t seed, size_t n, uint32_t cores, uint32_t line,
                                uint64_t region_lines)
{
   acc *t = make_trace(seed, n, cores, line, region_lines);
   uint64_t pos[64][2] = { { 0 } }, span = 16 * region_lines * line;
   const uint64_t step[2] = { 8, 3 * (uint64_t)line + 8 };
   size_t i;
   for (i = 0; i < n; i++) {
      uint32_t w = (uint32_t)(rng() % 2), c = t[i].core % 64;
      if (rng() % 3)
         continue;
      if (rng() % 2000 == 0)
         pos[c][w] = rng() % span;
      pos[c][w] = (pos[c][w] + step[w]) % span;
      t[i].addr = (1ULL << 30) * (w + 1) + pos[c][w];
      t[i].size = 8;
      t[i].pc = 0x500000 + 16 * w;
   }
   return t;
}

static int outcome_eq(const mp_cache_outcome *a, const mp_cache_outcome *b, uint32_t n_levels)
{
   uint32_t k;
   if (a->served_by != b->served_by || a->invalidations != b->invalidations
       || a->owner_hit != b->owner_hit)
      return 0;
   for (k = 0; k < n_levels; k++)
      if (a->missed[k] != b->missed[k] || a->cause[k] != b->cause[k]
          || a->writebacks[k] != b->writebacks[k] || a->prefetched[k] != b->prefetched[k])
         return 0;
   return 1;
}

static void print_outcome(const char *who, const mp_cache_outcome *o)
{
   fprintf(stderr, "  %s: served %u missed %u%u%u cause %u%u%u wb %u,%u,%u inv %u owner hit %u "
           "prefetched %u%u%u\n",
           who, o->served_by, o->missed[0], o->missed[1], o->missed[2], o->cause[0],
           o->cause[1], o->cause[2], o->writebacks[0], o->writebacks[1], o->writebacks[2],
           o->invalidations, o->owner_hit, o->prefetched[0], o->prefetched[1],
           o->prefetched[2]);
}

/* Runs the trace through engine and reference; returns the number of
   disagreements (accesses, totals, retire counts). */
static uint64_t compare_run(const char *what, mp_cache_cfg cfg, const acc *t, size_t n,
                            int fifo)
{
   retire_counts *rc = calloc(1, sizeof *rc);
   ref *r = malloc(sizeof *r);
   const char *err = NULL;
   mp_cache *c;
   uint64_t bad = 0, misses = 0, inv = 0, wb = 0, coh = 0, conf = 0, cold = 0, cap = 0;
   uint64_t owner_hits = 0, other_hits = 0;   /* L1 hits by the filler's owner, others */
   mp_cache_prefetch_totals pt;
   size_t i;
   uint32_t k;

   cfg.on_retire = count_retire;
   cfg.retire_arg = rc;
   c = mp_cache_new(&cfg, &err);
   ck_assert_msg(c != NULL, "%s: %s", what, err);
   ref_init(r, &cfg);
   r->fifo = fifo;
   for (i = 0; i < n; i++) {
      mp_cache_outcome o, e;
      mp_cache_access(c, t[i].core, t[i].addr, t[i].size, t[i].is_write, t[i].owner,
                      t[i].pc, &o);
      ref_access(r, t[i].core, t[i].addr, t[i].size, t[i].is_write, t[i].owner, t[i].pc,
                 &e);
      if (!outcome_eq(&o, &e, cfg.n_levels)) {
         if (bad < 3 && !fifo) {
            fprintf(stderr, "%s: access %zu core %u addr %#llx size %u %s\n", what, i,
                    t[i].core, (unsigned long long)t[i].addr, t[i].size,
                    t[i].is_write ? "write" : "read");
            print_outcome("engine", &o);
            print_outcome("reference", &e);
         }
         bad++;
      }
      misses += e.missed[0];
      owner_hits += e.owner_hit;
      other_hits += !e.missed[0] && !e.owner_hit;
      inv += e.invalidations;
      wb += e.writebacks[0] + e.writebacks[1] + e.writebacks[2];
      for (k = 0; k < cfg.n_levels; k++) {
         coh += e.cause[k] == MP_MISS_COHERENCE;
         conf += e.cause[k] == MP_MISS_CONFLICT;
         cold += e.cause[k] == MP_MISS_COLD;
         cap += e.cause[k] == MP_MISS_CAPACITY;
      }
   }
   mp_cache_finish(c);
   ref_finish(r);
   for (k = 0; k < cfg.n_levels; k++) {
      mp_cache_totals tt;
      mp_cache_get_totals(c, k, &tt);
      if (memcmp(&tt, &r->tot[k], sizeof tt)) {
         if (!fifo)
            fprintf(stderr, "%s: totals of level %u differ\n", what, k);
         bad++;
      }
   }
   if (memcmp(rc, &r->rc, sizeof *rc)) {
      if (!fifo)
         fprintf(stderr, "%s: retire counts differ\n", what);
      bad++;
   }
   mp_cache_get_prefetch_totals(c, &pt);
   if (memcmp(&pt, &r->pft, sizeof pt)) {
      if (!fifo)
         fprintf(stderr, "%s: prefetch totals differ: requests %llu/%llu issued %llu/%llu "
                 "useful %llu/%llu useless %llu/%llu\n", what,
                 (unsigned long long)pt.requests, (unsigned long long)r->pft.requests,
                 (unsigned long long)pt.issued, (unsigned long long)r->pft.issued,
                 (unsigned long long)pt.useful, (unsigned long long)r->pft.useful,
                 (unsigned long long)pt.useless, (unsigned long long)r->pft.useless);
      bad++;
   }
   if (getenv("MP_TEST_VERBOSE"))
      fprintf(stderr, "%-45s L1 misses %6llu cold %6llu cap %6llu conf %6llu coh %5llu "
              "wb %5llu inv %5llu prefetch %llu/%llu/%llu/%llu\n", what,
              (unsigned long long)misses,
              (unsigned long long)cold, (unsigned long long)cap, (unsigned long long)conf,
              (unsigned long long)coh, (unsigned long long)wb, (unsigned long long)inv,
              (unsigned long long)pt.requests, (unsigned long long)pt.issued,
              (unsigned long long)pt.useful, (unsigned long long)pt.useless);
   if (!fifo) {
      /* The trace must exercise what it is meant to test. */
      ck_assert_msg(misses > n / 50 && misses < n - n / 10, "%s: L1 misses %llu of %zu",
                    what, (unsigned long long)misses, n);
      ck_assert_msg(wb > 0 && cold > 0 && cap > 0, "%s: wb %llu cold %llu capacity %llu", what,
                    (unsigned long long)wb, (unsigned long long)cold, (unsigned long long)cap);
      ck_assert_msg(owner_hits > 0 && other_hits > 0, "%s: L1 hits by the owner %llu, others %llu",
                    what, (unsigned long long)owner_hits, (unsigned long long)other_hits);
      if (cfg.level[0].size / cfg.level[0].line / cfg.level[0].assoc > 1)
         ck_assert_msg(conf > 0, "%s: no conflict miss", what);
      if (cfg.cores / cfg.level[0].shared_by > 1)
         ck_assert_msg(inv > 0 && coh > 0, "%s: %llu invalidations, %llu coherence misses",
                       what, (unsigned long long)inv, (unsigned long long)coh);
      /* Prefetches, useful and useless, and all accounted for. */
      if (cfg.prefetch.kind != MP_PREFETCH_NONE)
         ck_assert_msg(pt.useful > 0 && pt.useless > 0 && pt.useful + pt.useless == pt.issued,
                       "%s: prefetches issued %llu, useful %llu, useless %llu", what,
                       (unsigned long long)pt.issued, (unsigned long long)pt.useful,
                       (unsigned long long)pt.useless);
   }
   mp_cache_free(c);
   ref_free(r);
   free(r);
   free(rc);
   return bad;
}

/*------------------------------------------------------------*/
/*--- Random traces against the reference                  ---*/
/*------------------------------------------------------------*/

typedef struct {
   const char *what;
   mp_cache_cfg cfg;
   uint64_t region_lines;
} geometry;

static geometry *geometries(size_t *n)
{
   static geometry g[16];
   size_t i = 0;
   g[i++] = (geometry){ "1 level, direct mapped",
                        cfg1(1, lvl(1024, 1, 64, 1)), 64 };
   g[i++] = (geometry){ "1 level, fully associative",
                        cfg1(1, lvl(1024, 16, 64, 1)), 48 };
   /* associativities that are not powers of two, and wider than 16 */
   g[i++] = (geometry){ "1 level, 32-way fully associative",
                        cfg1(1, lvl(2048, 32, 64, 1)), 60 };
   g[i++] = (geometry){ "2 levels, 12-way + 20-way",
                        cfg2(1, lvl(3072, 12, 64, 1), lvl(10240, 20, 64, 1)), 260 };
   g[i++] = (geometry){ "2 levels, 2-way + 8-way",
                        cfg2(1, lvl(1024, 2, 64, 1), lvl(4096, 8, 64, 1)), 160 };
   /* more sets than one of the groups mp_cache_finish skips when empty */
   g[i++] = (geometry){ "2 levels, L2 of 256 sets",
                        cfg2(1, lvl(8192, 4, 64, 1), lvl(65536, 4, 64, 1)), 600 };
   g[i++] = (geometry){ "3 levels, 32-byte lines",
                        cfg3(1, lvl(512, 2, 32, 1), lvl(2048, 4, 32, 1),
                             lvl(8192, 8, 32, 1)), 600 };
   g[i++] = (geometry){ "2 cores, 8-way L1 + shared L2",
                        cfg2(2, lvl(2048, 8, 64, 1), lvl(8192, 4, 64, 2)), 300 };
   g[i++] = (geometry){ "2 cores, fully associative L1 + shared L2",
                        cfg2(2, lvl(1024, 16, 64, 1), lvl(4096, 4, 64, 2)), 160 };
   g[i++] = (geometry){ "2 cores, 1 private level",
                        cfg1(2, lvl(1024, 1, 64, 1)), 64 };
   g[i++] = (geometry){ "4 cores, private L1 L2, shared L3",
                        cfg3(4, lvl(1024, 2, 64, 1), lvl(2048, 8, 64, 1),
                             lvl(8192, 16, 64, 4)), 400 };
   g[i++] = (geometry){ "4 cores, L2 per pair, shared L3",
                        cfg3(4, lvl(1024, 8, 64, 1), lvl(4096, 4, 64, 2),
                             lvl(16384, 8, 64, 4)), 600 };
   g[i++] = (geometry){ "4 cores, 2 sockets",
                        cfg3(4, lvl(1024, 2, 64, 1), lvl(2048, 4, 64, 1),
                             lvl(8192, 4, 64, 2)), 200 };
   g[i++] = (geometry){ "4 cores, L1 per pair (SMT)",
                        cfg2(4, lvl(1024, 4, 64, 2), lvl(4096, 8, 64, 4)), 200 };
   g[i++] = (geometry){ "12 cores, L2 per 4, shared L3",
                        cfg3(12, lvl(1024, 1, 64, 1), lvl(2048, 2, 64, 4),
                             lvl(8192, 8, 64, 12)), 300 };
   *n = i;
   return g;
}

START_TEST(test_random_against_reference)
{
   size_t n_geo, gi, s;
   geometry *g = geometries(&n_geo);
   const size_t n = 100000;
   for (gi = 0; gi < n_geo; gi++)
      for (s = 0; s < 3; s++) {
         acc *t = make_trace(0x9e3779b97f4a7c15ULL * (gi * 2 + s + 1), n, g[gi].cfg.cores,
                             g[gi].cfg.level[0].line, g[gi].region_lines);
         uint64_t bad = compare_run(g[gi].what, g[gi].cfg, t, n, 0);
         ck_assert_msg(bad == 0, "%s, seed %zu: %llu disagreements", g[gi].what, s,
                       (unsigned long long)bad);
         free(t);
      }
}
END_TEST

/* The L1 oracle (mp_cache_set_l1_oracle): a cache whose L1 asks an LRU
   list of core 0's lines, kept here by brute force, has the same
   outcomes at every access as one stepping its own shadows.  Half way,
   the shadows come back filled from the list (mp_cache_l1_shadows) and
   a second core, if the geometry has one, joins in. */
static mp_cache *new_or_fail(mp_cache_cfg cfg);

typedef struct {
   uint64_t lru[4096];   /* core 0's lines, most recent first */
   uint32_t n;
   uint32_t asked;
} lru_list;

static int list_oracle(void *arg, uint32_t core, uint64_t first, uint64_t line,
                       uint64_t cap)
{
   lru_list *l = arg;
   uint64_t pos = 0;
   uint32_t i;
   ck_assert_uint_eq(core, 0);
   l->asked++;
   for (i = 0; i < l->n && l->lru[i] != line; i++)
      if (l->lru[i] < first || l->lru[i] >= line)
         pos++;
   /* the access's lines before this one are newer than it */
   return i < l->n && pos + (line - first) < cap;
}

static void list_touch(lru_list *l, uint64_t line)
{
   uint32_t i;
   for (i = 0; i < l->n && l->lru[i] != line; i++)
      ;
   if (i == l->n) {
      ck_assert_uint_lt(l->n, 4096);
      l->n++;
   }
   memmove(l->lru + 1, l->lru, i * sizeof *l->lru);
   l->lru[0] = line;
}

static uint64_t compare_oracle(const char *what, mp_cache_cfg cfg, uint64_t region_lines,
                               uint64_t seed)
{
   const size_t n = 60000;
   acc *t = make_trace(seed, n, 1, cfg.level[0].line, region_lines);
   acc *t2 = make_trace(seed + 1, n, cfg.cores, cfg.level[0].line, region_lines);
   mp_cache *own = new_or_fail(cfg), *asks = new_or_fail(cfg);
   lru_list *l = calloc(1, sizeof *l);
   uint32_t shift = 0, i;
   uint64_t bad = 0;
   size_t k;
   while ((1u << shift) < cfg.level[0].line)
      shift++;
   ck_assert(mp_cache_set_l1_oracle(asks, list_oracle, l));
   for (k = 0; k < 2 * n; k++) {
      const acc *a = k < n ? &t[k] : &t2[k - n];
      mp_cache_outcome o1, o2;
      uint64_t line, last = (a->addr + a->size - 1) >> shift;
      if (k == n) {   /* the shadows back: the oracle's lines, oldest first */
         uint32_t m = l->n < mp_cache_l1_lines(asks) ? l->n : (uint32_t)mp_cache_l1_lines(asks);
         uint64_t *old = malloc(m * sizeof *old);
         for (i = 0; i < m; i++)
            old[i] = l->lru[m - 1 - i];
         mp_cache_l1_shadows(asks, 0, old, m);
         free(old);
      }
      mp_cache_access(own, a->core, a->addr, a->size, a->is_write, a->owner, a->pc, &o1);
      mp_cache_access(asks, a->core, a->addr, a->size, a->is_write, a->owner, a->pc, &o2);
      if (!outcome_eq(&o1, &o2, cfg.n_levels)) {
         if (bad++ < 3) {
            fprintf(stderr, "%s: access %zu differs\n", what, k);
            print_outcome("own shadows", &o1);
            print_outcome("oracle", &o2);
         }
      }
      if (k < n)
         for (line = a->addr >> shift; line <= last; line++)
            list_touch(l, line);
   }
   ck_assert_uint_gt(l->asked, 100);   /* the oracle did answer */
   mp_cache_free(own);
   mp_cache_free(asks);
   free(l);
   free(t);
   free(t2);
   return bad;
}

START_TEST(test_l1_oracle)
{
   size_t n_geo, gi;
   geometry *g = geometries(&n_geo);
   uint32_t tried = 0;
   for (gi = 0; gi < n_geo; gi++) {
      mp_cache_cfg cfg = g[gi].cfg;
      uint64_t bad;
      /* one set: the L1 is its own shadow, and no oracle is taken */
      if (cfg.level[0].size / cfg.level[0].line == cfg.level[0].assoc) {
         mp_cache *c = new_or_fail(cfg);
         lru_list l;
         ck_assert(!mp_cache_set_l1_oracle(c, list_oracle, &l));
         mp_cache_free(c);
         continue;
      }
      bad = compare_oracle(g[gi].what, cfg, g[gi].region_lines, 77 + gi);
      ck_assert_msg(bad == 0, "%s: %llu disagreements", g[gi].what, (unsigned long long)bad);
      tried++;
   }
   ck_assert_uint_ge(tried, 8);
}
END_TEST

/* The same with each prefetcher (a table of 4 streams, so that the
   traces' streams also evict each other), one seed each. */
START_TEST(test_prefetch_against_reference)
{
   static const mp_prefetch_kind kinds[] = { MP_PREFETCH_STREAM, MP_PREFETCH_STRIDE };
   size_t n_geo, gi, s;
   geometry *g = geometries(&n_geo);
   const size_t n = 100000;
   for (gi = 0; gi < n_geo; gi++)
      for (s = 0; s < 2; s++) {
         mp_cache_cfg cfg = g[gi].cfg;
         acc *t = make_prefetch_trace(0x2545f4914f6cdd1dULL * (gi * 2 + s + 1), n,
                                      cfg.cores, cfg.level[0].line, g[gi].region_lines);
         char what[96];
         uint64_t bad;
         cfg.prefetch.kind = kinds[s];
         cfg.prefetch.streams = 4;
         snprintf(what, sizeof what, "%s, %s", g[gi].what, mp_prefetch_kind_name(kinds[s]));
         bad = compare_run(what, cfg, t, n, 0);
         ck_assert_msg(bad == 0, "%s: %llu disagreements", what, (unsigned long long)bad);
         free(t);
      }
}
END_TEST

/* The reference broken on purpose (FIFO instead of LRU in L1) must
   disagree: the comparison can fail. */
START_TEST(test_mismatch_is_detected)
{
   size_t n_geo;
   geometry *g = geometries(&n_geo);
   acc *t = make_trace(42, 20000, 1, 64, 160);
   ck_assert_uint_gt(compare_run("broken reference", g[2].cfg, t, 20000, 1), 0);
   free(t);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Crafted traces                                       ---*/
/*------------------------------------------------------------*/

static mp_cache *new_or_fail(mp_cache_cfg cfg)
{
   const char *err = NULL;
   mp_cache *c = mp_cache_new(&cfg, &err);
   ck_assert_msg(c != NULL, "%s", err);
   return c;
}

static void expect_error(mp_cache_cfg cfg, const char *msg)
{
   const char *err = NULL;
   mp_cache *c = mp_cache_new(&cfg, &err);
   ck_assert_msg(c == NULL, "accepted, expected \"%s\"", msg);
   ck_assert_str_eq(err, msg);
}

static mp_cache_outcome run(mp_cache *c, uint32_t core, uint64_t addr, uint32_t size,
                            int is_write, uint32_t owner)
{
   mp_cache_outcome o;
   mp_cache_access(c, core, addr, size, is_write, owner, 0, &o);
   return o;
}

/* 1 KiB, 2-way, 64-byte lines: 8 sets, 16 lines. */
#define SMALL_L1 lvl(1024, 2, 64, 1)

START_TEST(test_cold_sweep)
{
   mp_cache *c = new_or_fail(cfg1(1, SMALL_L1));
   mp_cache_totals t;
   uint64_t l;
   for (l = 0; l < 100; l++) {
      mp_cache_outcome o = run(c, 0, l * 64 + 8, 8, 0, 0);
      ck_assert_uint_eq(o.missed[0], 1);
      ck_assert_uint_eq(o.cause[0], MP_MISS_COLD);
      ck_assert_uint_eq(o.served_by, 1);
   }
   mp_cache_get_totals(c, 0, &t);
   ck_assert_uint_eq(t.accesses, 100);
   ck_assert_uint_eq(t.misses, 100);
   ck_assert_uint_eq(t.cause[MP_MISS_COLD], 100);
   mp_cache_free(c);
}
END_TEST

/* Cycling over twice the cache: every access after the first pass
   misses, and a fully-associative cache would miss too. */
START_TEST(test_capacity_sweep)
{
   mp_cache *c = new_or_fail(cfg1(1, SMALL_L1));
   mp_cache_totals t;
   uint64_t l, pass;
   for (pass = 0; pass < 3; pass++)
      for (l = 0; l < 32; l++) {
         mp_cache_outcome o = run(c, 0, l * 64, 8, 0, 0);
         ck_assert_uint_eq(o.cause[0], pass ? MP_MISS_CAPACITY : MP_MISS_COLD);
      }
   mp_cache_get_totals(c, 0, &t);
   ck_assert_uint_eq(t.misses, 96);
   ck_assert_uint_eq(t.cause[MP_MISS_COLD], 32);
   ck_assert_uint_eq(t.cause[MP_MISS_CAPACITY], 64);
   mp_cache_free(c);
}
END_TEST

/* assoc + 1 lines of one set, cycled: conflict misses (a fully-
   associative cache of 16 lines would hold all three). */
START_TEST(test_conflict)
{
   mp_cache *c = new_or_fail(cfg1(1, SMALL_L1));
   mp_cache_totals t;
   int i;
   for (i = 0; i < 30; i++) {
      mp_cache_outcome o = run(c, 0, (uint64_t)(i % 3) * 8 * 64, 4, 0, 0);
      ck_assert_uint_eq(o.cause[0], i < 3 ? MP_MISS_COLD : MP_MISS_CONFLICT);
   }
   mp_cache_get_totals(c, 0, &t);
   ck_assert_uint_eq(t.misses, 30);
   ck_assert_uint_eq(t.cause[MP_MISS_CONFLICT], 27);
   mp_cache_free(c);
}
END_TEST

START_TEST(test_coherence)
{
   /* Private L1s, shared L2. */
   mp_cache *c = new_or_fail(cfg2(2, SMALL_L1, lvl(4096, 4, 64, 2)));
   mp_cache_outcome o;
   mp_cache_totals t;
   o = run(c, 0, 0x1000, 8, 0, 0);
   ck_assert_uint_eq(o.served_by, 2);
   ck_assert_uint_eq(o.cause[0], MP_MISS_COLD);
   ck_assert_uint_eq(o.cause[1], MP_MISS_COLD);
   o = run(c, 1, 0x1000, 8, 1, 0);          /* core 1 writes X */
   ck_assert_uint_eq(o.served_by, 1);
   ck_assert_uint_eq(o.cause[0], MP_MISS_COLD);
   ck_assert_uint_eq(o.invalidations, 1);
   o = run(c, 1, 0x1008, 8, 1, 0);          /* exclusive now: nothing to do */
   ck_assert_uint_eq(o.served_by, 0);
   ck_assert_uint_eq(o.invalidations, 0);
   o = run(c, 0, 0x1000, 8, 0, 0);          /* core 0 reads X again */
   ck_assert_uint_eq(o.missed[0], 1);
   ck_assert_uint_eq(o.cause[0], MP_MISS_COHERENCE);
   ck_assert_uint_eq(o.served_by, 1);
   o = run(c, 1, 0x1000, 8, 1, 0);          /* core 0 holds a copy again */
   ck_assert_uint_eq(o.served_by, 0);
   ck_assert_uint_eq(o.invalidations, 1);
   mp_cache_get_totals(c, 0, &t);
   ck_assert_uint_eq(t.invalidations, 2);
   ck_assert_uint_eq(t.cause[MP_MISS_COHERENCE], 1);
   mp_cache_free(c);

   /* Private L1 and L2, shared L3: both private copies go. */
   c = new_or_fail(cfg3(2, SMALL_L1, lvl(4096, 4, 64, 1), lvl(16384, 8, 64, 2)));
   run(c, 0, 0x1000, 8, 0, 0);
   o = run(c, 1, 0x1000, 8, 1, 0);
   ck_assert_uint_eq(o.served_by, 2);
   ck_assert_uint_eq(o.invalidations, 2);
   o = run(c, 0, 0x1000, 8, 0, 0);
   ck_assert_uint_eq(o.cause[0], MP_MISS_COHERENCE);
   ck_assert_uint_eq(o.cause[1], MP_MISS_COHERENCE);
   ck_assert_uint_eq(o.served_by, 2);
   mp_cache_free(c);
}
END_TEST

START_TEST(test_straddle)
{
   mp_cache *c = new_or_fail(cfg2(1, SMALL_L1, lvl(4096, 4, 64, 1)));
   mp_cache_outcome o;
   mp_cache_totals t;
   o = run(c, 0, 60, 8, 0, 0);              /* lines 0 and 1 */
   ck_assert_uint_eq(o.missed[0], 1);
   ck_assert_uint_eq(o.cause[0], MP_MISS_COLD);
   ck_assert_uint_eq(o.served_by, 2);
   o = run(c, 0, 0, 4, 0, 0);
   ck_assert_uint_eq(o.served_by, 0);
   o = run(c, 0, 64, 4, 0, 0);
   ck_assert_uint_eq(o.served_by, 0);
   o = run(c, 0, 124, 8, 0, 0);             /* line 1 hits, line 2 misses */
   ck_assert_uint_eq(o.missed[0], 1);
   ck_assert_uint_eq(o.missed[1], 1);
   ck_assert_uint_eq(o.served_by, 2);
   o = run(c, 0, 0, 256, 0, 0);             /* lines 0-3: one access */
   ck_assert_uint_eq(o.missed[0], 1);
   ck_assert_uint_eq(o.served_by, 2);
   mp_cache_get_totals(c, 0, &t);
   ck_assert_uint_eq(t.accesses, 5);
   ck_assert_uint_eq(t.misses, 3);
   ck_assert_uint_eq(t.cause[MP_MISS_COLD], 3);
   mp_cache_get_totals(c, 1, &t);
   ck_assert_uint_eq(t.accesses, 3);
   ck_assert_uint_eq(t.misses, 3);
   mp_cache_free(c);
}
END_TEST

typedef struct {
   uint32_t n;
   uint32_t level[16], owner[16];
   uint64_t hits[16];
} retire_log;

static void log_retire(void *arg, uint32_t level, uint32_t owner, uint64_t hits)
{
   retire_log *g = arg;
   ck_assert_uint_lt(g->n, 16);
   g->level[g->n] = level;
   g->owner[g->n] = owner;
   g->hits[g->n] = hits;
   g->n++;
}

START_TEST(test_retire)
{
   retire_log g;
   mp_cache_cfg cfg = cfg1(1, SMALL_L1);
   mp_cache *c;
   memset(&g, 0, sizeof g);
   cfg.on_retire = log_retire;
   cfg.retire_arg = &g;
   c = new_or_fail(cfg);
   run(c, 0, 0, 8, 0, 7);                   /* line 0 filled by 7 ... */
   run(c, 0, 8, 8, 0, 3);                   /* ... hit twice by others */
   run(c, 0, 16, 8, 1, 3);
   run(c, 0, 8 * 64, 8, 0, 9);              /* line 8, same set, never reused */
   run(c, 0, 16 * 64, 8, 0, 5);             /* evicts line 0 */
   ck_assert_uint_eq(g.n, 1);
   ck_assert_uint_eq(g.owner[0], 7);
   ck_assert_uint_eq(g.hits[0], 2);
   run(c, 0, 24 * 64, 8, 0, 6);             /* evicts line 8 */
   ck_assert_uint_eq(g.n, 2);
   ck_assert_uint_eq(g.owner[1], 9);
   ck_assert_uint_eq(g.hits[1], 0);
   run(c, 0, 16 * 64, 8, 0, 1);             /* a hit on 5's fill */
   mp_cache_finish(c);
   ck_assert_uint_eq(g.n, 4);               /* in way order: 16, then 24 */
   ck_assert_uint_eq(g.owner[2], 5);
   ck_assert_uint_eq(g.hits[2], 1);
   ck_assert_uint_eq(g.owner[3], 6);
   ck_assert_uint_eq(g.hits[3], 0);
   ck_assert_uint_eq(g.level[3], 0);
   mp_cache_free(c);
}
END_TEST

START_TEST(test_writeback)
{
   /* L1 8 sets of 2; L2 16 sets of 4: lines 0, 16, 32, 48, 64 share
      both L1 set 0 and L2 set 0. */
   mp_cache *c = new_or_fail(cfg2(1, SMALL_L1, lvl(4096, 4, 64, 1)));
   mp_cache_outcome o;
   mp_cache_totals t;
   run(c, 0, 0, 8, 1, 0);                   /* line 0 dirty in L1 */
   run(c, 0, 16 * 64, 8, 0, 0);
   o = run(c, 0, 32 * 64, 8, 0, 0);         /* L1 evicts dirty 0 into L2 */
   ck_assert_uint_eq(o.writebacks[0], 1);
   ck_assert_uint_eq(o.writebacks[1], 0);
   o = run(c, 0, 48 * 64, 8, 0, 0);         /* L1 evicts clean 16 */
   ck_assert_uint_eq(o.writebacks[0], 0);
   o = run(c, 0, 64 * 64, 8, 0, 0);         /* L2 evicts 0, dirty there now */
   ck_assert_uint_eq(o.writebacks[0], 0);
   ck_assert_uint_eq(o.writebacks[1], 1);
   o = run(c, 0, 0, 8, 0, 0);               /* back from memory, clean */
   ck_assert_uint_eq(o.served_by, 2);
   ck_assert_uint_eq(o.cause[1], MP_MISS_CONFLICT);
   mp_cache_get_totals(c, 0, &t);
   ck_assert_uint_eq(t.writebacks, 1);
   mp_cache_get_totals(c, 1, &t);
   ck_assert_uint_eq(t.writebacks, 1);
   mp_cache_free(c);
}
END_TEST

/* Memory follows the cores in use, not the cores configured. */
START_TEST(test_lazy_instances)
{
   mp_cache *c = new_or_fail(cfg2(64, lvl(32768, 8, 64, 1), lvl(1 << 20, 16, 64, 64)));
   uint64_t before = mp_cache_bytes(c), one;
   ck_assert_uint_lt(before, 64 * 1024);
   run(c, 0, 0, 8, 0, 0);
   one = mp_cache_bytes(c);
   ck_assert_uint_gt(one, (1 << 20) / 64 * 16);   /* L2's tags, ways and shadow */
   run(c, 1, 0, 8, 1, 0);
   ck_assert_uint_lt(mp_cache_bytes(c) - one, 64 * 1024);      /* one more L1 only */
   mp_cache_free(c);
}
END_TEST

/*------------------------------------------------------------*/
/*--- The prefetcher, by hand                              ---*/
/*------------------------------------------------------------*/

static mp_cache_cfg with_prefetch(mp_cache_cfg cfg, mp_prefetch_kind kind)
{
   cfg.prefetch.kind = kind;
   cfg.prefetch.streams = MP_PREFETCH_DEFAULT_STREAMS;
   return cfg;
}

static mp_cache_outcome run_at(mp_cache *c, uint32_t core, uint64_t addr, int is_write,
                               uint64_t pc)
{
   mp_cache_outcome o;
   mp_cache_access(c, core, addr, 8, is_write, 0, pc, &o);
   return o;
}

/* Four 4 KiB pages read 8 bytes at a time, through a 16-line L1 and a
   1,024-line L2.  Every line misses L1.  In each page the stream
   confirms at its third line; from then on each L1 miss asks for the
   next two lines (the first of them already fetched by the miss
   before, so dropped), the last line of the page asks for one, and the
   page's lines 3..63 are all prefetched hits in L2: 61 per page, and
   only lines 0, 1, 2 miss it. */
START_TEST(test_prefetch_stream_walk)
{
   mp_cache *c = new_or_fail(with_prefetch(cfg2(1, SMALL_L1, lvl(65536, 8, 64, 1)),
                                           MP_PREFETCH_STREAM));
   mp_cache *none = new_or_fail(cfg2(1, SMALL_L1, lvl(65536, 8, 64, 1)));
   mp_cache_prefetch_totals pt;
   mp_cache_totals t, tn;
   uint64_t a;
   for (a = 0x100000; a < 0x100000 + 4 * 4096; a += 8) {
      mp_cache_outcome o = run_at(c, 0, a, 0, 0x400000), on = run_at(none, 0, a, 0, 0);
      uint64_t l = (a >> 6) % 64;
      int first = a % 64 == 0;
      ck_assert_uint_eq(o.missed[0], first);
      ck_assert_uint_eq(o.missed[1], first && l < 3);
      ck_assert_uint_eq(o.prefetched[1], first && l >= 3);
      ck_assert_uint_eq(o.served_by, first ? (l < 3 ? 2 : 1) : 0);
      ck_assert_uint_eq(on.served_by, first ? 2 : 0);
   }
   mp_cache_finish(c);
   mp_cache_get_totals(c, 0, &t);
   ck_assert_uint_eq(t.misses, 256);
   ck_assert_uint_eq(t.prefetched, 0);
   mp_cache_get_totals(c, 1, &t);
   mp_cache_get_totals(none, 1, &tn);
   ck_assert_uint_eq(t.accesses, 256);
   ck_assert_uint_eq(t.misses, 12);
   ck_assert_uint_eq(t.cause[MP_MISS_COLD], 12);
   ck_assert_uint_eq(t.prefetched, 244);
   ck_assert_uint_eq(tn.misses, 256);
   mp_cache_get_prefetch_totals(c, &pt);
   ck_assert_uint_eq(pt.requests, 4 * (60 * 2 + 1));
   ck_assert_uint_eq(pt.issued, 244);
   ck_assert_uint_eq(pt.useful, 244);
   ck_assert_uint_eq(pt.useless, 0);
   ck_assert_uint_eq(mp_cache_prefetch_level(c), 1);
   mp_cache_free(c);
   mp_cache_free(none);
}
END_TEST

/* The same walk with the stride prefetcher: one instruction, stride 64
   on its misses, confirmed at the third; it then crosses into the next
   pages, whose first line only misses L2 (its prefetch would leave the
   page): 3 + 1 + 1 + 1 L2 misses. */
START_TEST(test_prefetch_stride_walk)
{
   mp_cache *c = new_or_fail(with_prefetch(cfg2(1, SMALL_L1, lvl(65536, 8, 64, 1)),
                                           MP_PREFETCH_STRIDE));
   mp_cache_prefetch_totals pt;
   mp_cache_totals t;
   uint64_t a;
   for (a = 0x100000; a < 0x100000 + 4 * 4096; a += 8)
      run_at(c, 0, a, 0, 0x400000);
   mp_cache_finish(c);
   mp_cache_get_totals(c, 1, &t);
   ck_assert_uint_eq(t.misses, 6);
   ck_assert_uint_eq(t.prefetched, 250);
   mp_cache_get_prefetch_totals(c, &pt);
   ck_assert_uint_eq(pt.issued, 250);
   ck_assert_uint_eq(pt.useful, 250);
   ck_assert_uint_eq(pt.useless, 0);
   mp_cache_free(c);
}
END_TEST

/* Random lines over 64 MiB: next to no prefetch is issued, none useful. */
START_TEST(test_prefetch_random)
{
   mp_cache *c = new_or_fail(with_prefetch(cfg2(1, lvl(32768, 8, 64, 1),
                                                lvl(1 << 20, 16, 64, 1)),
                                           MP_PREFETCH_STREAM));
   mp_cache_prefetch_totals pt;
   mp_cache_totals t;
   int i;
   rng_state = 99;
   for (i = 0; i < 100000; i++)
      run_at(c, 0, (rng() % (64 << 20)) & ~7ULL, 0, 0x400000);
   mp_cache_finish(c);
   mp_cache_get_totals(c, 1, &t);
   mp_cache_get_prefetch_totals(c, &pt);
   ck_assert_uint_lt(pt.issued, 20);
   ck_assert_uint_lt(t.prefetched, 3);
   ck_assert_uint_eq(pt.useful + pt.useless, pt.issued);
   mp_cache_free(c);
}
END_TEST

/* With one level the prefetches go to L1, and the first touch of a
   prefetched line, an L1 hit, trains the stream as a miss would: the
   walk of one page misses L1 on lines 0, 1, 2 only.  The first touch is
   not an owner hit (the footprint must see the line). */
START_TEST(test_prefetch_one_level)
{
   mp_cache *c = new_or_fail(with_prefetch(cfg1(1, lvl(8192, 8, 64, 1)),
                                           MP_PREFETCH_STREAM));
   mp_cache_prefetch_totals pt;
   mp_cache_totals t;
   uint64_t a;
   for (a = 0; a < 4096; a += 8) {
      mp_cache_outcome o = run_at(c, 0, a, 0, 0);
      int first = a % 64 == 0;
      ck_assert_uint_eq(o.missed[0], first && a < 3 * 64);
      ck_assert_uint_eq(o.prefetched[0], first && a >= 3 * 64);
      ck_assert_uint_eq(o.owner_hit, !first);
   }
   mp_cache_finish(c);
   mp_cache_get_totals(c, 0, &t);
   ck_assert_uint_eq(t.misses, 3);
   ck_assert_uint_eq(t.prefetched, 61);
   mp_cache_get_prefetch_totals(c, &pt);
   ck_assert_uint_eq(mp_cache_prefetch_level(c), 0);
   ck_assert_uint_eq(pt.issued, 61);
   ck_assert_uint_eq(pt.useful, 61);
   mp_cache_free(c);
}
END_TEST

/* Prefetched lines evicted untouched are useless, and nobody's fill:
   the walk's lines 0, 1, 2 train the stream (lines 3 and 4 are
   fetched into the 2-way L2 of 8 sets); then 16 lines of the same two
   sets evict them.  Only demand fills are retired. */
START_TEST(test_prefetch_useless)
{
   mp_cache_cfg cfg = with_prefetch(cfg2(1, lvl(256, 2, 64, 1), lvl(1024, 2, 64, 1)),
                                    MP_PREFETCH_STREAM);
   retire_counts rc;
   mp_cache *c;
   mp_cache_prefetch_totals pt;
   uint64_t l, retired = 0;
   uint32_t o;
   memset(&rc, 0, sizeof rc);
   cfg.on_retire = count_retire;
   cfg.retire_arg = &rc;
   c = new_or_fail(cfg);
   for (l = 0; l < 3; l++)
      run_at(c, 0, l * 64, 0, 0);
   mp_cache_get_prefetch_totals(c, &pt);
   ck_assert_uint_eq(pt.issued, 2);
   for (l = 0; l < 8; l++) {   /* sets 3 and 4, far away: no stream */
      run_at(c, 0, (1000 + 8 * l) * 64 * 64 + 3 * 64, 0, 0);
      run_at(c, 0, (1000 + 8 * l) * 64 * 64 + 4 * 64, 0, 0);
   }
   mp_cache_get_prefetch_totals(c, &pt);
   ck_assert_uint_eq(pt.useless, 2);
   mp_cache_finish(c);
   for (o = 0; o < N_OWNERS; o++)
      retired += rc.retired[1][o];
   ck_assert_uint_eq(retired, 3 + 16);   /* the demand lines of L2 only */
   mp_cache_get_prefetch_totals(c, &pt);
   ck_assert_uint_eq(pt.useful, 0);
   ck_assert_uint_eq(pt.useless, 2);
   mp_cache_free(c);
}
END_TEST

/* A prefetched copy is a copy: another core's write removes it, though
   the core that holds it never touched the line (no cold bit).  Core 1
   walks lines 0-2 of a page: lines 3 and 4 come into its L2 and the
   shared L3, marked.  Core 0 writes line 3: it hits L3, the first touch
   there; core 1's L2 copy goes.  Core 1 then misses L2 on line 3 (cold:
   it never accessed it), and line 4 is still a prefetched hit. */
START_TEST(test_prefetch_coherence)
{
   mp_cache *c = new_or_fail(with_prefetch(cfg3(2, SMALL_L1, lvl(4096, 4, 64, 1),
                                                lvl(16384, 8, 64, 2)),
                                           MP_PREFETCH_STREAM));
   mp_cache_outcome o;
   uint64_t l;
   for (l = 0; l < 3; l++)
      run_at(c, 1, l * 64, 0, 0);
   o = run_at(c, 0, 3 * 64, 1, 0);
   ck_assert_uint_eq(o.served_by, 2);
   ck_assert_uint_eq(o.prefetched[2], 1);
   ck_assert_uint_eq(o.invalidations, 1);
   o = run_at(c, 1, 3 * 64, 0, 0);
   ck_assert_uint_eq(o.missed[1], 1);
   ck_assert_uint_eq(o.cause[1], MP_MISS_COLD);
   ck_assert_uint_eq(o.served_by, 2);
   ck_assert_uint_eq(o.prefetched[2], 0);
   o = run_at(c, 1, 4 * 64, 0, 0);
   ck_assert_uint_eq(o.served_by, 1);
   ck_assert_uint_eq(o.prefetched[1], 1);
   mp_cache_free(c);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Sampled miss causes                                  ---*/
/*------------------------------------------------------------*/

#define SHIFT MP_CACHE_SAMPLED_SHIFT

/* What one run of a trace gave: the totals as counted and estimated,
   and the retire counts. */
typedef struct {
   mp_cache_totals raw[3], est[3];
   retire_counts rc;
} run_result;

static void run_trace(mp_cache_cfg cfg, uint32_t shift, const acc *t, size_t n,
                      mp_cache_outcome *outs, run_result *r)
{
   mp_cache *c;
   size_t i;
   uint32_t k;
   memset(r, 0, sizeof *r);
   cfg.sample_shift = shift;
   cfg.on_retire = count_retire;
   cfg.retire_arg = &r->rc;
   c = new_or_fail(cfg);
   for (i = 0; i < n; i++)
      mp_cache_access(c, t[i].core, t[i].addr, t[i].size, t[i].is_write, t[i].owner,
                      0, &outs[i]);
   mp_cache_finish(c);
   for (k = 0; k < cfg.n_levels; k++) {
      mp_cache_get_raw_totals(c, k, &r->raw[k]);
      mp_cache_get_totals(c, k, &r->est[k]);
   }
   mp_cache_free(c);
}

/* Sampling changes nothing but the split of the capacity-or-conflict
   misses of the sampled levels: the same outcome on every access (at a
   sampled level only, capacity, conflict or unclassified where exact
   mode says capacity or conflict: a sampled line's own class comes
   from the smaller shadow, and can differ), the same totals, the same
   retires.  Returns the unclassified misses of the run. */
static uint64_t check_sampled_same(const char *what, mp_cache_cfg cfg, const acc *t, size_t n)
{
   mp_cache_outcome *ex = malloc(n * sizeof *ex), *sa = malloc(n * sizeof *sa);
   run_result *re = malloc(sizeof *re), *rs = malloc(sizeof *rs);
   uint64_t bad = 0, uncl = 0;
   uint32_t sampled[3] = { 0, 0, 0 }, k;
   size_t i;
   mp_cache *c;

   cfg.sample_shift = SHIFT;
   c = new_or_fail(cfg);
   for (k = 0; k < cfg.n_levels; k++)
      sampled[k] = mp_cache_level_sample_shift(c, k) != 0;
   mp_cache_free(c);
   run_trace(cfg, 0, t, n, ex, re);
   run_trace(cfg, SHIFT, t, n, sa, rs);
   for (i = 0; i < n; i++) {
      int same = ex[i].served_by == sa[i].served_by
                 && ex[i].invalidations == sa[i].invalidations;
      for (k = 0; k < cfg.n_levels; k++) {
         uint8_t a = ex[i].cause[k], b = sa[i].cause[k];
         same &= ex[i].missed[k] == sa[i].missed[k]
                 && ex[i].writebacks[k] == sa[i].writebacks[k];
         if (sampled[k] && (a == MP_MISS_CAPACITY || a == MP_MISS_CONFLICT))
            same &= b == MP_MISS_CAPACITY || b == MP_MISS_CONFLICT
                    || b == MP_MISS_UNCLASSIFIED;
         else
            same &= a == b;
      }
      if (!same && bad++ < 3) {
         fprintf(stderr, "%s: access %zu\n", what, i);
         print_outcome("exact", &ex[i]);
         print_outcome("sampled", &sa[i]);
      }
   }
   ck_assert_msg(bad == 0, "%s: %llu accesses differ", what, (unsigned long long)bad);
   for (k = 0; k < cfg.n_levels; k++) {
      const mp_cache_totals *a = &re->raw[k], *b = &rs->raw[k], *e = &rs->est[k];
      ck_assert_msg(a->accesses == b->accesses && a->misses == b->misses
                    && a->writebacks == b->writebacks && a->invalidations == b->invalidations
                    && a->cause[MP_MISS_COLD] == b->cause[MP_MISS_COLD]
                    && a->cause[MP_MISS_COHERENCE] == b->cause[MP_MISS_COHERENCE],
                    "%s: totals of level %u differ", what, k);
      ck_assert_uint_eq(a->cause[MP_MISS_UNCLASSIFIED], 0);
      ck_assert_uint_eq(a->cause[MP_MISS_CONFLICT] + a->cause[MP_MISS_CAPACITY],
                        b->cause[MP_MISS_CONFLICT] + b->cause[MP_MISS_CAPACITY]
                        + b->cause[MP_MISS_UNCLASSIFIED]);
      /* The estimate keeps the sum, and leaves exact levels exact. */
      ck_assert_uint_eq(e->cause[MP_MISS_UNCLASSIFIED], 0);
      ck_assert_uint_eq(e->cause[MP_MISS_CONFLICT] + e->cause[MP_MISS_CAPACITY],
                        a->cause[MP_MISS_CONFLICT] + a->cause[MP_MISS_CAPACITY]);
      if (!sampled[k])
         ck_assert_msg(memcmp(a, e, sizeof *a) == 0, "%s: level %u is exact", what, k);
      uncl += b->cause[MP_MISS_UNCLASSIFIED];
   }
   ck_assert_msg(memcmp(&re->rc, &rs->rc, sizeof re->rc) == 0, "%s: retires differ", what);
   if (getenv("MP_TEST_VERBOSE"))
      for (k = 0; k < cfg.n_levels; k++)
         fprintf(stderr, "%-40s L%u conflict %7llu capacity %7llu, estimated %7llu %7llu\n",
                 what, k + 1, (unsigned long long)re->raw[k].cause[MP_MISS_CONFLICT],
                 (unsigned long long)re->raw[k].cause[MP_MISS_CAPACITY],
                 (unsigned long long)rs->est[k].cause[MP_MISS_CONFLICT],
                 (unsigned long long)rs->est[k].cause[MP_MISS_CAPACITY]);
   free(ex);
   free(sa);
   free(re);
   free(rs);
   return uncl;
}

/* Levels of 16K lines and more, one to four cores, private and shared. */
static geometry *big_geometries(size_t *n)
{
   static geometry g[8];
   size_t i = 0;
   g[i++] = (geometry){ "sampled: 1 level of 16K lines",
                        cfg1(1, lvl(1 << 20, 8, 64, 1)), 3 << 14 };
   g[i++] = (geometry){ "sampled: L1 + 2 MiB L2 shared by 2",
                        cfg2(2, lvl(32768, 8, 64, 1), lvl(2 << 20, 16, 64, 2)), 3 << 15 };
   g[i++] = (geometry){ "sampled: 4 cores, 1 MiB L2s, 4 MiB L3",
                        cfg3(4, lvl(4096, 4, 64, 1), lvl(1 << 20, 8, 64, 1),
                             lvl(4 << 20, 16, 64, 4)), 1 << 17 };
   g[i++] = (geometry){ "sampled: 32-byte lines, 2 sockets",
                        cfg3(4, lvl(2048, 2, 32, 1), lvl(1 << 19, 4, 32, 1),
                             lvl(2 << 20, 8, 32, 2)), 3 << 16 };
   *n = i;
   return g;
}

START_TEST(test_sampled_random)
{
   size_t n_geo, gi;
   geometry *g = big_geometries(&n_geo);
   const size_t n = 400000;
   for (gi = 0; gi < n_geo; gi++) {
      acc *t = make_trace(0x51ed270b27a3c2d1ULL * (gi + 1), n, g[gi].cfg.cores,
                          g[gi].cfg.level[0].line, g[gi].region_lines);
      ck_assert_uint_gt(check_sampled_same(g[gi].what, g[gi].cfg, t, n), 0);
      free(t);
   }
}
END_TEST

/* Structured streams: sweeps with a power-of-two stride (all in a few
   sets), a sequential sweep, a strided matrix-like walk, interleaved
   on two cores with writes. */
START_TEST(test_sampled_structured)
{
   size_t n_geo, gi, i;
   geometry *g = big_geometries(&n_geo);
   const size_t n = 300000;
   acc *t = malloc(n * sizeof *t);
   for (gi = 0; gi < n_geo; gi++) {
      uint32_t line = g[gi].cfg.level[0].line;
      uint64_t way = g[gi].cfg.level[g[gi].cfg.n_levels - 1].size
                     / g[gi].cfg.level[g[gi].cfg.n_levels - 1].assoc;
      for (i = 0; i < n; i++) {
         uint64_t j = i / 3;
         switch (i % 3) {
         case 0: t[i].addr = (j % 4096) * way + (j / 4096 % 4) * line; break;
         case 1: t[i].addr = (j * line) % (g[gi].region_lines * line); break;
         default: t[i].addr = (j % 700) * 4096 * 3 + (j / 700 % 64) * 8;
         }
         t[i].core = (uint32_t)(j / 1000 % g[gi].cfg.cores);
         t[i].size = 8;
         t[i].is_write = i % 5 == 0;
         t[i].owner = (uint32_t)(i % 3);
      }
      check_sampled_same(g[gi].what, g[gi].cfg, t, n);
   }
   free(t);
}
END_TEST

/* Only big levels with more than one set are sampled, and their shadow
   keeps MP_CACHE_SAMPLE_MIN_SHADOW lines. */
START_TEST(test_sampled_levels)
{
   mp_cache_cfg cfg = cfg3(1, lvl(32768, 8, 64, 1), lvl(1 << 20, 16, 64, 1),
                           lvl(1 << 20, 1 << 14, 64, 1));
   mp_cache *c;
   cfg.sample_shift = SHIFT;
   c = new_or_fail(cfg);
   ck_assert_uint_eq(mp_cache_sample_shift(c), SHIFT);
   ck_assert_uint_eq(mp_cache_level_sample_shift(c, 0), 0);       /* 512 lines */
   ck_assert_uint_eq(mp_cache_level_sample_shift(c, 1), SHIFT);   /* 16K lines */
   ck_assert_uint_eq(mp_cache_level_sample_shift(c, 2), 0);       /* one set */
   mp_cache_free(c);
   cfg = cfg2(1, lvl(32768, 8, 64, 1), lvl(512 << 10, 8, 64, 1));
   cfg.sample_shift = SHIFT;
   c = new_or_fail(cfg);
   ck_assert_uint_eq(mp_cache_level_sample_shift(c, 1), 0);       /* 8K lines */
   mp_cache_free(c);
   cfg = cfg2(1, lvl(32768, 8, 64, 1), lvl(2 << 20, 8, 64, 1));
   cfg.sample_shift = 12;
   c = new_or_fail(cfg);
   ck_assert_uint_eq(mp_cache_level_sample_shift(c, 1), 5);       /* 32K >> 5 = 1K */
   mp_cache_free(c);
   cfg.sample_shift = MP_CACHE_MAX_SAMPLE_SHIFT + 1;
   expect_error(cfg, "miss-cause sample shift 17, expected 0 to 16");
}
END_TEST

/* One 1 MiB 4-way level (4096 sets, 16K lines, sampled) and the totals
   of a stream through it, exact and sampled. */
static void known_split(const acc *t, size_t n, run_result *ex, run_result *sa)
{
   mp_cache_outcome *o = malloc(n * sizeof *o);
   mp_cache_cfg cfg = cfg1(1, lvl(1 << 20, 4, 64, 1));
   run_trace(cfg, 0, t, n, o, ex);
   run_trace(cfg, SHIFT, t, n, o, sa);
   free(o);
}

static acc plain(uint64_t addr, uint32_t owner)
{
   acc a = { 0, addr, 8, 0, owner, 0 };
   return a;
}

/* Lines of 16 sets, 64 lines each (1,024 lines: a fully-associative
   cache of 16K lines holds them all), cycled: every miss after the
   first pass is a conflict miss.  The estimate must say so within 2%
   (in fact exactly: every sampled miss is a conflict). */
START_TEST(test_sampled_all_conflict)
{
   const size_t n = 1024 * 20;
   acc *t = malloc(n * sizeof *t);
   run_result ex, sa;
   size_t i;
   for (i = 0; i < n; i++)
      t[i] = plain((uint64_t)(i % 16) * 64 + (uint64_t)(i / 16 % 64) * 4096 * 64, 0);
   known_split(t, n, &ex, &sa);
   ck_assert_uint_eq(ex.raw[0].cause[MP_MISS_CONFLICT], n - 1024);
   ck_assert_uint_gt(sa.raw[0].cause[MP_MISS_CONFLICT], 0);
   ck_assert_uint_gt(sa.raw[0].cause[MP_MISS_UNCLASSIFIED], 0);
   ck_assert_uint_eq(sa.raw[0].cause[MP_MISS_CAPACITY], 0);
   ck_assert_uint_eq(sa.est[0].cause[MP_MISS_CONFLICT], n - 1024);
   ck_assert_uint_eq(sa.est[0].cause[MP_MISS_CAPACITY], 0);
   free(t);
}
END_TEST

/* A cyclic sweep over twice the cache: every miss after the first pass
   is a capacity miss, estimated so. */
START_TEST(test_sampled_all_capacity)
{
   const size_t lines = 2 << 14, n = lines * 3;
   acc *t = malloc(n * sizeof *t);
   run_result ex, sa;
   size_t i;
   for (i = 0; i < n; i++)
      t[i] = plain((uint64_t)(i % lines) * 64, 0);
   known_split(t, n, &ex, &sa);
   ck_assert_uint_eq(ex.raw[0].cause[MP_MISS_CAPACITY], n - lines);
   ck_assert_uint_eq(ex.raw[0].cause[MP_MISS_CONFLICT], 0);
   ck_assert_uint_eq(sa.raw[0].cause[MP_MISS_CONFLICT], 0);
   ck_assert_uint_eq(sa.est[0].cause[MP_MISS_CAPACITY], n - lines);
   free(t);
}
END_TEST

/* Both at once, interleaved: owner 0 cycles over 4,096 lines of 64
   sets (reuse distance 8K lines: conflicts), owner 1 over 24K lines
   (capacity).  The sample holds about 256 +- 16 and 1,536 +- 39 of
   those lines: a standard deviation of about 0.016 on the conflict
   share.  The estimate must be within 0.05 of the exact share (3
   deviations). */
START_TEST(test_sampled_mixed)
{
   const size_t lines = 3 << 13, n = lines * 8;
   acc *t = malloc(n * sizeof *t);
   run_result ex, sa;
   double se, ss;
   size_t i;
   for (i = 0; i < n; i++) {
      size_t j = i / 2;
      t[i] = i % 2 ? plain((uint64_t)(j % lines) * 64 + (1ULL << 32), 1)
                   : plain((uint64_t)(j % 64) * 64 + (j / 64 % 64) * 4096 * 64, 0);
   }
   known_split(t, n, &ex, &sa);
   se = (double)ex.raw[0].cause[MP_MISS_CONFLICT]
        / (double)(ex.raw[0].cause[MP_MISS_CONFLICT] + ex.raw[0].cause[MP_MISS_CAPACITY]);
   ss = (double)sa.est[0].cause[MP_MISS_CONFLICT]
        / (double)(sa.est[0].cause[MP_MISS_CONFLICT] + sa.est[0].cause[MP_MISS_CAPACITY]);
   ck_assert_msg(se > 0.2 && se < 0.8, "exact conflict share %.3f", se);
   if (getenv("MP_TEST_VERBOSE"))
      fprintf(stderr, "mixed: conflict share %.3f, exact %.3f\n", ss, se);
   ck_assert_msg(ss > se - 0.05 && ss < se + 0.05, "conflict share %.3f, exact %.3f", ss, se);
   free(t);
}
END_TEST

START_TEST(test_split_unclassified)
{
   uint64_t c[MP_MISS_N_CAUSES], lv[MP_MISS_N_CAUSES];
   memset(lv, 0, sizeof lv);
   lv[MP_MISS_CONFLICT] = 1;
   lv[MP_MISS_CAPACITY] = 3;
   /* Its own proportion, 1 : 2; rounded to the nearest, the sum kept. */
   memset(c, 0, sizeof c);
   c[MP_MISS_COLD] = 5;
   c[MP_MISS_CONFLICT] = 10;
   c[MP_MISS_CAPACITY] = 20;
   c[MP_MISS_UNCLASSIFIED] = 100;
   mp_cache_split_unclassified(c, lv);
   ck_assert_uint_eq(c[MP_MISS_CONFLICT], 10 + 33);
   ck_assert_uint_eq(c[MP_MISS_CAPACITY], 20 + 67);
   ck_assert_uint_eq(c[MP_MISS_UNCLASSIFIED], 0);
   ck_assert_uint_eq(c[MP_MISS_COLD], 5);
   /* None of its own: the level's, 1 : 3. */
   memset(c, 0, sizeof c);
   c[MP_MISS_UNCLASSIFIED] = 10;
   mp_cache_split_unclassified(c, lv);
   ck_assert_uint_eq(c[MP_MISS_CONFLICT], 3);
   ck_assert_uint_eq(c[MP_MISS_CAPACITY], 7);
   /* No evidence at all: capacity. */
   memset(c, 0, sizeof c);
   c[MP_MISS_UNCLASSIFIED] = 10;
   mp_cache_split_unclassified(c, NULL);
   ck_assert_uint_eq(c[MP_MISS_CONFLICT], 0);
   ck_assert_uint_eq(c[MP_MISS_CAPACITY], 10);
   /* Huge counts: no overflow, the sum kept. */
   memset(c, 0, sizeof c);
   c[MP_MISS_CONFLICT] = 1ULL << 40;
   c[MP_MISS_CAPACITY] = 1ULL << 40;
   c[MP_MISS_UNCLASSIFIED] = (1ULL << 50) + 1;
   mp_cache_split_unclassified(c, NULL);
   ck_assert_uint_eq(c[MP_MISS_CONFLICT] + c[MP_MISS_CAPACITY], (1ULL << 41) + (1ULL << 50) + 1);
   ck_assert_uint_le(c[MP_MISS_CONFLICT] - c[MP_MISS_CAPACITY] + 1, 2);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Configuration and parsing                            ---*/
/*------------------------------------------------------------*/

START_TEST(test_bad_configs)
{
   mp_cache_level_cfg l1 = lvl(32768, 8, 64, 1), l2 = lvl(1 << 20, 16, 64, 4);
   mp_cache_cfg c = cfg2(4, l1, l2);

   c.n_levels = 0;
   expect_error(c, "0 cache levels, expected 1 to 3");
   c.n_levels = 4;
   expect_error(c, "4 cache levels, expected 1 to 3");
   expect_error(cfg2(0, l1, l2), "0 cores, expected 1 to 1024");
   expect_error(cfg2(4, l1, lvl(3 * 8 * 64, 8, 64, 1)), "L2: 3 sets is not a power of two");
   expect_error(cfg2(4, lvl(0, 8, 64, 1), l2), "L1: size 0, expected a nonzero size");
   expect_error(cfg2(4, lvl(32768, 8, 48, 1), l2), "L1: line size 48 is not a power of two");
   expect_error(cfg2(4, lvl(32768, 8, 0, 1), l2), "L1: line size 0 is not a power of two");
   expect_error(cfg2(4, lvl(32768, 8, 4, 1), l2), "L1: line size 4 is below 8 bytes");
   expect_error(cfg2(4, l1, lvl(1 << 20, 16, 128, 4)),
                "L2: line size 128 differs from L1's 64 "
                "(all levels must have the same line size)");
   expect_error(cfg2(4, lvl(32768, 0, 64, 1), l2), "L1: associativity 0, expected at least 1");
   expect_error(cfg2(4, lvl(1000, 8, 64, 1), l2),
                "L1: size 1000 is not a multiple of assoc * line (8 * 64)");
   expect_error(cfg2(4, lvl(1024, 32, 64, 1), l2),
                "L1: size 1024 is not a multiple of assoc * line (32 * 64)");
   expect_error(cfg2(4, l1, lvl(1 << 20, 16, 64, 0)),
                "L2: shared by 0 cores, expected at least 1");
   expect_error(cfg2(4, l1, lvl(1 << 20, 16, 64, 3)),
                "L2: shared by 3 cores, which does not divide 4 cores");
   expect_error(cfg3(4, l1, l2, lvl(1 << 22, 16, 64, 2)),
                "L3: shared by 2 cores, not a multiple of L2's 4 "
                "(each L2 must lie within one L3)");
   c = cfg2(4, l1, lvl(3 * 8 * 64, 8, 64, 1));
   c.level[1].name = "LL";
   expect_error(c, "LL: 3 sets is not a power of two");
   expect_error(cfg1(1, lvl(1ULL << 40, 8, 64, 1)),
                "L1: 17179869184 lines, at most 1073741824 supported");
   /* Fully associative and direct mapped are fine. */
   mp_cache_free(new_or_fail(cfg1(1, lvl(4096, 64, 64, 1))));
   mp_cache_free(new_or_fail(cfg1(1, lvl(4096, 1, 64, 1))));
}
END_TEST

/* The address space of a level's tables: 32 bytes per line for its
   ways and 8 per set (the way hit last), 16 per line for an exact
   shadow, 16/16 + 2 * 8/16 for one sampled 1/16 (nodes and hash slots),
   plus the staggering of the levels; and the bound on the whole
   hierarchy. */
START_TEST(test_table_bytes)
{
   const uint64_t lines = 1u << 20, sets = lines / 8, slack = 6 * 4096;
   mp_cache_cfg c = cfg1(1, lvl(lines * 64, 8, 64, 1));
   uint64_t b = mp_cache_instance_table_bytes(&c, 0);
   ck_assert_uint_ge(b, lines * 48 + sets * 8);
   ck_assert_uint_le(b, lines * 48 + sets * 8 + slack);
   c.sample_shift = 4;
   b = mp_cache_instance_table_bytes(&c, 0);
   ck_assert_uint_ge(b, lines * 34 + sets * 8);
   ck_assert_uint_le(b, lines * 34 + sets * 8 + slack);
   /* One set: no shadow. */
   c = cfg1(1, lvl(4096, 64, 64, 1));
   b = mp_cache_instance_table_bytes(&c, 0);
   ck_assert_uint_ge(b, 64 * 32 + 8);
   ck_assert_uint_le(b, 64 * 32 + 8 + slack);

   /* 16 GiB of 64-byte lines, exact: 12.1 GiB per instance.  Two private
      instances fit the 32 GiB, four do not, four cores sharing by two do;
      mp_cache_new maps nothing until a core accesses. */
   mp_cache_free(new_or_fail(cfg1(2, lvl(16ULL << 30, 16, 64, 1))));
   expect_error(cfg1(4, lvl(16ULL << 30, 16, 64, 1)),
                "L1: too large to simulate: the tables of all the cache instances would "
                "take 49 GiB of address space (L1 49 GiB), at most 32 GiB");
   mp_cache_free(new_or_fail(cfg1(4, lvl(16ULL << 30, 16, 64, 2))));
   /* The message names the level that takes the most. */
   expect_error(cfg3(1, lvl(32768, 8, 64, 1), lvl(1 << 20, 16, 64, 1),
                     lvl(64ULL << 30, 16, 64, 1)),
                "L3: too large to simulate: the tables of all the cache instances would "
                "take 49 GiB of address space (L3 49 GiB), at most 32 GiB");
   /* Sampled, the shadow shrinks: 34 bytes per line, 17 GiB for 512M lines. */
   c = cfg1(1, lvl(32ULL << 30, 16, 64, 1));
   c.sample_shift = 4;
   mp_cache_free(new_or_fail(c));
}
END_TEST

/*------------------------------------------------------------*/
/*--- A sample of whole sets (set_sample_shift)            ---*/
/*------------------------------------------------------------*/

/* 1 byte per L1 set: in the sample or not.  The sets are picked by a
   hash of their number, as the tool does, so that the sample is not a
   run of neighbouring sets. */
static uint8_t *pick_sets(uint32_t sets, uint32_t shift)
{
   uint8_t *t = calloc(sets, 1);
   uint32_t s;
   for (s = 0; s < sets; s++)
      t[s] = (mp_mix64(s + 77) & ((1ULL << shift) - 1)) == 0;
   return t;
}

/* Fed only the accesses of a sample of the L1's sets, the cache does at
   each of them what the cache fed every access does: every sampled set
   at every level sees the same lines in the same order.  Only the
   capacity/conflict split may differ, which comes from a shadow scaled
   to the sample.  The totals are those of the sampled accesses. */
static void check_set_sample(const char *what, mp_cache_cfg cfg, uint32_t shift,
                             const acc *t, size_t n)
{
   uint32_t sets = (uint32_t)(cfg.level[0].size / cfg.level[0].assoc / cfg.level[0].line);
   uint8_t *in = pick_sets(sets, shift);
   mp_cache *full = new_or_fail(cfg), *part;
   mp_cache_totals want[3], got[3];
   uint64_t bad = 0, fed = 0;
   uint32_t k;
   size_t i;
   memset(want, 0, sizeof want);
   cfg.set_sample_shift = shift;
   cfg.sampled_sets = in;
   part = new_or_fail(cfg);
   for (i = 0; i < n; i++) {
      mp_cache_outcome a, b;
      uint64_t line = t[i].addr / cfg.level[0].line;
      int same;
      mp_cache_access(full, t[i].core, t[i].addr, t[i].size, t[i].is_write, t[i].owner, 0, &a);
      if (!in[line % sets])
         continue;
      fed++;
      mp_cache_access(part, t[i].core, t[i].addr, t[i].size, t[i].is_write, t[i].owner, 0, &b);
      same = a.served_by == b.served_by && a.invalidations == b.invalidations;
      for (k = 0; k < cfg.n_levels; k++) {
         int split = (a.cause[k] == MP_MISS_CAPACITY || a.cause[k] == MP_MISS_CONFLICT)
                     && (b.cause[k] == MP_MISS_CAPACITY || b.cause[k] == MP_MISS_CONFLICT);
         same &= a.missed[k] == b.missed[k] && a.writebacks[k] == b.writebacks[k]
                 && (a.cause[k] == b.cause[k] || split);
         if (k == 0 || a.missed[k - 1]) {
            want[k].accesses++;
            want[k].misses += a.missed[k];
         }
      }
      if (!same && bad++ < 3) {
         fprintf(stderr, "%s, 1 in %u sets: access %zu\n", what, 1u << shift, i);
         print_outcome("every set", &a);
         print_outcome("sampled", &b);
      }
   }
   ck_assert_msg(bad == 0, "%s, 1 in %u sets: %llu accesses differ", what, 1u << shift,
                 (unsigned long long)bad);
   ck_assert_uint_gt(fed, 0);
   for (k = 0; k < cfg.n_levels; k++) {
      mp_cache_get_raw_totals(part, k, &got[k]);
      ck_assert_uint_eq(got[k].accesses, want[k].accesses);
      ck_assert_uint_eq(got[k].misses, want[k].misses);
   }
   mp_cache_free(full);
   mp_cache_free(part);
   free(in);
}

START_TEST(test_set_sample)
{
   static const struct { const char *what; uint32_t levels, cores; mp_cache_level_cfg l[3]; }
   g[] = {
      { "1 level, 32 sets", 1, 1, { { NULL, 8192, 4, 64, 1 } } },
      { "2 levels, 16 and 64 sets", 2, 1,
        { { NULL, 4096, 4, 64, 1 }, { NULL, 32768, 8, 64, 1 } } },
      { "2 cores, shared L2", 2, 2,
        { { NULL, 8192, 2, 64, 1 }, { NULL, 65536, 8, 64, 2 } } },
      { "4 cores, L2 per pair, shared L3", 3, 4,
        { { NULL, 2048, 2, 64, 1 }, { NULL, 8192, 4, 64, 2 }, { NULL, 65536, 8, 64, 4 } } },
   };
   size_t gi, i;
   const size_t n = 200000;
   for (gi = 0; gi < sizeof g / sizeof g[0]; gi++) {
      mp_cache_cfg cfg;
      uint32_t shift, sets = (uint32_t)(g[gi].l[0].size / g[gi].l[0].assoc / 64);
      acc *t;
      memset(&cfg, 0, sizeof cfg);
      cfg.n_levels = g[gi].levels;
      cfg.cores = g[gi].cores;
      memcpy(cfg.level, g[gi].l, sizeof cfg.level);
      t = make_trace(0x2545f4914f6cdd1dULL * (gi + 1), n, cfg.cores, 64, 4 * 65536 / 64);
      for (i = 0; i < n; i++)   /* no access straddles lines */
         t[i].addr &= ~(uint64_t)(t[i].size - 1);
      for (shift = 1; (1u << shift) <= sets; shift += 2)
         check_set_sample(g[gi].what, cfg, shift, t, n);
      free(t);
   }
}
END_TEST

/* A straddling access's lines outside the sample are not simulated, and
   the sample is checked against the geometry. */
START_TEST(test_set_sample_bounds)
{
   uint8_t in[64] = { 0 };
   mp_cache_cfg cfg = cfg2(1, lvl(32768, 8, 64, 1), lvl(1 << 20, 8, 64, 1));
   mp_cache_outcome o;
   mp_cache_totals t;
   mp_cache *c;
   in[1] = 1;
   cfg.set_sample_shift = 6;
   cfg.sampled_sets = in;
   c = new_or_fail(cfg);
   mp_cache_access(c, 0, 64 + 60, 8, 0, 0, 0, &o);   /* lines 1 and 2 */
   ck_assert_uint_eq(o.missed[0], 1);
   mp_cache_access(c, 0, 128, 8, 0, 0, 0, &o);       /* line 2: never filled */
   ck_assert_uint_eq(o.missed[0], 1);
   mp_cache_access(c, 0, 64, 8, 0, 0, 0, &o);
   ck_assert_uint_eq(o.missed[0], 0);
   mp_cache_get_raw_totals(c, 1, &t);
   ck_assert_uint_eq(t.accesses, 2);
   mp_cache_free(c);
   cfg.set_sample_shift = 7;
   expect_error(cfg, "a sample of 1 in 128 sets, but L1 has 64");
   cfg.set_sample_shift = 6;
   cfg.sampled_sets = NULL;
   expect_error(cfg, "a sample of sets, but no table of them");
   cfg.sampled_sets = in;
   cfg.level[1] = lvl(16384, 8, 64, 1);
   expect_error(cfg, "L2 has fewer sets than L1: a sample of L1's sets is not one of "
                "whole sets there");
   cfg = with_prefetch(cfg2(1, lvl(32768, 8, 64, 1), lvl(1 << 20, 8, 64, 1)),
                       MP_PREFETCH_STREAM);
   cfg.set_sample_shift = 2;
   cfg.sampled_sets = in;
   expect_error(cfg, "a sample of sets cannot feed a prefetcher, which trains across sets");
}
END_TEST

int main(void)
{
   Suite *s = suite_create("cache");
   TCase *tc = tcase_create("core");
   tcase_set_timeout(tc, 300);
   tcase_add_test(tc, test_random_against_reference);
   tcase_add_test(tc, test_l1_oracle);
   tcase_add_test(tc, test_prefetch_against_reference);
   tcase_add_test(tc, test_mismatch_is_detected);
   tcase_add_test(tc, test_cold_sweep);
   tcase_add_test(tc, test_capacity_sweep);
   tcase_add_test(tc, test_conflict);
   tcase_add_test(tc, test_coherence);
   tcase_add_test(tc, test_straddle);
   tcase_add_test(tc, test_retire);
   tcase_add_test(tc, test_writeback);
   tcase_add_test(tc, test_lazy_instances);
   tcase_add_test(tc, test_prefetch_stream_walk);
   tcase_add_test(tc, test_prefetch_stride_walk);
   tcase_add_test(tc, test_prefetch_random);
   tcase_add_test(tc, test_prefetch_one_level);
   tcase_add_test(tc, test_prefetch_useless);
   tcase_add_test(tc, test_prefetch_coherence);
   tcase_add_test(tc, test_sampled_random);
   tcase_add_test(tc, test_sampled_structured);
   tcase_add_test(tc, test_sampled_levels);
   tcase_add_test(tc, test_sampled_all_conflict);
   tcase_add_test(tc, test_sampled_all_capacity);
   tcase_add_test(tc, test_sampled_mixed);
   tcase_add_test(tc, test_split_unclassified);
   tcase_add_test(tc, test_bad_configs);
   tcase_add_test(tc, test_table_bytes);
   tcase_add_test(tc, test_set_sample);
   tcase_add_test(tc, test_set_sample_bounds);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
