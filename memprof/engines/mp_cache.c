/*--------------------------------------------------------------------*/
/*--- memprof: the multilevel cache hierarchy simulation.          ---*/
/*---                                                   mp_cache.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The core: the levels, their sets and LRU update, one access through
   the hierarchy, the totals.  What is decided about the lines it moves
   is in the other files of the simulation (see mp_cache_int.h): why a
   line missed (mp_miss_causes.c, mp_cold_bits.c, mp_l1_oracle.c), the
   invalidations a write causes (mp_coherence.c), what the prefetcher
   asks for (mp_cache_prefetch.c), whether a configuration can be
   simulated (mp_cache_config.c).

   Notes:
   - Each level is set-associative with true LRU replacement, write-
     allocate and write-back.  Sets = size / (assoc * line) must be a
     power of two; a level with one set is fully associative.  A line's
     set is its line number (address / line size) modulo the sets, as
     in Cachegrind.
   - All levels have the same line size: a fill moves one line through
     the whole hierarchy (mixed sizes would need sectored lines).
   - Levels are neither inclusive nor exclusive, like Cachegrind's: an
     access goes to its core's L1; a miss there goes to that core's L2
     instance, and so on down to memory.  Every level that missed is
     filled, deepest first, as the data comes back.  A deeper level's
     eviction never invalidates the levels above (no back-invalidation).
   - Topology: level k has cores / shared_by[k] instances; core c uses
     instance c / shared_by[k].  Sharing nests: shared_by[k+1] is a
     multiple of shared_by[k], so all the cores of one instance use the
     same instances below it.  An instance's tables are made at the
     first access of one of its cores.
   - Write-back: a write dirties the line in L1 only.  A dirty line
     evicted from level k counts one write-back at level k.  The write-
     back is NOT an access of the next level (Cachegrind models no
     write-backs, and this keeps hit and miss counts comparable with
     its): it changes no LRU order and fills nothing.  It only marks the
     line dirty in the nearest deeper level of the same core that holds
     it (if none does, it went to memory), so that L2 and L3 count
     write-backs too.  Lines still dirty at mp_cache_finish are not
     counted.
   - An access straddling lines touches each line in address order,
     each one through the whole hierarchy.  A level counts one miss for
     the access if any line missed it; the cause reported is the first
     missing line's.  Only the lines that missed L1 go on to L2; that
     differs from Cachegrind, which sends the whole access to LL when
     either of its two lines missed D1 (rare, and tiny).
   - Reuse: each resident line remembers the owner tag of the access
     that filled it and its hits since; on_retire reports them when the
     line leaves (eviction, invalidation, mp_cache_finish).
   - Invariants of a set (set_ref, mp_cache_int.h): a line is in at
     most one of its ways; an invalid way has tag NO_TAG and stamp 0;
     the valid ways' stamps are distinct and order them by last use
     (the clock only grows), so the smallest stamp is the LRU way or an
     invalid one; *mru is the way accessed last, whose stamp is the
     largest unless it was invalidated since.  A way's node bits are
     only a hint into the shadow (checked before use).  An instance's
     sets are written by its own cores' accesses and prefetches, and by
     the other cores' writes (invalidations) and fills (the end of an
     exclusive copy).

   Cost per access, for each line it touches (the other parts' costs
   are in their files):
   - each level reached: one set lookup, up to assoc tag compares (the
     way hit last in the set is tried first).  LRU order is kept by
     stamping the way accessed with a clock, so nothing moves on a hit
     or a fill; a fill scans the set's stamps for the oldest.  (A list
     kept in LRU order, as Cachegrind's, moves assoc tags per fill and
     the metadata with them; the stamps measured cheaper, and the unit
     tests check them against such lists.)  A level with a large
     associativity costs that much per access.
   - each level reached: one step of its miss-cause shadow
     (mp_miss_causes.c).
   - an L1 miss: one look-up of the line's cold bits (mp_cold_bits.c),
     prefetched with the next level's set and shadow slot while the
     levels are looked up.
   - one indirect call per line retired, when on_retire is set.
   - without a prefetcher, mp_cache_access tests one pointer and runs a
     copy of the access compiled without the prefetcher's tests on the
     L1-hit path; the miss path tests a few bits (the mark of the ways
     it hits or evicts, the pointer): predictable branches, 0.5% of the
     engine's instructions on a matrix multiply.
   Memory: per line of each instance 8 (tag) + 8 (stamp) + 16 (meta)
   bytes and per set 8 (the way hit last), plus the shadow's and the
   cold bits' (their files); instances are allocated when the first of
   their cores accesses, so a configuration of many cores costs only
   for the cores used.
   Measured on the host (-O2; 32 KiB 8-way L1 + 1 MiB 16-way L2, one
   core): about 120 instructions and 10-20 ns per L1 hit, about 940
   instructions and 100-200 ns per access missing both levels (a
   quarter of it in the two shadows); 200 instructions per access on
   the stream of a naive matrix multiply (6% L1 misses).
*/
#include "mp_cache.h"
#include "mp_cache_int.h"

