/*--------------------------------------------------------------------*/
/*--- memprof: stride histograms per variable.          mp_stride.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Data structures and cost per access:
   - per variable (indexed by id, made on first access): its histograms
     (K * 137 counts per kind) and a table of per-thread histories
     indexed by thread id.
   - per (variable, thread): for loads and for stores, a ring of the K
     last addresses.  An access walks back through at most K of them
     (fewer in filtered mode, which stops at the first stride below the
     threshold), so the cost is O(K), no hashing, no allocation after
     the first access of a thread to a variable.
   - Repeats: once the last K first-histogram strides of a history are
     all the same s, its K strides are s, 2s, ..., Ks, the same bins as
     the access before.  Such an access only counts one repeat; the
     repeats are added to those K bins when the stride changes or the
     histograms are read (mp_stride_get).  A loop walking an array at a
     fixed stride then costs one compare and one increment per access,
     not K scattered bin increments (measured side by side, full runs:
     matrix multiply 7.58 to 7.18 s, stream triad 10.06 to 9.47 s).
   - Sampling windows: a history remembers the window of its last
     access; the first access of a later window starts it afresh, so
     that no stride spans a gap the engine did not see.  A compare per
     access, nothing per window.  An access counts for its weight (1
     unless sampled): every count it makes, the repeats too, adds the
     weight.
   Memory: O(variables * K) plus O(variables * threads * K).
*/
#include "mp_stride.h"

typedef struct {
   uint64_t addr[MP_STRIDE_MAX_K];  /* ring; the newest at pos - 1 */
   uint32_t pos;                    /* next slot to write */
   uint32_t n;                      /* addresses held, <= K */
   uint64_t last_stride;            /* the newest first-histogram stride */
   uint32_t run;                    /* how many of the newest first strides
                                       equal last_stride, at most K */
   uint64_t repeats;                /* accesses whose K strides were
                                       last_stride * (1..K), not yet in the
                                       bins, by weight */
   uint32_t window;                 /* the engine's window of its last
                                       access */
} history;

typedef struct {
   history load, store;
} thread_history;

typedef struct {
   mp_stride_var data;
   thread_history **threads;        /* indexed by tid, NULL until used */
   uint32_t n_threads;
   uint32_t top_last;               /* the top[] slot counted last: a
                                       variable's strides repeat, so it is
                                       tried before the scan */
} var_state;

struct mp_stride {
   mp_stride_cfg cfg;
   var_state **vars;                /* indexed by variable id */
   uint32_t n_vars;
   uint32_t window;                 /* sampling windows begun */
};

/*------------------------------------------------------------*/
/*--- Bins                                                 ---*/
/*------------------------------------------------------------*/

uint32_t mp_stride_bin(uint64_t m)
{
   uint32_t log2m;
   if (m < MP_STRIDE_FINE)
      return (uint32_t)m;
   /* [2^j, 2^(j+1)) for j = 7..14 are bins 128..135, the rest 136 */
   log2m = 63 - (uint32_t)__builtin_clzll(m);
   return log2m >= 15 ? MP_STRIDE_N_BINS - 1 : MP_STRIDE_FINE + (log2m - 7);
}

void mp_stride_bin_bounds(uint32_t bin, uint64_t *lo, uint64_t *hi)
{
   mp_assert(bin < MP_STRIDE_N_BINS);
   if (bin < MP_STRIDE_FINE) {
      *lo = *hi = bin;
      return;
   }
   *lo = (uint64_t)MP_STRIDE_FINE << (bin - MP_STRIDE_FINE);
   *hi = (bin == MP_STRIDE_N_BINS - 1) ? UINT64_MAX : 2 * *lo - 1;
}

/*------------------------------------------------------------*/
/*--- Engine                                               ---*/
/*------------------------------------------------------------*/

mp_stride *mp_stride_new(const mp_stride_cfg *cfg, const char **err)
{
   mp_stride *s;
   if (cfg->k < 1 || cfg->k > MP_STRIDE_MAX_K) {
      *err = "the number of stride histograms must be 1..16";
      return NULL;
   }
   if (cfg->line == 0 || (cfg->line & (cfg->line - 1)) != 0) {
      *err = "the cache line size must be a power of two";
      return NULL;
   }
   s = mp_calloc("mp.stride.new", 1, sizeof *s);
   s->cfg = *cfg;
   return s;
}

static void free_var(var_state *v)
{
   uint32_t t;
   for (t = 0; t < v->n_threads; t++)
      if (v->threads[t])
         mp_free(v->threads[t]);
   if (v->threads)
      mp_free(v->threads);
   mp_free(v->data.load.bins);
   mp_free(v->data.store.bins);
   mp_free(v);
}

void mp_stride_free(mp_stride *s)
{
   uint32_t i;
   for (i = 0; i < s->n_vars; i++)
      if (s->vars[i])
         free_var(s->vars[i]);
   if (s->vars)
      mp_free(s->vars);
   mp_free(s);
}

