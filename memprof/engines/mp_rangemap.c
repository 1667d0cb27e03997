/*--------------------------------------------------------------------*/
/*--- memprof: map of non-overlapping address ranges.               ---*/
/*---                                                 mp_rangemap.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof, a Valgrind tool that attributes memory
   accesses to data structures.  GPL-2.0-or-later; see COPYING.

   This file owns the interval map behind "which variable owns this
   address?".  Its workload: millions of insert/remove pairs as the
   client mallocs and frees, a few thousand long-lived globals and
   user-named ranges, and a lookup on (nearly) every memory access the
   tool attributes.

   Notes:
   - The map is an AVL tree keyed by the start address.  Because the
     ranges never overlap, ordering by start also orders them by last
     byte, so a single descent finds the owner of an address: go left
     if addr < start, stop if addr <= last, else go right.
   - Invariants (checked by mp_rangemap_check):
       I1 in-order, starts strictly increase;
       I2 for in-order neighbours a, b: a.last < b.start (no overlap);
       I3 start <= last for every node (len >= 1, no wrap);
       I4 'height' is 1 + max(height of children), empty tree = 0;
       I5 |height(left) - height(right)| <= 1 at every node;
       I6 'count' is the number of nodes in the tree.
     I5 bounds the height by 1.44 log2(n+2), so n < 2^64 gives a height
     below MP_RM_MAX_HEIGHT and the explicit descent paths never
     overflow.
   - Ranges are stored as [start, last] rather than [start, start+len)
     so that a range ending exactly at 2^64 needs no 65-bit arithmetic.
   - Insert and remove walk down once, recording the links they passed,
     then rebalance back up that path and stop as soon as a subtree's
     height is unchanged.  Insert checks for overlap at the bottom of
     its descent (the nearest ancestors where it turned right and left
     are the in-order neighbours), before touching anything, so a
     rejected insert leaves the map exactly as it was.
   - Removed nodes go onto a spare list and are reused by later
     inserts, so malloc/free churn in the client does not become
     malloc/free churn in the tool.  The spare list is capped at
     MP_RM_SPARE_MIN plus a quarter of the live count, and shrinks as
     the map shrinks, so memory stays O(live ranges).

   Cost: insert, remove, lookup O(log n); lookup allocates nothing;
   insert allocates only when the spare list is empty.  48 bytes per
   node on a 64-bit host.
*/

#include "mp_rangemap.h"

/*------------------------------------------------------------*/
/*--- Types                                                ---*/
/*------------------------------------------------------------*/

/* No AVL tree that fits in a 64-bit address space is taller than
   this (1.44 * 64 + 2 < 96). */
#define MP_RM_MAX_HEIGHT 96

/* Spares kept even when the map is small, so a map that hovers around
   a few hundred live ranges never touches the allocator. */
#define MP_RM_SPARE_MIN 1024

typedef struct mp_rm_node {
   uint64_t start;                  /* first byte of the range */
   uint64_t last;                   /* last byte; start <= last */
   void *value;                     /* caller's payload, not owned */
   struct mp_rm_node *child[2];     /* [0] lower starts, [1] higher */
   int height;                      /* 1 for a leaf; see I4 */
} mp_rm_node;

struct mp_rangemap {
   mp_rm_node *root;
   size_t count;                    /* nodes in the tree (I6) */
   mp_rm_node *spare;               /* free list, linked by child[0] */
   size_t n_spare;                  /* length of 'spare' */
};

/*------------------------------------------------------------*/
/*--- Node pool                                            ---*/
/*------------------------------------------------------------*/

static mp_rm_node *mp_rm_node_get(mp_rangemap *m)
{
   mp_rm_node *n = m->spare;
   if (n) {
      m->spare = n->child[0];
      m->n_spare--;
      return n;
   }
   return mp_malloc("mp.rangemap.node", sizeof(mp_rm_node));
}

/* Keeps 'n' for reuse unless the spare list is over its cap; when it
   is, also releases one older spare so that the list follows the map
   down as it shrinks. */
static void mp_rm_node_put(mp_rangemap *m, mp_rm_node *n)
{
   size_t cap = MP_RM_SPARE_MIN + m->count / 4;
   if (m->n_spare < cap) {
      n->child[0] = m->spare;
      m->spare = n;
      m->n_spare++;
      return;
   }
   mp_free(n);
   if (m->n_spare > cap) {
      mp_rm_node *old = m->spare;
      m->spare = old->child[0];
      m->n_spare--;
      mp_free(old);
   }
}

/*------------------------------------------------------------*/
/*--- AVL balancing                                        ---*/
/*------------------------------------------------------------*/

static inline int mp_rm_height(const mp_rm_node *n)
{
   return n ? n->height : 0;
}

static inline void mp_rm_update(mp_rm_node *n)
{
   int hl = mp_rm_height(n->child[0]);
   int hr = mp_rm_height(n->child[1]);
   n->height = 1 + (hl > hr ? hl : hr);
}