/*------------------------------------------------------------*/
/*--- Instances and sets                                   ---*/
/*------------------------------------------------------------*/

static void instance_alloc(mp_cache *c, uint32_t k, instance *in)
{
   level *lv = &c->lv[k];
   uint64_t bytes = instance_map_bytes(lv->sets, lv->assoc, k);
   /* Fresh zero pages: every way invalid, and a run touching few sets
      of a large cache pays for those only. */
   in->sets = (uint8_t *)mp_zalloc_table("mp.cache.ways", bytes) + k * LEVEL_STAGGER;
   c->bytes += bytes;
   in->filled = mp_calloc("mp.cache.filled", mp_set_groups_words(lv->sets),
                          sizeof(uint64_t));
   c->bytes += mp_set_groups_words(lv->sets) * sizeof(uint64_t);
   if (lv->sets > 1 && !(k == 0 && c->l1_oracle))
      mpc_add_shadow(c, k, in);
}

/* Gives core its cold bit at its first access, and makes the instances
   it uses. */
static void activate_core(mp_cache *c, uint32_t core)
{
   uint32_t s, k;
   if (c->n_active == c->width * 8)
      mpc_widen(c);
   s = c->n_active++;
   c->core_bit[core] = (int32_t)s;
   for (k = 0; k < c->n_levels; k++) {
      instance *in = c->path[core * c->n_levels + k];
      if (!in->sets)
         instance_alloc(c, k, in);
      in->cores[s >> 3] |= (uint8_t)(1u << (s & 7));
      in->active++;
   }
}

/* The way to fill: an invalid one, else the least recently used. */
static uint32_t victim(const set_ref *s)
{
   uint32_t w, v = 0;
   uint64_t oldest = s->stamp[0];
   for (w = 1; w < s->assoc; w++)
      if (s->stamp[w] < oldest) {
         oldest = s->stamp[w];
         v = w;
      }
   return v;
}

/* find_way and victim in one pass, for the levels below L1 (where most
   lookups miss): the way holding line, else -1 and *v the way to fill. */
static int find_or_victim(const set_ref *s, uint64_t line, uint32_t *v)
{
   uint32_t w, best = 0;
   uint64_t oldest = ~0ULL, t = TAG_OF(line);
   for (w = 0; w < s->assoc; w++) {
      if (s->tag[w] == t)
         return (int)w;
      if (s->stamp[w] < oldest) {
         oldest = s->stamp[w];
         best = w;
      }
   }
   *v = best;
   return -1;
}

static void touch(mp_cache *c, const set_ref *s, uint32_t w)
{
   s->stamp[w] = ++c->clock;
   *s->mru = w;
}

/*------------------------------------------------------------*/
/*--- One line through the hierarchy                       ---*/
/*------------------------------------------------------------*/

/* The line, in way w of set s, was reached: LRU order and shadow. */
static INLINE void reach(mp_cache *c, instance *in, const set_ref *s, uint32_t w,
                         uint64_t line)
{
   /* Stamps only order the ways of one set: the way accessed last in
      its set needs no new one. */
   if (w != *s->mru)
      touch(c, s, w);
   shadow_reach(c, in, &s->meta[w], line);
}

/* A demand access hit the line in way w of set s.  Returns 1 if a
   prefetch brought the line and this is its first touch: that is the
   line's fill for the reuse factor, not a hit (the caller then calls
   mpc_first_touch).  pf: a constant, 0 where no line can be prefetched
   (the L1-hit path of a cache without a prefetcher, which then tests
   nothing). */
