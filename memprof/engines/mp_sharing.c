/*--------------------------------------------------------------------*/
/*--- memprof: sharing and communication between threads.          ---*/
/*---                                                  mp_sharing.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Data structures and cost per access:
   - lines: a chained hash table of line records keyed by line number,
     doubled when it holds as many records as buckets (O(1) expected
     probe).  A record holds the line's last writer, its epoch and the
     list of threads that touched it.  Records and thread entries come
     from pools and are never freed one by one.
   - epoch: bumped by every write to the line.  A thread entry keeps the
     epoch it last saw; an access by a thread other than the last writer
     that finds a newer epoch is the first since a write: a transfer.
     32 bits: a thread that misses exactly 2^32 writes misses a transfer.
   - writer_mask: the bytes the last writer wrote since it took the line
     over from another writer; the transfer is true when the access
     touches one of them.
   - pairs and cells: small chained hash tables keyed by (writer loc,
     reader loc, variable) and (writer, reader thread); touched only on
     transfers.
   - lifetimes: per thread number, the epochs of its creation and end
     (an epoch is bumped by each); touched at thread creation and exit
     only, read by the prediction at exit.
   Memory: about 80 bytes per line touched while tracking, plus about
   80 per (line, thread).

   The prediction.  Counting transfers as above, a transfer to thread j
   needs a write by another thread after j's previous access to the
   line, and two transfers to j need two such writes; so no
   interleaving gives j more than min(N_j, sum of the others' W_i)
   transfers (N: accesses, W: writes).  Likewise a write of j
   invalidates another thread's copy only if that thread accessed the
   line since j's previous write: at most min(W_j, sum of the others'
   N_i) invalidating writes.  Threads that hit the line at the same
   time, at comparable rates, alternate on it and approach both
   bounds: the interleaving that alternates as often as possible
   reaches them within one per thread, whatever the order of reads and
   writes inside each thread (the order matters only at the ends).
   Only threads whose lifetimes overlap are summed over: a thread
   joined before the next was created never meets it.  The bounds need
   nothing per access beyond the counts the line records already keep.
*/
#include "mp_sharing.h"
#include "mp_util.h"

typedef struct line_rec {
   uint64_t line;
   uint64_t writer_mask;
   uint64_t transfers;
   uint32_t epoch;
   uint32_t last_writer;        /* thread number; 0 = never written */
   uint32_t writer_loc;         /* location of the last write */
   uint32_t n_threads;
   uint32_t vars[MP_SHARING_LINE_VARS];
   uint32_t n_vars;
   mp_sharing_thread *threads;  /* most recent toucher first */
   struct line_rec *next;       /* hash chain */
   uint64_t freed_id, freed_start, freed_len;   /* retired: its block */
   uint32_t freed_var;                          /* and the block's variable */
   int placement_only;          /* a retired copy of a line that lives on
                                   (retire_copy): for the placements, not
                                   counted twice in the lines */
} line_rec;

typedef struct pair_rec {
   mp_sharing_pair p;
   struct pair_rec *next;
} pair_rec;

typedef struct cell_rec {
   mp_sharing_cell c;
   struct cell_rec *next;
} cell_rec;

/* A bump allocator of fixed-size records, freed all at once. */
typedef struct pool_chunk {
   struct pool_chunk *next;
   uint32_t used;
   char *mem;
} pool_chunk;

typedef struct {
   size_t rec_size;
   uint32_t per_chunk;
   pool_chunk *chunks;
   void *free_list;             /* released records, linked through their first word */
   uint64_t bytes;
} pool;

struct mp_sharing {
   uint32_t line_shift;
   uint32_t group_shift;        /* log2 of bytes per mask bit */
   uint32_t n_groups;           /* mask bits in use */
   line_rec **buckets;
   uint64_t n_buckets, n_lines;
   /* Lines of freed blocks that two threads touched: out of the table
      (the memory's next owner starts afresh), kept for the report.
      Every line of such a block is kept, those of one thread too, so
      that the block can be placed anew (mp_sharing_false_at). */
   line_rec *retired;
   uint64_t n_freed;            /* frees that retired lines: their ids */
   pair_rec **pair_buckets;
   uint64_t n_pair_buckets, n_pairs;
   cell_rec **cell_buckets;
   uint64_t n_cell_buckets, n_cells;
   pool lines, threads, pairs, cells;
   /* Lifetimes, indexed by thread number: born[t] < ended[b] and
      born[b] < ended[t] when t and b were alive at the same time. */
   uint32_t *born, *ended;
   uint32_t n_life, life_epoch;
};

/*------------------------------------------------------------*/
/*--- Pools                                                ---*/
/*------------------------------------------------------------*/

static void pool_init(pool *p, size_t rec_size)
{
   p->rec_size = rec_size;
   p->per_chunk = 4096;
   p->chunks = NULL;
   p->free_list = NULL;
   p->bytes = 0;
}