/* Lifts n's left child into n's place; returns the new subtree root. */
static mp_rm_node *mp_rm_rotate_right(mp_rm_node *n)
{
   mp_rm_node *l = n->child[0];
   n->child[0] = l->child[1];
   l->child[1] = n;
   mp_rm_update(n);
   mp_rm_update(l);
   return l;
}

/* Lifts n's right child into n's place; returns the new subtree root. */
static mp_rm_node *mp_rm_rotate_left(mp_rm_node *n)
{
   mp_rm_node *r = n->child[1];
   n->child[1] = r->child[0];
   r->child[0] = n;
   mp_rm_update(n);
   mp_rm_update(r);
   return r;
}

/* Restores I4 and I5 at n, assuming they hold in both subtrees and
   that their heights differ by at most 2 (true after one insert or
   one remove below n).  Returns the subtree's new root. */
static mp_rm_node *mp_rm_rebalance(mp_rm_node *n)
{
   int hl = mp_rm_height(n->child[0]);
   int hr = mp_rm_height(n->child[1]);

   if (hl > hr + 1) {
      mp_rm_node *l = n->child[0];
      /* Left-right case: straighten it into left-left first. */
      if (mp_rm_height(l->child[0]) < mp_rm_height(l->child[1]))
         n->child[0] = mp_rm_rotate_left(l);
      return mp_rm_rotate_right(n);
   }
   if (hr > hl + 1) {
      mp_rm_node *r = n->child[1];
      if (mp_rm_height(r->child[1]) < mp_rm_height(r->child[0]))
         n->child[1] = mp_rm_rotate_right(r);
      return mp_rm_rotate_left(n);
   }
   n->height = 1 + (hl > hr ? hl : hr);
   return n;
}

/* Rebalances the subtrees hanging from path[depth-1] up to path[0]
   (path[0] is &root).  A node's stored height is still its height
   before the change, so once a rebalanced subtree is as tall as it
   was, nothing above it can have changed and we stop. */
static void mp_rm_fix_path(mp_rm_node **path[], int depth)
{
   while (depth > 0) {
      mp_rm_node **link = path[--depth];
      mp_rm_node *n = *link;
      int old_height = n->height;
      n = mp_rm_rebalance(n);
      *link = n;
      if (n->height == old_height)
         break;
   }
}

/*------------------------------------------------------------*/
/*--- Public operations                                    ---*/
/*------------------------------------------------------------*/

mp_rangemap *mp_rangemap_new(void)
{
   mp_rangemap *m = mp_malloc("mp.rangemap.map", sizeof(mp_rangemap));
   m->root = NULL;
   m->count = 0;
   m->spare = NULL;
   m->n_spare = 0;
   return m;
}

/* Recursion depth is the tree height, at most MP_RM_MAX_HEIGHT. */
static void mp_rm_free_tree(mp_rm_node *n)
{
   while (n) {
      mp_rm_node *right = n->child[1];
      mp_rm_free_tree(n->child[0]);
      mp_free(n);
      n = right;
   }
}

void mp_rangemap_free(mp_rangemap *m)
{
   if (!m)
      return;
   mp_rm_free_tree(m->root);
   while (m->spare) {
      mp_rm_node *n = m->spare;
      m->spare = n->child[0];
      mp_free(n);
   }
   mp_free(m);
}

int mp_rangemap_insert(mp_rangemap *m, uint64_t start, uint64_t len,
                       void *value)
{
   mp_rm_node **path[MP_RM_MAX_HEIGHT];
   mp_rm_node **link = &m->root;
   const mp_rm_node *pred = NULL;   /* greatest start below 'start' */
   const mp_rm_node *succ = NULL;   /* least start above 'start' */
   mp_rm_node *n;
   uint64_t last;
   int depth = 0;

   if (len == 0 || len - 1 > UINT64_MAX - start)
      return -1;
   last = start + (len - 1);

   while ((n = *link) != NULL) {
      mp_assert(depth < MP_RM_MAX_HEIGHT);
      path[depth++] = link;
      if (start < n->start) {
         succ = n;
         link = &n->child[0];
      } else if (start > n->start) {
         pred = n;
         link = &n->child[1];
      } else {
         return -1;
      }
   }
   if (pred && pred->last >= start)
      return -1;
   if (succ && succ->start <= last)
      return -1;

   n = mp_rm_node_get(m);
   n->start = start;
   n->last = last;
   n->value = value;
   n->child[0] = n->child[1] = NULL;
   n->height = 1;
   *link = n;
   m->count++;
   mp_rm_fix_path(path, depth);
   return 0;
}

