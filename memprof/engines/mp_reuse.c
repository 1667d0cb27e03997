/*--------------------------------------------------------------------*/
/*--- memprof: multicore reuse distances, in cache lines.          ---*/
/*---                                                   mp_reuse.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Notes:
   - A "stream" is a sequence of accesses whose reuse distances we
     measure: each thread's own accesses (its private stream) and each
     sharing group's merged accesses.  Every stream gives each access a
     timestamp (a slot) and keeps, per distinct line, the slot of the
     line's last access.  The distance of a reuse is the number of lines
     whose last access lies after the line's own: the count of marked
     slots after it.  Marks live in a bitmap over the slots; a Fenwick
     tree over the bitmap's 64-bit words counts them, so a count is
     O(log(slots / 64)) plus one popcount.  A reuse whose last access
     lies within a few words of now is counted on the bitmap directly.
   - The Fenwick tree holds only the words below the one being filled
     (the frontier), which is counted on the bitmap.  An access marks
     its slot in the frontier word, so it updates no tree; nor does a
     reuse of a line last accessed there.  Each word enters the tree
     once, when it is full: an access costs at most one tree update (the
     old mark of a line last accessed before the frontier), not two.
     (A frontier trailing by SHORT_WORDS measured slower on gzip: the
     long counts then scan those words.)
   - Slots run out: when a stream's next slot would be past its bitmap,
     the live marks are renumbered 0..m-1 in order (the order, hence
     every distance, is unchanged) and the bitmap is resized to the
     smallest power of two >= 4m slots.  A compaction costs O(m) (a scan
     of the line table and of the bitmap) and is followed by >= 3m
     accesses before the next one, so its amortized cost is O(1) per
     access; memory per stream is O(distinct lines), never O(accesses).
   - Per line, a write version counts the writes of all threads (the
     "when" of the last write); each thread's entry remembers the version
     it saw at its last access.  A different version now means another
     thread wrote the line since: the thread's own writes update its
     entry as they bump the version, so who wrote last need not be kept.
     Versions are 32-bit: a thread missing exactly 2^32 writes to one
     line between two of its accesses would see a false PRIVATE.  While
     only one thread has ever accessed, no version is kept at all: there
     is nobody else to write.
   - A group that only its first thread has used, used by a thread that
     has used no other group, has the thread's private stream as its
     merged stream: nothing is kept twice (the single-threaded case costs
     one stream).  When a second thread enters the group, or the thread
     leaves for another group, the group's stream is copied from the
     thread's private stream, once.

   Cost per access: one table look-up per stream touched (one for a lone
   thread, two otherwise, plus the version table once there are two
   threads): the page of the previous look-up, else a probe of the page
   directory (a hash of the page number); then one distance count and one or two
   Fenwick updates (none when the old and new slots share a word), so
   O(log distinct lines) amortized.  The table look-ups' cache misses
   dominate; eight consecutive lines share one cache line of a table.
   Memory per stream: 8 bytes per line of a page of PAGE_LINES lines
   touched at least once (8 per line touched on dense data, at most 4 KiB
   per line on data touched one line in 512), plus 3/16 byte per slot
   (<= 1.5 bytes per line); the version table likewise.
*/
#include "mp_reuse.h"

#define NONE         UINT32_MAX
#define NO_SLOT      UINT32_MAX
#define MIN_SLOTS    1024u           /* slots of a new stream, a multiple of 64 */
#define MAX_LIVE     (1u << 29)      /* lines per stream: slots stay < 2^31 */
#define MIN_BITS     4               /* 16 entries in a new page directory */
#define PAGE_BITS    9               /* lines per page: 512, 4 KiB of cells */
#define PAGE_LINES   (1u << PAGE_BITS)
#define SHORT_WORDS  8               /* reuses within this many words: no Fenwick */
#define SLOT_WORD(s) ((s) >> 6)
#define SLOT_BIT(s)  (1ull << ((s) & 63))

/* One line of a table. */
typedef struct {
   uint32_t a;       /* streams: slot of the last access, NO_SLOT if none
                        yet; versions: writes */
   uint32_t b;       /* private streams: version seen; unused elsewhere */
} cell;

/* A page of PAGE_LINES consecutive lines' cells, and its number + 1 in
   the directory (0: a free entry). */
typedef struct {
   uint64_t key;
   cell *cells;
} page_ref;

/* line -> cell, as pages of consecutive lines found through a small
   open-addressing directory keyed by page number.  A line needs no key
   of its own, so a dense footprint costs 8 bytes a line; the directory
   (16 bytes a page) stays cache-resident and the page found last is
   remembered, so a sweep looks up the directory once per page.  Pages
   never move: a cell pointer stays valid until the table is freed. */