static void *pool_alloc(pool *p)
{
   pool_chunk *c = p->chunks;
   void *r;
   if (p->free_list) {
      r = p->free_list;
      p->free_list = *(void **)r;
      mp_memset(r, 0, p->rec_size);
      return r;
   }
   if (c == NULL || c->used == p->per_chunk) {
      c = mp_malloc("mp.sharing.pool", sizeof *c);
      c->mem = mp_calloc("mp.sharing.pool", p->per_chunk, p->rec_size);
      c->used = 0;
      c->next = p->chunks;
      p->chunks = c;
      p->bytes += sizeof *c + p->per_chunk * p->rec_size;
   }
   r = c->mem + (size_t)c->used++ * p->rec_size;
   return r;
}

static void pool_release(pool *p, void *r)
{
   *(void **)r = p->free_list;
   p->free_list = r;
}

static void pool_free(pool *p)
{
   pool_chunk *c = p->chunks, *n;
   for (; c; c = n) {
      n = c->next;
      mp_free(c->mem);
      mp_free(c);
   }
   pool_init(p, p->rec_size);
}

/*------------------------------------------------------------*/
/*--- Hashing                                              ---*/
/*------------------------------------------------------------*/

static inline uint64_t mix(uint64_t x)
{
   x ^= x >> 33;
   x *= 0xff51afd7ed558ccdULL;
   x ^= x >> 33;
   return x;
}

static void **grow(void **old, uint64_t n_old, uint64_t n_new,
                   uint64_t (*key_hash)(const void *), void *(*next_of)(void *),
                   void (*set_next)(void *, void *))
{
   void **b = mp_calloc("mp.sharing.hash", n_new, sizeof *b);
   uint64_t i;
   for (i = 0; i < n_old; i++) {
      void *r = old[i], *n;
      for (; r; r = n) {
         uint64_t h = key_hash(r) & (n_new - 1);
         n = next_of(r);
         set_next(r, b[h]);
         b[h] = r;
      }
   }
   mp_free(old);
   return b;
}

static uint64_t line_hash(const void *r) { return mix(((const line_rec *)r)->line); }
static void *line_next(void *r) { return ((line_rec *)r)->next; }
static void line_set_next(void *r, void *n) { ((line_rec *)r)->next = n; }

static uint64_t pair_key_hash(uint32_t w, uint32_t r, uint32_t v)
{
   return mix(((uint64_t)w << 32 | r) ^ ((uint64_t)v * 0x9e3779b97f4a7c15ULL));
}
static uint64_t pair_hash(const void *r)
{
   const mp_sharing_pair *p = &((const pair_rec *)r)->p;
   return pair_key_hash(p->writer_loc, p->reader_loc, p->var);
}
static void *pair_next(void *r) { return ((pair_rec *)r)->next; }
static void pair_set_next(void *r, void *n) { ((pair_rec *)r)->next = n; }

static uint64_t cell_key_hash(uint32_t from, uint32_t to)
{
   return mix((uint64_t)from << 32 | to);
}
static uint64_t cell_hash(const void *r)
{
   const mp_sharing_cell *c = &((const cell_rec *)r)->c;
   return cell_key_hash(c->from, c->to);
}
static void *cell_next(void *r) { return ((cell_rec *)r)->next; }
static void cell_set_next(void *r, void *n) { ((cell_rec *)r)->next = n; }

/*------------------------------------------------------------*/
/*--- Construction                                         ---*/
/*------------------------------------------------------------*/

static void init_tables(mp_sharing *s)
{
   s->n_buckets = 1024;
   s->buckets = mp_calloc("mp.sharing.lines", s->n_buckets, sizeof *s->buckets);
   s->n_lines = 0;
   s->retired = NULL;
   s->n_freed = 0;
   s->n_pair_buckets = 64;
   s->pair_buckets = mp_calloc("mp.sharing.pairs", s->n_pair_buckets,
                               sizeof *s->pair_buckets);
   s->n_pairs = 0;
   s->n_cell_buckets = 64;
   s->cell_buckets = mp_calloc("mp.sharing.cells", s->n_cell_buckets,
                               sizeof *s->cell_buckets);
   s->n_cells = 0;
   pool_init(&s->lines, sizeof(line_rec));
   pool_init(&s->threads, sizeof(mp_sharing_thread));
   pool_init(&s->pairs, sizeof(pair_rec));
   pool_init(&s->cells, sizeof(cell_rec));
}

mp_sharing *mp_sharing_new(uint32_t line_size)
{
   mp_sharing *s = mp_calloc("mp.sharing", 1, sizeof *s);
   mp_assert(line_size >= 1 && (line_size & (line_size - 1)) == 0);
   s->line_shift = (uint32_t)__builtin_ctz(line_size);
   s->group_shift = s->line_shift > 6 ? s->line_shift - 6 : 0;
   s->n_groups = line_size >> s->group_shift;
   init_tables(s);
   return s;
}

static void free_tables(mp_sharing *s)
{
   mp_free(s->buckets);
   mp_free(s->pair_buckets);
   mp_free(s->cell_buckets);
   pool_free(&s->lines);
   pool_free(&s->threads);
   pool_free(&s->pairs);
   pool_free(&s->cells);
}

