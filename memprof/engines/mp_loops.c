/*--------------------------------------------------------------------*/
/*--- memprof: loops found from backward branches.       mp_loops.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Data structures (the model and its rules are in mp_loops.h):
   - loops[]: every loop, by id.  Per function, the list of its loop ids
     (fn_map: function id -> index in fns[]) and head_map: (function,
     head) -> loop id.
   - memo: (function, address) -> innermost loop containing it, stamped
     with the generation of the static forest it was computed in.  Every
     back edge that adds a loop or grows a tail bumps the generation, so
     stale answers are recomputed (O(k)) on their next use.  Addresses
     passed to mp_loops_at are code addresses, so the memo is bounded
     by the code executed.
   - per thread (indexed by tid): the stack of active frames.

   Invariants:
   - parent(L) is the best container of L among its function's loops:
     containers are loops P with P.head < L.head and L.tail <= P.tail;
     "best" is the smallest range, the higher head on a tie.  A parent
     is strictly larger than its child, so the parent links are a forest.
   - On a thread's stack, a run of frames of one function, read bottom
     up, is a chain of that function's loops each the parent of the
     next (R1 keeps it so).
*/
#include "mp_loops.h"

/*------------------------------------------------------------*/
/*--- A small open-addressing map (k1, k2) -> (val, stamp) ---*/
/*------------------------------------------------------------*/

typedef struct {
   uint64_t k1, k2;
   uint32_t val, stamp;
   uint32_t used;
} map_slot;

typedef struct {
   map_slot *slots;
   uint32_t cap;             /* a power of two, or 0 */
   uint32_t n;               /* used slots, kept <= cap / 2 */
} map;

static inline uint64_t mix2(uint64_t a, uint64_t b)
{
   uint64_t h = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL);
   h ^= h >> 33;
   h *= 0xff51afd7ed558ccdULL;
   h ^= h >> 33;
   return h;
}

static inline map_slot *map_find(const map *m, uint64_t k1, uint64_t k2)
{
   uint32_t i;
   if (m->cap == 0)
      return NULL;
   for (i = (uint32_t)mix2(k1, k2) & (m->cap - 1); m->slots[i].used;
        i = (i + 1) & (m->cap - 1))
      if (m->slots[i].k1 == k1 && m->slots[i].k2 == k2)
         return &m->slots[i];
   return NULL;
}

static void map_grow(map *m)
{
   map_slot *old = m->slots;
   uint32_t old_cap = m->cap, i;
   m->cap = old_cap ? 2 * old_cap : 64;
   m->slots = mp_calloc("mp.loops.map", m->cap, sizeof(map_slot));
   for (i = 0; i < old_cap; i++)
      if (old[i].used) {
         uint32_t j = (uint32_t)mix2(old[i].k1, old[i].k2) & (m->cap - 1);
         while (m->slots[j].used)
            j = (j + 1) & (m->cap - 1);
         m->slots[j] = old[i];
      }
   if (old)
      mp_free(old);
}

/* The slot of (k1, k2), made (val and stamp 0) if absent. */
static map_slot *map_get(map *m, uint64_t k1, uint64_t k2)
{
   map_slot *s = map_find(m, k1, k2);
   uint32_t i;
   if (s)
      return s;
   if (2 * (m->n + 1) > m->cap)
      map_grow(m);
   for (i = (uint32_t)mix2(k1, k2) & (m->cap - 1); m->slots[i].used;
        i = (i + 1) & (m->cap - 1))
      ;
   s = &m->slots[i];
   s->k1 = k1;
   s->k2 = k2;
   s->val = s->stamp = 0;
   s->used = 1;
   m->n++;
   return s;
}

/*------------------------------------------------------------*/
/*--- Types                                                ---*/
/*------------------------------------------------------------*/

/* A back edge: to its loop's head, from branch. */
typedef struct {
   uint32_t loop;
   uint64_t branch;
   int excursion;            /* returns into another loop from past its tail */
   int found;                /* shape_forest's mark in the current round */
} fn_edge;

typedef struct {
   uint32_t fn;
   uint32_t *ids;            /* the function's loops, in discovery order */
   uint32_t n, cap;
   fn_edge *edges;           /* its back edges, in discovery order */
   uint32_t n_edges, cap_edges;
} fn_loops;

/* The last child instances of one loop instance (or of the thread's
   top level) that ended: where a far reuse's earlier access was, when
   the loop carrying it is that instance (mp_loops_siblings).  Invariant:
   every entry began after the parent, in the order they began. */
typedef struct {
   uint64_t parent_begun;    /* the parent's 'begun'; 0: the top level */
   uint32_t n;               /* entries made, the last MP_LOOPS_CHILDREN kept */
   struct {
      uint64_t begun;
      uint32_t loop;
   } ended[MP_LOOPS_CHILDREN];
} child_ring;

typedef struct {
   mp_loop_frame *frames;    /* outermost first */
   uint32_t n, cap;
   child_ring *children;     /* [d]: the ended children of frames[d - 1]
                                ([0]: of the top level); cap + 1 of them */
   /* [d]: what frames[d]'s instance touched and wrote (mp_loop's
      filters: touched words, then written) since it began, its ended
      inner instances' included.  An access sets its bit here alone; an
      instance ending ORs its filters into its loop's and into the
      frame below: O(1) an access where noting it in every active loop
      was O(depth), and the same filters once the frames have ended
      (every frame ends by the report: mp_loops_flush).  Invariant: the
      filters of the slots above the stack (n .. cap - 1) are empty, so
      that a push clears nothing, and an instance that made no access
      (in the default mode, most: the accesses outside the sampling
      windows are not told) costs its pop no look at its loop's
      filters. */
   uint64_t (*pending)[2 * MP_LOOPS_TOUCHED_WORDS];
   /* Bit d (d < 64): pending[d] may hold a bit; clear, the slot is
      empty and its exit does not read it.  An exit is far apart from
      the accesses that fill its slot, which by then is often out of the
      host's caches, where this word, read at every call in, is not.
      Deeper slots are read. */
   uint64_t pending_set;
   uint64_t sp;              /* the stack pointer last given to mp_loops_unwind */
   /* The last at_slow that changed or checked the stack: its innermost
      loop, and the generation and stack height it left.  While all
      three still hold, the stack is what that call made it, and the
      same call again would change nothing (the run of the function's
      frames is already the loop's chain): a superblock of an outer
      loop's body, entered again and again, returns at once. */
   uint32_t settled_loop, settled_gen, settled_n;
   /* The last frame popped, kept while no frame was pushed since: the
      thread left its loop for a block found, on its jump back, to be
      an excursion of it (revive_excursions). */
   mp_loop_frame popped;
   uint32_t popped_at;       /* the stack height after it was popped */
   uint64_t pushes;          /* frames pushed, ever */
   uint64_t popped_pushes;   /* pushes when it was popped; no frame
                                kept when it differs from pushes */
} thread_state;