typedef struct {
   page_ref *dir;    /* 2^bits entries, linear probing, <= 1/2 full */
   uint32_t bits;
   uint32_t n;       /* pages */
   uint32_t fill;    /* 'a' of a line never touched */
   uint32_t tag_lines;  /* PAGE_LINES if a page carries a caller's tag per
                           line after its cells (tag_of), else 0 */
   uint64_t last_key;   /* the page found last, or 0 */
   cell *last_cells;
} table;

typedef struct {
   table map;        /* line -> slot (and version seen) */
   uint64_t *marks;  /* n_slots bits: 1 at each line's last-access slot */
   uint32_t *fen;    /* Fenwick tree over the n_slots/64 words of marks */
   uint32_t n_slots; /* a power of two >= MIN_SLOTS */
   uint32_t now;     /* the next slot; < n_slots between accesses */
   uint32_t live;    /* marks set == lines in map */
   uint32_t front;   /* words below it are in fen, the others not;
                        the word of the last slot (of slot now after a
                        compaction) */
   uint32_t live_front;  /* marks in the words below front */
} stream;

typedef struct {
   stream s;
   uint32_t solo_grp;   /* the group whose merged stream is s, or NONE */
   uint8_t fresh;       /* no access yet */
   /* The line of the thread's last analysed access, or UINT64_MAX.  While
      one thread runs (no versions) and its stream is its group's, a
      repeat of it is a private reuse at distance 0 that changes no
      order in the stream: it needs no look-up at all.  Consecutive
      accesses to one line are the common case (8 doubles a line). */
   uint64_t last_line;
   uint32_t *last_tag;  /* last_line's tag, with cfg.tags */
} thread_state;

typedef struct {
   stream s;            /* unused while solo_tid != NONE */
   uint32_t solo_tid;   /* the thread whose private stream is ours, or NONE */
} group_state;

struct mp_reuse {
   mp_reuse_cfg cfg;
   thread_state **threads;   /* indexed by tid, NULL until used */
   uint32_t n_threads;       /* length of threads */
   group_state **groups;     /* indexed by group, NULL until used */
   uint32_t n_groups;
   table versions;           /* line -> writes to it, all threads (a);
                                only lines written since multi */
   int multi;                /* a second thread has accessed: keep versions */
   uint64_t shards_below;    /* SHARDS: track lines hashing below this, of 2^32 */
   double scale;             /* SHARDS: 1 / effective rate */
   uint64_t phase_left;      /* BURSTY: accesses left in this window or gap */
   uint64_t fib_a, fib_b;    /* BURSTY: the next gap is window * fib_a */
   int in_gap, gap_capped;
   mp_reuse_stats st;
   /* mp_reuse_would_hold's count, for the access that follows it: valid
      while no access came between (memo_at is st.accesses then). */
   uint64_t memo_line, memo_at;
   uint32_t memo_tid, memo_slot, memo_d;
};

/*------------------------------------------------------------*/
/*--- Bits and hashes                                      ---*/
/*------------------------------------------------------------*/

/* Without -mpopcnt the builtin becomes a libgcc call; the bit trick is
   as fast and needs nothing. */
static inline uint32_t popcount64(uint64_t x)
{
#if defined(__POPCNT__)
   return (uint32_t)__builtin_popcountll(x);
#else
   x = x - ((x >> 1) & 0x5555555555555555ull);
   x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
   x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
   return (uint32_t)((x * 0x0101010101010101ull) >> 56);
#endif
}

/* SHARDS needs a hash of its own, uniform over lines: splitmix64's
   finalizer, whose top 32 bits are close to uniform. */
static inline uint64_t shards_hash(uint64_t line)
{
   line ^= line >> 30;
   line *= 0xbf58476d1ce4e5b9ull;
   line ^= line >> 27;
   line *= 0x94d049bb133111ebull;
   line ^= line >> 31;
   return line >> 32;
}

/*------------------------------------------------------------*/
/*--- Line tables                                          ---*/
/*------------------------------------------------------------*/