int mp_rangemap_remove(mp_rangemap *m, uint64_t start,
                       uint64_t *len_out, void **value_out)
{
   mp_rm_node **path[MP_RM_MAX_HEIGHT];
   mp_rm_node **link = &m->root;
   mp_rm_node *n;
   int depth = 0;

   while ((n = *link) != NULL && n->start != start) {
      mp_assert(depth < MP_RM_MAX_HEIGHT);
      path[depth++] = link;
      link = start < n->start ? &n->child[0] : &n->child[1];
   }
   if (!n)
      return 0;

   if (len_out)
      *len_out = n->last - n->start + 1;
   if (value_out)
      *value_out = n->value;

   if (n->child[0] && n->child[1]) {
      /* Two children: move the in-order successor's payload into n
         and unlink the successor instead, which has no left child. */
      mp_rm_node **slink = &n->child[1];
      mp_rm_node *s;
      mp_assert(depth < MP_RM_MAX_HEIGHT);
      path[depth++] = link;
      while ((*slink)->child[0]) {
         mp_assert(depth < MP_RM_MAX_HEIGHT);
         path[depth++] = slink;
         slink = &(*slink)->child[0];
      }
      s = *slink;
      n->start = s->start;
      n->last = s->last;
      n->value = s->value;
      *slink = s->child[1];
      n = s;
   } else {
      *link = n->child[0] ? n->child[0] : n->child[1];
   }
   m->count--;
   mp_rm_node_put(m, n);
   mp_rm_fix_path(path, depth);
   return 1;
}

int mp_rangemap_lookup(const mp_rangemap *m, uint64_t addr,
                       uint64_t *start_out, uint64_t *len_out,
                       void **value_out)
{
   const mp_rm_node *n = m->root;

   /* No overlap (I2) means the first node whose range holds addr on
      this descent is the only one. */
   while (n) {
      if (addr < n->start) {
         n = n->child[0];
      } else if (addr > n->last) {
         n = n->child[1];
      } else {
         if (start_out)
            *start_out = n->start;
         if (len_out)
            *len_out = n->last - n->start + 1;
         if (value_out)
            *value_out = n->value;
         return 1;
      }
   }
   return 0;
}

int mp_rangemap_overlaps(const mp_rangemap *m, uint64_t lo, uint64_t last)
{
   const mp_rm_node *n = m->root;
   /* Ranges are disjoint and ordered, so at most one path matters: a
      node entirely below lo sends the search right, one entirely above
      last sends it left, anything else intersects. */
   while (n) {
      if (n->last < lo)
         n = n->child[1];
      else if (n->start > last)
         n = n->child[0];
      else
         return 1;
   }
   return 0;
}

size_t mp_rangemap_count(const mp_rangemap *m)
{
   return m->count;
}

/* Returns nonzero if fn asked to stop. */
static int mp_rm_visit(const mp_rm_node *n,
                       int (*fn)(uint64_t, uint64_t, void *, void *),
                       void *arg)
{
   while (n) {
      if (mp_rm_visit(n->child[0], fn, arg))
         return 1;
      if (fn(n->start, n->last - n->start + 1, n->value, arg))
         return 1;
      n = n->child[1];
   }
   return 0;
}

void mp_rangemap_foreach(const mp_rangemap *m,
                         int (*fn)(uint64_t start, uint64_t len,
                                   void *value, void *arg),
                         void *arg)
{
   mp_rm_visit(m->root, fn, arg);
}

/*------------------------------------------------------------*/
/*--- Sanity check                                         ---*/
/*------------------------------------------------------------*/

typedef struct {
   const mp_rm_node *prev;          /* previous node in order */
   size_t nodes;                    /* nodes seen so far */
} mp_rm_walk;

/* Returns the subtree's height, or -1 if an invariant fails in it. */
static int mp_rm_check_node(const mp_rm_node *n, int depth,
                            mp_rm_walk *w)
{
   int hl, hr;

   if (!n)
      return 0;
   if (depth >= MP_RM_MAX_HEIGHT)
      return -1;
   hl = mp_rm_check_node(n->child[0], depth + 1, w);
   if (hl < 0)
      return -1;
   if (n->start > n->last)                                  /* I3 */
      return -1;
   if (w->prev && w->prev->last >= n->start)                /* I1, I2 */
      return -1;
   w->prev = n;
   w->nodes++;
   hr = mp_rm_check_node(n->child[1], depth + 1, w);
   if (hr < 0)
      return -1;
   if (hl - hr > 1 || hr - hl > 1)                          /* I5 */
      return -1;
   if (n->height != 1 + (hl > hr ? hl : hr))                /* I4 */
      return -1;
   return n->height;
}

int mp_rangemap_check(const mp_rangemap *m)
{
   mp_rm_walk w;
   w.prev = NULL;
   w.nodes = 0;
   if (mp_rm_check_node(m->root, 0, &w) < 0)
      return 0;
   return w.nodes == m->count;                              /* I6 */
}

/*--------------------------------------------------------------------*/
/*--- end                                             mp_rangemap.c ---*/
/*--------------------------------------------------------------------*/