struct mp_loops {
   mp_loop *loops;           /* 64-byte aligned in loops_block (mp_loop) */
   void *loops_block;
   uint32_t n_loops, cap_loops;
   fn_loops *fns;
   uint32_t n_fns, cap_fns;
   map fn_map;               /* (fn, 0) -> index in fns[] */
   map head_map;             /* (fn, head) -> loop id */
   map memo;                 /* (fn, addr) -> innermost loop, stamp = gen */
   uint32_t gen;             /* generation of the static forest, >= 1 */
   thread_state **threads;   /* indexed by tid, NULL until used */
   uint32_t n_threads;
   uint32_t deepest;         /* the most frames one thread has had at once */
   uint64_t epoch;           /* instances begun, plus flushes (mp_loops_epoch) */
   uint64_t flushed;         /* the epoch of the last flush */
   uint64_t unseen_before;   /* the epoch of the last flush or forget */
   uint64_t changes;         /* the carrier's view changed: frames pushed or
                                popped, flushes, forgets (mp_loops_changes) */
   uint32_t *chain;          /* scratch: a loop and its ancestors */
   uint32_t cap_chain;
   mp_loops_exit_fn exit_fn;
   void *exit_arg;
   mp_loops_settled settled;     /* of the last caller (mp_loops.h) */
   uint64_t no_iterations;       /* where settled's pointers point when unset */
   int no_fell_through;      /* the promise's flag without a frame */
};

/*------------------------------------------------------------*/
/*--- Setup                                                ---*/
/*------------------------------------------------------------*/

mp_loops *mp_loops_new(void)
{
   mp_loops *l = mp_calloc("mp.loops.new", 1, sizeof *l);
   l->gen = 1;
   mp_loops_unsettle(l);
   l->settled.gen = l->gen;
   return l;
}

/*------------------------------------------------------------*/
/*--- The fast path's promise                              ---*/
/*------------------------------------------------------------*/

void mp_loops_unsettle(mp_loops *l)
{
   l->settled.valid = 0;
   l->settled.loop = MP_LOOP_NONE;
   l->settled.fn = MP_LOOPS_NO_FN;
   l->settled.head = 1;
   l->settled.tail = 0;
   l->settled.loop_iterations = l->settled.frame_iterations = &l->no_iterations;
   l->settled.frame_fell_through = &l->no_fell_through;
}

const mp_loops_settled *mp_loops_settled_state(const mp_loops *l)
{
   return &l->settled;
}

/* Thread t just called in and its stack is as the call left it. */
static void settle(mp_loops *l, thread_state *t)
{
   mp_loop_frame *top;
   mp_loop *L;
   if (t->n == 0) {
      mp_loops_unsettle(l);
   } else {
      top = &t->frames[t->n - 1];
      L = &l->loops[top->loop];
      l->settled.loop = top->loop;
      l->settled.fn = L->fn;
      l->settled.head = L->n_children == 0 ? L->head : 1;
      l->settled.tail = L->n_children == 0 ? L->tail : 0;
      l->settled.loop_iterations = &L->iterations;
      l->settled.frame_iterations = &top->iterations;
      l->settled.frame_fell_through = &top->fell_through;
   }
   l->settled.valid = 1;
   l->settled.sp = t->sp;
   l->settled.n = t->n;
   l->settled.memo_inner = t->settled_loop;
   l->settled.memo_gen = t->settled_gen;
   l->settled.memo_n = t->settled_n;
}

void mp_loops_free(mp_loops *l)
{
   uint32_t i;
   for (i = 0; i < l->n_loops; i++) {
      if (l->loops[i].file)
         mp_free((char *)l->loops[i].file);
      if (l->loops[i].scope)
         mp_free((char *)l->loops[i].scope);
   }
   for (i = 0; i < l->n_fns; i++) {
      mp_free(l->fns[i].ids);
      if (l->fns[i].edges)
         mp_free(l->fns[i].edges);
   }
   for (i = 0; i < l->n_threads; i++)
      if (l->threads[i]) {
         if (l->threads[i]->frames)
            mp_free(l->threads[i]->frames);
         if (l->threads[i]->children)
            mp_free(l->threads[i]->children);
         if (l->threads[i]->pending)
            mp_free(l->threads[i]->pending);
         mp_free(l->threads[i]);
      }
   if (l->loops_block) mp_free(l->loops_block);
   if (l->fns) mp_free(l->fns);
   if (l->fn_map.slots) mp_free(l->fn_map.slots);
   if (l->head_map.slots) mp_free(l->head_map.slots);
   if (l->memo.slots) mp_free(l->memo.slots);
   if (l->threads) mp_free(l->threads);
   if (l->chain) mp_free(l->chain);
   mp_free(l);
}

void mp_loops_set_exit_hook(mp_loops *l, mp_loops_exit_fn fn, void *arg)
{
   l->exit_fn = fn;
   l->exit_arg = arg;
}

uint32_t mp_loops_count(const mp_loops *l) { return l->n_loops; }
uint32_t mp_loops_deepest(const mp_loops *l) { return l->deepest; }

const mp_loop *mp_loops_get(const mp_loops *l, uint32_t loop)
{
   return loop < l->n_loops ? &l->loops[loop] : NULL;
}

/*------------------------------------------------------------*/
/*--- Source lines                                         ---*/
/*------------------------------------------------------------*/

/* Splits "file:line" at its last ':'.  Returns the line (0 if none)
   and the length of the file part in *flen. */
static uint32_t parse_loc(const char *loc, size_t *flen)
{
   size_t n = mp_strlen(loc), colon = n, i;
   uint32_t line = 0;
   for (i = n; i > 0; i--)
      if (loc[i - 1] == ':') {
         colon = i - 1;
         break;
      }
   *flen = colon;
   if (colon == n || colon + 1 == n)
      return 0;
   for (i = colon + 1; i < n; i++) {
      if (loc[i] < '0' || loc[i] > '9')
         return 0;
      line = line * 10 + (uint32_t)(loc[i] - '0');
   }
   return line;
}

