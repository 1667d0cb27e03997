/*--------------------------------------------------------------------*/
/*--- memprof: the cache simulation's own types and inlines.       ---*/
/*---                                               mp_cache_int.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Private to the files of the cache simulation, which include it after
   mp_cache.h (it does not include mp_cache.h itself: the two modules
   would include each other):

     mp_cache.c           the set-associative LRU core: levels, sets,
                          one access through the hierarchy, totals
     mp_cache_config.c    the configuration's checks, table sizes
     mp_miss_causes.c     the fully-associative shadows (capacity or
                          conflict), sampled or exact; the estimate
     mp_cold_bits.c       per line of memory: which cores accessed it,
                          and its node in each exact shadow
     mp_coherence.c       write-invalidate between the cores' caches
     mp_l1_oracle.c       the L1's verdicts from the reuse history
     mp_cache_prefetch.c  the hardware prefetcher's hook

   Here: the state they share (struct mp_cache and its parts, with
   their invariants), and the operations an access runs inlined today,
   static inline whatever file owns their concern (a call from one file
   to another cannot be inlined: the access would pay a call where it
   paid none).  What runs out of line is declared here and defined in
   its own file.  The model and the cost of each part per access are in
   the comment at the top of each file.
*/
#ifndef MP_CACHE_INT_H
#define MP_CACHE_INT_H

#ifndef MP_CACHE_H
#error "include mp_cache.h before mp_cache_int.h"
#endif
#include "mp_util.h"

#define EMPTY       (~0ULL)       /* free slot of a lineset: line numbers are
                                     below 2^61 since lines are >= 8 bytes */
/* A way's tag is its line number plus one, so that 0 marks an invalid
   way and a fresh (zero) table is all invalid ways. */
#define TAG_OF(line) ((line) + 1)
#define LINE_OF(tag) ((tag) - 1)
#define NO_TAG       0
#define NIL         0xffffffffu   /* no shadow node */
#define W_DIRTY     0x80000000u   /* way_meta.bits: written since the fill */
#define W_EXCL      0x40000000u   /* L1 only: no other instance holds it */
#define W_NODE      0x3fffffffu   /* shadow node of the line (a hint) */
#define H_PREF      (1ULL << 63)  /* way_meta.hits: a prefetch filled the way
                                     and no access has touched it since; the
                                     hits are 0 then (no count reaches 2^63) */
#define MAX_LINES   (1u << 30)    /* lines per level, so a node fits W_NODE */
#define CHUNK_SHIFT 12            /* lines per chunk of cold bits: 4096 */
#define CHUNK_LINES (1u << CHUNK_SHIFT)

/* The L1-hit path is inlined whole into mp_cache_access, the rest is
   kept out of line (measured: a third fewer instructions per hit). */
#define OUT_OF_LINE __attribute__((noinline))
#define INLINE      inline __attribute__((always_inline))

/*------------------------------------------------------------*/
/*--- Types                                                ---*/
/*------------------------------------------------------------*/

/* What a cache way knows besides its tag. */
typedef struct {
   uint64_t hits;     /* hits on the line at this level since its fill,
                         or H_PREF */
   uint32_t owner;    /* caller's tag of the access that filled it */
   uint32_t bits;     /* W_DIRTY | W_EXCL | shadow node */
} way_meta;

/* A set of line numbers (mp_coherence.c): open addressing, linear
   probing, EMPTY free. */
typedef struct {
   uint64_t *key;
   uint32_t cap;      /* slots, a power of two; 0 until the first add */
   uint32_t n;        /* lines held, <= cap / 2 */
   uint32_t shift;    /* 64 - log2(cap) */
} lineset;

/* The fully-associative LRU shadow of one instance, for the 3C split
   (mp_miss_causes.c). */
typedef struct {
   uint64_t key;      /* line number */
   uint32_t prev, next;   /* towards MRU / LRU; NIL at the ends */
} fa_node;

/* A slot of the shadow's hash table.  The hash doubles as a fingerprint
   (probes compare it before reading the node) and gives the home slot
   when deleting, so a probe touches the table alone. */
typedef struct {
   uint32_t hash;     /* fa_hash of the line */
   uint32_t node;     /* node + 1; 0: free slot */
} fa_slot;

