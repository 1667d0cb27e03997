/*--------------------------------------------------------------------*/
/*--- memprof: the multilevel cache hierarchy simulation.          ---*/
/*---                                                   mp_cache.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

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
     same instances below it.
   - Write-back: a write dirties the line in L1 only.  A dirty line
     evicted from level k counts one write-back at level k.  The write-
     back is NOT an access of the next level (Cachegrind models no
     write-backs, and this keeps hit and miss counts comparable with
     its): it changes no LRU order and fills nothing.  It only marks the
     line dirty in the nearest deeper level of the same core that holds
     it (if none does, it went to memory), so that L2 and L3 count
     write-backs too.  Lines still dirty at mp_cache_finish are not
     counted.
   - Coherence, a simplified write-invalidate protocol (MESI-like, with
     a perfect snoop filter): a write by core c removes the line from
     every instance, at every level, that c does not use: the other
     cores' private caches and the other sockets' shared ones.  Each
     copy removed is one invalidation, and is retired through
     on_retire; a dirty copy is not written back (its data moves to the
     writer, whose copy is dirty now).  Reads snoop nothing: a read may
     fill a copy while another core holds the line dirty, without a
     downgrade or a write-back.  A write hitting an L1 line that this
     core made exclusive (its last write invalidated every other copy,
     and no other L1 instance filled the line since) skips the search,
     which would find nothing: that shortcut is exact.
   - An access straddling lines touches each line in address order,
     each one through the whole hierarchy.  A level counts one miss for
     the access if any line missed it; the cause reported is the first
     missing line's.  Only the lines that missed L1 go on to L2; that
     differs from Cachegrind, which sends the whole access to LL when
     either of its two lines missed D1 (rare, and tiny).
   - Miss causes, per instance, tested in this order:
     cold: the line was never in this instance (with a prefetcher: no
       core of the instance accessed it).  A line enters an
       instance only through an access by one of the instance's cores
       (or a prefetch, which sets no cold bit: see below);
       conversely an access by such a core reaches the instance, or
       hits above it on a line that an earlier access brought through
       it (sharing nests).  So "never in instance i" is "no core of i
       accessed the line before", kept as one bit per (line, core):
       a table indexed by line number, of ceil(active cores / 8) bytes
       per line (1 byte up to 8 simulated cores in use), in chunks of
       4096 lines made on first touch.  Memory: the footprint in lines
       times those bytes, a 64th of the data touched with 64-byte
       lines and one byte.
     coherence: the line is in the instance's set of lines invalidated
       there and not refilled since (a hash set; bounded by the
       footprint, and usually small).
     conflict: a fully-associative LRU cache with as many lines as the
       instance, fed with the same stream of lines that reached the
       instance (hits and misses alike; invalidations are not part of
       the stream), would have hit.
     capacity: otherwise.
     With an L1 oracle (mp_cache_set_l1_oracle: the reuse distances,
     while one thread runs), the L1 instances keep no shadow, and an L1
     miss asks the oracle whether a fully-associative L1 would hold the
     line, until mp_cache_l1_shadows makes the shadows (the oracle's
     latest lines in its core's).
   - Sampled split (sample_shift s > 0, SHARDS-style spatial sampling):
     in an instance of more than one set and at least
     MP_CACHE_SAMPLE_MIN_LINES lines, only the lines whose hash (a full
     64-bit mix of the line number, so every set keeps its share) has its
     top s bits zero feed the shadow, which has lines >> s entries.  A
     sampled line's reuse distance among sampled lines is about 2^-s of
     its distance among all lines, so the small shadow hits where the
     full one would.  An unsampled line's miss that is neither cold nor
     coherence is unclassified; the caller divides those in the
     proportion of the classified ones (mp_cache_split_unclassified).
     Cold, coherence and everything the real cache does stay exact.
   - Reuse: each resident line remembers the owner tag of the access
     that filled it and its hits since; on_retire reports them when the
     line leaves (eviction, invalidation, mp_cache_finish).
   - Prefetcher (cfg.prefetch; the detectors are mp_prefetch's): after
     each line of a demand access that missed L1 (or hit a line that a
     prefetch brought into L1, untouched since), the core's detectors
     name lines to prefetch into the prefetch level P (L2, or L1 with
     one level).  A prefetch looks the line up at P and, if absent,
     below, as a read miss would: the level that has it is reached (LRU
     order and shadow step, no hit counted), and P and the levels
     between that missed are filled through fill() (LRU victim, retire,
     write-backs), their shadows stepped as for any line reaching the
     instance.  Each way so filled is marked prefetched (H_PREF in its
     hits): the first demand access to touch it there clears the mark,
     takes the line as its own fill (owner, hits from 0) and is reported
     as a prefetched hit.  A marked line that leaves untouched is not
     reported to on_retire (it was no variable's fill) and counts as a
     useless prefetch at P.  Nothing of a prefetch is an access: the
     totals' accesses, misses and causes, and the cold bits (so "cold"
     means never accessed by a core of the instance, a prefetch is no
     access), count demand accesses only.
     Coherence with prefetched copies: they are copies like any other,
     so a prefetch ends the exclusivity of other L1s' copies (as a read
     miss does), and since a prefetched copy lies in an instance whose
     cores may never have touched the line, a write searches the
     instances of levels P and below without the cold-bit filter.  An
     untouched prefetched copy invalidated counts as an invalidation but
     is not reported to on_invalidate, and does not make the next miss
     there a coherence miss (no access of that instance had the line).

   Cost per access, for each line it touches:
   - each level reached: one set lookup, up to assoc tag compares (the
     way hit last in the set is tried first).  LRU order is kept by
     stamping the way accessed with a clock, so nothing moves on a hit
     or a fill; a fill scans the set's stamps for the oldest.  (A list
     kept in LRU order, as Cachegrind's, moves assoc tags per fill and
     the metadata with them; the stamps measured cheaper, and the unit
     tests check them against such lists.)  A level with a large
     associativity costs that much per access.
   - each level reached with more than one set: one step of its fully-
     associative shadow, an LRU list of nodes.  A hit in the real cache
     finds its node through a hint kept in the way.  A miss finds it,
     in an exact shadow, through the line's own hint, kept beside its
     cold bits (4 bytes per line, per instance); in a sampled
     one, through a hash table line -> node (2 to 4 slots of 8 bytes per
     shadow line).  The exact shadows' hash table, whose deletions
     (backward shifts) were most of the cost of an L1 miss, is gone
     (measured side by side, cache-only: see docs/performance.md).  The
     shadow's list costs 16 bytes per line of the level; levels with one
     set need no shadow (their misses cannot be conflicts).  A sampled
     level hashes the line (a few multiplies) and steps its shadow for
     1/2^s of the lines only: on a streaming workload the shadow of a
     big L3, many host cache misses per step, was the largest cost of
     the whole simulation.
   - an L1 miss: one look-up of the cold bits (the last chunk used is
     remembered; else a hash probe), prefetched with the next level's
     set and shadow slot while the shadows step.
   - with more than one L1 instance: a write to a line not exclusive in
     L1 looks the line up in every other instance whose cores have
     touched it (the cold bits filter out the others); a read miss looks
     it up in the other L1 instances whose cores have touched it, to end
     their exclusivity.
   - one indirect call per line retired, when on_retire is set.
   - with a prefetcher: per line missing L1, a search of the core's
     stream table (mp_prefetch) and, per line it names, one look-up at
     the prefetch level, and for those absent the cost of a miss there.
     Without one, mp_cache_access tests one pointer and runs a copy of
     the access compiled without the prefetcher's tests on the L1-hit
     path; the miss path tests a few bits (the mark of the ways it hits
     or evicts, the pointer): predictable branches, 0.5% of the
     engine's instructions on a matrix multiply.
   Memory: per line of each instance 8 (tag) + 8 (stamp) + 16 (meta)
   bytes and per set 8 (the way hit last), plus the shadow's 16 (exact)
   or 32 to 48 (sampled, divided by 2^s); per line of each chunk of 4096
   lines touched, the cold bits, and once a line of the chunk reaches an
   exact shadow, 4 bytes per exact shadow made so far (one core: its L1
   and L2, 8 bytes); instances are allocated when the first of their
   cores accesses, so a configuration of many cores costs only for the
   cores used.
   Measured on the host (-O2; 32 KiB 8-way L1 + 1 MiB 16-way L2, one
   core): about 120 instructions and 10-20 ns per L1 hit, about 940
   instructions and 100-200 ns per access missing both levels (a
   quarter of it in the two shadows); 200 instructions per access on
   the stream of a naive matrix multiply (6% L1 misses).
*/
#include "mp_cache.h"
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