static void widen_lines(mp_loop *L, const char *loc, mp_loops_scope_fn scope_of, void *arg)
{
   size_t flen;
   uint32_t line;
   if (!loc)
      return;
   line = parse_loc(loc, &flen);
   if (line == 0 || flen == 0)
      return;
   if (!L->file) {
      char *f = mp_malloc("mp.loops.file", flen + 1);
      mp_memcpy(f, loc, flen);
      f[flen] = '\0';
      L->file = f;
      L->first_line = L->last_line = line;
      return;
   }
   /* Lines of another file (inlined code) would make the range a lie. */
   if (mp_strlen(L->file) != flen || mp_memcmp(L->file, loc, flen) != 0)
      return;
   if (line >= L->first_line && line <= L->last_line)
      return;
   /* So would those of another function of the file inlined there
      (syrk's kernel loop inlined into main, stretched to init_array's
      line 39 at -O2). */
   if (L->scope && scope_of) {
      const char *scope = scope_of(arg);
      if (scope && mp_strcmp(scope, L->scope) != 0)
         return;
   }
   if (line < L->first_line) L->first_line = line;
   if (line > L->last_line) L->last_line = line;
}

/*------------------------------------------------------------*/
/*--- Static forest                                        ---*/
/*------------------------------------------------------------*/

static inline int contains(const mp_loop *P, const mp_loop *L)
{
   return P->head < L->head && L->tail <= P->tail;
}

/* Is a a better (more inner) container than b? */
static inline int better(const mp_loop *a, const mp_loop *b)
{
   uint64_t sa = a->tail - a->head, sb = b->tail - b->head;
   return sa < sb || (sa == sb && a->head > b->head);
}

static uint32_t best_container(const mp_loops *l, const fn_loops *f, uint32_t id)
{
   const mp_loop *L = &l->loops[id];
   uint32_t i, best = MP_LOOP_NONE;
   for (i = 0; i < f->n; i++) {
      const mp_loop *P = &l->loops[f->ids[i]];
      if (f->ids[i] != id && !P->never_entered && !P->excursion && contains(P, L)
          && (best == MP_LOOP_NONE || better(P, &l->loops[best])))
         best = f->ids[i];
   }
   return best;
}

/* Loop id's parent: none for an excursion, which no one enters. */
static uint32_t parent_of(const mp_loops *l, const fn_loops *f, uint32_t id)
{
   return l->loops[id].excursion ? MP_LOOP_NONE : best_container(l, f, id);
}

/* The parent links of f's loops changed: their depths and child
   counts follow, and the forest's generation moves on. */
static void relinked(mp_loops *l, fn_loops *f)
{
   uint32_t i;
   for (i = 0; i < f->n; i++)
      l->loops[f->ids[i]].n_children = 0;
   for (i = 0; i < f->n; i++) {
      mp_loop *M = &l->loops[f->ids[i]];
      uint32_t d = 1, p;
      for (p = M->parent; p != MP_LOOP_NONE; p = l->loops[p].parent)
         d++;
      M->depth = d;
      if (M->parent != MP_LOOP_NONE)
         l->loops[M->parent].n_children++;
   }
   mp_loops_unsettle(l);     /* a loop may have gained an inner one */
   if (++l->gen == 0) {      /* wrapped: forget every memoised answer */
      l->gen = 1;
      if (l->memo.slots)
         mp_memset(l->memo.slots, 0, l->memo.cap * sizeof(map_slot));
      l->memo.n = 0;
   }
   l->settled.gen = l->gen;
}

static fn_loops *fn_for(mp_loops *l, uint32_t fn)
{
   map_slot *s = map_find(&l->fn_map, fn, 0);
   if (s)
      return &l->fns[s->val];
   if (l->n_fns == l->cap_fns) {
      l->cap_fns = l->cap_fns ? 2 * l->cap_fns : 16;
      l->fns = mp_realloc("mp.loops.fns", l->fns, l->cap_fns * sizeof(fn_loops));
   }
   s = map_get(&l->fn_map, fn, 0);
   s->val = l->n_fns;
   mp_memset(&l->fns[l->n_fns], 0, sizeof(fn_loops));
   l->fns[l->n_fns].fn = fn;
   return &l->fns[l->n_fns++];
}

/* The scope named, for widen_lines. */
static const char *given_scope(void *arg)
{
   return arg;
}

/* The back edge's lines: the branch's first, which names the loop's
   file and scope. */
static void widen_edge(mp_loop *L, const char *branch_loc, const char *target_loc,
                       const char *branch_scope, const char *target_scope)
{
   if (!L->scope && branch_scope)
      L->scope = mp_strdup("mp.loops.scope", branch_scope);
   widen_lines(L, branch_loc, NULL, NULL);
   widen_lines(L, target_loc, target_scope ? given_scope : NULL, (void *)target_scope);
}

/* Whether a back edge from 'branch' to 'target' returns into loop P
   from past its tail: an excursion, not a loop (mp_loops.h). */
static inline int returns_into(const mp_loop *P, uint64_t target, uint64_t branch)
{
   return !P->excursion && P->head < target && target <= P->tail && P->tail < branch;
}

/* The ranges of f's loops from its edges, those found to be
   excursions apart: a loop's own edges give its tail, and an excursion
   returning into a loop takes its tail (and its ancestors') as far as
   its branch.  A loop with no edge of its own is an excursion. */
static void grow_tails(mp_loops *l, fn_loops *f)
{
   uint32_t i, j;
   int changed = 1;
   for (i = 0; i < f->n; i++) {
      l->loops[f->ids[i]].tail = l->loops[f->ids[i]].head;
      l->loops[f->ids[i]].excursion = 1;
   }
   for (i = 0; i < f->n_edges; i++) {
      mp_loop *L = &l->loops[f->edges[i].loop];
      if (f->edges[i].excursion)
         continue;
      L->excursion = 0;
      if (f->edges[i].branch > L->tail)
         L->tail = f->edges[i].branch;
   }
   while (changed) {
      changed = 0;
      for (i = 0; i < f->n_edges; i++) {
         const fn_edge *e = &f->edges[i];
         uint64_t target = l->loops[e->loop].head;
         if (!e->excursion)
            continue;
         for (j = 0; j < f->n; j++)
            if (returns_into(&l->loops[f->ids[j]], target, e->branch)) {
               l->loops[f->ids[j]].tail = e->branch;
               changed = 1;
            }
      }
   }
}