typedef struct {
   fa_node *node;     /* cap nodes; [0, used) in use */
   fa_slot *slot;     /* hash table of a sampled shadow; NULL when exact
                         (an exact shadow finds a line's node through the
                         line's hint, kept beside its cold bits) */
   uint64_t sample_mask;  /* a line is fed iff mp_mix64(line) & sample_mask
                             is 0; 0: every line (exact) */
   uint32_t cap;      /* lines, = lines of the instance >> sample shift;
                         0: no shadow */
   uint32_t used;
   uint32_t head, tail;   /* MRU, LRU node */
   uint32_t smask;    /* slots - 1; slots a power of two >= 2 * cap */
   uint32_t hshift;   /* home slot = hash >> hshift */
} fa_shadow;

typedef struct {
   uint8_t *sets;     /* the sets' blocks (set_of); NULL until one of
                         the cores is active */
   fa_shadow fa;
   int32_t exact_id;  /* its index among the exact shadows' hints, given
                         when the instance is made; -1 before, or if its
                         shadow is sampled or it has none */
   lineset inval;     /* invalidated here and not refilled since */
   uint64_t *filled;  /* the groups of sets a line was filled in
                         (mp_set_groups_*): mp_cache_finish reads those
                         only, where reading every set of a 32 MiB L3
                         faulted in 16 MB of zero pages at the end */
   uint8_t *cores;    /* cold-bit mask of the active cores using this
                         instance (width bytes) */
   uint32_t active;   /* active cores using this instance */
} instance;

typedef struct {
   char name[16];
   uint32_t sets, assoc, shared_by, n_inst;
   uint64_t set_bytes; /* of a set's block: set_block_bytes(assoc) */
   uint32_t sample_shift;  /* of the shadows' feed; 0: exact */
   uint64_t set_mask;  /* sets - 1 */
   instance *inst;     /* n_inst */
   mp_cache_totals tot;
} level;

/* Chunks of cold bits, keyed by table line >> CHUNK_SHIFT
   (mpc_table_line), and of the exact
   shadows' hints: per line, the node + 1 that holds it in the shadow (0:
   never held).  A hint is right if that node's key is the line: a line
   enters a shadow only with its hint set, and a node reused by another
   line no longer has its key.  A line's hints in every exact shadow are
   side by side (a miss in L1 and L2 reads two: on scattered accesses
   one host cache miss, where an array per shadow made it two). */
typedef struct {
   uint64_t id;       /* chunk number + 1; 0: free slot */
   uint8_t *bits;     /* CHUNK_LINES * width bytes */
   uint32_t *hint;    /* CHUNK_LINES * n_exact: line i's hint in exact
                         shadow j at i * n_exact + j; NULL until used */
} chunk_slot;

struct mp_cache {
   uint32_t n_levels, cores, line_shift;
   uint32_t sample_shift;  /* as configured */
   uint32_t set_sample_shift;  /* as configured: the feed is 1/2^s of the sets */
   const uint8_t *sampled_sets;  /* ... those of L1 with a nonzero byte */
   /* With a sample of sets: per L1 set, its rank among the sampled
      ones + 1 (0: not sampled), and how many there are; the per-line
      tables number a line by its rank in the sample (mpc_table_line). */
   uint32_t *set_rank;
   uint32_t set_bits, n_sampled_sets;
   level lv[MP_CACHE_MAX_LEVELS];
   instance **path;    /* [core * n_levels + k]: the instance core uses at k */
   int32_t *core_bit;  /* per core: its cold bit, -1 before its first access */
   uint32_t n_active;  /* cores that have accessed so far */
   uint32_t width;     /* bytes of cold bits per line: width * 8 >= n_active */

   chunk_slot *chunks; /* hash table, power of two, <= half full */
   uint32_t chunk_cap, n_chunks, chunk_shift;
   uint64_t last_id;   /* last chunk used (id), a one-entry cache */
   chunk_slot *last_chunk;
   uint32_t n_exact;   /* instances with an exact shadow made so far */
   /* The L1's miss causes come from here instead of L1 shadows, until
      mp_cache_l1_shadows (mp_cache_set_l1_oracle); NULL: shadows. */
   mp_cache_l1_oracle l1_oracle;
   void *oracle_arg;

