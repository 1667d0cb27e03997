/*--------------------------------------------------------------------*/
/*--- memprof: concurrent streams per loop.            mp_streams.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Data structures (the definitions are in mp_streams.h):
   - per loop (indexed by loop id): its counts.
   - per thread (indexed by tid), per loop (indexed by loop id): the
     state of the loop's open instance: an open-addressing table of
     (instruction, variable) -> sequence, and the number of sequences
     that are regular right now.
   - A sequence is a small automaton over its differences (first
     difference, second, later ones): whether it is regular changes at
     most twice, and the instance's count follows each change, so an
     instance with fewer than two streams ends in O(1); one with more
     merges those that walk one page (hw_streams).
   - The table is not cleared between instances: every slot carries the
     stamp of the instance that wrote it, and a new instance takes a new
     stamp, so slots of older instances read as empty.
   - Cost per access: the (thread, loop) state found last is remembered,
     and the instance counts its own accesses, added to the loop's at its
     end; so an access in the same loop as the one before reads its
     instance's state and one slot, and writes nothing else (the two
     dependent loads to find the state and the loop's counts were host
     cache misses).
*/
#include "mp_streams.h"
#include "mp_util.h"

typedef struct {
   uint64_t instr;
   uint64_t last;            /* the previous address */
   int64_t stride;           /* bytes: the difference being confirmed */
   uint32_t var;
   uint32_t stamp;           /* the instance's stamp; 0: never used */
   uint8_t n;                /* accesses, saturating at 3 */
   uint8_t run;              /* differences equal to stride, saturating at 2 */
   uint8_t irregular;        /* a difference broke the stride: never a stream */
} seq;

typedef struct {
   uint64_t instance;
   uint32_t open;
   uint32_t stamp;           /* >= 1 */
   seq *slots;
   uint32_t cap;             /* a power of two */
   uint32_t used;            /* slots with the current stamp, <= cap / 2 */
   uint32_t regular;         /* sequences of this instance that are streams */
   uint64_t accesses;        /* of this instance, not yet in the loop's */
} inst_state;

typedef struct {
   inst_state **loops;       /* indexed by loop id, NULL until used */
   uint32_t n_loops;
} thread_state;

/* A stream as a prefetcher tracks it: its variable, its stride and the
   page it is in (mp_streams.h). */
typedef struct {
   uint32_t var;
   int64_t stride;
   uint64_t page;
} hw_stream;

struct mp_streams {
   mp_streams_cfg cfg;
   hw_stream *scratch;       /* an instance's streams, while they are counted */
   uint32_t scratch_cap;
   mp_streams_loop *stats;   /* indexed by loop id */
   uint8_t *seen;            /* per loop: anything counted */
   uint32_t n_stats;
   thread_state **threads;   /* indexed by tid */
   uint32_t n_threads;
   inst_state *last;         /* the state of (last_tid, last_loop), or NULL */
   uint32_t last_tid, last_loop;
};

/*------------------------------------------------------------*/
/*--- Setup                                                ---*/
/*------------------------------------------------------------*/

mp_streams *mp_streams_new(const mp_streams_cfg *cfg, const char **err)
{
   mp_streams *s;
   if (cfg->threshold < 1) {
      *err = "the stream threshold must be at least 1";
      return NULL;
   }
   s = mp_calloc("mp.streams.new", 1, sizeof *s);
   s->cfg = *cfg;
   return s;
}

void mp_streams_free(mp_streams *s)
{
   uint32_t t, i;
   for (t = 0; t < s->n_threads; t++) {
      thread_state *th = s->threads[t];
      if (!th)
         continue;
      for (i = 0; i < th->n_loops; i++)
         if (th->loops[i]) {
            mp_free(th->loops[i]->slots);
            mp_free(th->loops[i]);
         }
      if (th->loops)
         mp_free(th->loops);
      mp_free(th);
   }
   if (s->scratch) mp_free(s->scratch);
   if (s->threads) mp_free(s->threads);
   if (s->stats) mp_free(s->stats);
   if (s->seen) mp_free(s->seen);
   mp_free(s);
}

const mp_streams_cfg *mp_streams_config(const mp_streams *s) { return &s->cfg; }

/*------------------------------------------------------------*/
/*--- Tables                                               ---*/
/*------------------------------------------------------------*/