/* A set of line numbers: open addressing, linear probing, EMPTY free. */
typedef struct {
   uint64_t *key;
   uint32_t cap;      /* slots, a power of two; 0 until the first add */
   uint32_t n;        /* lines held, <= cap / 2 */
   uint32_t shift;    /* 64 - log2(cap) */
} lineset;

/* The fully-associative LRU shadow of one instance, for the 3C split. */
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

/* Chunks of cold bits, keyed by line >> CHUNK_SHIFT, and of the exact
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

/*------------------------------------------------------------*/
/*--- Hashing and the line sets                            ---*/
/*------------------------------------------------------------*/

/* Fibonacci hashing: the top bits of line * 2^64/phi spread consecutive
   lines (the common case) over the table. */
static uint32_t hash_index(uint64_t x, uint32_t shift)
{
   return (uint32_t)((x * 0x9e3779b97f4a7c15ULL) >> shift);
}

static uint32_t log2_of(uint64_t pow2)
{
   uint32_t n = 0;
   while ((1ULL << n) < pow2)
      n++;
   return n;
}

static void lineset_add(mp_cache *c, lineset *s, uint64_t line);

static void lineset_grow(mp_cache *c, lineset *s)
{
   lineset old = *s;
   uint32_t i;
   s->cap = old.cap ? old.cap * 2 : 16;
   s->shift = 64 - log2_of(s->cap);
   s->n = 0;
   s->key = mp_malloc("mp.cache.lineset", s->cap * sizeof(uint64_t));
   for (i = 0; i < s->cap; i++)
      s->key[i] = EMPTY;
   c->bytes += (uint64_t)(s->cap - old.cap) * sizeof(uint64_t);
   for (i = 0; i < old.cap; i++)
      if (old.key[i] != EMPTY)
         lineset_add(c, s, old.key[i]);
   if (old.key)
      mp_free(old.key);
}

static void lineset_add(mp_cache *c, lineset *s, uint64_t line)
{
   uint32_t i;
   if (2 * (s->n + 1) > s->cap)
      lineset_grow(c, s);
   for (i = hash_index(line, s->shift); s->key[i] != EMPTY; i = (i + 1) & (s->cap - 1))
      if (s->key[i] == line)
         return;
   s->key[i] = line;
   s->n++;
}

/* Removes line; returns whether it was there.  Backward-shift deletion
   keeps every probe sequence unbroken without tombstones. */
static int lineset_remove(lineset *s, uint64_t line)
{
   uint32_t mask = s->cap - 1, i, j;
   if (s->n == 0)
      return 0;
   for (i = hash_index(line, s->shift); s->key[i] != line; i = (i + 1) & mask)
      if (s->key[i] == EMPTY)
         return 0;
   for (j = i;;) {
      uint32_t home;
      j = (j + 1) & mask;
      if (s->key[j] == EMPTY)
         break;
      home = hash_index(s->key[j], s->shift);
      if (((j - home) & mask) >= ((j - i) & mask)) {
         s->key[i] = s->key[j];
         i = j;
      }
   }
   s->key[i] = EMPTY;
   s->n--;
   return 1;
}

/*------------------------------------------------------------*/
/*--- The fully-associative shadow                         ---*/
/*------------------------------------------------------------*/

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

/* Slots of a sampled shadow's hash table for its lines: a power of two
   at least twice as many. */
static uint64_t fa_slots(uint64_t lines)
{
   uint64_t slots = 1;
   while (slots < 2 * lines)
      slots *= 2;
   return slots;
}

/* Host bytes of the shadow of an instance of lines lines, sampled by
   shift. */