   void (*on_retire)(void *arg, uint32_t level, uint32_t owner, uint64_t hits);
   void (*on_invalidate)(void *arg, uint32_t level, uint32_t owner);
   void *retire_arg;
   uint64_t clock;     /* LRU time, bumped by every stamp */
   int finished;
   uint64_t bytes;     /* metadata allocated */
   /* The prefetcher, last: the fields above that every access reads
      keep their places (and host cache lines). */
   mp_prefetch *pf;    /* the detectors, NULL without a prefetcher */
   mp_prefetch_cfg pf_cfg;
   uint32_t pf_level;  /* the level prefetches fill */
   uint32_t unfiltered;/* first level whose instances a write searches
                          without the cold-bit filter: pf_level with a
                          prefetcher, else n_levels (none) */
   mp_cache_prefetch_totals pft;
};

/* Fibonacci hashing: the top bits of x * 2^64/phi spread consecutive
   lines (the common case) over the table. */
static inline uint32_t hash_index(uint64_t x, uint32_t shift)
{
   return (uint32_t)((x * 0x9e3779b97f4a7c15ULL) >> shift);
}

static inline uint32_t log2_of(uint64_t pow2)
{
   uint32_t n = 0;
   while ((1ULL << n) < pow2)
      n++;
   return n;
}

/*------------------------------------------------------------*/
/*--- Sets (mp_cache.c's; coherence and the oracle read)   ---*/
/*------------------------------------------------------------*/

/* An instance's sets are blocks of set_block_bytes(assoc), one after
   the other in one mapping: the way accessed last (4 bytes, padded to
   8), then the set's tags, stamps and way metadata.  A look-up that
   misses reads the first three, contiguous: in a large level, whose sets
   miss the host's caches, one host page and two to five adjacent host
   lines, which the host's prefetchers fetch together, where four arrays
   put them in four pages and lines apart.  The mapping of level k starts
   k * LEVEL_STAGGER bytes into its page, so that a line's sets at L1, L2
   and L3 do not all start at the same page offset (4K aliasing: a store
   to one delays loads from the others). */
#define LEVEL_STAGGER  320   /* 5 host cache lines */

static inline uint64_t set_block_bytes(uint32_t assoc)
{
   return sizeof(uint64_t) + (uint64_t)assoc * (2 * sizeof(uint64_t) + sizeof(way_meta));
}

/* Bytes of the mapping of an instance of level k. */
static inline uint64_t instance_map_bytes(uint64_t sets, uint32_t assoc, uint32_t k)
{
   return k * LEVEL_STAGGER + sets * set_block_bytes(assoc);
}

/* One set of one instance.  True LRU by time stamps: an access stamps
   its way with the cache's clock, a fill takes the way with the oldest
   stamp (invalid ways have 0).  Nothing moves on a hit or a fill, unlike
   a list kept in LRU order; a miss scans the stamps once more.
   Invariants: a line is in at most one way of its set; *mru < assoc. */
typedef struct {
   uint64_t *tag, *stamp;
   way_meta *meta;
   uint32_t *mru;
   uint32_t assoc;
} set_ref;

static inline set_ref set_number(const level *lv, const instance *in, uint64_t set)
{
   uint8_t *block = in->sets + set * lv->set_bytes;
   set_ref s;
   s.mru = (uint32_t *)block;
   s.tag = (uint64_t *)(block + sizeof(uint64_t));
   s.stamp = s.tag + lv->assoc;
   s.meta = (way_meta *)(s.stamp + lv->assoc);
   s.assoc = lv->assoc;
   return s;
}

static inline set_ref set_of(const level *lv, const instance *in, uint64_t line)
{
   return set_number(lv, in, line & lv->set_mask);
}

/* The way holding line, -1 if none. */
static inline int find_way(const set_ref *s, uint64_t line)
{
   uint64_t t = TAG_OF(line);
   uint32_t w = *s->mru;
   if (s->tag[w] == t)
      return (int)w;
   for (w = 0; w < s->assoc; w++)
      if (s->tag[w] == t)
         return (int)w;
   return -1;
}

/* A prefetched line leaves level k untouched (mp_cache_prefetch.c). */
void mpc_retire_untouched(mp_cache *c, uint32_t k);

/* The line of way meta m leaves level k: its fill is reported. */
static inline void retire(mp_cache *c, uint32_t k, const way_meta *m)
{
   if (m->hits & H_PREF)
      mpc_retire_untouched(c, k);
   else if (c->on_retire)
      c->on_retire(c->retire_arg, k, m->owner, m->hits);
}