void mp_sharing_free(mp_sharing *s)
{
   if (s == NULL)
      return;
   free_tables(s);
   if (s->born) {
      mp_free(s->born);
      mp_free(s->ended);
   }
   mp_free(s);
}

void mp_sharing_reset(mp_sharing *s)
{
   free_tables(s);
   init_tables(s);
}

/*------------------------------------------------------------*/
/*--- Lookups                                              ---*/
/*------------------------------------------------------------*/

static line_rec *line_of(mp_sharing *s, uint64_t line)
{
   uint64_t h = mix(line) & (s->n_buckets - 1);
   line_rec *r;
   for (r = s->buckets[h]; r; r = r->next)
      if (r->line == line)
         return r;
   if (s->n_lines >= s->n_buckets) {
      s->buckets = (line_rec **)grow((void **)s->buckets, s->n_buckets,
                                     s->n_buckets * 2, line_hash, line_next,
                                     line_set_next);
      s->n_buckets *= 2;
      h = mix(line) & (s->n_buckets - 1);
   }
   r = pool_alloc(&s->lines);
   r->line = line;
   r->next = s->buckets[h];
   s->buckets[h] = r;
   s->n_lines++;
   return r;
}

/* The entry of thread tid on line r, moved to the front of the list. */
static mp_sharing_thread *thread_of(mp_sharing *s, line_rec *r, uint32_t tid)
{
   mp_sharing_thread **pp = &r->threads, *t;
   for (; (t = *pp) != NULL; pp = &t->next) {
      if (t->tid == tid) {
         if (pp != &r->threads) {
            *pp = t->next;
            t->next = r->threads;
            r->threads = t;
         }
         return t;
      }
   }
   t = pool_alloc(&s->threads);
   t->tid = tid;
   t->next = r->threads;
   r->threads = t;
   r->n_threads++;
   return t;
}

static mp_sharing_pair *pair_of(mp_sharing *s, uint32_t w, uint32_t rd, uint32_t var)
{
   uint64_t h = pair_key_hash(w, rd, var) & (s->n_pair_buckets - 1);
   pair_rec *r;
   for (r = s->pair_buckets[h]; r; r = r->next)
      if (r->p.writer_loc == w && r->p.reader_loc == rd && r->p.var == var)
         return &r->p;
   if (s->n_pairs >= s->n_pair_buckets) {
      s->pair_buckets = (pair_rec **)grow((void **)s->pair_buckets,
                                          s->n_pair_buckets, s->n_pair_buckets * 2,
                                          pair_hash, pair_next, pair_set_next);
      s->n_pair_buckets *= 2;
      h = pair_key_hash(w, rd, var) & (s->n_pair_buckets - 1);
   }
   r = pool_alloc(&s->pairs);
   r->p.writer_loc = w;
   r->p.reader_loc = rd;
   r->p.var = var;
   r->next = s->pair_buckets[h];
   s->pair_buckets[h] = r;
   s->n_pairs++;
   return &r->p;
}

static mp_sharing_cell *cell_of(mp_sharing *s, uint32_t from, uint32_t to)
{
   uint64_t h = cell_key_hash(from, to) & (s->n_cell_buckets - 1);
   cell_rec *r;
   for (r = s->cell_buckets[h]; r; r = r->next)
      if (r->c.from == from && r->c.to == to)
         return &r->c;
   if (s->n_cells >= s->n_cell_buckets) {
      s->cell_buckets = (cell_rec **)grow((void **)s->cell_buckets,
                                          s->n_cell_buckets, s->n_cell_buckets * 2,
                                          cell_hash, cell_next, cell_set_next);
      s->n_cell_buckets *= 2;
      h = cell_key_hash(from, to) & (s->n_cell_buckets - 1);
   }
   r = pool_alloc(&s->cells);
   r->c.from = from;
   r->c.to = to;
   r->next = s->cell_buckets[h];
   s->cell_buckets[h] = r;
   s->n_cells++;
   return &r->c;
}

/*------------------------------------------------------------*/
/*--- The access                                           ---*/
/*------------------------------------------------------------*/

/* Mask bits of bytes [lo, hi] of a line (offsets within it). */
static inline uint64_t group_mask(const mp_sharing *s, uint32_t lo, uint32_t hi)
{
   uint32_t g0 = lo >> s->group_shift, g1 = hi >> s->group_shift;
   uint64_t upto = g1 >= 63 ? ~0ULL : (2ULL << g1) - 1;
   return upto & ~((1ULL << g0) - 1);
}

/* var's slot in the line, MP_SHARING_LINE_VARS if the line has no room
   left for it (its accesses are then in no variable's counts). */
static uint32_t note_var(line_rec *r, uint32_t var)
{
   uint32_t i;
   for (i = 0; i < r->n_vars; i++)
      if (r->vars[i] == var)
         return i;
   if (r->n_vars == MP_SHARING_LINE_VARS)
      return MP_SHARING_LINE_VARS;
   r->vars[r->n_vars] = var;
   return r->n_vars++;
}