/* Grows a table indexed by id to hold id; new entries zeroed. */
static void *grow(const char *cc, void *p, uint32_t *n, uint32_t id, size_t elem)
{
   uint32_t m = *n ? *n : 16;
   (void)cc;                 /* unused on the host */
   while (m <= id)
      m *= 2;
   p = mp_realloc(cc, p, (size_t)m * elem);
   mp_memset((char *)p + (size_t)*n * elem, 0, (size_t)(m - *n) * elem);
   *n = m;
   return p;
}

static mp_streams_loop *stats_for(mp_streams *s, uint32_t loop)
{
   if (loop >= s->n_stats) {
      uint32_t n = s->n_stats;
      s->stats = grow("mp.streams.stats", s->stats, &n, loop, sizeof(mp_streams_loop));
      n = s->n_stats;
      s->seen = grow("mp.streams.seen", s->seen, &n, loop, 1);
      s->n_stats = n;
   }
   s->seen[loop] = 1;
   return &s->stats[loop];
}

static inline inst_state *inst_find(const mp_streams *s, uint32_t tid, uint32_t loop)
{
   const thread_state *th = tid < s->n_threads ? s->threads[tid] : NULL;
   return th && loop < th->n_loops ? th->loops[loop] : NULL;
}

static inst_state *inst_make(mp_streams *s, uint32_t tid, uint32_t loop)
{
   thread_state *th;
   inst_state *st;
   if (tid >= s->n_threads)
      s->threads = grow("mp.streams.threads", s->threads, &s->n_threads, tid,
                        sizeof(thread_state *));
   if (!s->threads[tid])
      s->threads[tid] = mp_calloc("mp.streams.thread", 1, sizeof(thread_state));
   th = s->threads[tid];
   if (loop >= th->n_loops)
      th->loops = grow("mp.streams.tloops", th->loops, &th->n_loops, loop,
                       sizeof(inst_state *));
   st = mp_calloc("mp.streams.inst", 1, sizeof *st);
   st->cap = 16;
   st->slots = mp_calloc("mp.streams.slots", st->cap, sizeof(seq));
   th->loops[loop] = st;
   return st;
}

static inline uint32_t slot_hash(uint64_t instr, uint32_t var)
{
   uint64_t h = (instr ^ ((uint64_t)var << 32 | var)) * 0x9E3779B97F4A7C15ULL;
   return (uint32_t)(h >> 32);
}

static void rehash(inst_state *st)
{
   seq *old = st->slots;
   uint32_t old_cap = st->cap, i;
   st->cap *= 2;
   st->slots = mp_calloc("mp.streams.slots", st->cap, sizeof(seq));
   for (i = 0; i < old_cap; i++)
      if (old[i].stamp == st->stamp) {
         uint32_t j = slot_hash(old[i].instr, old[i].var) & (st->cap - 1);
         while (st->slots[j].stamp == st->stamp)
            j = (j + 1) & (st->cap - 1);
         st->slots[j] = old[i];
      }
   mp_free(old);
}

/*------------------------------------------------------------*/
/*--- Instances                                            ---*/
/*------------------------------------------------------------*/

static void count_instance(mp_streams *s, uint32_t loop, uint32_t streams,
                           uint64_t accesses)
{
   mp_streams_loop *L = stats_for(s, loop);
   L->accesses += accesses;
   L->instances++;
   L->streams_sum += streams;
   if (streams > L->max_streams)
      L->max_streams = streams;
   if (streams > s->cfg.threshold)
      L->over_threshold++;
}

static inline int is_stream(const seq *q)
{
   return !q->irregular && q->stride != 0 && q->run >= 2;
}

static int by_stream(const void *a, const void *b)
{
   const hw_stream *x = a, *y = b;
   if (x->var != y->var)
      return x->var < y->var ? -1 : 1;
   if (x->stride != y->stride)
      return x->stride < y->stride ? -1 : 1;
   if (x->page != y->page)
      return x->page < y->page ? -1 : 1;
   return 0;
}

/* The instance's streams: its regular sequences, those of one variable
   and stride whose last accesses are in the same page counted once.
   Cost O(slots + r log r), r regular sequences: at most the instance's
   accesses, which are at least 3 per sequence. */