static uint64_t fa_bytes(uint64_t lines, uint32_t shift)
{
   lines >>= shift;
   return lines * sizeof(fa_node) + (shift ? fa_slots(lines) * sizeof(fa_slot) : 0);
}

static void fa_init(mp_cache *c, fa_shadow *fa, uint32_t lines, uint32_t shift)
{
   uint64_t slots;
   lines >>= shift;
   fa->sample_mask = shift ? ~0ULL << (64 - shift) : 0;
   slots = fa_slots(lines);
   fa->cap = lines;
   fa->used = 0;
   fa->head = fa->tail = NIL;
   fa->smask = (uint32_t)(slots - 1);
   fa->hshift = 32 - log2_of(slots);
   fa->node = mp_malloc("mp.cache.fa.1", lines * sizeof(fa_node));
   c->bytes += lines * sizeof(fa_node);
   if (shift) {
      fa->slot = mp_zalloc_table("mp.cache.fa.2", slots * sizeof(fa_slot));
      c->bytes += slots * sizeof(fa_slot);
   }
}

static uint32_t fa_hash(uint64_t line)
{
   return hash_index(line, 32);
}

static uint32_t fa_find(const fa_shadow *fa, uint64_t line, uint32_t h)
{
   uint32_t i;
   for (i = h >> fa->hshift; fa->slot[i].node; i = (i + 1) & fa->smask)
      if (fa->slot[i].hash == h && fa->node[fa->slot[i].node - 1].key == line)
         return fa->slot[i].node - 1;
   return NIL;
}

static void fa_table_insert(fa_shadow *fa, uint32_t n, uint32_t h)
{
   uint32_t i = h >> fa->hshift;
   while (fa->slot[i].node)
      i = (i + 1) & fa->smask;
   fa->slot[i].hash = h;
   fa->slot[i].node = n + 1;
}

/* Backward-shift deletion, as lineset_remove. */
static void fa_table_delete(fa_shadow *fa, uint32_t n)
{
   uint32_t i = fa_hash(fa->node[n].key) >> fa->hshift, j;
   while (fa->slot[i].node != n + 1)
      i = (i + 1) & fa->smask;
   for (j = i;;) {
      uint32_t home;
      j = (j + 1) & fa->smask;
      if (!fa->slot[j].node)
         break;
      home = fa->slot[j].hash >> fa->hshift;
      if (((j - home) & fa->smask) >= ((j - i) & fa->smask)) {
         fa->slot[i] = fa->slot[j];
         i = j;
      }
   }
   fa->slot[i].node = 0;
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

/* Brings a line known to be absent in, evicting the LRU one if full.
   hint: the line's hint if the shadow is exact, else NULL (the hash
   table then finds the node). */
static OUT_OF_LINE uint32_t fa_insert(fa_shadow *fa, uint64_t line, uint32_t *hint)
{
   uint32_t n;
   if (fa->used < fa->cap) {
      n = fa->used++;
   } else {
      n = fa->tail;
      fa_unlink(fa, n);
      if (!hint)
         fa_table_delete(fa, n);
   }
   fa->node[n].key = line;
   if (hint)
      *hint = n + 1;
   else
      fa_table_insert(fa, n, fa_hash(line));
   fa_push_front(fa, n);
   return n;
}

/* One access of the shadow; returns whether it hit, and the line's node.
   hint as for fa_insert.  Inlined, as fill: miss_line was their only
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
   *node = fa_insert(fa, line, hint);
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

/*------------------------------------------------------------*/
/*--- Cold bits: which cores have accessed a line          ---*/
/*------------------------------------------------------------*/

static void chunk_table_grow(mp_cache *c)
{
   chunk_slot *old = c->chunks;
   uint32_t old_cap = c->chunk_cap, i;
   c->chunk_cap = old_cap ? old_cap * 2 : 64;
   c->chunk_shift = 64 - log2_of(c->chunk_cap);
   c->chunks = mp_calloc("mp.cache.chunks", c->chunk_cap, sizeof(chunk_slot));
   c->last_id = 0;   /* the slots move */
   c->bytes += (uint64_t)(c->chunk_cap - old_cap) * sizeof(chunk_slot);
   for (i = 0; i < old_cap; i++) {
      uint32_t j;
      if (!old[i].id)
         continue;
      for (j = hash_index(old[i].id, c->chunk_shift); c->chunks[j].id;
           j = (j + 1) & (c->chunk_cap - 1))
         ;
      c->chunks[j] = old[i];
   }
   if (old)
      mp_free(old);
}

/* The chunk of line, made on first touch (its cold bits zero). */
static chunk_slot *chunk_of(mp_cache *c, uint64_t line)
{
   uint64_t id = (line >> CHUNK_SHIFT) + 1;
   uint32_t i;
   if (id == c->last_id)
      return c->last_chunk;
   for (i = hash_index(id, c->chunk_shift); c->chunks[i].id;
        i = (i + 1) & (c->chunk_cap - 1))
      if (c->chunks[i].id == id)
         goto found;
   if (2 * (c->n_chunks + 1) > c->chunk_cap) {
      chunk_table_grow(c);
      for (i = hash_index(id, c->chunk_shift); c->chunks[i].id;
           i = (i + 1) & (c->chunk_cap - 1))
         ;
   }
   c->chunks[i].id = id;
   c->chunks[i].bits = mp_calloc("mp.cache.cold", CHUNK_LINES, c->width);
   c->n_chunks++;
   c->bytes += (uint64_t)CHUNK_LINES * c->width;
found:
   c->last_id = id;
   c->last_chunk = &c->chunks[i];
   return c->last_chunk;
}

/* The cold bits of line (width bytes). */
static uint8_t *cold_bits(mp_cache *c, uint64_t line)
{
   return chunk_of(c, line)->bits + (uint32_t)(line & (CHUNK_LINES - 1)) * c->width;
}

/* The hint of line in the exact shadow of in, 0 on first touch. */
static OUT_OF_LINE uint32_t *exact_hint(mp_cache *c, const instance *in, uint64_t line)
{
   chunk_slot *ch = chunk_of(c, line);
   if (!ch->hint) {
      ch->hint = mp_calloc("mp.cache.hints", (size_t)CHUNK_LINES * c->n_exact,
                           sizeof(uint32_t));
      c->bytes += (uint64_t)CHUNK_LINES * c->n_exact * sizeof(uint32_t);
   }
   return ch->hint + (line & (CHUNK_LINES - 1)) * c->n_exact + in->exact_id;
}

/* Gives in the next exact shadow's hints: every chunk's hints are spread
   to make room for one more per line (rare: once per exact instance,
   at its first core's first access). */
static void add_exact_shadow(mp_cache *c, instance *in)
{
   uint32_t n = c->n_exact, i, l, j;
   for (i = 0; i < c->chunk_cap; i++) {
      uint32_t *h = c->chunks[i].hint;
      if (!c->chunks[i].id || !h)
         continue;
      h = mp_realloc("mp.cache.hints", h, (size_t)CHUNK_LINES * (n + 1) * sizeof(uint32_t));
      for (l = CHUNK_LINES; l-- > 0;) {
         h[l * (n + 1) + n] = 0;
         for (j = n; j-- > 0;)
            h[l * (n + 1) + j] = h[l * n + j];
      }
      c->chunks[i].hint = h;
      c->bytes += CHUNK_LINES * sizeof(uint32_t);
   }
   in->exact_id = (int32_t)c->n_exact++;
}

/* Whether any core of the instance has accessed the line. */
static int touched_by(const uint8_t *bits, const instance *in, uint32_t width)
{
   uint32_t b;
   for (b = 0; b < width; b++)
      if (bits[b] & in->cores[b])
         return 1;
   return 0;
}

/* Doubles the bytes per line, when a core beyond width * 8 becomes
   active: every chunk is respread in place, from the top down. */
static void widen(mp_cache *c)
{
   uint32_t w = c->width, i, k, j;
   for (i = 0; i < c->chunk_cap; i++) {
      uint8_t *b;
      int32_t l;
      if (!c->chunks[i].id)
         continue;
      b = mp_realloc("mp.cache.cold", c->chunks[i].bits, (size_t)CHUNK_LINES * 2 * w);
      for (l = CHUNK_LINES - 1; l >= 0; l--) {
         for (j = w; j-- > 0;)
            b[(uint32_t)l * 2 * w + j] = b[(uint32_t)l * w + j];
         for (j = 0; j < w; j++)
            b[(uint32_t)l * 2 * w + w + j] = 0;
      }
      c->chunks[i].bits = b;
   }
   c->bytes += (uint64_t)c->n_chunks * CHUNK_LINES * w;
   for (k = 0; k < c->n_levels; k++)
      for (i = 0; i < c->lv[k].n_inst; i++) {
         instance *in = &c->lv[k].inst[i];
         in->cores = mp_realloc("mp.cache.mask", in->cores, 2 * w);
         mp_memset(in->cores + w, 0, w);
      }
   c->width = 2 * w;
   c->last_id = 0;
}

/*------------------------------------------------------------*/
/*--- Instances and sets                                   ---*/
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

static uint64_t set_block_bytes(uint32_t assoc)
{
   return sizeof(uint64_t) + (uint64_t)assoc * (2 * sizeof(uint64_t) + sizeof(way_meta));
}

/* Bytes of the mapping of an instance of level k. */
static uint64_t instance_map_bytes(uint64_t sets, uint32_t assoc, uint32_t k)
{
   return k * LEVEL_STAGGER + sets * set_block_bytes(assoc);
}

/* Gives instance in of level k its fully-associative shadow, empty. */
static void add_shadow(mp_cache *c, uint32_t k, instance *in)
{
   level *lv = &c->lv[k];
   fa_init(c, &in->fa, lv->sets * lv->assoc, lv->sample_shift);
   if (lv->sample_shift == 0)
      add_exact_shadow(c, in);
}

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
      add_shadow(c, k, in);
}