static INLINE int hit(mp_cache *c, instance *in, const set_ref *s, uint32_t w,
                      uint64_t line, const int pf)
{
   way_meta *m = &s->meta[w];
   reach(c, in, s, w, line);
   if (pf && __builtin_expect((m->hits & H_PREF) != 0, 0)) {
      m->hits = 0;
      return 1;
   }
   m->hits++;
   return 0;
}

/* A dirty line left level from - 1 of core's path: mark it dirty in the
   nearest deeper level holding it (not an access: no LRU change). */
static void write_back(mp_cache *c, instance **path, uint32_t from, uint64_t line)
{
   uint32_t k;
   for (k = from; k < c->n_levels; k++) {
      set_ref s = set_of(&c->lv[k], path[k], line);
      int w = find_way(&s, line);
      if (w >= 0) {
         s.meta[w].bits |= W_DIRTY;
         return;
      }
   }
}

/* Puts line in its set at level k, in place of way w (the LRU one);
   returns the line's meta. */
static INLINE way_meta *fill(mp_cache *c, instance **path, uint32_t k, uint32_t w,
                             uint64_t line, uint32_t owner, uint32_t node,
                             mp_cache_outcome *out)
{
   level *lv = &c->lv[k];
   set_ref s = set_of(lv, path[k], line);
   way_meta *m = &s.meta[w];
   mp_set_groups_mark(path[k]->filled, line & lv->set_mask);
   if (s.tag[w] != NO_TAG) {
      retire(c, k, m);
      if (m->bits & W_DIRTY) {
         out->writebacks[k]++;
         lv->tot.writebacks++;
         write_back(c, path, k + 1, LINE_OF(s.tag[w]));
      }
   }
   s.tag[w] = TAG_OF(line);
   touch(c, &s, w);
   m->hits = 0;
   m->owner = owner;
   m->bits = node;
   return m;
}

/* The prefetcher's fill (see mp_cache_prefetch.c): not an access.  The
   level holding the line is reached, as a read miss would; the levels
   that missed are filled, their shadows stepped, each way marked
   prefetched. */
void mpc_prefetch_line(mp_cache *c, instance **path, uint32_t core, uint64_t line,
                       uint32_t owner, mp_cache_outcome *out)
{
   uint32_t p = c->pf_level, k, served;
   uint32_t node[MP_CACHE_MAX_LEVELS], way[MP_CACHE_MAX_LEVELS];
   c->pft.requests++;
   for (k = p; k < c->n_levels; k++) {
      set_ref st = set_of(&c->lv[k], path[k], line);
      int w = find_or_victim(&st, line, &way[k]);
      if (w >= 0) {
         if (k == p)
            return;   /* there already: dropped */
         reach(c, path[k], &st, (uint32_t)w, line);   /* read from here */
         break;
      }
   }
   served = k;
   c->pft.issued++;
   for (k = p; k < served; k++) {
      instance *in = path[k];
      node[k] = 0;
      if (in->fa.cap && fa_sampled(&in->fa, line))
         fa_access(&in->fa, line, shadow_hint(c, in, line), &node[k]);
      /* Filled again: no longer an invalidated line there. */
      if (in->inval.n)
         mpc_lineset_remove(&in->inval, line);
   }
   for (k = served; k-- > p;)
      fill(c, path, k, way[k], line, owner, node[k], out)->hits = H_PREF;
   /* A copy more: other L1s' copies are no longer the only ones. */
   if (c->lv[0].n_inst > 1)
      mpc_end_exclusive(c, core, line, cold_bits(c, line));
}