/* f's forest from its back edges alone, whatever order they came in:
   rounds find, all at once, the edges that return into another loop
   from past its tail, until none is left (the set only grows, so at
   most one round per edge).  O(rounds * edges * loops), at
   instrumentation time. */
static void shape_forest(mp_loops *l, fn_loops *f)
{
   uint32_t i, j;
   int found = 1;
   for (i = 0; i < f->n_edges; i++)
      f->edges[i].excursion = 0;
   while (found) {
      found = 0;
      grow_tails(l, f);
      for (i = 0; i < f->n_edges; i++) {
         fn_edge *e = &f->edges[i];
         uint64_t target = l->loops[e->loop].head;
         e->found = 0;
         if (e->excursion)
            continue;
         for (j = 0; j < f->n && !returns_into(&l->loops[f->ids[j]], target, e->branch); j++)
            ;
         e->found = j < f->n;
         found |= e->found;
      }
      for (i = 0; i < f->n_edges; i++)
         f->edges[i].excursion |= f->edges[i].found;
   }
   for (i = 0; i < f->n; i++)
      l->loops[f->ids[i]].parent = parent_of(l, f, f->ids[i]);
   relinked(l, f);
}

/* Edge (loop, branch) of f: its index, added if new (*is_new). */
static uint32_t edge_of(fn_loops *f, uint32_t loop, uint64_t branch, int *is_new)
{
   uint32_t i;
   for (i = 0; i < f->n_edges; i++)
      if (f->edges[i].loop == loop && f->edges[i].branch == branch) {
         *is_new = 0;
         return i;
      }
   if (f->n_edges == f->cap_edges) {
      f->cap_edges = f->cap_edges ? 2 * f->cap_edges : 8;
      f->edges = mp_realloc("mp.loops.edges", f->edges, f->cap_edges * sizeof(fn_edge));
   }
   mp_memset(&f->edges[f->n_edges], 0, sizeof(fn_edge));
   f->edges[f->n_edges].loop = loop;
   f->edges[f->n_edges].branch = branch;
   *is_new = 1;
   return f->n_edges++;
}

static void revive_excursions(mp_loops *l, const fn_loops *f, const uint64_t *old_tails);

/* mp_loop's layout, kept when a field is added. */
_Static_assert(sizeof(mp_loop) == 192 && offsetof(mp_loop, touched) == 64
                  && offsetof(mp_loop, file) == 128,
               "mp_loop: the counters, the filters and the rest fill one line each");

/* Room for twice the loops, the records aligned to the host's cache
   lines (mp_loop's layout). */
static void grow_loops(mp_loops *l)
{
   uint32_t cap = l->cap_loops ? 2 * l->cap_loops : 64;
   char *block = mp_malloc("mp.loops.loops", cap * sizeof(mp_loop) + 63);
   mp_loop *loops = (mp_loop *)(((uintptr_t)block + 63) & ~(uintptr_t)63);
   if (l->n_loops)
      mp_memcpy(loops, l->loops, l->n_loops * sizeof(mp_loop));
   if (l->loops_block)
      mp_free(l->loops_block);
   l->loops_block = block;
   l->loops = loops;
   l->cap_loops = cap;
}

uint32_t mp_loops_add_back_edge(mp_loops *l, uint32_t fn, uint64_t branch,
                                uint64_t target, const char *branch_loc,
                                const char *target_loc, const char *branch_scope,
                                const char *target_scope)
{
   map_slot *s;
   fn_loops *f;
   mp_loop *L;
   uint32_t id, e;
   int is_new;
   if (target > branch)
      return MP_LOOP_NONE;
   f = fn_for(l, fn);
   s = map_get(&l->head_map, fn, target);
   if (s->stamp) {           /* stamp 1 marks a known head */
      id = s->val;
   } else {
      id = l->n_loops;
      s->val = id;
      s->stamp = 1;
      if (l->n_loops == l->cap_loops)
         grow_loops(l);
      L = &l->loops[id];
      mp_memset(L, 0, sizeof *L);
      L->fn = fn;
      L->head = L->tail = target;
      L->parent = MP_LOOP_NONE;
      L->depth = 1;
      l->n_loops++;
      if (f->n == f->cap) {
         f->cap = f->cap ? 2 * f->cap : 8;
         f->ids = mp_realloc("mp.loops.fnids", f->ids, f->cap * sizeof(uint32_t));
      }
      f->ids[f->n++] = id;
   }
   e = edge_of(f, id, branch, &is_new);
   if (is_new) {
      uint64_t *old_tails = mp_malloc("mp.loops.tails", f->n * sizeof(uint64_t));
      uint32_t i;
      for (i = 0; i < f->n; i++)
         old_tails[i] = l->loops[f->ids[i]].tail;
      shape_forest(l, f);
      revive_excursions(l, f, old_tails);
      mp_free(old_tails);
   }
   if (!f->edges[e].excursion)
      widen_edge(&l->loops[id], branch_loc, target_loc, branch_scope, target_scope);
   return id;
}

uint32_t mp_loops_innermost(mp_loops *l, uint32_t fn, uint64_t addr)
{
   map_slot *s = map_find(&l->memo, fn, addr), *fs;
   uint32_t i, best = MP_LOOP_NONE;
   if (s && s->stamp == l->gen)
      return s->val;
   fs = map_find(&l->fn_map, fn, 0);
   if (fs) {
      const fn_loops *f = &l->fns[fs->val];
      for (i = 0; i < f->n; i++) {
         const mp_loop *P = &l->loops[f->ids[i]];
         if (!P->excursion && P->head <= addr && addr <= P->tail
             && (best == MP_LOOP_NONE || better(P, &l->loops[best])))
            best = f->ids[i];
      }
   }
   if (!s)
      s = map_get(&l->memo, fn, addr);
   s->val = best;
   s->stamp = l->gen;
   return best;
}

/* Fills l->chain with inner and its ancestors, outermost first;
   returns their number (0 for MP_LOOP_NONE). */
static uint32_t make_chain(mp_loops *l, uint32_t inner)
{
   uint32_t m, p, i;
   if (inner == MP_LOOP_NONE)
      return 0;
   m = l->loops[inner].depth;
   if (m > l->cap_chain) {
      l->cap_chain = 2 * m;
      l->chain = mp_realloc("mp.loops.chain", l->chain, l->cap_chain * sizeof(uint32_t));
   }
   for (p = inner, i = m; p != MP_LOOP_NONE; p = l->loops[p].parent)
      l->chain[--i] = p;
   mp_assert(i == 0);
   return m;
}