/* Gives core its cold bit at its first access, and makes the instances
   it uses. */
static void activate_core(mp_cache *c, uint32_t core)
{
   uint32_t s, k;
   if (c->n_active == c->width * 8)
      widen(c);
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

/* One set of one instance.  True LRU by time stamps: an access stamps
   its way with the cache's clock, a fill takes the way with the oldest
   stamp (invalid ways have 0).  Nothing moves on a hit or a fill, unlike
   a list kept in LRU order; a miss scans the stamps once more. */
typedef struct {
   uint64_t *tag, *stamp;
   way_meta *meta;
   uint32_t *mru;
   uint32_t assoc;
} set_ref;

static set_ref set_number(const level *lv, const instance *in, uint64_t set)
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

static set_ref set_of(const level *lv, const instance *in, uint64_t line)
{
   return set_number(lv, in, line & lv->set_mask);
}

/* The way holding line, -1 if none. */
static int find_way(const set_ref *s, uint64_t line)
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

/* A prefetched line leaves level k untouched: no variable's fill. */
static OUT_OF_LINE void retire_untouched(mp_cache *c, uint32_t k)
{
   if (k == c->pf_level)
      c->pft.useless++;
}

static void retire(mp_cache *c, uint32_t k, const way_meta *m)
{
   if (m->hits & H_PREF)
      retire_untouched(c, k);
   else if (c->on_retire)
      c->on_retire(c->retire_arg, k, m->owner, m->hits);
}

/*------------------------------------------------------------*/
/*--- One line through the hierarchy                       ---*/
/*------------------------------------------------------------*/

/* The line, in way w of set s, was reached: LRU order and shadow. */
static INLINE void reach(mp_cache *c, instance *in, const set_ref *s, uint32_t w,
                         uint64_t line)
{
   way_meta *m = &s->meta[w];
   /* Stamps only order the ways of one set: the way accessed last in
      its set needs no new one. */
   if (w != *s->mru)
      touch(c, s, w);
   if (in->fa.cap && fa_sampled(&in->fa, line)
       && !fa_access_hinted(&in->fa, line, m->bits & W_NODE)) {
      uint32_t n = fa_insert(&in->fa, line,
                             in->exact_id >= 0 ? exact_hint(c, in, line) : NULL);
      m->bits = (m->bits & ~W_NODE) | n;
   }
}

/* A demand access hit the line in way w of set s.  Returns 1 if a
   prefetch brought the line and this is its first touch: that is the
   line's fill for the reuse factor, not a hit (the caller then calls
   first_touch).  pf: a constant, 0 where no line can be prefetched (the
   L1-hit path of a cache without a prefetcher, which then tests
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

/* The first demand touch of a prefetched line at level k, in way meta m:
   the access's own fill from now on. */
static OUT_OF_LINE void first_touch(mp_cache *c, uint32_t k, way_meta *m, uint32_t owner,
                                    mp_cache_outcome *out)
{
   m->owner = owner;
   out->prefetched[k] = 1;
   if (k == c->pf_level)
      c->pft.useful++;
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

/* Core's write: removes the line from every instance core does not use
   and whose cores have touched it; returns the copies removed. */
static OUT_OF_LINE uint32_t invalidate_others(mp_cache *c, uint32_t core,
                                              uint64_t line, const uint8_t *bits)
{
   uint32_t k, i, n = 0;
   for (k = 0; k < c->n_levels; k++) {
      level *lv = &c->lv[k];
      uint32_t mine = core / lv->shared_by;
      for (i = 0; i < lv->n_inst; i++) {
         instance *in = &lv->inst[i];
         set_ref s;
         int w;
         /* A prefetched copy may lie where no core of the instance
            touched the line: no filter at the levels prefetches fill. */
         if (i == mine || !in->active
             || (k < c->unfiltered && !touched_by(bits, in, c->width)))
            continue;
         s = set_of(lv, in, line);
         w = find_way(&s, line);
         if (w < 0)
            continue;
         if (s.meta[w].hits & H_PREF) {
            retire(c, k, &s.meta[w]);   /* untouched: no one's copy */
         } else {
            if (c->on_invalidate)
               c->on_invalidate(c->retire_arg, k, s.meta[w].owner);
            retire(c, k, &s.meta[w]);
            lineset_add(c, &in->inval, line);
         }
         s.tag[w] = NO_TAG;
         s.stamp[w] = 0;
         lv->tot.invalidations++;
         n++;
      }
   }
   return n;
}

/* Another L1 instance filled the line: core's copies are no longer the
   only ones. */
static void end_exclusive(mp_cache *c, uint32_t core, uint64_t line, const uint8_t *bits)
{
   level *lv = &c->lv[0];
   uint32_t mine = core / lv->shared_by, i;
   for (i = 0; i < lv->n_inst; i++) {
      instance *in = &lv->inst[i];
      set_ref s;
      int w;
      if (i == mine || !in->active || !touched_by(bits, in, c->width))
         continue;
      s = set_of(lv, in, line);
      w = find_way(&s, line);
      if (w >= 0)
         s.meta[w].bits &= ~W_EXCL;
   }
}

/* What the shadow said of a line missing an instance. */
enum { FA_MISSED, FA_HIT, FA_UNSAMPLED };

static uint8_t classify(mp_cache *c, instance *in, const uint8_t *bits,
                        uint64_t line, int fa)
{
   if (!touched_by(bits, in, c->width))
      return MP_MISS_COLD;
   if (in->inval.n && lineset_remove(&in->inval, line))
      return MP_MISS_COHERENCE;
   return fa == FA_HIT ? MP_MISS_CONFLICT
        : fa == FA_MISSED ? MP_MISS_CAPACITY : MP_MISS_UNCLASSIFIED;
}

/* Core wrote the line, in its L1 with meta m0: dirty it and, unless
   core's copies are the only ones already, invalidate the others.
   bits: the line's cold bits, or NULL if not looked up yet. */
static void write_l1(mp_cache *c, uint32_t core, uint64_t line, way_meta *m0,
                     const uint8_t *bits, mp_cache_outcome *out)
{
   if (c->lv[0].n_inst > 1 && !(m0->bits & W_EXCL)) {
      if (!bits)
         bits = cold_bits(c, line);
      out->invalidations += invalidate_others(c, core, line, bits);
      m0->bits |= W_EXCL;
   }
   m0->bits |= W_DIRTY;
}

/* Brings line into the prefetch level of core's path unless it is
   there already (see the notes at the top). */
static void prefetch_line(mp_cache *c, instance **path, uint32_t core, uint64_t line,
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
         fa_access(&in->fa, line, in->exact_id >= 0 ? exact_hint(c, in, line) : NULL,
                   &node[k]);
      /* Filled again: no longer an invalidated line there. */
      if (in->inval.n)
         lineset_remove(&in->inval, line);
   }
   for (k = served; k-- > p;)
      fill(c, path, k, way[k], line, owner, node[k], out)->hits = H_PREF;
   /* A copy more: other L1s' copies are no longer the only ones. */
   if (c->lv[0].n_inst > 1)
      end_exclusive(c, core, line, cold_bits(c, line));
}

/* Core's demand miss at addr, by the instruction at pc: the detectors
   name the lines to prefetch. */
static OUT_OF_LINE void train(mp_cache *c, instance **path, uint32_t core, uint64_t addr,
                              uint64_t pc, uint32_t owner, mp_cache_outcome *out)
{
   uint64_t want[MP_PREFETCH_MAX_DEGREE];
   uint32_t n = mp_prefetch_miss(c->pf, core, addr, pc, want), i;
   for (i = 0; i < n; i++)
      prefetch_line(c, path, core, want[i], owner, out);
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
   uint32_t k, served, s;
   way_meta *m0 = NULL;   /* the line's meta in L1, once filled */

   /* Find the level serving the line, then step the shadows of the
      levels that missed (each shadow is its level's alone: the order
      does not matter), then classify the misses.  The reads started at
      the miss (the cold bits and the line's hints in the exact shadows,
      side by side; each next level's set and shadow slot) then overlap
      with the set look-ups of the levels in between. */
   __builtin_prefetch(bits);
   if (c->last_chunk->hint)   /* cold_bits found the line's chunk */
      __builtin_prefetch(c->last_chunk->hint + (line & (CHUNK_LINES - 1)) * c->n_exact);
   for (k = 0; k < c->n_levels; k++) {
      set_ref st = set_of(&c->lv[k], path[k], line);
      if (k == 0) {
         way[0] = victim(&st);   /* access_line found no match */
      } else {
         int w = find_or_victim(&st, line, &way[k]);
         if (w >= 0) {
            if (hit(c, path[k], &st, (uint32_t)w, line, 1))
               first_touch(c, k, &st.meta[w], owner, out);
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
   for (k = 0; k < served; k++) {
      instance *in = path[k];
      node[k] = 0;
      /* One set: a fully-associative cache misses as the shadow would. */
      if (k == 0 && c->l1_oracle)
         fa[0] = c->l1_oracle(c->oracle_arg, core, first, line, mp_cache_l1_lines(c))
                 ? FA_HIT : FA_MISSED;
      else if (!in->fa.cap)
         fa[k] = FA_MISSED;
      else if (mix & in->fa.sample_mask)
         fa[k] = FA_UNSAMPLED;
      else
         fa[k] = fa_access(&in->fa, line,
                           in->exact_id >= 0 ? exact_hint(c, in, line) : NULL,
                           &node[k]) ? FA_HIT : FA_MISSED;
   }
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

   s = (uint32_t)c->core_bit[core];
   bits[s >> 3] |= (uint8_t)(1u << (s & 7));

   if (is_write)
      write_l1(c, core, line, m0, bits, out);
   else if (c->lv[0].n_inst > 1)
      end_exclusive(c, core, line, bits);
   /* Last: a prefetch's fill may evict m0 (a one-set L1). */
   if (__builtin_expect(c->pf != NULL, 0))
      train(c, path, core, addr, pc, owner, out);
}

/* The access hit a line a prefetch brought into L1 (one level), in meta
   m: a demand miss but for the prefetch, so it trains the detectors. */
static OUT_OF_LINE void first_touch_l1(mp_cache *c, instance **path, uint32_t core,
                                       uint64_t line, uint64_t addr, int is_write,
                                       uint32_t owner, uint64_t pc, way_meta *m,
                                       mp_cache_outcome *out)
{
   uint8_t *bits = cold_bits(c, line);
   uint32_t s = (uint32_t)c->core_bit[core];
   first_touch(c, 0, m, owner, out);
   /* The core's first access of the line: the prefetch set no bit. */
   bits[s >> 3] |= (uint8_t)(1u << (s & 7));
   if (is_write)
      write_l1(c, core, line, m, bits, out);
   train(c, path, core, addr, pc, owner, out);
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
      first_touch_l1(c, path, core, line, addr, is_write, owner, pc, &l1.meta[w], out);
      return NULL;   /* the owner had not touched the line */
   }
   if (is_write)
      write_l1(c, core, line, &l1.meta[w], NULL, out);
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

uint64_t mp_cache_l1_lines(const mp_cache *c)
{
   return (uint64_t)c->lv[0].sets * c->lv[0].assoc;
}

int mp_cache_set_l1_oracle(mp_cache *c, mp_cache_l1_oracle fn, void *arg)
{
   /* A sampled shadow holds the recent sampled lines, not the recent
      lines: no oracle's answer. */
   if (c->n_active > 0 || c->pf != NULL || c->lv[0].sets == 1 || c->lv[0].sample_shift > 0)
      return 0;
   c->l1_oracle = fn;
   c->oracle_arg = arg;
   return 1;
}

mp_cache_l1_oracle mp_cache_get_l1_oracle(const mp_cache *c, void **arg)
{
   *arg = c->oracle_arg;
   return c->l1_oracle;
}

void mp_cache_l1_shadows(mp_cache *c, uint32_t core, const uint64_t *lines, uint32_t n)
{
   level *lv = &c->lv[0];
   instance *in = c->path[core * c->n_levels];
   uint32_t i;
   if (!c->l1_oracle)
      return;
   c->l1_oracle = NULL;
   for (i = 0; i < lv->n_inst; i++)
      if (lv->inst[i].sets)
         add_shadow(c, 0, &lv->inst[i]);
   if (!in->sets)
      return;   /* core has not accessed: nothing to hold */
   mp_assert(n <= in->fa.cap);
   /* Least recent first: each goes in front of the ones before.  A line
      resident in L1 points its way at its node (fa_access_hinted). */
   for (i = 0; i < n; i++) {
      uint32_t node = fa_insert(&in->fa, lines[i], exact_hint(c, in, lines[i]));
      set_ref st = set_of(lv, in, lines[i]);
      int w = find_way(&st, lines[i]);
      if (w >= 0)
         st.meta[w].bits = (st.meta[w].bits & ~W_NODE) | node;
   }
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

void mp_cache_get_totals(const mp_cache *c, uint32_t k, mp_cache_totals *t)
{
   mp_cache_get_raw_totals(c, k, t);
   mp_cache_split_unclassified(t->cause, NULL);
}

uint32_t mp_cache_sample_shift(const mp_cache *c)
{
   return c->sample_shift;
}

uint32_t mp_cache_level_sample_shift(const mp_cache *c, uint32_t k)
{
   mp_assert(k < c->n_levels);
   return c->lv[k].sample_shift;
}

void mp_cache_split_unclassified(uint64_t cause[MP_MISS_N_CAUSES],
                                 const uint64_t ref[MP_MISS_N_CAUSES])
{
   uint64_t u = cause[MP_MISS_UNCLASSIFIED], conf, cap, part = 0;
   if (u == 0)
      return;
   conf = cause[MP_MISS_CONFLICT];
   cap = cause[MP_MISS_CAPACITY];
   if (conf + cap == 0 && ref) {
      conf = ref[MP_MISS_CONFLICT];
      cap = ref[MP_MISS_CAPACITY];
   }
   /* In double: u * conf may not fit 64 bits; counts below 2^53 are
      exact, and the rounding error is far below the sampling's. */
   if (conf + cap)
      part = (uint64_t)((double)u * (double)conf / (double)(conf + cap) + 0.5);
   if (part > u)
      part = u;
   cause[MP_MISS_CONFLICT] += part;
   cause[MP_MISS_CAPACITY] += u - part;
   cause[MP_MISS_UNCLASSIFIED] = 0;
}

const mp_prefetch_cfg *mp_cache_prefetch_config(const mp_cache *c)
{
   return &c->pf_cfg;
}

uint32_t mp_cache_prefetch_level(const mp_cache *c)
{
   return c->pf_level;
}

void mp_cache_get_prefetch_totals(const mp_cache *c, mp_cache_prefetch_totals *t)
{
   *t = c->pft;
}

uint64_t mp_cache_bytes(const mp_cache *c)
{
   return c->bytes + (c->pf ? mp_prefetch_bytes(c->pf) : 0);
}

void mp_cache_free(mp_cache *c)
{
   uint32_t k, i;
   for (k = 0; k < c->n_levels; k++) {
      for (i = 0; i < c->lv[k].n_inst; i++) {
         instance *in = &c->lv[k].inst[i];
         if (in->sets)
            mp_free_table(in->sets - k * LEVEL_STAGGER,
                          instance_map_bytes(c->lv[k].sets, c->lv[k].assoc, k));
         if (in->fa.node)
            mp_free(in->fa.node);
         if (in->fa.slot)
            mp_free_table(in->fa.slot, (uint64_t)(in->fa.smask + 1) * sizeof(fa_slot));
         if (in->inval.key)
            mp_free(in->inval.key);
         if (in->filled)
            mp_free(in->filled);
         mp_free(in->cores);
      }
      mp_free(c->lv[k].inst);
   }
   for (i = 0; i < c->chunk_cap; i++)
      if (c->chunks[i].id) {
         mp_free(c->chunks[i].bits);
         if (c->chunks[i].hint)
            mp_free(c->chunks[i].hint);
      }
   mp_free(c->chunks);
   mp_free(c->path);
   mp_free(c->core_bit);
   if (c->pf)
      mp_prefetch_free(c->pf);
   mp_free(c);
}

/*------------------------------------------------------------*/
/*--- Configuration                                        ---*/
/*------------------------------------------------------------*/

static void level_name(const mp_cache_cfg *cfg, uint32_t k, char name[16])
{
   const char *s = cfg->level[k].name;
   uint32_t i;
   if (!s) {
      mp_snprintf(name, 16, "L%u", k + 1);
      return;
   }
   for (i = 0; i < 15 && s[i]; i++)
      name[i] = s[i];
   name[i] = 0;
}

/* The sample shift of level k's shadows: the largest up to the
   configured one that keeps the shadow's minimum; 0 (exact) for a level
   of one set or too few lines. */
static uint32_t shadow_sample_shift(const mp_cache_cfg *cfg, uint32_t k)
{
   const mp_cache_level_cfg *L = &cfg->level[k];
   uint64_t lines = L->size / L->line;
   uint32_t shift = 0;
   if (!cfg->sample_shift || lines == L->assoc || lines < MP_CACHE_SAMPLE_MIN_LINES)
      return 0;
   while (shift < cfg->sample_shift && lines >> (shift + 1) >= MP_CACHE_SAMPLE_MIN_SHADOW)
      shift++;
   return shift;
}

uint64_t mp_cache_instance_table_bytes(const mp_cache_cfg *cfg, uint32_t k)
{
   const mp_cache_level_cfg *L = &cfg->level[k];
   uint64_t lines = L->size / L->line, sets = lines / L->assoc;
   uint64_t bytes = instance_map_bytes(sets, L->assoc, k);
   if (sets > 1)
      bytes += fa_bytes(lines, shadow_sample_shift(cfg, k));
   return bytes;
}

/* NULL if cfg is a hierarchy this file can simulate, else why not. */
static const char *check_cfg(const mp_cache_cfg *cfg)
{
   uint64_t total = 0, largest = 0;
   uint32_t k, at = 0;
   if (cfg->n_levels < 1 || cfg->n_levels > MP_CACHE_MAX_LEVELS)
      return mp_config_error("%u cache levels, expected 1 to %u", cfg->n_levels, MP_CACHE_MAX_LEVELS);
   if (cfg->cores < 1 || cfg->cores > MP_CACHE_MAX_CORES)
      return mp_config_error("%u cores, expected 1 to %u", cfg->cores, MP_CACHE_MAX_CORES);
   if (cfg->sample_shift > MP_CACHE_MAX_SAMPLE_SHIFT)
      return mp_config_error("miss-cause sample shift %u, expected 0 to %u", cfg->sample_shift,
                  MP_CACHE_MAX_SAMPLE_SHIFT);
   if (cfg->prefetch.kind > MP_PREFETCH_STRIDE)
      return mp_config_error("prefetcher kind %u, expected 0 to %u", (unsigned)cfg->prefetch.kind,
                  (unsigned)MP_PREFETCH_STRIDE);
   if (cfg->prefetch.kind != MP_PREFETCH_NONE
       && (cfg->prefetch.streams < 1 || cfg->prefetch.streams > MP_PREFETCH_MAX_STREAMS))
      return mp_config_error("prefetcher: %u streams per core, expected 1 to %u",
                  cfg->prefetch.streams, MP_PREFETCH_MAX_STREAMS);
   for (k = 0; k < cfg->n_levels; k++) {
      const mp_cache_level_cfg *L = &cfg->level[k];
      char name[16], above[16];
      uint64_t way_bytes, sets;
      level_name(cfg, k, name);
      if (k > 0)
         level_name(cfg, k - 1, above);
      if (L->size == 0)
         return mp_config_error("%s: size 0, expected a nonzero size", name);
      if (L->line == 0 || (L->line & (L->line - 1)))
         return mp_config_error("%s: line size %u is not a power of two", name, L->line);
      if (L->line < MP_CACHE_MIN_LINE)
         return mp_config_error("%s: line size %u is below %u bytes", name, L->line, MP_CACHE_MIN_LINE);
      if (k > 0 && L->line != cfg->level[0].line) {
         char first[16];
         level_name(cfg, 0, first);
         return mp_config_error("%s: line size %u differs from %s's %u "
                     "(all levels must have the same line size)",
                     name, L->line, first, cfg->level[0].line);
      }
      if (L->assoc == 0)
         return mp_config_error("%s: associativity 0, expected at least 1", name);
      way_bytes = (uint64_t)L->assoc * L->line;
      if (L->size % way_bytes)
         return mp_config_error("%s: size %llu is not a multiple of assoc * line (%u * %u)",
                     name, (unsigned long long)L->size, L->assoc, L->line);
      sets = L->size / way_bytes;
      if (sets & (sets - 1))
         return mp_config_error("%s: %llu sets is not a power of two", name, (unsigned long long)sets);
      if (L->size / L->line > MAX_LINES)
         return mp_config_error("%s: %llu lines, at most %u supported", name,
                     (unsigned long long)(L->size / L->line), MAX_LINES);
      if (L->shared_by == 0)
         return mp_config_error("%s: shared by 0 cores, expected at least 1", name);
      if (cfg->cores % L->shared_by)
         return mp_config_error("%s: shared by %u cores, which does not divide %u cores",
                     name, L->shared_by, cfg->cores);
      if (k > 0 && L->shared_by % cfg->level[k - 1].shared_by)
         return mp_config_error("%s: shared by %u cores, not a multiple of %s's %u "
                     "(each %s must lie within one %s)", name, L->shared_by, above,
                     cfg->level[k - 1].shared_by, above, name);
   }
   /* Levels too large to simulate are refused here, before the program
      runs: the instances are mapped at their cores' first access. */
   for (k = 0; k < cfg->n_levels; k++) {
      uint64_t b = mp_cache_instance_table_bytes(cfg, k) * (cfg->cores / cfg->level[k].shared_by);
      total += b;
      if (b > largest) {
         largest = b;
         at = k;
      }
   }
   if (total > MP_CACHE_MAX_TABLE_BYTES) {
      char name[16];
      level_name(cfg, at, name);
      return mp_config_error("%s: too large to simulate: the tables of all the cache instances "
                  "would take %llu GiB of address space (%s %llu GiB), at most %llu GiB",
                  name, (unsigned long long)((total + (1ULL << 29)) >> 30), name,
                  (unsigned long long)((largest + (1ULL << 29)) >> 30),
                  (unsigned long long)(MP_CACHE_MAX_TABLE_BYTES >> 30));
   }
   return NULL;
}

mp_cache *mp_cache_new(const mp_cache_cfg *cfg, const char **err)
{
   mp_cache *c;
   uint32_t k, core;
   const char *why = check_cfg(cfg);
   if (why) {
      *err = why;
      return NULL;
   }
   c = mp_calloc("mp.cache.new.1", 1, sizeof *c);
   c->n_levels = cfg->n_levels;
   c->cores = cfg->cores;
   c->line_shift = log2_of(cfg->level[0].line);
   c->sample_shift = cfg->sample_shift;
   c->on_retire = cfg->on_retire;
   c->on_invalidate = cfg->on_invalidate;
   c->retire_arg = cfg->retire_arg;
   c->width = 1;
   c->bytes = sizeof *c;
   c->pf_cfg = cfg->prefetch;
   c->unfiltered = c->n_levels;
   if (cfg->prefetch.kind != MP_PREFETCH_NONE) {
      c->pf = mp_prefetch_new(&cfg->prefetch, c->cores, cfg->level[0].line);
      c->pf_level = c->n_levels > 1 ? 1 : 0;
      c->unfiltered = c->pf_level;
   }
   for (k = 0; k < c->n_levels; k++) {
      const mp_cache_level_cfg *L = &cfg->level[k];
      level *lv = &c->lv[k];
      uint32_t i;
      level_name(cfg, k, lv->name);
      lv->assoc = L->assoc;
      lv->sets = (uint32_t)(L->size / ((uint64_t)L->assoc * L->line));
      lv->set_mask = lv->sets - 1;
      lv->set_bytes = set_block_bytes(L->assoc);
      lv->sample_shift = shadow_sample_shift(cfg, k);
      lv->shared_by = L->shared_by;
      lv->n_inst = c->cores / L->shared_by;
      lv->inst = mp_calloc("mp.cache.new.2", lv->n_inst, sizeof(instance));
      for (i = 0; i < lv->n_inst; i++) {
         lv->inst[i].cores = mp_calloc("mp.cache.mask", 1, c->width);
         lv->inst[i].exact_id = -1;   /* add_exact_shadow, when made */
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
   chunk_table_grow(c);
   return c;
}

/*------------------------------------------------------------*/
/*--- Option parsing                                       ---*/
/*------------------------------------------------------------*/

/* Reads decimal digits at *p; 0 if none or on overflow. */
static int parse_u64(const char **p, uint64_t *v)
{
   const char *s = *p;
   uint64_t x = 0;
   if (*s < '0' || *s > '9')
      return 0;
   for (; *s >= '0' && *s <= '9'; s++) {
      uint32_t d = (uint32_t)(*s - '0');
      if (x > (~0ULL - d) / 10)
         return 0;
      x = x * 10 + d;
   }
   *p = s;
   *v = x;
   return 1;
}

int mp_cache_parse_level(const char *spec, mp_cache_level_cfg *out, const char **err)
{
   const char *p = spec;
   uint64_t size, assoc, line, mult = 1;

   if (mp_strcmp(spec, "none") == 0) {
      out->size = 0;
      out->assoc = 0;
      out->line = 0;
      return 0;
   }
   if (!parse_u64(&p, &size))
      goto bad;
   if (*p == 'k' || *p == 'K') { mult = 1024; p++; }
   else if (*p == 'm' || *p == 'M') { mult = 1024 * 1024; p++; }
   else if (*p == 'g' || *p == 'G') { mult = 1024 * 1024 * 1024; p++; }
   if (size > ~0ULL / mult)
      goto bad;
   size *= mult;
   if (*p != ',')
      goto bad;
   p++;
   if (!parse_u64(&p, &assoc) || *p != ',')
      goto bad;
   p++;
   if (!parse_u64(&p, &line) || *p != 0)
      goto bad;
   if (assoc > 0xffffffffULL || line > 0xffffffffULL)
      goto bad;
   out->size = size;
   out->assoc = (uint32_t)assoc;
   out->line = (uint32_t)line;
   return 0;

bad:
   *err = mp_config_error("'%s' is not a cache geometry: expected size,assoc,line "
               "(e.g. 32k,8,64) or none", spec);
   return -1;
}