/* The line missed core's L1 (at addr, within it). */
static OUT_OF_LINE void miss_line(mp_cache *c, instance **path, uint32_t core,
                                  uint64_t first, uint64_t line, uint64_t addr,
                                  int is_write, uint32_t owner, uint64_t pc,
                                  mp_cache_outcome *out)
{
   uint32_t node[MP_CACHE_MAX_LEVELS], way[MP_CACHE_MAX_LEVELS];
   int fa[MP_CACHE_MAX_LEVELS];
   uint64_t mix = mp_mix64(line);   /* for the sampled levels */
   uint8_t *bits = cold_bits(c, line);
   uint32_t k, served;
   way_meta *m0 = NULL;   /* the line's meta in L1, once filled */

   /* Find the level serving the line, then step the shadows of the
      levels that missed (each shadow is its level's alone: the order
      does not matter), then classify the misses.  The reads started at
      the miss (the cold bits and the line's hints in the exact shadows,
      side by side; each next level's set and shadow slot) then overlap
      with the set look-ups of the levels in between. */
   __builtin_prefetch(bits);
   if (c->last_chunk->hint)   /* cold_bits found the line's chunk */
      __builtin_prefetch(c->last_chunk->hint
                         + (mpc_table_line(c, line) & (CHUNK_LINES - 1)) * c->n_exact);
   for (k = 0; k < c->n_levels; k++) {
      set_ref st = set_of(&c->lv[k], path[k], line);
      if (k == 0) {
         way[0] = victim(&st);   /* access_line found no match */
      } else {
         int w = find_or_victim(&st, line, &way[k]);
         if (w >= 0) {
            if (hit(c, path[k], &st, (uint32_t)w, line, 1))
               mpc_first_touch(c, k, &st.meta[w], owner, out);
            break;
         }
      }
      if (k + 1 < c->n_levels) {
         set_ref nx = set_of(&c->lv[k + 1], path[k + 1], line);
         const fa_shadow *nfa = &path[k + 1]->fa;
         __builtin_prefetch(nx.mru);
         __builtin_prefetch((const uint8_t *)nx.mru + 128);
         if (nfa->slot && !(mix & nfa->sample_mask))
            __builtin_prefetch(&nfa->slot[fa_hash(line) >> nfa->hshift]);
      }
   }
   served = k;
   for (k = 0; k < served; k++)
      fa[k] = shadow_verdict(c, path[k], k, core, first, line, mix, &node[k]);
   if (served > out->served_by)
      out->served_by = served;
   for (k = 0; k < served; k++) {
      uint8_t cause = classify(c, path[k], bits, line, fa[k]);
      if (!out->missed[k]) {
         out->missed[k] = 1;
         out->cause[k] = cause;
      }
   }
   for (k = served; k-- > 0;)
      m0 = fill(c, path, k, way[k], line, owner, node[k], out);
   mark_touched(c, core, bits);

   if (is_write)
      mpc_write_l1(c, core, line, m0, bits, out);
   else if (c->lv[0].n_inst > 1)
      mpc_end_exclusive(c, core, line, bits);
   /* Last: a prefetch's fill may evict m0 (a one-set L1). */
   if (__builtin_expect(c->pf != NULL, 0))
      mpc_train(c, path, core, addr, pc, owner, out);
}

/* Returns the line's meta in L1 if it hit there on a line an access
   filled or touched before, else NULL.  first: the access's first line.
   pf: a constant, whether the cache has a prefetcher (without one, the
   addresses are not needed). */
static INLINE const way_meta *access_line(mp_cache *c, instance **path, uint32_t core,
                                          uint64_t first, uint64_t line,
                                          uint64_t addr, int is_write,
                                          uint32_t owner, uint64_t pc,
                                          mp_cache_outcome *out, const int pf)
{
   set_ref l1 = set_of(&c->lv[0], path[0], line);
   int w = find_way(&l1, line);
   if (w < 0) {
      miss_line(c, path, core, first, line, pf ? addr : 0, is_write, owner, pf ? pc : 0,
                out);
      return NULL;
   }
   if (hit(c, path[0], &l1, (uint32_t)w, line, pf)) {
      mpc_first_touch_l1(c, path, core, line, addr, is_write, owner, pc, &l1.meta[w], out);
      return NULL;   /* the owner had not touched the line */
   }
   if (is_write)
      mpc_write_l1(c, core, line, &l1.meta[w], NULL, out);
   return &l1.meta[w];
}

/* Adds an access that missed L1 to the totals of the levels it reached. */
static OUT_OF_LINE void count_deeper(mp_cache *c, const mp_cache_outcome *out)
{
   uint32_t k;
   for (k = 0; k < c->n_levels; k++) {
      level *lv = &c->lv[k];
      if (k > 0) {
         if (!out->missed[k - 1])
            break;
         lv->tot.accesses++;
      }
      if (out->missed[k]) {
         lv->tot.misses++;
         lv->tot.cause[out->cause[k]]++;
      } else if (out->prefetched[k]) {
         lv->tot.prefetched++;
      }
   }
}