/* mp_cache.c: brings line into the prefetch level of core's path
   unless it is there already, as a read miss would (the prefetcher's
   fill: see mp_cache_prefetch.c). */
void mpc_prefetch_line(mp_cache *c, instance **path, uint32_t core, uint64_t line,
                       uint32_t owner, mp_cache_outcome *out);

/*------------------------------------------------------------*/
/*--- Cold bits and hints (mp_cold_bits.c)                 ---*/
/*------------------------------------------------------------*/

/* Where the per-line tables (cold bits, hints) keep line.  With a
   sample of whole sets (--sample=lines) its rank among the sampled
   lines: its number above the L1's set bits times the sampled sets,
   plus its set's rank.  The tables are made by chunk of 4096 lines,
   and a sample of whole sets has lines in every chunk of the
   program's, so without the ranks they would cost per touched line
   what they cost unsampled.  A line outside the sample (none is fed)
   would keep its own number, above every rank. */
static inline uint64_t mpc_table_line(const mp_cache *c, uint64_t line)
{
   uint32_t r;
   if (c->set_rank == NULL)
      return line;
   r = c->set_rank[line & c->lv[0].set_mask];
   if (r == 0)
      return line | (1ULL << 63);
   return (line >> c->set_bits) * c->n_sampled_sets + (r - 1);
}

/* The chunk of table line t (mpc_table_line), made on first touch
   (its cold bits zero). */
chunk_slot *mpc_chunk_of(mp_cache *c, uint64_t t);
/* The hint of line in the exact shadow of in, 0 on first touch. */
uint32_t *mpc_exact_hint(mp_cache *c, const instance *in, uint64_t line);
/* Gives in the next exact shadow's hints. */
void mpc_add_exact_shadow(mp_cache *c, instance *in);
/* Makes the empty table of chunks (mp_cache_new). */
void mpc_cold_bits_init(mp_cache *c);
/* Doubles the bytes of cold bits per line (a core beyond width * 8). */
void mpc_widen(mp_cache *c);
void mpc_cold_bits_free(mp_cache *c);

/* The cold bits of line (width bytes). */
static inline uint8_t *cold_bits(mp_cache *c, uint64_t line)
{
   uint64_t t = mpc_table_line(c, line);
   return mpc_chunk_of(c, t)->bits + (uint32_t)(t & (CHUNK_LINES - 1)) * c->width;
}

/* Whether any core of the instance has accessed the line. */
static inline int touched_by(const uint8_t *bits, const instance *in, uint32_t width)
{
   uint32_t b;
   for (b = 0; b < width; b++)
      if (bits[b] & in->cores[b])
         return 1;
   return 0;
}

/* Core has accessed the line of cold bits bits. */
static inline void mark_touched(mp_cache *c, uint32_t core, uint8_t *bits)
{
   uint32_t s = (uint32_t)c->core_bit[core];
   bits[s >> 3] |= (uint8_t)(1u << (s & 7));
}

/*------------------------------------------------------------*/
/*--- Coherence (mp_coherence.c)                           ---*/
/*------------------------------------------------------------*/

/* Adds line to s (if not there yet); removes it, returning whether it
   was there. */
void mpc_lineset_add(mp_cache *c, lineset *s, uint64_t line);
int mpc_lineset_remove(lineset *s, uint64_t line);
void mpc_lineset_free(lineset *s);
/* Core wrote the line, in its L1 with meta m0: dirties it and, unless
   core's copies are the only ones already, invalidates the others.
   bits: the line's cold bits, or NULL if not looked up yet. */
void mpc_write_l1(mp_cache *c, uint32_t core, uint64_t line, way_meta *m0,
                  const uint8_t *bits, mp_cache_outcome *out);
/* Another L1 instance than core's filled the line: the other L1s'
   copies are no longer the only ones. */
void mpc_end_exclusive(mp_cache *c, uint32_t core, uint64_t line, const uint8_t *bits);

/*------------------------------------------------------------*/
/*--- The L1 oracle (mp_l1_oracle.c)                       ---*/
/*------------------------------------------------------------*/

static inline uint64_t l1_lines(const mp_cache *c)
{
   return (uint64_t)c->lv[0].sets * c->lv[0].assoc;
}