static void note_loc(mp_sharing_thread *t, uint32_t loc)
{
   uint32_t i;
   for (i = 0; i < t->n_locs; i++)
      if (t->locs[i] == loc)
         return;
   if (t->n_locs < MP_SHARING_LOCS)
      t->locs[t->n_locs++] = loc;
}

static void transfer(mp_sharing *s, line_rec *r, const mp_event *e,
                     uint64_t mask, mp_sharing_outcome *out)
{
   uint64_t overlap = mask & r->writer_mask;
   int is_true = overlap != 0;
   mp_sharing_pair *p = pair_of(s, r->writer_loc, e->loc, e->var);
   mp_sharing_cell *c = cell_of(s, r->last_writer, e->tid);

   r->transfers++;
   p->transfers++;
   p->true_transfers += is_true;
   if (is_true) {
      c->true_lines++;
      c->bytes += (uint64_t)__builtin_popcountll(overlap) << s->group_shift;
   } else {
      c->false_lines++;
   }
   out->transfers++;
   out->true_transfers += is_true;
}

static void access_line(mp_sharing *s, const mp_event *e, uint64_t line,
                        uint32_t lo, uint32_t hi, mp_sharing_outcome *out)
{
   line_rec *r = line_of(s, line);
   mp_sharing_thread *t = thread_of(s, r, e->tid);
   uint64_t mask = group_mask(s, lo, hi);
   uint32_t slot;

   slot = note_var(r, e->var);
   note_loc(t, e->loc);
   if (slot < MP_SHARING_LINE_VARS) {
      t->var_accesses[slot] += t->var_accesses[slot] != UINT32_MAX;
      t->var_writes[slot] += e->is_write && t->var_writes[slot] != UINT32_MAX;
   }
   if (r->last_writer != 0 && r->last_writer != e->tid && t->seen_epoch != r->epoch)
      transfer(s, r, e, mask, out);
   if (e->is_write) {
      if (r->last_writer != e->tid) {
         r->last_writer = e->tid;
         r->writer_mask = 0;
      }
      r->writer_mask |= mask;
      r->writer_loc = e->loc;
      r->epoch++;
      t->write_mask |= mask;
      t->writes++;
   } else {
      t->read_mask |= mask;
      t->reads++;
   }
   t->seen_epoch = r->epoch;
}

void mp_sharing_access(mp_sharing *s, const mp_event *e, mp_sharing_outcome *out)
{
   uint64_t first = mp_event_first_line(e, s->line_shift);
   uint64_t last = mp_event_last_line(e, s->line_shift), line;
   uint64_t end = e->addr + e->size - 1;
   uint32_t mask_bytes = (1u << s->line_shift) - 1;

   out->transfers = out->true_transfers = 0;
   for (line = first; line <= last; line++) {
      uint32_t lo = line == first ? (uint32_t)(e->addr & mask_bytes) : 0;
      uint32_t hi = line == last ? (uint32_t)(end & mask_bytes) : mask_bytes;
      access_line(s, e, line, lo, hi, out);
   }
}

/* Returns a line's records to their pools. */
static void release_line(mp_sharing *s, line_rec *r)
{
   mp_sharing_thread *t, *n;
   for (t = r->threads; t; t = n) {
      n = t->next;
      pool_release(&s->threads, t);
   }
   pool_release(&s->lines, r);
   s->n_lines--;
}

/* What a free does to the lines of its block. */
typedef struct {
   int retire;                  /* two threads touched them: keep them */
   uint32_t tid;                /* the first thread seen, while deciding */
   uint64_t id, start, len;
   uint32_t var;
} forgetting;

/* Decides: whether the records of chain r in [first, end) bring the
   block's threads to two. */
static void see_chain(const line_rec *r, uint64_t first, uint64_t end, forgetting *f)
{
   const mp_sharing_thread *t;
   for (; r && !f->retire; r = r->next) {
      if (r->line < first || r->line >= end)
         continue;
      for (t = r->threads; t; t = t->next) {
         if (f->tid == 0)
            f->tid = t->tid;
         else if (t->tid != f->tid)
            f->retire = 1;
      }
   }
}

/* Removes from chain *pp the lines in [first, end): retired with their
   block when the block's lines saw two threads (what they did to the
   block still counts), released otherwise. */
static void forget_in_chain(mp_sharing *s, line_rec **pp, uint64_t first, uint64_t end,
                            const forgetting *f)
{
   line_rec *r;
   while ((r = *pp) != NULL) {
      if (r->line >= first && r->line < end) {
         *pp = r->next;
         if (f->retire) {
            r->freed_id = f->id;
            r->freed_start = f->start;
            r->freed_len = f->len;
            r->freed_var = f->var;
            r->next = s->retired;
            s->retired = r;
            s->n_lines--;
         } else {
            release_line(s, r);
         }
      } else {
         pp = &r->next;
      }
   }
}

/* Lines wholly inside a freed heap block start afresh: the allocator
   handing the memory to another thread is not sharing.  The block's own
   sharing is kept: when two threads touched it, its lines are retired,
   not dropped (the lines it shares with its neighbours stay in the
   table).  A range longer than the table walks the table instead of
   probing every line; the decision walks it once more. */