void mp_loops_add_line(mp_loops *l, uint32_t fn, uint64_t addr, const char *loc,
                       mp_loops_scope_fn scope_of, void *arg)
{
   uint32_t p;
   for (p = mp_loops_innermost(l, fn, addr); p != MP_LOOP_NONE; p = l->loops[p].parent)
      widen_lines(&l->loops[p], loc, scope_of, arg);
}

/*------------------------------------------------------------*/
/*--- Dynamic part                                         ---*/
/*------------------------------------------------------------*/

static thread_state *thread_make(mp_loops *l, uint32_t tid)
{
   if (tid >= l->n_threads) {
      uint32_t n = l->n_threads ? l->n_threads : 16;
      while (n <= tid)
         n *= 2;
      l->threads = mp_realloc("mp.loops.threads", l->threads, n * sizeof(thread_state *));
      mp_memset(l->threads + l->n_threads, 0, (n - l->n_threads) * sizeof(thread_state *));
      l->n_threads = n;
   }
   if (!l->threads[tid])
      l->threads[tid] = mp_calloc("mp.loops.thread", 1, sizeof(thread_state));
   return l->threads[tid];
}

/* Every call in starts here: the hot case is one test and one load. */
static inline thread_state *thread_for(mp_loops *l, uint32_t tid)
{
   if (tid < l->n_threads && l->threads[tid])
      return l->threads[tid];
   return thread_make(l, tid);
}

/* Room for cap frames, and their children's rings. */
static void reserve(thread_state *t, uint32_t cap)
{
   uint32_t rings = t->children ? t->cap + 1 : 0;
   if (cap <= t->cap && t->children)
      return;
   if (cap < t->cap)
      cap = t->cap;
   t->frames = mp_realloc("mp.loops.frames", t->frames, cap * sizeof(mp_loop_frame));
   t->pending = mp_realloc("mp.loops.pending", t->pending, cap * sizeof *t->pending);
   mp_memset(t->pending + t->cap, 0, (cap - t->cap) * sizeof *t->pending);
   t->children = mp_realloc("mp.loops.children", t->children,
                            (cap + 1) * sizeof(child_ring));
   mp_memset(t->children + rings, 0, (cap + 1 - rings) * sizeof(child_ring));
   t->cap = cap;
}

/* The instance fr, at stack index d, has ended: a child of the frame
   below it (parent_begun its 'begun', 0 at the top level). */
static void child_ended(thread_state *t, uint32_t d, uint64_t parent_begun,
                        const mp_loop_frame *fr)
{
   child_ring *r = &t->children[d];
   if (r->parent_begun != parent_begun) {
      r->parent_begun = parent_begun;
      r->n = 0;
   }
   r->ended[r->n % MP_LOOPS_CHILDREN].begun = fr->begun;
   r->ended[r->n % MP_LOOPS_CHILDREN].loop = fr->loop;
   r->n++;
}

/* Frame fr, at depth d, is back after its end was recorded (an
   excursion's first run: revive_excursions): its end is taken back,
   so that the ring is as if it never ended. */
static void child_back(thread_state *t, uint32_t d, const mp_loop_frame *fr)
{
   child_ring *r;
   if (t->children == NULL)
      return;
   r = &t->children[d];
   if (r->n > 0 && r->parent_begun == (d ? t->frames[d - 1].begun : 0)
       && r->ended[(r->n - 1) % MP_LOOPS_CHILDREN].begun == fr->begun)
      r->n--;
}

static void push(mp_loops *l, thread_state *t, uint32_t loop)
{
   mp_loop *L = &l->loops[loop];
   mp_loop_frame *fr;
   if (t->n == t->cap)
      reserve(t, t->cap ? 2 * t->cap : 8);
   fr = &t->frames[t->n++];
   t->pushes++;
   if (t->n > l->deepest)
      l->deepest = t->n;
   fr->loop = loop;
   fr->fn = L->fn;
   fr->instance = ++L->entries;
   fr->iterations = 0;
   fr->sp = t->sp;
   fr->begun = ++l->epoch;
   fr->seen = 0;
   fr->fell_through = 0;
   /* An inner loop ran after the back edge fell through: no rare block
      of a rotated loop but code around it, whose jump back is no
      iteration (LULESH's frees, placed before the loop that jumps back
      to them). */
   if (t->n > 1 && t->frames[t->n - 2].fn == L->fn)
      t->frames[t->n - 2].fell_through = 0;
   l->changes++;
}

/* Frame d's filters into its loop's and the frame below's, its own
   emptied (thread_state.pending). */
static inline uint64_t depth_bit(uint32_t d)
{
   return d < 64 ? 1ULL << d : 0;
}

static void settle_touched(mp_loops *l, thread_state *t, uint32_t d)
{
   uint64_t *p, any = 0;
   mp_loop *L;
   uint32_t w;
   if (d < 64 && !(t->pending_set & depth_bit(d)))
      return;
   t->pending_set &= ~depth_bit(d);
   p = t->pending[d];
   for (w = 0; w < 2 * MP_LOOPS_TOUCHED_WORDS; w++)
      any |= p[w];
   if (any == 0)
      return;
   L = &l->loops[t->frames[d].loop];
   for (w = 0; w < MP_LOOPS_TOUCHED_WORDS; w++) {
      L->touched[w] |= p[w];
      L->written[w] |= p[MP_LOOPS_TOUCHED_WORDS + w];
   }
   if (d > 0) {
      for (w = 0; w < 2 * MP_LOOPS_TOUCHED_WORDS; w++)
         t->pending[d - 1][w] |= p[w];
      t->pending_set |= depth_bit(d - 1);
   }
   for (w = 0; w < 2 * MP_LOOPS_TOUCHED_WORDS; w++)
      p[w] = 0;
}

/* Ends the instances above stack index n (exclusive). */
static void pop_to(mp_loops *l, thread_state *t, uint32_t tid, uint32_t n)
{
   while (t->n > n) {
      mp_loop_frame *fr;
      mp_loop *L;
      settle_touched(l, t, t->n - 1);
      fr = &t->frames[--t->n];
      L = &l->loops[fr->loop];
      if (fr->seen)
         child_ended(t, t->n, t->n ? t->frames[t->n - 1].begun : 0, fr);
      l->changes++;
      L->exits++;
      if (fr->iterations > L->max_iterations)
         L->max_iterations = fr->iterations;
      if (l->exit_fn)
         l->exit_fn(l->exit_arg, tid, fr->loop, fr->instance, fr->iterations);
      t->popped = *fr;
      t->popped_at = t->n;
      t->popped_pushes = t->pushes;
   }
}