static uint32_t hw_streams(mp_streams *s, const inst_state *st)
{
   uint32_t i, n = 0, distinct;
   if (st->regular < 2)
      return st->regular;
   if (s->scratch_cap < st->regular) {
      s->scratch_cap = 2 * st->regular;
      s->scratch = mp_realloc("mp.streams.scratch", s->scratch,
                              s->scratch_cap * sizeof *s->scratch);
   }
   for (i = 0; i < st->cap && n < st->regular; i++) {
      const seq *q = &st->slots[i];
      if (q->stamp != st->stamp || !is_stream(q))
         continue;
      s->scratch[n].var = q->var;
      s->scratch[n].stride = q->stride;
      s->scratch[n].page = q->last / MP_STREAMS_PAGE;
      n++;
   }
   mp_sort(s->scratch, n, sizeof *s->scratch, by_stream);
   for (i = 0, distinct = 0; i < n; i++)
      distinct += i == 0 || by_stream(&s->scratch[i - 1], &s->scratch[i]) != 0;
   return distinct;
}

static void finish(mp_streams *s, uint32_t loop, inst_state *st)
{
   count_instance(s, loop, hw_streams(s, st), st->accesses);
   st->accesses = 0;
   st->open = 0;
}

static void start(inst_state *st, uint64_t instance)
{
   st->instance = instance;
   st->open = 1;
   st->used = 0;
   st->regular = 0;
   if (++st->stamp == 0) {   /* wrapped: stamps of old slots could match */
      mp_memset(st->slots, 0, st->cap * sizeof(seq));
      st->stamp = 1;
   }
}

void mp_streams_access(mp_streams *s, uint32_t tid, uint32_t loop, uint64_t instance,
                       uint64_t instr, uint32_t var, uint64_t addr)
{
   inst_state *st;
   seq *q;
   uint32_t i;
   int was;
   int64_t d;
   if (s->last && s->last_tid == tid && s->last_loop == loop) {
      st = s->last;
   } else {
      st = inst_find(s, tid, loop);
      if (!st)
         st = inst_make(s, tid, loop);
      s->last = st;
      s->last_tid = tid;
      s->last_loop = loop;
   }
   if (st->open && st->instance != instance)
      finish(s, loop, st);
   if (!st->open)
      start(st, instance);
   st->accesses++;

   for (i = slot_hash(instr, var) & (st->cap - 1); st->slots[i].stamp == st->stamp;
        i = (i + 1) & (st->cap - 1))
      if (st->slots[i].instr == instr && st->slots[i].var == var)
         break;
   q = &st->slots[i];
   if (q->stamp != st->stamp) {              /* first access of the pair */
      if (2 * (st->used + 1) > st->cap) {
         rehash(st);
         for (i = slot_hash(instr, var) & (st->cap - 1); st->slots[i].stamp == st->stamp;
              i = (i + 1) & (st->cap - 1))
            ;
         q = &st->slots[i];
      }
      mp_memset(q, 0, sizeof *q);
      q->instr = instr;
      q->var = var;
      q->stamp = st->stamp;
      q->last = addr;
      q->n = 1;
      st->used++;
      return;
   }

   was = is_stream(q);
   d = (int64_t)(addr - q->last);
   q->last = addr;
   if (q->irregular)
      return;
   if (q->n == 1) {                          /* first difference */
      q->stride = d;
      q->run = 1;
      q->n = 2;
   } else if (q->n == 2) {                   /* second: may replace the first */
      if (d == q->stride) {
         q->run = 2;
      } else {
         q->stride = d;
         q->run = 1;
      }
      q->n = 3;
   } else if (d == q->stride) {
      if (q->run < 2)
         q->run++;
   } else {
      q->irregular = 1;
   }
   if (is_stream(q) != was) {
      if (was)
         st->regular--;
      else
         st->regular++;
   }
}

void mp_streams_loop_end(mp_streams *s, uint32_t tid, uint32_t loop, uint64_t instance)
{
   inst_state *st = inst_find(s, tid, loop);
   if (st && st->open) {
      int same = st->instance == instance;
      finish(s, loop, st);
      if (same)
         return;
   }
   count_instance(s, loop, 0, 0);            /* an instance with no access */
}

void mp_streams_flush(mp_streams *s)
{
   uint32_t t, i;
   for (t = 0; t < s->n_threads; t++) {
      thread_state *th = s->threads[t];
      if (th)
         for (i = 0; i < th->n_loops; i++)
            if (th->loops[i] && th->loops[i]->open)
               finish(s, i, th->loops[i]);
   }
}

const mp_streams_loop *mp_streams_get(const mp_streams *s, uint32_t loop)
{
   return loop < s->n_stats && s->seen[loop] ? &s->stats[loop] : NULL;
}

int mp_streams_flagged(const mp_streams *s, uint32_t loop)
{
   const mp_streams_loop *L = mp_streams_get(s, loop);
   return L && L->max_streams > s->cfg.threshold;
}