/* The record of line, or NULL. */
static line_rec *find_line(const mp_sharing *s, uint64_t line)
{
   line_rec *r;
   for (r = s->buckets[mix(line) & (s->n_buckets - 1)]; r; r = r->next)
      if (r->line == line)
         return r;
   return NULL;
}

/* A line the freed block shares with its neighbours stays theirs: a
   copy of its record, threads and all, is retired with the block, so
   that its placements are still weighed (a vector of four counters,
   32 bytes across two lines, freed before the exit). */
static void retire_copy(mp_sharing *s, const line_rec *r, const forgetting *f)
{
   line_rec *c = pool_alloc(&s->lines);
   const mp_sharing_thread *t;
   mp_sharing_thread **tail = &c->threads;
   *c = *r;
   c->threads = NULL;
   for (t = r->threads; t; t = t->next) {
      mp_sharing_thread *ct = pool_alloc(&s->threads);
      *ct = *t;
      ct->next = NULL;
      *tail = ct;
      tail = &ct->next;
   }
   c->freed_id = f->id;
   c->freed_start = f->start;
   c->freed_len = f->len;
   c->freed_var = f->var;
   c->placement_only = 1;
   c->next = s->retired;
   s->retired = c;
}

void mp_sharing_forget(mp_sharing *s, uint64_t addr, uint64_t len, uint32_t var)
{
   uint64_t size = 1ULL << s->line_shift;
   uint64_t first = (addr + size - 1) >> s->line_shift;
   uint64_t end = (addr + len) >> s->line_shift, line, i;   /* end exclusive */
   /* The block's lines that hold a neighbour's bytes too: at most two. */
   uint64_t edge[2];
   line_rec *edge_rec[2] = { NULL, NULL };
   uint32_t n_edges = 0, k;
   int walk = end > first && end - first > s->n_buckets;
   forgetting f;
   if (s->n_lines == 0 || len == 0)
      return;
   if ((addr >> s->line_shift) < first)
      edge[n_edges++] = addr >> s->line_shift;
   if (((addr + len - 1) >> s->line_shift) >= end
       && (n_edges == 0 || edge[0] != (addr + len - 1) >> s->line_shift))
      edge[n_edges++] = (addr + len - 1) >> s->line_shift;
   /* The block's own lines decide whether they are kept; an edge line,
      whose other bytes are a neighbour's, only whether its copy is
      (two threads on it: the neighbours' do not count for the block's
      placements, which look at its own bytes only). */
   mp_memset(&f, 0, sizeof f);
   for (i = 0; walk && i < s->n_buckets; i++)
      see_chain(s->buckets[i], first, end, &f);
   for (line = first; !walk && line < end; line++)
      see_chain(s->buckets[mix(line) & (s->n_buckets - 1)], line, line + 1, &f);
   for (k = 0; k < n_edges; k++) {
      forgetting e;
      mp_memset(&e, 0, sizeof e);
      edge_rec[k] = find_line(s, edge[k]);
      if (edge_rec[k])
         see_chain(edge_rec[k], edge[k], edge[k] + 1, &e);
      if (!e.retire)
         edge_rec[k] = NULL;
   }
   if (f.retire || edge_rec[0] || edge_rec[1]) {
      f.id = ++s->n_freed;
      f.start = addr;
      f.len = len;
      f.var = var;
      for (k = 0; k < n_edges; k++)
         if (edge_rec[k])
            retire_copy(s, edge_rec[k], &f);
   }
   if (end <= first)
      return;
   for (i = 0; walk && i < s->n_buckets; i++)
      forget_in_chain(s, &s->buckets[i], first, end, &f);
   for (line = first; !walk && line < end; line++)
      forget_in_chain(s, &s->buckets[mix(line) & (s->n_buckets - 1)], line, line + 1, &f);
}

/*------------------------------------------------------------*/
/*--- Lifetimes and the prediction                         ---*/
/*------------------------------------------------------------*/

/* Room for thread tid; new threads live from the start to the end. */
static void life_room(mp_sharing *s, uint32_t tid)
{
   uint32_t n, i;
   if (tid < s->n_life)
      return;
   n = s->n_life ? s->n_life : 64;
   while (n <= tid)
      n *= 2;
   s->born = mp_realloc("mp.sharing.life", s->born, n * sizeof *s->born);
   s->ended = mp_realloc("mp.sharing.life", s->ended, n * sizeof *s->ended);
   for (i = s->n_life; i < n; i++) {
      s->born[i] = 0;
      s->ended[i] = UINT32_MAX;
   }
   s->n_life = n;
}

void mp_sharing_thread_start(mp_sharing *s, uint32_t tid)
{
   life_room(s, tid);
   s->born[tid] = ++s->life_epoch;
   s->ended[tid] = UINT32_MAX;
}

void mp_sharing_thread_end(mp_sharing *s, uint32_t tid)
{
   life_room(s, tid);
   s->ended[tid] = ++s->life_epoch;
}