/* The back edges of f just grew some of its loops' tails (old_tails:
   f's loops' tails before, by index in f->ids).  A thread that left
   one of them for a block that the new edge shows to be an excursion
   of it, and has pushed nothing since, is back in that loop's
   instance: the instance goes on (its exit was told; its iterations
   and identity carry on).  Without this the first run of each
   excursion, before its jump back is translated, would split an
   instance in two. */
static void revive_excursions(mp_loops *l, const fn_loops *f, const uint64_t *old_tails)
{
   uint32_t i, k;
   for (k = 0; k < l->n_threads; k++) {
      thread_state *t = l->threads[k];
      if (t == NULL || t->pushes == 0 || t->popped_pushes != t->pushes || t->n != t->popped_at)
         continue;
      for (i = 0; i < f->n && f->ids[i] != t->popped.loop; i++)
         ;
      if (i == f->n || l->loops[f->ids[i]].excursion
          || l->loops[f->ids[i]].tail <= old_tails[i])
         continue;
      if (t->n == t->cap)
         reserve(t, t->cap ? 2 * t->cap : 8);
      child_back(t, t->n, &t->popped);
      /* what it touched before is in its loop's filters and below; its
         slot's are empty (thread_state.pending) */
      t->frames[t->n++] = t->popped;
      t->popped_pushes = 0;
      l->loops[t->popped.loop].exits--;
      l->changes++;
   }
}

/* R1 on the run of frames from stack index base up: keep the longest
   bottom part that matches the chain of 'inner', pop the rest, push the
   remaining loops of the chain. */
static void reconcile(mp_loops *l, thread_state *t, uint32_t tid,
                      uint32_t base, uint32_t inner)
{
   uint32_t m = make_chain(l, inner), j = 0;
   while (base + j < t->n && j < m && t->frames[base + j].loop == l->chain[j])
      j++;
   pop_to(l, t, tid, base + j);
   for (; j < m; j++)
      push(l, t, l->chain[j]);
}

/* Stack index of the lowest frame of the run of fn's frames ending at
   index top (inclusive). */
static uint32_t run_base(const thread_state *t, uint32_t fn, uint32_t top)
{
   uint32_t b = top;
   while (b > 0 && t->frames[b - 1].fn == fn)
      b--;
   return b;
}

/* The rules of mp_loops.h.  The top frame in fn: R1 on fn's run of
   frames.  Otherwise the thread is in a callee, or back from one: an
   address outside fn's loops changes nothing (R2); one inside a loop
   of the nearest run of fn's frames down the stack is a return into
   it (R3), even when the run's top is an inner loop the return leaves;
   anything else is a call into fn, whose loops go on top. */
static void at_rules(mp_loops *l, thread_state *t, uint32_t tid, uint32_t fn,
                     uint32_t inner)
{
   uint32_t k, p;
   if (t->n > 0 && t->frames[t->n - 1].fn == fn) {                /* R1 */
      reconcile(l, t, tid, run_base(t, fn, t->n - 1), inner);
      return;
   }
   if (inner == MP_LOOP_NONE)                                    /* R2 */
      return;
   for (k = t->n; k > 0 && t->frames[k - 1].fn != fn; k--)
      ;
   if (k > 0) {                                                  /* R3? */
      uint32_t base = run_base(t, fn, k - 1), j;
      for (p = inner; p != MP_LOOP_NONE; p = l->loops[p].parent)
         for (j = base; j < k; j++)
            if (t->frames[j].loop == p) {
               pop_to(l, t, tid, k);
               reconcile(l, t, tid, base, inner);
               return;
            }
   }
   reconcile(l, t, tid, t->n, inner);                            /* R2: a call */
}

/* Every path of the rules leaves the stack as the same call again would
   keep it: R1 and R3 end with fn's run equal to the chain of 'inner'
   (the frame under the run is another function's), a call pushes that
   chain, R2 changes nothing.  Only pops (returns, exits) and pushes
   (made here) change the stack, and a pop lowers its height; so the
   memo in thread_state is exact.  Not for MP_LOOP_NONE: which rule
   applies then depends on the function (R1 pops fn's run, R2 keeps
   another function's), where a loop names its function. */
static void at_slow(mp_loops *l, thread_state *t, uint32_t tid, uint32_t fn,
                    uint32_t inner)
{
   if (inner != MP_LOOP_NONE && t->settled_loop == inner
       && t->settled_gen == l->gen && t->settled_n == t->n)
      return;
   at_rules(l, t, tid, fn, inner);
   t->settled_loop = inner;
   t->settled_gen = l->gen;
   t->settled_n = t->n;
}

/* The hot case: still inside an innermost loop with no inner loop of
   its own, so nothing can change. */
static inline int stays(const mp_loops *l, const thread_state *t, uint32_t fn,
                        uint64_t addr)
{
   const mp_loop *L;
   if (t->n == 0)
      return 0;
   L = &l->loops[t->frames[t->n - 1].loop];
   return L->fn == fn && L->head <= addr && addr <= L->tail && L->n_children == 0;
}

void mp_loops_at(mp_loops *l, uint32_t tid, uint32_t fn, uint64_t addr)
{
   thread_state *t = thread_for(l, tid);
   if (!stays(l, t, fn, addr))
      at_slow(l, t, tid, fn, mp_loops_innermost(l, fn, addr));
   settle(l, t);
}

/* mp_loops_at_site's work, settled. */
static void place_at_site(mp_loops *l, thread_state *t, uint32_t tid, uint32_t fn,
                          uint64_t addr, mp_loops_site *site)
{
   if (!stays(l, t, fn, addr)) {
      if (site->gen != l->gen) {
         site->loop = mp_loops_innermost(l, fn, addr);
         site->gen = l->gen;
      }
      at_slow(l, t, tid, fn, site->loop);
   }
   settle(l, t);
}

void mp_loops_at_site(mp_loops *l, uint32_t tid, uint32_t fn, uint64_t addr,
                      mp_loops_site *site)
{
   place_at_site(l, thread_for(l, tid), tid, fn, addr, site);
}

/* mp_loops_unwind's work; 1 if frames ended.  Every frame was begun at
   or above the last sp given (those below it ended then): the same sp
   again ends nothing. */