void mp_stride_reset(mp_stride *s)
{
   uint32_t i;
   for (i = 0; i < s->n_vars; i++)
      if (s->vars[i]) {
         free_var(s->vars[i]);
         s->vars[i] = NULL;
      }
}

const mp_stride_cfg *mp_stride_config(const mp_stride *s) { return &s->cfg; }

static var_state *grow_vars(mp_stride *s, uint32_t var);

static inline var_state *var_for(mp_stride *s, uint32_t var)
{
   if (var < s->n_vars && s->vars[var])
      return s->vars[var];
   return grow_vars(s, var);
}

/* The slow path of var_for: grows the table, makes the variable. */
static var_state *grow_vars(mp_stride *s, uint32_t var)
{
   var_state *v;
   if (var >= s->n_vars) {
      uint32_t n = s->n_vars ? s->n_vars : 64;
      while (n <= var)
         n *= 2;
      s->vars = mp_realloc("mp.stride.vars", s->vars, n * sizeof(var_state *));
      mp_memset(s->vars + s->n_vars, 0, (n - s->n_vars) * sizeof(var_state *));
      s->n_vars = n;
   }
   v = s->vars[var];
   if (!v) {
      size_t nb = (size_t)s->cfg.k * MP_STRIDE_N_BINS;
      v = mp_calloc("mp.stride.var", 1, sizeof *v);
      v->data.load.bins = mp_calloc("mp.stride.bins", nb, sizeof(uint64_t));
      v->data.store.bins = mp_calloc("mp.stride.bins", nb, sizeof(uint64_t));
      s->vars[var] = v;
   }
   return v;
}

static inline thread_history *thread_for(var_state *v, uint32_t tid)
{
   if (tid < v->n_threads && v->threads[tid])
      return v->threads[tid];
   if (tid >= v->n_threads) {
      uint32_t n = v->n_threads ? v->n_threads : 4;
      while (n <= tid)
         n *= 2;
      v->threads = mp_realloc("mp.stride.threads", v->threads,
                              n * sizeof(thread_history *));
      mp_memset(v->threads + v->n_threads, 0,
                (n - v->n_threads) * sizeof(thread_history *));
      v->n_threads = n;
   }
   if (!v->threads[tid])
      v->threads[tid] = mp_calloc("mp.stride.hist", 1, sizeof(thread_history));
   return v->threads[tid];
}

static mp_stride_class classify(uint64_t m, uint32_t size, uint32_t line)
{
   if (m == 0)
      return MP_STRIDE_ZERO;
   if (m == size)
      return MP_STRIDE_UNIT;
   return m < line ? MP_STRIDE_WITHIN_LINE : MP_STRIDE_BEYOND_LINE;
}

/* Space-saving: the strides seen most often, with bounded error; a
   stride counts n. */
static void count_top(var_state *v, int64_t stride, uint64_t n)
{
   mp_stride_var *d = &v->data;
   uint32_t i, min = 0;
   uint64_t min_count = UINT64_MAX;
   if (d->top[v->top_last].count > 0 && d->top[v->top_last].stride == stride) {
      d->top[v->top_last].count += n;
      return;
   }
   /* The least count is kept as a value, not re-read through its index:
      on irregular strides (a new one at most accesses) every access
      scans, and the chain of dependent loads was a third of the
      engine's time on gzip. */
   for (i = 0; i < MP_STRIDE_TOP; i++) {
      uint64_t c = d->top[i].count;
      if (c > 0 && d->top[i].stride == stride) {
         d->top[i].count += n;
         v->top_last = i;
         return;
      }
      if (c < min_count) {
         min_count = c;
         min = i;
      }
   }
   d->top[min].error = d->top[min].count;
   d->top[min].stride = stride;
   d->top[min].count += n;
   v->top_last = min;
}

/* Counts n times stride as histogram k's; returns whether filtered mode
   stops the walk back there.  Inlined in both loops below: on irregular
   strides the per-access loop runs at every access, and a call with the
   strides in an array measured 20% of the engine. */
static inline __attribute__((always_inline)) int
count_stride(const mp_stride_cfg *cfg, mp_stride_hists *hs, uint32_t k,
             uint64_t stride, uint64_t n)
{
   int64_t st = (int64_t)stride;
   uint64_t m = st < 0 ? (uint64_t)0 - stride : stride;
   MP_STRIDE_BINS(hs, k)[mp_stride_bin(m)] += n;
   if (st < 0)
      hs->negative[k] += n;
   return cfg->mode == MP_STRIDE_FILTERED && m < cfg->threshold;
}

/* Adds h's pending repeats to the bins: each had the strides
   last_stride * k (modulo 2^64, as the addresses they come from).
   Rare (once per change of stride), so out of line. */
static __attribute__((noinline)) void settle(const mp_stride_cfg *cfg,
                                             mp_stride_hists *hs, history *h)
{
   uint32_t k;
   if (!h->repeats)
      return;
   for (k = 0; k < cfg->k; k++)
      if (count_stride(cfg, hs, k, h->last_stride * (k + 1), h->repeats))
         break;
   h->repeats = 0;
}