int mp_sharing_concurrent(const mp_sharing *s, uint32_t a, uint32_t b)
{
   uint32_t born_a = a < s->n_life ? s->born[a] : 0;
   uint32_t ended_a = a < s->n_life ? s->ended[a] : UINT32_MAX;
   uint32_t born_b = b < s->n_life ? s->born[b] : 0;
   uint32_t ended_b = b < s->n_life ? s->ended[b] : UINT32_MAX;
   return born_a < ended_b && born_b < ended_a;
}

static inline uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* The bounds, with thread j's own accesses and writes those of slot
   (MP_SHARING_LINE_VARS: all of them). */
static void predict(const mp_sharing *s, const mp_sharing_thread *threads, uint32_t slot,
                    mp_sharing_prediction *out)
{
   const mp_sharing_thread *j, *i;
   mp_memset(out, 0, sizeof *out);
   for (j = threads; j; j = j->next) {
      uint64_t touched_j = j->read_mask | j->write_mask;
      uint64_t n_j = slot < MP_SHARING_LINE_VARS ? j->var_accesses[slot] : j->reads + j->writes;
      uint64_t w_j = slot < MP_SHARING_LINE_VARS ? j->var_writes[slot] : j->writes;
      uint64_t others_w = 0, others_w_true = 0, others_n = 0, to_j;
      for (i = threads; i; i = i->next) {
         if (i == j || !mp_sharing_concurrent(s, i->tid, j->tid))
            continue;
         others_w += i->writes;
         others_n += i->reads + i->writes;
         /* A transfer from i is true when it brings j bytes i wrote. */
         if (i->write_mask & touched_j)
            others_w_true += i->writes;
      }
      to_j = min64(n_j, others_w);
      out->transfers += to_j;
      out->true_transfers += others_w_true == others_w ? to_j
         : (uint64_t)((double)to_j * (double)others_w_true / (double)others_w + 0.5);
      out->invalidations += min64(w_j, others_n);
   }
}

void mp_sharing_predict(const mp_sharing *s, const mp_sharing_thread *threads,
                        mp_sharing_prediction *out)
{
   predict(s, threads, MP_SHARING_LINE_VARS, out);
}

void mp_sharing_predict_var(const mp_sharing *s, const mp_sharing_thread *threads,
                            uint32_t slot, mp_sharing_prediction *out)
{
   mp_assert(slot < MP_SHARING_LINE_VARS);
   predict(s, threads, slot, out);
}

/*------------------------------------------------------------*/
/*--- Reading the results                                  ---*/
/*------------------------------------------------------------*/

/* Classifies every pair of threads of the line of which one wrote:
   truly sharing if one wrote a byte (group) the other touched, falsely
   sharing if they touched disjoint bytes.  A line's pairs may be of
   both kinds: workers updating their own slots falsely share it while
   the main thread reading every slot at the end truly shares it. */
static void classify_pairs(const line_rec *r, uint32_t *false_pairs,
                           uint32_t *true_pairs)
{
   const mp_sharing_thread *a, *b;
   *false_pairs = *true_pairs = 0;
   for (a = r->threads; a; a = a->next) {
      uint64_t touched_a = a->read_mask | a->write_mask;
      for (b = a->next; b; b = b->next) {
         uint64_t touched_b = b->read_mask | b->write_mask;
         if (a->write_mask == 0 && b->write_mask == 0)
            continue;
         if ((a->write_mask & touched_b) || (b->write_mask & touched_a))
            (*true_pairs)++;
         else
            (*false_pairs)++;
      }
   }
}

/* What a line's record says of itself, for both walks. */
static void fill_record(const line_rec *r, mp_sharing_line *l)
{
   mp_memset(l, 0, sizeof *l);
   l->line = r->line;
   mp_memcpy(l->vars, r->vars, sizeof l->vars);
   l->n_vars = r->n_vars;
   l->threads = r->threads;
   l->n_threads = r->n_threads;
   l->freed_id = r->freed_id;
   l->freed_start = r->freed_start;
   l->freed_len = r->freed_len;
   l->freed_var = r->freed_var;
}

/* A line two threads touched, classified and predicted. */
static void report_line(const mp_sharing *s, const line_rec *r,
                        void (*fn)(const mp_sharing_line *l, void *arg), void *arg)
{
   mp_sharing_line l;
   mp_sharing_prediction p;
   uint32_t i;

   fill_record(r, &l);
   /* Two threads and a writer: the writer and someone else. */
   l.shared = r->last_writer != 0;
   classify_pairs(r, &l.false_pairs, &l.true_pairs);
   l.is_true = l.shared && l.false_pairs == 0;
   l.transfers = r->transfers;
   mp_sharing_predict(s, r->threads, &p);
   l.predicted = p.transfers;
   l.predicted_true = p.true_transfers;
   l.predicted_invalidations = p.invalidations;
   for (i = 0; i < l.n_vars; i++) {
      mp_sharing_predict_var(s, r->threads, i, &p);
      l.var_predicted[i] = p.transfers;
      l.var_predicted_true[i] = p.true_transfers;
      l.var_predicted_invalidations[i] = p.invalidations;
   }
   fn(&l, arg);
}