/* Whether a fully-associative L1 would hold the line that missed
   core's L1, by the oracle (set: c->l1_oracle). */
static inline int l1_oracle_holds(mp_cache *c, uint32_t core, uint64_t first, uint64_t line)
{
   return c->l1_oracle(c->oracle_arg, core, first, line, l1_lines(c));
}

/*------------------------------------------------------------*/
/*--- Miss causes (mp_miss_causes.c)                       ---*/
/*------------------------------------------------------------*/

/* Brings a line known to be absent in, evicting the LRU one if full;
   returns its node.  hint: the line's hint if the shadow is exact, else
   NULL (the hash table then finds the node). */
uint32_t mpc_fa_insert(fa_shadow *fa, uint64_t line, uint32_t *hint);
/* Gives instance in of level k its fully-associative shadow, empty. */
void mpc_add_shadow(mp_cache *c, uint32_t k, instance *in);
void mpc_shadow_free(instance *in);
/* The sample shift of level k's shadows, and the host bytes of the
   shadow of an instance of lines lines sampled by shift. */
uint32_t mpc_shadow_sample_shift(const mp_cache_cfg *cfg, uint32_t k);
uint64_t mpc_fa_bytes(uint64_t lines, uint32_t shift);

/* The sample a line belongs to is picked by mp_mix64, whose every
   output bit depends on every bit of the line number.  The sample (top
   bits zero) is then independent of the set index: each set, and each
   stride through the sets, keeps its share of sampled lines.  (A
   multiplicative hash, as fa_hash, maps a strided walk to evenly spaced
   values: its sample would follow the stride.) */
static INLINE int fa_sampled(const fa_shadow *fa, uint64_t line)
{
   return !fa->sample_mask || !(mp_mix64(line) & fa->sample_mask);
}

static inline uint32_t fa_hash(uint64_t line)
{
   return hash_index(line, 32);
}

static inline uint32_t fa_find(const fa_shadow *fa, uint64_t line, uint32_t h)
{
   uint32_t i;
   for (i = h >> fa->hshift; fa->slot[i].node; i = (i + 1) & fa->smask)
      if (fa->slot[i].hash == h && fa->node[fa->slot[i].node - 1].key == line)
         return fa->slot[i].node - 1;
   return NIL;
}

static INLINE void fa_unlink(fa_shadow *fa, uint32_t n)
{
   fa_node *x = &fa->node[n];
   if (x->prev != NIL) fa->node[x->prev].next = x->next; else fa->head = x->next;
   if (x->next != NIL) fa->node[x->next].prev = x->prev; else fa->tail = x->prev;
}

static INLINE void fa_push_front(fa_shadow *fa, uint32_t n)
{
   fa_node *x = &fa->node[n];
   x->prev = NIL;
   x->next = fa->head;
   if (fa->head != NIL) fa->node[fa->head].prev = n; else fa->tail = n;
   fa->head = n;
}

static INLINE void fa_touch(fa_shadow *fa, uint32_t n)
{
   if (fa->head != n) {
      fa_unlink(fa, n);
      fa_push_front(fa, n);
   }
}

/* One access of the shadow; returns whether it hit, and the line's node.
   hint as for mpc_fa_insert.  Inlined, as fill: miss_line was their only
   caller before prefetch_line, and a call each cost 3% of the engine's
   instructions on a matrix multiply. */
static INLINE int fa_access(fa_shadow *fa, uint64_t line, uint32_t *hint, uint32_t *node)
{
   uint32_t n;
   if (hint)
      n = *hint && *hint <= fa->used && fa->node[*hint - 1].key == line ? *hint - 1 : NIL;
   else
      n = fa_find(fa, line, fa_hash(line));
   if (n != NIL) {
      fa_touch(fa, n);
      *node = n;
      return 1;
   }
   *node = mpc_fa_insert(fa, line, hint);
   return 0;
}

/* The same, for a line resident in the real cache whose way remembers
   the node it had in the shadow.  The node still holds the line, or the
   shadow evicted it since: a line re-enters the shadow only through an
   access reaching the instance, and every such access refreshes the
   hint (a hit here, or the fill after a miss).  So no hashing is
   needed to tell. */
static INLINE int fa_access_hinted(fa_shadow *fa, uint64_t line, uint32_t hint)
{
   if (hint < fa->used && fa->node[hint].key == line) {
      fa_touch(fa, hint);
      return 1;
   }
   return 0;
}