/*------------------------------------------------------------*/
/*--- The interface                                        ---*/
/*------------------------------------------------------------*/

/* mp_cache_access, for a cache with a prefetcher (pf 1) or without. */
static INLINE void access(mp_cache *c, uint32_t core, uint64_t addr, uint32_t size,
                          int is_write, uint32_t owner, uint64_t pc,
                          mp_cache_outcome *out, const int pf)
{
   static const mp_cache_outcome none;
   uint64_t line, last;
   instance **path;

   mp_assert(!c->finished && core < c->cores);
   *out = none;
   if (c->core_bit[core] < 0)
      activate_core(c, core);
   path = c->path + core * c->n_levels;

   line = addr >> c->line_shift;
   last = (addr + size - (size > 0)) >> c->line_shift;
   if (last == line) {
      const way_meta *m = access_line(c, path, core, line, line, addr, is_write, owner,
                                      pc, out, pf);
      out->owner_hit = m != NULL && m->owner == owner;
   } else {
      uint64_t first = line;
      if (last < line)   /* wrapped past the top of the address space */
         last = EMPTY >> c->line_shift;
      for (;; line++) {
         if (!c->sampled_sets || c->sampled_sets[line & c->lv[0].set_mask])
            access_line(c, path, core, first, line,
                        line == first ? addr : line << c->line_shift,
                        is_write, owner, pc, out, pf);
         if (line == last)
            break;
      }
   }
   c->lv[0].tot.accesses++;
   if (out->missed[0])
      count_deeper(c, out);
   else if (pf && out->prefetched[0])
      c->lv[0].tot.prefetched++;
}

static OUT_OF_LINE void access_prefetching(mp_cache *c, uint32_t core, uint64_t addr,
                                           uint32_t size, int is_write, uint32_t owner,
                                           uint64_t pc, mp_cache_outcome *out)
{
   access(c, core, addr, size, is_write, owner, pc, out, 1);
}

/* Two copies of the access: without a prefetcher, the L1-hit path is
   exactly what it would be without the model (measured: testing the
   prefetched bit on every L1 hit, and carrying the addresses for the
   detectors, cost 8% of the engine's time on a matrix multiply). */
void mp_cache_access(mp_cache *c, uint32_t core, uint64_t addr, uint32_t size,
                     int is_write, uint32_t owner, uint64_t pc, mp_cache_outcome *out)
{
   if (__builtin_expect(c->pf != NULL, 0))
      access_prefetching(c, core, addr, size, is_write, owner, pc, out);
   else
      access(c, core, addr, size, is_write, owner, pc, out, 0);
}

/* The sampled sets' ranks, for the per-line tables (mpc_table_line). */
static void rank_sampled_sets(mp_cache *c)
{
   uint32_t set, sets = c->lv[0].sets, rank = 0;
   c->set_rank = mp_malloc("mp.cache.ranks", sets * sizeof *c->set_rank);
   for (set = 0; set < sets; set++)
      c->set_rank[set] = c->sampled_sets[set] ? ++rank : 0;
   c->n_sampled_sets = rank;
   c->set_bits = log2_of(sets);
   c->bytes += sets * sizeof *c->set_rank;
}