int mp_stride_access(mp_stride *s, uint32_t var, uint32_t tid,
                     uint64_t addr, uint32_t size, int is_write, uint64_t weight)
{
   var_state *v = var_for(s, var);
   thread_history *th = thread_for(v, tid);
   history *h = is_write ? &th->store : &th->load;
   mp_stride_hists *hs = is_write ? &v->data.store : &v->data.load;
   uint32_t K = s->cfg.k, k, idx;
   int cls = -1;

   if (__builtin_expect(h->window != s->window, 0)) {
      /* The accesses of the gap were not seen: no stride spans it. */
      settle(&s->cfg, hs, h);
      h->n = h->pos = h->run = 0;
      h->last_stride = 0;
      h->window = s->window;
   }
   idx = h->pos;
   if (h->n > 0) {
      uint64_t first = addr - h->addr[idx ? idx - 1 : K - 1];
      int64_t st = (int64_t)first;
      uint64_t m = st < 0 ? (uint64_t)0 - first : first;
      cls = classify(m, size, s->cfg.line);
      v->data.classes[cls] += weight;
      v->data.first_strides += weight;
      count_top(v, st, weight);
      if (first == h->last_stride && h->run == K) {
         h->repeats += weight;
      } else {
         if (first == h->last_stride) {
            h->run++;
         } else {
            settle(&s->cfg, hs, h);
            h->last_stride = first;
            h->run = 1;
         }
         for (k = 0; k < h->n; k++) {
            idx = idx ? idx - 1 : K - 1;   /* walking back: no division */
            if (count_stride(&s->cfg, hs, k, addr - h->addr[idx], weight))
               break;
         }
      }
   }
   h->addr[h->pos] = addr;
   h->pos = h->pos + 1 == K ? 0 : h->pos + 1;
   if (h->n < K)
      h->n++;
   return cls;
}

void mp_stride_window_start(mp_stride *s)
{
   s->window++;
}


/* The histograms are read through here only, so the repeats pending in
   the variable's histories are counted first: the engine's state changes
   but not what it describes, so s stays const to the callers. */
const mp_stride_var *mp_stride_get(const mp_stride *s, uint32_t var)
{
   var_state *v;
   uint32_t t;
   if (var >= s->n_vars || !s->vars[var])
      return NULL;
   v = s->vars[var];
   for (t = 0; t < v->n_threads; t++)
      if (v->threads[t]) {
         settle(&s->cfg, &v->data.load, &v->threads[t]->load);
         settle(&s->cfg, &v->data.store, &v->threads[t]->store);
      }
   return &v->data;
}

int mp_stride_dominant(const mp_stride_var *d, int64_t *stride, uint64_t *count)
{
   uint32_t i, best = 0;
   for (i = 1; i < MP_STRIDE_TOP; i++)
      if (d->top[i].count > d->top[best].count)
         best = i;
   if (d->top[best].count == 0)
      return 0;
   *stride = d->top[best].stride;
   *count = d->top[best].count;
   return 1;
}

/*------------------------------------------------------------*/
/*--- Strides per instruction, counted per source line     ---*/
/*------------------------------------------------------------*/

void mp_line_stride_add(mp_line_stride *ls, int64_t stride, uint64_t n, uint32_t instr)
{
   uint32_t i;
   ls->total += n;
   for (i = 0; i < MP_LSTRIDE_SLOTS; i++)
      if (ls->slot[i].count != 0 && ls->slot[i].stride == stride)
         break;
   if (i == MP_LSTRIDE_SLOTS) {
      /* Space-saving: the least counted slot (the last, or an empty
         one, whose count is 0) takes the stride, its count inherited
         as the error. */
      i = MP_LSTRIDE_SLOTS - 1;
      ls->slot[i].error = ls->slot[i].count;
      ls->slot[i].stride = stride;
      ls->slot[i].instr = instr;
   }
   ls->slot[i].count += n;
   /* Keep the slots in descending count: bubble the one counted up. */
   for (; i > 0 && ls->slot[i].count > ls->slot[i - 1].count; i--) {
      mp_line_stride_slot t = ls->slot[i];
      ls->slot[i] = ls->slot[i - 1];
      ls->slot[i - 1] = t;
   }
}

void mp_istride_flush(mp_istride *is, mp_line_stride *ls, uint32_t instr)
{
   if (is->run && ls)
      mp_line_stride_add(ls, is->stride, is->run, instr);
   is->last = 0;
   is->stride = 0;
   is->run = 0;
}

int mp_line_stride_dominant(const mp_line_stride *ls, int64_t *stride, uint64_t *sure,
                            uint32_t *instr)
{
   if (ls->slot[0].count == 0)
      return 0;
   *stride = ls->slot[0].stride;
   *sure = ls->slot[0].count - ls->slot[0].error;
   *instr = ls->slot[0].instr;
   return 1;
}