static inline size_t page_home(uint64_t key, uint32_t bits)
{
   return (size_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

static void table_init(table *t, uint32_t fill)
{
   t->dir = mp_calloc("mp.reuse.dir", (size_t)1 << MIN_BITS, sizeof(page_ref));
   t->bits = MIN_BITS;
   t->n = 0;
   t->fill = fill;
   t->tag_lines = 0;
   t->last_key = 0;
   t->last_cells = NULL;
}

static void table_fini(table *t)
{
   size_t i, n = (size_t)1 << t->bits;
   for (i = 0; i < n; i++)
      if (t->dir[i].key)
         mp_free(t->dir[i].cells);
   mp_free(t->dir);
}

static void dir_insert(page_ref *dir, uint32_t bits, page_ref e)
{
   size_t mask = ((size_t)1 << bits) - 1, j;
   for (j = page_home(e.key, bits); dir[j].key; j = (j + 1) & mask)
      ;
   dir[j] = e;
}

static void dir_grow(table *t)
{
   page_ref *old = t->dir;
   size_t n_old = (size_t)1 << t->bits, i;
   t->bits++;
   t->dir = mp_calloc("mp.reuse.dir", (size_t)1 << t->bits, sizeof(page_ref));
   for (i = 0; i < n_old; i++)
      if (old[i].key)
         dir_insert(t->dir, t->bits, old[i]);
   mp_free(old);
}

/* The cells of page key (page number + 1), NULL if absent. */
static inline cell *page_find(table *t, uint64_t key)
{
   size_t mask, j;
   if (key == t->last_key)
      return t->last_cells;
   mask = ((size_t)1 << t->bits) - 1;
   for (j = page_home(key, t->bits); t->dir[j].key; j = (j + 1) & mask)
      if (t->dir[j].key == key) {
         t->last_key = key;
         t->last_cells = t->dir[j].cells;
         return t->last_cells;
      }
   return NULL;
}

static cell *page_add(table *t, uint64_t key)
{
   page_ref e;
   uint32_t i;
   if ((t->n + 1) * 2 > (1u << t->bits))
      dir_grow(t);
   e.key = key;
   e.cells = mp_calloc("mp.reuse.page", 1, PAGE_LINES * sizeof(cell)
                       + t->tag_lines * sizeof(uint32_t));
   if (t->fill)
      for (i = 0; i < PAGE_LINES; i++)
         e.cells[i].a = t->fill;
   dir_insert(t->dir, t->bits, e);
   t->n++;
   t->last_key = key;
   t->last_cells = e.cells;
   return e.cells;
}

/* The tag of the line whose cell is c, in a table with tags. */
static inline uint32_t *tag_of(cell *c, uint64_t line)
{
   uint32_t i = (uint32_t)(line & (PAGE_LINES - 1));
   return (uint32_t *)(c - i + PAGE_LINES) + i;
}

/* The cell of line, or NULL if its page was never made (a line of a
   made page that was never touched reads as 'a' = fill, 'b' = 0). */
static inline cell *table_find(table *t, uint64_t line)
{
   cell *c = page_find(t, (line >> PAGE_BITS) + 1);
   return c ? &c[line & (PAGE_LINES - 1)] : NULL;
}

/* The cell of line, its page made if absent; *added: the line was
   never touched ('a' is still fill). */
static inline cell *table_get(table *t, uint64_t line, int *added)
{
   uint64_t key = (line >> PAGE_BITS) + 1;
   cell *c = page_find(t, key);
   if (!c)
      c = page_add(t, key);
   c += line & (PAGE_LINES - 1);
   *added = c->a == t->fill;
   return c;
}

static void table_copy(table *d, const table *s)
{
   size_t i, n = (size_t)1 << s->bits;
   *d = *s;
   d->tag_lines = 0;   /* a copy serves a group's stream: no tags */
   d->dir = mp_malloc("mp.reuse.dir", n * sizeof(page_ref));
   for (i = 0; i < n; i++) {
      d->dir[i] = s->dir[i];
      if (s->dir[i].key) {
         d->dir[i].cells = mp_malloc("mp.reuse.page", PAGE_LINES * sizeof(cell));
         mp_memcpy(d->dir[i].cells, s->dir[i].cells, PAGE_LINES * sizeof(cell));
      }
   }
   d->last_key = 0;
   d->last_cells = NULL;
}

static uint64_t table_bytes(const table *t)
{
   return ((uint64_t)sizeof(page_ref) << t->bits)
          + (uint64_t)t->n * (PAGE_LINES * sizeof(cell) + t->tag_lines * sizeof(uint32_t));
}

/*------------------------------------------------------------*/
/*--- Streams: marks, Fenwick tree, compaction             ---*/
/*------------------------------------------------------------*/

static void stream_init(stream *s)
{
   table_init(&s->map, NO_SLOT);
   s->n_slots = MIN_SLOTS;
   s->marks = mp_calloc("mp.reuse.marks", MIN_SLOTS / 64, sizeof(uint64_t));
   s->fen = mp_calloc("mp.reuse.fen", MIN_SLOTS / 64, sizeof(uint32_t));
   s->now = 0;
   s->live = 0;
   s->front = 0;
   s->live_front = 0;
}

static void stream_fini(stream *s)
{
   table_fini(&s->map);
   mp_free(s->marks);
   mp_free(s->fen);
}

static void stream_copy(stream *d, const stream *s)
{
   size_t nw = s->n_slots / 64;
   *d = *s;
   table_copy(&d->map, &s->map);
   d->marks = mp_malloc("mp.reuse.marks", nw * sizeof(uint64_t));
   mp_memcpy(d->marks, s->marks, nw * sizeof(uint64_t));
   d->fen = mp_malloc("mp.reuse.fen", nw * sizeof(uint32_t));
   mp_memcpy(d->fen, s->fen, nw * sizeof(uint32_t));
}

static uint64_t stream_bytes(const stream *s)
{
   return table_bytes(&s->map)
          + s->n_slots / 8 + s->n_slots / 64 * sizeof(uint32_t);
}

static inline void fen_add(stream *s, uint32_t w, int32_t d)
{
   uint32_t n = s->n_slots / 64;
   for (; w < n; w |= w + 1)
      s->fen[w] += (uint32_t)d;
}

/* Marks in the words before w. */
static inline uint32_t fen_prefix(const stream *s, uint32_t w)
{
   uint32_t sum = 0;
   for (; w > 0; w &= w - 1)
      sum += s->fen[w - 1];
   return sum;
}

/* Marks after 'slot' (which is marked): the distinct lines accessed
   since the access that set it. */
static inline uint32_t count_after(const stream *s, uint32_t slot)
{
   uint32_t w = SLOT_WORD(slot), last = SLOT_WORD(s->now - 1), n, i;
   uint64_t above = (~0ull << (slot & 63)) << 1;
   if (last - w <= SHORT_WORDS) {
      n = popcount64(s->marks[w] & above);
      for (i = w + 1; i <= last; i++)
         n += popcount64(s->marks[i]);
      return n;
   }
   /* w is below the frontier, which is last (or last + 1) */
   n = s->live_front - fen_prefix(s, w) - popcount64(s->marks[w] & ~above);
   if (s->front == last)
      n += popcount64(s->marks[last]);
   return n;
}

/* Slots for m live lines: room for >= 3m more accesses. */
static uint32_t slots_for(uint32_t m)
{
   uint32_t n = MIN_SLOTS;
   while (n < 4 * m)
      n *= 2;
   return n;
}

/* Renumbers the marked slots 0..m-1, keeping their order, and resizes
   the bitmap to slots_for(m).  Out of line: inlined into touch, its
   registers made every access's call of touch pay a long prologue (xz
   -6 measured 10% slower in the reuse engine). */
static __attribute__((noinline)) void compact(mp_reuse *r, stream *s)
{
   uint32_t nw = s->n_slots / 64, w, m = 0, n_new;
   size_t i, nd = (size_t)1 << s->map.bits;
   uint32_t *below = s->fen;   /* rebuilt below: meanwhile the rank base */

   for (w = 0; w < nw; w++) {
      below[w] = m;
      m += popcount64(s->marks[w]);
   }
   mp_assert(m == s->live && m < MAX_LIVE);
   for (i = 0; i < nd; i++) {
      cell *c = s->map.dir[i].cells;
      uint32_t k;
      if (!s->map.dir[i].key)
         continue;
      for (k = 0; k < PAGE_LINES; k++)
         if (c[k].a != NO_SLOT)
            c[k].a = below[SLOT_WORD(c[k].a)]
                     + popcount64(s->marks[SLOT_WORD(c[k].a)] & (SLOT_BIT(c[k].a) - 1));
   }

   n_new = slots_for(m);
   if (n_new != s->n_slots) {
      mp_free(s->marks);
      mp_free(s->fen);
      s->n_slots = n_new;
      s->marks = mp_malloc("mp.reuse.marks", n_new / 8);
      s->fen = mp_malloc("mp.reuse.fen", n_new / 64 * sizeof(uint32_t));
   }
   nw = n_new / 64;
   s->front = SLOT_WORD(m);   /* the words below are full */
   s->live_front = s->front * 64;
   for (w = 0; w < nw; w++) {
      uint32_t first = w * 64;
      s->marks[w] = m >= first + 64 ? ~0ull
                  : m > first ? (1ull << (m - first)) - 1 : 0;
      s->fen[w] = w < s->front ? popcount64(s->marks[w]) : 0;
   }
   /* linear Fenwick build: each node passes its sum to its parent */
   for (w = 0; w < nw; w++) {
      uint32_t p = w | (w + 1);
      if (p < nw)
         s->fen[p] += s->fen[w];
   }
   s->now = m;
   r->st.compactions++;
}

/* Moves c's mark (if any) to a new slot, now. */
static inline __attribute__((always_inline)) void touch(mp_reuse *r, stream *s, cell *c)
{
   uint32_t slot, old;
   if (s->now == s->n_slots)
      compact(r, s);
   slot = s->now++;
   old = c->a;
   if (old != NO_SLOT) {
      s->marks[SLOT_WORD(old)] &= ~SLOT_BIT(old);
      if (SLOT_WORD(old) < s->front) {
         fen_add(s, SLOT_WORD(old), -1);
         s->live_front--;
      }
   } else {
      s->live++;
   }
   s->marks[SLOT_WORD(slot)] |= SLOT_BIT(slot);
   c->a = slot;
   while (SLOT_WORD(slot) > s->front) {   /* a word is full: it enters the tree */
      uint32_t n = popcount64(s->marks[s->front]);
      if (n) {
         fen_add(s, s->front, (int32_t)n);
         s->live_front += n;
      }
      s->front++;
   }
}

/*------------------------------------------------------------*/
/*--- Threads and groups                                   ---*/
/*------------------------------------------------------------*/

static void *grow_ptrs(void *p, uint32_t *n, uint32_t idx, uint32_t hint, const char *cc)
{
   uint32_t m = *n ? *n : (hint ? hint : 8);
   void **q;
   (void)cc;   /* the host's allocator has no cost centres */
   while (m <= idx)
      m = m * 2 > m ? m * 2 : idx + 1;
   q = mp_realloc(cc, p, (size_t)m * sizeof(void *));
   mp_memset(q + *n, 0, (size_t)(m - *n) * sizeof(void *));
   *n = m;
   return q;
}

static thread_state *thread_for(mp_reuse *r, uint32_t tid)
{
   thread_state *t;
   if (tid >= r->n_threads)
      r->threads = grow_ptrs(r->threads, &r->n_threads, tid,
                             r->cfg.n_threads_hint, "mp.reuse.threads");
   t = r->threads[tid];
   if (!t) {
      t = mp_calloc("mp.reuse.thread", 1, sizeof *t);
      stream_init(&t->s);
      t->s.map.tag_lines = r->cfg.tags ? PAGE_LINES : 0;
      t->solo_grp = NONE;
      t->fresh = 1;
      t->last_line = UINT64_MAX;
      r->threads[tid] = t;
      if (++r->st.threads == 2)
         r->multi = 1;
   }
   return t;
}

/* Gives a solo group its own copy of its thread's stream. */
static void unsolo(mp_reuse *r, group_state *g)
{
   thread_state *t = r->threads[g->solo_tid];
   stream_copy(&g->s, &t->s);
   t->solo_grp = NONE;
   g->solo_tid = NONE;
}

/* The group's state.  *solo says that the group's merged stream is the
   thread's private stream: every access so far in the group was by the
   thread, and every access by the thread was in the group.  A sharing
   that this access ends is undone first. */
static group_state *group_for(mp_reuse *r, uint32_t grp, uint32_t tid,
                              thread_state *t, int *solo)
{
   group_state *g;
   if (grp >= r->n_groups)
      r->groups = grow_ptrs(r->groups, &r->n_groups, grp, 4, "mp.reuse.groups");
   g = r->groups[grp];
   if (!g) {
      g = mp_calloc("mp.reuse.group", 1, sizeof *g);
      r->groups[grp] = g;
      r->st.groups++;
      if (t->fresh) {
         g->solo_tid = tid;
         t->solo_grp = grp;
      } else {
         stream_init(&g->s);
         g->solo_tid = NONE;
      }
   } else if (g->solo_tid != NONE && g->solo_tid != tid) {
      unsolo(r, g);
   }
   if (t->solo_grp != NONE && t->solo_grp != grp)
      unsolo(r, r->groups[t->solo_grp]);
   t->fresh = 0;
   *solo = g->solo_tid == tid;
   return g;
}

/*------------------------------------------------------------*/
/*--- Sampling                                             ---*/
/*------------------------------------------------------------*/

/* BURSTY: 1 if this access falls in an analysed window. */
static inline int bursty_take(mp_reuse *r)
{
   if (r->phase_left == 0) {
      if (r->in_gap || r->cfg.max_gap == 0) {
         r->in_gap = 0;
         r->phase_left = r->cfg.window;
      } else {
         uint64_t gap = (uint64_t)r->cfg.window * r->fib_a;
         if (r->gap_capped || gap >= r->cfg.max_gap) {
            gap = r->cfg.max_gap;
            r->gap_capped = 1;   /* fib stops growing: no overflow */
         } else {
            uint64_t next = r->fib_a + r->fib_b;
            r->fib_a = r->fib_b;
            r->fib_b = next;
         }
         r->in_gap = 1;
         r->phase_left = gap;
      }
   }
   r->phase_left--;
   return !r->in_gap;
}

static void sampling_start(mp_reuse *r)
{
   r->phase_left = r->cfg.window;
   r->in_gap = 0;
   r->gap_capped = 0;
   r->fib_a = 1;
   r->fib_b = 2;
}

/*------------------------------------------------------------*/
/*--- Engine                                               ---*/
/*------------------------------------------------------------*/

mp_reuse *mp_reuse_new(const mp_reuse_cfg *cfg, const char **err)
{
   mp_reuse *r;
   uint64_t below = 0;
   switch (cfg->mode) {
   case MP_REUSE_EXACT:
      if (cfg->fed_shift > 31) {
         *err = "the reuse sample fed is below 2^-31 of the lines";
         return NULL;
      }
      break;
   case MP_REUSE_SHARDS:
      /* written so that NaN fails too */
      if (!(cfg->rate > 0.0 && cfg->rate <= 1.0)) {
         *err = "the reuse sampling rate must be in (0, 1]";
         return NULL;
      }
      below = (uint64_t)(cfg->rate * 4294967296.0);
      if (below == 0) {
         *err = "the reuse sampling rate is below 2^-32";
         return NULL;
      }
      break;
   case MP_REUSE_BURSTY:
      if (cfg->window == 0) {
         *err = "the reuse sampling window must be at least one access";
         return NULL;
      }
      break;
   default:
      *err = "unknown reuse sampling mode";
      return NULL;
   }
   r = mp_calloc("mp.reuse.new", 1, sizeof *r);
   r->cfg = *cfg;
   r->shards_below = below;
   r->scale = below ? 4294967296.0 / (double)below : 1.0;
   if (cfg->mode == MP_REUSE_EXACT && cfg->fed_shift > 0)
      r->scale = (double)(1ULL << cfg->fed_shift);
   table_init(&r->versions, 0);
   sampling_start(r);
   return r;
}

static void free_state(mp_reuse *r)
{
   uint32_t i;
   for (i = 0; i < r->n_threads; i++)
      if (r->threads[i]) {
         stream_fini(&r->threads[i]->s);
         mp_free(r->threads[i]);
      }
   for (i = 0; i < r->n_groups; i++)
      if (r->groups[i]) {
         if (r->groups[i]->solo_tid == NONE)
            stream_fini(&r->groups[i]->s);
         mp_free(r->groups[i]);
      }
   if (r->threads)
      mp_free(r->threads);
   if (r->groups)
      mp_free(r->groups);
   table_fini(&r->versions);
}

void mp_reuse_free(mp_reuse *r)
{
   free_state(r);
   mp_free(r);
}

void mp_reuse_reset(mp_reuse *r)
{
   mp_reuse_cfg cfg = r->cfg;
   uint64_t below = r->shards_below;
   double scale = r->scale;
   free_state(r);
   mp_memset(r, 0, sizeof *r);
   r->cfg = cfg;
   r->shards_below = below;
   r->scale = scale;
   table_init(&r->versions, 0);
   sampling_start(r);
}

void mp_reuse_prefetch(mp_reuse *r, uint32_t tid, uint64_t line)
{
   thread_state *t;
   cell *c;
   if (tid >= r->n_threads || !(t = r->threads[tid]))
      return;
   c = page_find(&t->s.map, (line >> PAGE_BITS) + 1);
   if (c)
      __builtin_prefetch(&c[line & (PAGE_LINES - 1)]);
}

/* One access; 'tagging' is a constant of each caller, so that the
   untagged path carries no work of the tags but keeping last_tag on
   the line of last_line (an address, no memory touched). */
static inline __attribute__((always_inline))
int access_line(mp_reuse *r, uint32_t tid, uint32_t grp, uint64_t line, int is_write,
                int tagging, uint32_t tag, uint64_t *distance, uint32_t *prev_tag)
{
   thread_state *t;
   group_state *g;
   cell *pc, *gc, *vc = NULL;
   uint32_t ver = 0, d = 0;
   int solo, p_new, g_new, kind;

   mp_assert(line != UINT64_MAX);
   *distance = 0;
   r->st.accesses++;
   if (r->cfg.mode == MP_REUSE_SHARDS && shards_hash(line) >= r->shards_below)
      return MP_REUSE_SKIPPED;
   if (r->cfg.mode == MP_REUSE_BURSTY && !bursty_take(r))
      return MP_REUSE_SKIPPED;
   r->st.analysed++;

   t = thread_for(r, tid);
   g = group_for(r, grp, tid, t, &solo);
   if (line == t->last_line && solo && !r->multi) {
      if (tagging) {
         *prev_tag = *t->last_tag;
         *t->last_tag = tag;
      }
      return MP_REUSE_PRIVATE;
   }
   t->last_line = line;
   if (r->multi) {
      /* a line never written reads version 0, which is also what
         entries made before versions were kept hold */
      if (is_write) {
         int v_new;
         vc = table_get(&r->versions, line, &v_new);
      } else {
         vc = table_find(&r->versions, line);
      }
      ver = vc ? vc->a : 0;
   }

   pc = table_get(&t->s.map, line, &p_new);
   if (tagging) {
      /* the tag of a line never touched is of no access: not read */
      t->last_tag = tag_of(pc, line);
      *prev_tag = *t->last_tag;
      *t->last_tag = tag;
   } else if (r->cfg.tags) {
      t->last_tag = tag_of(pc, line);
   }
   if (solo) {
      /* one stream is both: only the kind depends on the version */
      if (p_new) {
         kind = MP_REUSE_COLD;
      } else {
         kind = pc->b == ver ? MP_REUSE_PRIVATE : MP_REUSE_SHARED;
         d = r->memo_at + 1 == r->st.accesses && r->memo_line == line
             && r->memo_tid == tid && r->memo_slot == pc->a
             ? r->memo_d : count_after(&t->s, pc->a);
      }
      touch(r, &t->s, pc);
   } else {
      gc = table_get(&g->s.map, line, &g_new);
      if (!p_new && pc->b == ver) {
         kind = MP_REUSE_PRIVATE;
         d = count_after(&t->s, pc->a);
      } else if (!g_new) {
         kind = MP_REUSE_SHARED;
         d = count_after(&g->s, gc->a);
      } else {
         kind = MP_REUSE_COLD;
      }
      touch(r, &t->s, pc);
      touch(r, &g->s, gc);
   }

   if (vc) {
      if (is_write)
         vc->a++;
      pc->b = vc->a;
   } else {
      pc->b = 0;
   }
   if (r->cfg.mode == MP_REUSE_SHARDS)
      *distance = (uint64_t)((double)d * r->scale + 0.5);
   else
      *distance = d << r->cfg.fed_shift;
   return kind;
}

int mp_reuse_access(mp_reuse *r, uint32_t tid, uint32_t grp, uint64_t line,
                    int is_write, uint64_t *distance)
{
   uint32_t unused;
   return access_line(r, tid, grp, line, is_write, 0, 0, distance, &unused);
}

int mp_reuse_access_tagged(mp_reuse *r, uint32_t tid, uint32_t grp, uint64_t line,
                           int is_write, uint32_t tag, uint64_t *distance,
                           uint32_t *prev_tag)
{
   mp_assert(r->cfg.tags);
   *prev_tag = tag;
   return access_line(r, tid, grp, line, is_write, 1, tag, distance, prev_tag);
}

int mp_reuse_would_hold(mp_reuse *r, uint32_t tid, uint64_t first, uint64_t line,
                        uint64_t cap)
{
   thread_state *t;
   const cell *c;
   uint64_t d, x;
   mp_assert(r->cfg.mode == MP_REUSE_EXACT);
   if (tid >= r->n_threads || !(t = r->threads[tid]))
      return 0;
   c = table_find(&t->s.map, line);
   if (!c || c->a == NO_SLOT)
      return 0;
   d = count_after(&t->s, c->a);
   r->memo_line = line;
   r->memo_tid = tid;
   r->memo_slot = c->a;
   r->memo_d = (uint32_t)d;
   r->memo_at = r->st.accesses;
   /* The access's lines before this one come after every slot. */
   for (x = first; x != line; x++) {
      const cell *xc = table_find(&t->s.map, x);
      if (!xc || xc->a == NO_SLOT || xc->a < c->a)
         d++;
   }
   return d < cap;
}

/* A min-heap of (slot, line) by slot, for mp_reuse_recent_lines. */
static void heap_sift_down(uint32_t *slot, uint64_t *line, uint32_t n, uint32_t i)
{
   for (;;) {
      uint32_t l = 2 * i + 1, m = i, ts;
      uint64_t tl;
      if (l < n && slot[l] < slot[m])
         m = l;
      if (l + 1 < n && slot[l + 1] < slot[m])
         m = l + 1;
      if (m == i)
         return;
      ts = slot[i]; slot[i] = slot[m]; slot[m] = ts;
      tl = line[i]; line[i] = line[m]; line[m] = tl;
      i = m;
   }
}

uint32_t mp_reuse_recent_lines(mp_reuse *r, uint32_t tid, uint64_t *lines, uint32_t n)
{
   const table *map;
   uint32_t *slot, k = 0, i, j;
   size_t p, n_dir;
   if (n == 0 || tid >= r->n_threads || !r->threads[tid])
      return 0;
   map = &r->threads[tid]->s.map;
   slot = mp_malloc("mp.reuse.recent", n * sizeof *slot);
   n_dir = (size_t)1 << map->bits;
   /* Keep the n latest slots in a min-heap whose root is the oldest. */
   for (p = 0; p < n_dir; p++) {
      if (!map->dir[p].key)
         continue;
      for (i = 0; i < PAGE_LINES; i++) {
         uint32_t a = map->dir[p].cells[i].a;
         uint64_t l = ((map->dir[p].key - 1) << PAGE_BITS) + i;
         if (a == NO_SLOT)
            continue;
         if (k < n) {
            slot[k] = a;
            lines[k] = l;
            if (++k == n)
               for (j = n / 2; j-- > 0;)
                  heap_sift_down(slot, lines, n, j);
         } else if (a > slot[0]) {
            slot[0] = a;
            lines[0] = l;
            heap_sift_down(slot, lines, n, 0);
         }
      }
   }
   if (k < n)
      for (j = k / 2; j-- > 0;)
         heap_sift_down(slot, lines, k, j);
   /* Pop the oldest first: the heap's end fills with the newest, so the
      array ends up newest first; reverse it. */
   for (j = k; j > 1; j--) {
      uint32_t ts = slot[0];
      uint64_t tl = lines[0];
      slot[0] = slot[j - 1]; lines[0] = lines[j - 1];
      slot[j - 1] = ts; lines[j - 1] = tl;
      heap_sift_down(slot, lines, j - 1, 0);
   }
   for (i = 0, j = k; i + 1 < j; i++, j--) {
      uint64_t tl = lines[i];
      lines[i] = lines[j - 1];
      lines[j - 1] = tl;
   }
   mp_free(slot);
   return k;
}

void mp_reuse_thread_exit(mp_reuse *r, uint32_t tid)
{
   thread_state *t = tid < r->n_threads ? r->threads[tid] : NULL;
   if (t == NULL)
      return;
   /* Its group keeps the merged stream: give the group its own copy
      first if it was sharing the thread's. */
   if (t->solo_grp != NONE)
      unsolo(r, r->groups[t->solo_grp]);
   stream_fini(&t->s);
   mp_free(t);
   r->threads[tid] = NULL;
}

double mp_reuse_weight(const mp_reuse *r)
{
   switch (r->cfg.mode) {
   case MP_REUSE_SHARDS:
      return r->scale;
   case MP_REUSE_BURSTY:
      return r->st.analysed ? (double)r->st.accesses / (double)r->st.analysed : 1.0;
   default:
      return r->scale;
   }
}

uint64_t mp_reuse_bytes(const mp_reuse *r)
{
   uint64_t n = sizeof *r + table_bytes(&r->versions)
                + (uint64_t)(r->n_threads + r->n_groups) * sizeof(void *);
   uint32_t i;
   for (i = 0; i < r->n_threads; i++)
      if (r->threads[i])
         n += sizeof(thread_state) + stream_bytes(&r->threads[i]->s);
   for (i = 0; i < r->n_groups; i++)
      if (r->groups[i]) {
         n += sizeof(group_state);
         if (r->groups[i]->solo_tid == NONE)
            n += stream_bytes(&r->groups[i]->s);
      }
   return n;
}

void mp_reuse_get_stats(const mp_reuse *r, mp_reuse_stats *st)
{
   *st = r->st;
}

void mp_reuse_take_stats(mp_reuse *r, const mp_reuse_stats *st)
{
   r->st = *st;
}

/*------------------------------------------------------------*/
/*--- Bins                                                 ---*/
/*------------------------------------------------------------*/

uint32_t mp_reuse_bin(uint64_t d)
{
   return d == 0 ? 0 : 64 - (uint32_t)__builtin_clzll(d);
}

void mp_reuse_bin_bounds(uint32_t bin, uint64_t *lo, uint64_t *hi)
{
   mp_assert(bin < MP_REUSE_N_BINS);
   if (bin == 0) {
      *lo = *hi = 0;
      return;
   }
   *lo = 1ull << (bin - 1);
   *hi = bin == 64 ? UINT64_MAX : (1ull << bin) - 1;
}