static int unwind(mp_loops *l, thread_state *t, uint32_t tid, uint64_t sp)
{
   uint32_t n = t->n;
   if (sp == t->sp)
      return 0;
   t->sp = sp;
   l->settled.sp = sp;       /* the promise is of the last sp given */
   while (n > 0 && t->frames[n - 1].sp < sp)
      n--;
   if (n == t->n)
      return 0;
   pop_to(l, t, tid, n);
   return 1;
}

void mp_loops_unwind(mp_loops *l, uint32_t tid, uint64_t sp)
{
   thread_state *t = thread_for(l, tid);
   if (unwind(l, t, tid, sp))
      settle(l, t);
}

void mp_loops_enter_block(mp_loops *l, uint32_t tid, uint64_t sp, uint32_t fn,
                          uint64_t addr, mp_loops_site *site)
{
   const mp_loops_settled *st = &l->settled;
   thread_state *t;
   /* The promise answers without reading the thread's record, its
      frames or the loop's, which the analyses' own state has often
      pushed out of the host's caches (on xz, the stalls on them were
      half of this function): the same stack pointer ends nothing, and
      the block is in the innermost loop, or placed as the same placement
      last time left the unchanged stack, or in no loop of a function
      whose loops the thread is not in (R2: 93% of xz's blocks). */
   if (st->valid && sp == st->sp) {
      if (st->fn == fn && st->head <= addr && addr <= st->tail)
         return;
      if (site->gen == l->gen) {
         if (site->loop == MP_LOOP_NONE ? st->fn != fn
                                        : site->loop == st->memo_inner
                                          && st->memo_gen == l->gen && st->memo_n == st->n)
            return;
      }
   }
   t = thread_for(l, tid);
   unwind(l, t, tid, sp);
   place_at_site(l, t, tid, fn, addr, site);
}

/* The jump back from an excursion (its 'loop' E is no loop: mp_loops.h)
   into the loop P holding E's head.  When the excursion began where
   P's own back edge fell through (a rotated loop whose rare case is
   tested at its bottom), the jump back stands for that back edge: the
   next iteration begins.  From the middle of the body it does not. */
static void excursion_return(mp_loops *l, thread_state *t, const mp_loop *E)
{
   uint32_t p = mp_loops_innermost(l, E->fn, E->head);
   mp_loop_frame *fr = t->n > 0 ? &t->frames[t->n - 1] : NULL;
   if (p == MP_LOOP_NONE || fr == NULL || fr->loop != p || !fr->fell_through)
      return;
   fr->fell_through = 0;
   fr->iterations++;
   l->loops[p].iterations++;
   settle(l, t);
}

void mp_loops_back_edge_taken(mp_loops *l, uint32_t tid, uint32_t loop)
{
   thread_state *t = thread_for(l, tid);
   mp_loop *L;
   mp_assert(loop < l->n_loops);
   L = &l->loops[loop];
   if (L->excursion) {
      excursion_return(l, t, L);
      return;
   }
   /* The branch is at or below the tail: the thread is in the loop even
      if no address told us so yet (a superblock that began before the
      head, or the loop found after its entry). */
   if (t->n == 0 || t->frames[t->n - 1].loop != loop)
      at_slow(l, t, tid, L->fn, mp_loops_innermost(l, L->fn, L->tail));
   L->iterations++;
   /* Not on top only if another loop overlaps this one at its tail. */
   if (t->n > 0 && t->frames[t->n - 1].loop == loop) {
      t->frames[t->n - 1].iterations++;
      t->frames[t->n - 1].fell_through = 0;
   }
   settle(l, t);
}

uint32_t mp_loops_returns_to(mp_loops *l, uint32_t loop)
{
   const mp_loop *E = &l->loops[loop];
   return E->excursion ? mp_loops_innermost(l, E->fn, E->head) : MP_LOOP_NONE;
}

void mp_loops_back_edge_fell_through(mp_loops *l, uint32_t tid, uint32_t loop)
{
   thread_state *t = thread_for(l, tid);
   if (t->n > 0 && t->frames[t->n - 1].loop == loop)
      t->frames[t->n - 1].fell_through = 1;
}

void mp_loops_return(mp_loops *l, uint32_t tid, uint32_t fn)
{
   thread_state *t = thread_for(l, tid);
   if (t->n > 0 && t->frames[t->n - 1].fn == fn)
      pop_to(l, t, tid, run_base(t, fn, t->n - 1));
   settle(l, t);
}

void mp_loops_thread_exit(mp_loops *l, uint32_t tid)
{
   if (tid < l->n_threads && l->threads[tid])
      pop_to(l, l->threads[tid], tid, 0);
   mp_loops_unsettle(l);
}

void mp_loops_flush(mp_loops *l)
{
   uint32_t tid;
   for (tid = 0; tid < l->n_threads; tid++)
      mp_loops_thread_exit(l, tid);
   /* What was accessed before this flush was accessed in frames that
      are gone from every stack; a later reuse of it cannot name the
      loop that carried it. */
   l->flushed = l->unseen_before = ++l->epoch;
   l->changes++;
}

void mp_loops_forget(mp_loops *l)
{
   l->unseen_before = ++l->epoch;
   l->changes++;
}

const uint64_t *mp_loops_changes(const mp_loops *l)
{
   return &l->changes;
}

uint64_t mp_loops_unseen_before(const mp_loops *l)
{
   return l->unseen_before;
}

void mp_loops_mirror(mp_loops *l, uint32_t tid, const mp_loop_frame *frames, uint32_t n,
                     uint64_t epoch, uint64_t unseen_before)
{
   thread_state *t = thread_for(l, tid);
   uint32_t same = 0, d;
   if (n > t->cap || !t->children)
      reserve(t, n > 8 ? n : 8);
   /* The frames the copy had and the new ones lack have ended (a loop
      whose instance made an access was sent while it ran). */
   while (same < t->n && same < n && t->frames[same].begun == frames[same].begun)
      same++;
   for (d = t->n; d-- > same;)
      child_ended(t, d, d ? t->frames[d - 1].begun : 0, &t->frames[d]);
   /* The frames kept are the same instances: only the new ones are
      copied, and the kept ones stay marked seen (mp_loops_seen then
      stops at them). */
   if (n > same)
      mp_memcpy(t->frames + same, frames + same, (n - same) * sizeof(mp_loop_frame));
   t->n = n;
   /* one that ended, as the copy saw, and is back: revived */
   for (d = same; d < n; d++)
      child_back(t, d, &t->frames[d]);
   l->epoch = epoch;
   l->unseen_before = unseen_before;
}

const uint64_t *mp_loops_epoch(const mp_loops *l)
{
   return &l->epoch;
}