mp_cache *mp_cache_new(const mp_cache_cfg *cfg, const char **err)
{
   mp_cache *c;
   uint32_t k, core;
   const char *why = mpc_check_cfg(cfg);
   if (why) {
      *err = why;
      return NULL;
   }
   c = mp_calloc("mp.cache.new.1", 1, sizeof *c);
   c->n_levels = cfg->n_levels;
   c->cores = cfg->cores;
   c->line_shift = log2_of(cfg->level[0].line);
   c->sample_shift = cfg->sample_shift;
   c->set_sample_shift = cfg->set_sample_shift;
   c->sampled_sets = cfg->set_sample_shift ? cfg->sampled_sets : NULL;
   c->on_retire = cfg->on_retire;
   c->on_invalidate = cfg->on_invalidate;
   c->retire_arg = cfg->retire_arg;
   c->width = 1;
   c->bytes = sizeof *c;
   mpc_prefetch_init(c, cfg);
   for (k = 0; k < c->n_levels; k++) {
      const mp_cache_level_cfg *L = &cfg->level[k];
      level *lv = &c->lv[k];
      uint32_t i;
      mpc_level_name(cfg, k, lv->name);
      lv->assoc = L->assoc;
      lv->sets = (uint32_t)(L->size / ((uint64_t)L->assoc * L->line));
      lv->set_mask = lv->sets - 1;
      lv->set_bytes = set_block_bytes(L->assoc);
      lv->sample_shift = mpc_shadow_sample_shift(cfg, k);
      lv->shared_by = L->shared_by;
      lv->n_inst = c->cores / L->shared_by;
      lv->inst = mp_calloc("mp.cache.new.2", lv->n_inst, sizeof(instance));
      for (i = 0; i < lv->n_inst; i++) {
         lv->inst[i].cores = mp_calloc("mp.cache.mask", 1, c->width);
         lv->inst[i].exact_id = -1;   /* mpc_add_exact_shadow, when made */
      }
      c->bytes += lv->n_inst * (sizeof(instance) + c->width);
   }
   c->path = mp_malloc("mp.cache.new.3", (size_t)c->cores * c->n_levels * sizeof(instance *));
   c->core_bit = mp_malloc("mp.cache.new.4", c->cores * sizeof(int32_t));
   for (core = 0; core < c->cores; core++) {
      c->core_bit[core] = -1;
      for (k = 0; k < c->n_levels; k++)
         c->path[core * c->n_levels + k] = &c->lv[k].inst[core / c->lv[k].shared_by];
   }
   c->bytes += (uint64_t)c->cores * (c->n_levels * sizeof(instance *) + sizeof(int32_t));
   if (c->sampled_sets)
      rank_sampled_sets(c);
   mpc_cold_bits_init(c);
   return c;
}

void mp_cache_finish(mp_cache *c)
{
   uint32_t k, i, w;
   uint64_t set;
   mp_assert(!c->finished);
   c->finished = 1;
   for (k = 0; k < c->n_levels; k++)
      for (i = 0; i < c->lv[k].n_inst; i++) {
         instance *in = &c->lv[k].inst[i];
         if (!in->sets)
            continue;
         for (set = 0; set < c->lv[k].sets; set++) {
            set_ref s;
            if (!mp_set_groups_used(in->filled, set)) {
               set |= MP_SET_GROUP - 1;   /* no line ever entered the group */
               continue;
            }
            s = set_number(&c->lv[k], in, set);
            for (w = 0; w < s.assoc; w++)
               if (s.tag[w] != NO_TAG)
                  retire(c, k, &s.meta[w]);
         }
      }
}

void mp_cache_get_raw_totals(const mp_cache *c, uint32_t k, mp_cache_totals *t)
{
   mp_assert(k < c->n_levels);
   *t = c->lv[k].tot;
}

void mp_cache_set_raw_totals(mp_cache *c, uint32_t k, const mp_cache_totals *t)
{
   mp_assert(k < c->n_levels);
   c->lv[k].tot = *t;
}

void mp_cache_get_totals(const mp_cache *c, uint32_t k, mp_cache_totals *t)
{
   mp_cache_get_raw_totals(c, k, t);
   mp_cache_split_unclassified(t->cause, NULL);
}

uint64_t mp_cache_bytes(const mp_cache *c)
{
   return c->bytes + (c->pf ? mp_prefetch_bytes(c->pf) : 0);
}

void mp_cache_free(mp_cache *c)
{
   uint32_t k, i;
   if (c->set_rank)
      mp_free(c->set_rank);
   for (k = 0; k < c->n_levels; k++) {
      for (i = 0; i < c->lv[k].n_inst; i++) {
         instance *in = &c->lv[k].inst[i];
         if (in->sets)
            mp_free_table(in->sets - k * LEVEL_STAGGER,
                          instance_map_bytes(c->lv[k].sets, c->lv[k].assoc, k));
         mpc_shadow_free(in);
         mpc_lineset_free(&in->inval);
         if (in->filled)
            mp_free(in->filled);
         mp_free(in->cores);
      }
      mp_free(c->lv[k].inst);
   }
   mpc_cold_bits_free(c);
   mp_free(c->path);
   mp_free(c->core_bit);
   if (c->pf)
      mp_prefetch_free(c->pf);
   mp_free(c);
}