/* The line's hint in in's shadow if it is exact, else NULL. */
static inline uint32_t *shadow_hint(mp_cache *c, const instance *in, uint64_t line)
{
   return in->exact_id >= 0 ? mpc_exact_hint(c, in, line) : NULL;
}

/* A line resident in instance in, in the way of meta m, was reached:
   steps the shadow, refreshing the way's hint if the shadow had
   evicted the line. */
static INLINE void shadow_reach(mp_cache *c, instance *in, way_meta *m, uint64_t line)
{
   if (in->fa.cap && fa_sampled(&in->fa, line)
       && !fa_access_hinted(&in->fa, line, m->bits & W_NODE)) {
      uint32_t n = mpc_fa_insert(&in->fa, line, shadow_hint(c, in, line));
      m->bits = (m->bits & ~W_NODE) | n;
   }
}

/* What the shadow said of a line missing an instance. */
enum { FA_MISSED, FA_HIT, FA_UNSAMPLED };

/* The line missed level k's instance in (core's): steps its shadow, or
   asks the L1 oracle, and says whether a fully-associative instance
   would have hit; *node: the line's node, for its way (0 if none).
   mix: mp_mix64(line). */
static INLINE int shadow_verdict(mp_cache *c, instance *in, uint32_t k, uint32_t core,
                                 uint64_t first, uint64_t line, uint64_t mix,
                                 uint32_t *node)
{
   *node = 0;
   if (k == 0 && c->l1_oracle)
      return l1_oracle_holds(c, core, first, line) ? FA_HIT : FA_MISSED;
   /* One set: a fully-associative cache misses as the shadow would. */
   if (!in->fa.cap)
      return FA_MISSED;
   if (mix & in->fa.sample_mask)
      return FA_UNSAMPLED;
   return fa_access(&in->fa, line, shadow_hint(c, in, line), node) ? FA_HIT : FA_MISSED;
}

/* The cause of the miss of line at instance in, whose shadow said fa;
   bits: the line's cold bits, before this access's. */
static inline uint8_t classify(mp_cache *c, instance *in, const uint8_t *bits,
                               uint64_t line, int fa)
{
   if (!touched_by(bits, in, c->width))
      return MP_MISS_COLD;
   if (in->inval.n && mpc_lineset_remove(&in->inval, line))
      return MP_MISS_COHERENCE;
   return fa == FA_HIT ? MP_MISS_CONFLICT
        : fa == FA_MISSED ? MP_MISS_CAPACITY : MP_MISS_UNCLASSIFIED;
}

/*------------------------------------------------------------*/
/*--- The prefetcher's hook (mp_cache_prefetch.c)          ---*/
/*------------------------------------------------------------*/

/* Makes the detectors if cfg asks for a prefetcher (mp_cache_new). */
void mpc_prefetch_init(mp_cache *c, const mp_cache_cfg *cfg);
/* The first demand touch of a prefetched line at level k, in way meta
   m: the access's own fill from now on. */
void mpc_first_touch(mp_cache *c, uint32_t k, way_meta *m, uint32_t owner,
                     mp_cache_outcome *out);
/* The access hit a line a prefetch brought into L1 (one level), in
   meta m: a demand miss but for the prefetch. */
void mpc_first_touch_l1(mp_cache *c, instance **path, uint32_t core, uint64_t line,
                        uint64_t addr, int is_write, uint32_t owner, uint64_t pc,
                        way_meta *m, mp_cache_outcome *out);
/* Core's demand miss at addr, by the instruction at pc: the detectors
   name the lines to prefetch. */
void mpc_train(mp_cache *c, instance **path, uint32_t core, uint64_t addr, uint64_t pc,
               uint32_t owner, mp_cache_outcome *out);

/*------------------------------------------------------------*/
/*--- Configuration (mp_cache_config.c)                    ---*/
/*------------------------------------------------------------*/

/* NULL if cfg is a hierarchy the simulation can run, else why not. */
const char *mpc_check_cfg(const mp_cache_cfg *cfg);
/* Level k's name for messages ("L1" unless the configuration names it). */
void mpc_level_name(const mp_cache_cfg *cfg, uint32_t k, char name[16]);

#endif /* MP_CACHE_INT_H */