uint64_t mp_loops_last_flush(const mp_loops *l)
{
   return l->flushed;
}

void mp_loops_seen(mp_loops *l, uint32_t tid)
{
   thread_state *t = tid < l->n_threads ? l->threads[tid] : NULL;
   uint32_t i;
   for (i = t ? t->n : 0; i-- > 0 && !t->frames[i].seen;)
      t->frames[i].seen = 1;
}

uint32_t mp_loops_siblings(const mp_loops *l, uint32_t tid, uint64_t then,
                           uint32_t *from, uint32_t *to, uint32_t across[2])
{
   const thread_state *t = tid < l->n_threads ? l->threads[tid] : NULL;
   const child_ring *r;
   uint32_t i, carrier = mp_loops_carrier(l, tid, then), depth, k, between;
   *from = *to = across[0] = across[1] = MP_LOOP_NONE;
   if (carrier == MP_LOOP_UNSEEN || !t || !t->children)
      return carrier;
   /* the carrier's frame is the innermost begun by then */
   for (depth = t->n; depth > 0 && t->frames[depth - 1].begun > then; depth--)
      ;
   if (depth < t->n)
      *to = t->frames[depth].loop;
   r = &t->children[depth];
   if (r->parent_begun != (depth ? t->frames[depth - 1].begun : 0))
      return carrier;
   for (i = 0; i < r->n && i < MP_LOOPS_CHILDREN; i++) {
      k = (r->n - 1 - i) % MP_LOOPS_CHILDREN;
      if (r->ended[k].begun <= then) {
         *from = r->ended[k].loop;
         break;
      }
   }
   /* those begun after the earlier access, ended before this one, of
      another loop than the two: the ring is walked from the last to
      end, so the first met ran last and the final one ran first */
   for (between = 0; between < i; between++) {
      k = (r->n - 1 - between) % MP_LOOPS_CHILDREN;
      if (r->ended[k].loop != *from && r->ended[k].loop != *to) {
         if (across[1] == MP_LOOP_NONE)
            across[1] = r->ended[k].loop;
         across[0] = r->ended[k].loop;
      }
   }
   return carrier;
}

uint32_t mp_loops_carrier(const mp_loops *l, uint32_t tid, uint64_t then)
{
   const thread_state *t = tid < l->n_threads ? l->threads[tid] : NULL;
   uint32_t i;
   if (then < l->unseen_before)
      return MP_LOOP_UNSEEN;
   for (i = t ? t->n : 0; i-- > 0;)
      if (t->frames[i].begun <= then)
         return t->frames[i].loop;
   return MP_LOOP_NONE;
}

int mp_loops_within(const mp_loops *l, uint32_t loop, uint32_t outer)
{
   for (; loop != MP_LOOP_NONE; loop = l->loops[loop].parent)
      if (loop == outer)
         return 1;
   return 0;
}

void mp_loops_drop_unentered(mp_loops *l)
{
   uint32_t i, k, dropped;
   for (k = 0; k < l->n_fns; k++) {
      fn_loops *f = &l->fns[k];
      for (i = 0, dropped = 0; i < f->n; i++) {
         mp_loop *L = &l->loops[f->ids[i]];
         L->never_entered = L->entries == 0 || L->excursion;
         dropped += L->never_entered;
      }
      if (dropped == 0)
         continue;
      for (i = 0; i < f->n; i++)
         l->loops[f->ids[i]].parent = parent_of(l, f, f->ids[i]);
      relinked(l, f);
   }
}

void mp_loops_reset_counts(mp_loops *l)
{
   uint32_t i;
   mp_loops_flush(l);
   for (i = 0; i < l->n_loops; i++) {
      l->loops[i].entries = l->loops[i].exits = 0;
      l->loops[i].iterations = l->loops[i].max_iterations = 0;
   }
}

uint32_t mp_loops_current(const mp_loops *l, uint32_t tid, uint64_t *instance)
{
   const thread_state *t = tid < l->n_threads ? l->threads[tid] : NULL;
   if (!t || t->n == 0)
      return MP_LOOP_NONE;
   if (instance)
      *instance = t->frames[t->n - 1].instance;
   return t->frames[t->n - 1].loop;
}

uint32_t mp_loops_active(const mp_loops *l, uint32_t tid, const mp_loop_frame **frames)
{
   const thread_state *t = tid < l->n_threads ? l->threads[tid] : NULL;
   *frames = t ? t->frames : NULL;
   return t ? t->n : 0;
}

static uint32_t touched_bit(uint32_t var, uint64_t part)
{
   uint64_t h = (var + part * 0xC2B2AE3D27D4EB4FULL) * 0x9E3779B97F4A7C15ULL;
   return (uint32_t)(h >> 56) % (MP_LOOPS_TOUCHED_WORDS * 64);
}

void mp_loops_touch(mp_loops *l, uint32_t tid, uint32_t var, uint64_t part, int is_write)
{
   thread_state *t = tid < l->n_threads ? l->threads[tid] : NULL;
   uint32_t b = touched_bit(var, part);
   uint64_t *p;
   if (!t || t->n == 0)
      return;
   t->pending_set |= depth_bit(t->n - 1);
   p = t->pending[t->n - 1];
   p[b / 64] |= 1ULL << (b % 64);
   if (is_write)
      p[MP_LOOPS_TOUCHED_WORDS + b / 64] |= 1ULL << (b % 64);
}

int mp_loops_touched(const mp_loop *L, uint32_t var)
{
   uint32_t b = touched_bit(var, 0);
   return (L->touched[b / 64] >> (b % 64)) & 1;
}

int mp_loops_written(const mp_loop *L, uint32_t var)
{
   uint32_t b = touched_bit(var, 0);
   return (L->written[b / 64] >> (b % 64)) & 1;
}

int mp_loops_may_depend(const mp_loop *a, const mp_loop *b)
{
   uint32_t w;
   for (w = 0; w < MP_LOOPS_TOUCHED_WORDS; w++)
      if ((a->written[w] & b->touched[w]) | (a->touched[w] & b->written[w]))
         return 1;
   return 0;
}

uint32_t mp_loops_iteration_vector(const mp_loops *l, uint32_t tid,
                                   uint64_t *iters, uint32_t max)
{
   const thread_state *t = tid < l->n_threads ? l->threads[tid] : NULL;
   uint32_t i;
   if (!t)
      return 0;
   for (i = 0; i < t->n && i < max; i++)
      iters[i] = t->frames[i].iterations;
   return t->n;
}