void mp_sharing_foreach_line(const mp_sharing *s,
                             void (*fn)(const mp_sharing_line *l, void *arg),
                             void *arg)
{
   const line_rec *r;
   uint64_t i;

   for (i = 0; i < s->n_buckets; i++)
      for (r = s->buckets[i]; r; r = r->next)
         if (r->n_threads >= 2)
            report_line(s, r, fn, arg);
   for (r = s->retired; r; r = r->next)
      if (r->n_threads >= 2 && !r->placement_only)
         report_line(s, r, fn, arg);
}

static void record_of(const line_rec *r, void (*fn)(const mp_sharing_line *l, void *arg),
                      void *arg)
{
   mp_sharing_line l;
   fill_record(r, &l);
   fn(&l, arg);
}

void mp_sharing_foreach_record(const mp_sharing *s,
                               void (*fn)(const mp_sharing_line *l, void *arg),
                               void *arg)
{
   const line_rec *r;
   uint64_t i;
   for (i = 0; i < s->n_buckets; i++)
      for (r = s->buckets[i]; r; r = r->next)
         record_of(r, fn, arg);
   for (r = s->retired; r; r = r->next)
      record_of(r, fn, arg);
}

/*------------------------------------------------------------*/
/*--- Placements                                           ---*/
/*------------------------------------------------------------*/

/* One thread's bytes of a line of the moved block, and the accesses
   and writes of the original lines they come from. */
typedef struct {
   uint32_t tid;
   uint64_t touched, written;
   uint64_t accesses, writes;
} placed;

/* Adds to the moved line's threads p (n of them, room for all) what the
   threads of one original line put in it: their masks ANDed with the
   block's bytes of that line, then shifted up by `up` groups (the
   line's low part) or down by `down` (its high part, the moved line
   after it). */
static uint32_t add_part(const mp_sharing *s, placed *p, uint32_t n,
                         const mp_sharing_thread *t, uint64_t block, int up, uint32_t by)
{
   uint64_t full = s->n_groups == 64 ? ~0ULL : (1ULL << s->n_groups) - 1;
   for (; t; t = t->next) {
      uint64_t touched = (t->read_mask | t->write_mask) & block;
      uint64_t written = t->write_mask & block;
      uint32_t k;
      touched = up ? (touched << by) & full : touched >> by;
      written = up ? (written << by) & full : written >> by;
      if (touched == 0)
         continue;
      for (k = 0; k < n && p[k].tid != t->tid; k++)
         ;
      if (k == n) {
         p[n].tid = t->tid;
         p[n].touched = p[n].written = 0;
         p[n].accesses = p[n].writes = 0;
         n++;
      }
      p[k].touched |= touched;
      p[k].written |= written;
      p[k].accesses += t->reads + t->writes;
      p[k].writes += written ? t->writes : 0;
   }
   return n;
}

/* Whether two concurrent threads of p, one writing, touch disjoint
   bytes of the line: a falsely sharing pair, as classify_pairs says. */
static int has_false_pair(const mp_sharing *s, const placed *p, uint32_t n)
{
   uint32_t a, b;
   for (a = 0; a < n; a++)
      for (b = a + 1; b < n; b++) {
         if ((p[a].written | p[b].written) == 0)
            continue;
         if ((p[a].written & p[b].touched) || (p[b].written & p[a].touched))
            continue;
         if (mp_sharing_concurrent(s, p[a].tid, p[b].tid))
            return 1;
      }
   return 0;
}

/* The block's bytes on line `line`, as a group mask: a group the block
   shares with a neighbour counts as the block's. */
/* The bound on the false transfers of a moved line (see
   mp_sharing_false_at): to each thread j, no more than its accesses,
   nor than the writes of the concurrent threads that wrote none of
   its bytes. */
static uint64_t false_transfers(const mp_sharing *s, const placed *p, uint32_t n)
{
   uint64_t sum = 0;
   uint32_t j, i;
   for (j = 0; j < n; j++) {
      uint64_t others = 0;
      for (i = 0; i < n; i++)
         if (i != j && p[i].written && !(p[i].written & p[j].touched)
             && mp_sharing_concurrent(s, p[i].tid, p[j].tid))
            others += p[i].writes;
      sum += min64(p[j].accesses, others);
   }
   return sum;
}

/* Whether the moved line p (n threads) is falsely shared; if so and
   predicted is non-NULL, adds its bound to *predicted. */
static int moved_line_false(const mp_sharing *s, const placed *p, uint32_t n,
                            uint64_t *predicted)
{
   if (!has_false_pair(s, p, n))
      return 0;
   if (predicted)
      *predicted += false_transfers(s, p, n);
   return 1;
}

static uint64_t block_groups(const mp_sharing *s, uint64_t line, uint64_t start, uint64_t len)
{
   uint64_t lo = line << s->line_shift, hi = lo + (1ULL << s->line_shift);
   uint64_t a = start > lo ? start : lo, e = start + len < hi ? start + len : hi;
   if (a >= e)
      return 0;
   return group_mask(s, (uint32_t)(a - lo), (uint32_t)(e - 1 - lo));
}

static uint32_t list_length(const mp_sharing_thread *t)
{
   uint32_t n = 0;
   for (; t; t = t->next)
      n++;
   return n;
}

/* Moving the block by d bytes (0 <= d < line, in whole groups of dg),
   the bytes of original line m at offsets [0, line - d) land in moved
   line m, shifted up by d; those at [line - d, line) in moved line
   m + 1, shifted down by line - d.  So moved line m holds parts of
   original lines m and m - 1 only, and only moved lines next to a
   record can hold a byte: each is built from at most two records. */
int mp_sharing_false_at(const mp_sharing *s, const mp_sharing_rec *recs, uint32_t n,
                        uint64_t start, uint64_t len, uint32_t placement,
                        uint64_t *predicted)
{
   uint64_t size = 1ULL << s->line_shift;
   uint32_t d = (uint32_t)((placement + size - (start & (size - 1))) & (size - 1));
   uint32_t dg = d >> s->group_shift, i, most = 0, found = 0;
   placed *p;
   if (predicted)
      *predicted = 0;
   for (i = 0; i < n; i++) {
      uint32_t k = list_length(recs[i].threads);
      most = k > most ? k : most;
   }
   p = mp_malloc("mp.sharing.placed", (2 * most + 1) * sizeof *p);
   for (i = 0; i < n && (predicted || !found); i++) {
      const mp_sharing_rec *r = &recs[i];
      const mp_sharing_rec *prev = i > 0 && recs[i - 1].line + 1 == r->line ? &recs[i - 1] : NULL;
      uint32_t k = add_part(s, p, 0, r->threads, block_groups(s, r->line, start, len), 1, dg);
      if (prev && dg)
         k = add_part(s, p, k, prev->threads,
                      block_groups(s, prev->line, start, len), 0, s->n_groups - dg);
      found |= moved_line_false(s, p, k, predicted);
      /* The moved line after this one, when no record will build it. */
      if ((predicted || !found) && dg && (i + 1 == n || recs[i + 1].line != r->line + 1)) {
         k = add_part(s, p, 0, r->threads, block_groups(s, r->line, start, len), 0,
                      s->n_groups - dg);
         found |= moved_line_false(s, p, k, predicted);
      }
   }
   mp_free(p);
   return found;
}

static int pair_order(const mp_sharing_pair *a, const mp_sharing_pair *b)
{
   if (a->transfers != b->transfers)
      return a->transfers > b->transfers ? -1 : 1;
   if (a->writer_loc != b->writer_loc)
      return a->writer_loc < b->writer_loc ? -1 : 1;
   if (a->reader_loc != b->reader_loc)
      return a->reader_loc < b->reader_loc ? -1 : 1;
   return a->var < b->var ? -1 : a->var > b->var;
}

static int cell_order(const mp_sharing_cell *a, const mp_sharing_cell *b)
{
   if (a->from != b->from)
      return a->from < b->from ? -1 : 1;
   return a->to < b->to ? -1 : a->to > b->to;
}

static int pair_cmp(const void *a, const void *b) { return pair_order(a, b); }
static int cell_cmp(const void *a, const void *b) { return cell_order(a, b); }

mp_sharing_pair *mp_sharing_pairs(const mp_sharing *s, uint32_t *n_out)
{
   mp_sharing_pair *out = mp_malloc("mp.sharing.pairs", (s->n_pairs + 1) * sizeof *out);
   uint32_t n = 0;
   uint64_t i;
   for (i = 0; i < s->n_pair_buckets; i++) {
      const pair_rec *r;
      for (r = s->pair_buckets[i]; r; r = r->next)
         out[n++] = r->p;
   }
   mp_sort(out, n, sizeof *out, pair_cmp);
   *n_out = n;
   return out;
}

mp_sharing_cell *mp_sharing_cells(const mp_sharing *s, uint32_t *n_out)
{
   mp_sharing_cell *out = mp_malloc("mp.sharing.cells", (s->n_cells + 1) * sizeof *out);
   uint32_t n = 0;
   uint64_t i;
   for (i = 0; i < s->n_cell_buckets; i++) {
      const cell_rec *r;
      for (r = s->cell_buckets[i]; r; r = r->next)
         out[n++] = r->c;
   }
   mp_sort(out, n, sizeof *out, cell_cmp);
   *n_out = n;
   return out;
}

void mp_sharing_group_bytes(const mp_sharing *s, uint32_t b,
                            uint32_t *first, uint32_t *last)
{
   *first = b << s->group_shift;
   *last = ((b + 1) << s->group_shift) - 1;
}

uint32_t mp_sharing_groups(const mp_sharing *s) { return s->n_groups; }
uint64_t mp_sharing_lines(const mp_sharing *s) { return s->n_lines; }

uint64_t mp_sharing_bytes(const mp_sharing *s)
{
   return s->lines.bytes + s->threads.bytes + s->pairs.bytes + s->cells.bytes
        + 2ULL * s->n_life * sizeof(uint32_t)
        + (s->n_buckets + s->n_pair_buckets + s->n_cell_buckets) * sizeof(void *);
}
