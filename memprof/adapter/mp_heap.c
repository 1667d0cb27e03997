/*--------------------------------------------------------------------*/
/*--- memprof: heap blocks and allocation sites.          mp_heap.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The program runs with its own allocator: the wrappers of
   vgpreload_memprof (mp_preload.c) tell this file, by client requests,
   each block that an allocation function returned and each one about
   to be freed, so it sees every block's life at the addresses a native
   run has.  All the blocks allocated from one call stack (depth
   --num-callers) form one heap variable, the "allocation site", named
   by mp_sites.c where the program receives the block.

   realloc ends the old block's life and begins the new one's at the
   realloc's site, so a realloc'd buffer is the variable of its latest
   realloc site, as a user reading the source expects; the copy it
   makes is the allocator's own traffic.  Cost: a stack unwind and a
   hash lookup per allocation, an interval-map insert/remove per
   allocation/free.  The stack is looked up as unwound, frames below
   main included; only a stack not seen before is cut at main and
   looked up again (a symbol look-up per frame, the main cost of a
   small allocation when done every time), so a site is still the stack
   from main up.  Block records come from a pool, not from Valgrind's
   arena.
*/
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_execontext.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_poolalloc.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"

#include "mp_analyses.h"
#include "mp_clreq.h"
#include "mp_tool.h"
#include "mp_util.h"

#define MAX_CALLERS 64   /* --num-callers is at most 500; deeper frames
                            name nothing, the ECU still tells sites apart */

/* A live block; value of the registry's heap map and of this table. */
typedef struct {
   VgHashNode node;  /* key: block address */
   SizeT size;       /* bytes requested */
   UInt var;
} heap_block;

/* Allocation site: ECU -> variable. */
typedef struct {
   VgHashNode node;  /* key: ECU */
   UInt var;
} heap_site;

ULong stats__blocks = 0;

static VgHashTable *blocks;
static VgHashTable *sites;    /* both the stacks as unwound and as cut */
static PoolAlloc   *block_pool;

static void add_site(UWord ecu, UInt var)
{
   heap_site *s = VG_(malloc)("mp.heap.site", sizeof *s);
   s->node.key = ecu;
   s->var = var;
   VG_(HT_add_node)(sites, s);
}

/* The site of the block at p that the calling thread just allocated;
   out: where posix_memalign stored the pointer, else 0. */
static UInt site_of_caller(ThreadId tid, Addr p, SizeT size, Addr out)
{
   Addr ips[MAX_CALLERS], sps[MAX_CALLERS];
   Int depth = VG_(clo_backtrace_size) < MAX_CALLERS
                  ? VG_(clo_backtrace_size) : MAX_CALLERS;
   UInt n = VG_(get_StackTrace)(tid, ips, depth, sps, NULL, 0), i;
   UWord full = VG_(get_ECU_from_ExeContext)(VG_(make_ExeContext_from_StackTrace)(ips, n));
   UWord cut;
   heap_site *s = VG_(HT_lookup)(sites, full);
   if (s)
      return s->var;
   /* Frames below main are the C runtime's and name nothing. */
   for (i = 0; i < n; i++)
      if (VG_(get_fnname_kind_from_IP)(VG_(current_DiEpoch)(), ips[i])
          == Vg_FnNameBelowMain) {
         n = i > 0 ? i : 1;
         break;
      }
   cut = VG_(get_ECU_from_ExeContext)(VG_(make_ExeContext_from_StackTrace)(ips, n));
   s = cut == full ? NULL : VG_(HT_lookup)(sites, cut);
   if (s) {
      add_site(full, s->var);
      return s->var;
   }
   i = mp_sites_new(tid, ips, sps, n, p, size, out)->id;
   add_site(cut, i);
   if (cut != full)
      add_site(full, i);
   return i;
}

/*------------------------------------------------------------*/
/*--- Block life                                           ---*/
/*------------------------------------------------------------*/

/* Per thread, the block its last allocation report named and its
   realloc in progress.  Allocation functions that call one another
   (operator new calls malloc, realloc(NULL, n) calls malloc) report one
   block once per level, innermost first, with nothing in between: a
   report of the thread's last block is such an echo, and the innermost
   report (whose stack names the same caller, the allocator's frames
   being skipped) stands. */
typedef struct {
   Addr last_alloc;
   heap_block *realloc_old;   /* the block realloc may give back */
} heap_thread;

static heap_thread *threads;   /* VG_N_THREADS + 1, known after the options */

static heap_thread *thread_of(ThreadId tid)
{
   if (!threads)
      threads = VG_(calloc)("mp.heap.threads", VG_N_THREADS + 1, sizeof *threads);
   return &threads[tid];
}

static void register_block(heap_block *b)
{
   mp_var *v = mp_vars_get(mp_g_vars, b->var);
   VG_(HT_add_node)(blocks, b);
   /* A zero-sized block still has an address that may be touched by
      mistake; it owns one byte so that the touch is attributed. */
   mp_registry_add_heap(b->node.key, b->size ? b->size : 1, b->var);
   v->live_bytes += b->size;
   if (v->live_bytes > v->size)
      v->size = v->live_bytes;
}

/* Removes b from the registry and the live bytes; the record is the
   caller's to free or to register again. */
static heap_block *unregister_block(Addr p)
{
   heap_block *b = VG_(HT_remove)(blocks, p);
   if (!b)
      return NULL;
   mp_registry_remove_heap(p, b->size ? b->size : 1);
   mp_analyses_free(p, b->size, b->var);
   mp_vars_get(mp_g_vars, b->var)->live_bytes -= b->size;
   return b;
}

/* fn: the allocation function that returned p (its original). */
static void new_block(ThreadId tid, Addr p, SizeT size, Addr out, Addr fn)
{
   heap_block *b;
   mp_var *v;
   if (p == 0)
      return;
   /* The allocator's own memory is its object's (the C library's, or
      that of --soname-synonyms=somalloc=...). */
   mp_registry_allocator_at(fn);
   if (thread_of(tid)->last_alloc == p && VG_(HT_lookup)(blocks, p))
      return;   /* an outer allocation function's echo */
   thread_of(tid)->last_alloc = p;
   /* A block at p still live here was freed in a way no wrapper saw
      (an allocator memprof does not know): it is gone. */
   b = unregister_block(p);
   if (b)
      VG_(freeEltPA)(block_pool, b);
   stats__blocks++;
   b = VG_(allocEltPA)(block_pool);
   b->node.key = p;
   b->size = size;
   b->var = site_of_caller(tid, p, size, out);
   register_block(b);
   v = mp_vars_get(mp_g_vars, b->var);
   v->blocks++;
   v->alloc_bytes += size;
}

/* A free of a block memprof never saw (freed twice, or not from a
   wrapped allocator) is left alone: the program's allocator decides. */
static void free_block(ThreadId tid, Addr p)
{
   heap_block *b = unregister_block(p);
   if (thread_of(tid)->last_alloc == p)
      thread_of(tid)->last_alloc = 0;
   if (b)
      VG_(freeEltPA)(block_pool, b);
}

/* realloc ends the old block's life before it runs, as free does: the
   copy it makes is the allocator's work, and the address may be reused
   at once.  If the call fails the block lives on, unchanged. */
static void realloc_begin(ThreadId tid, Addr old)
{
   heap_thread *t = thread_of(tid);
   if (t->realloc_old)   /* a realloc that never returned (longjmp) */
      VG_(freeEltPA)(block_pool, t->realloc_old);
   t->realloc_old = old ? unregister_block(old) : NULL;
   if (t->last_alloc == old)
      t->last_alloc = 0;
}

static void realloc_end(ThreadId tid, Addr p, Addr old, SizeT size, Addr fn)
{
   heap_thread *t = thread_of(tid);
   heap_block *b = t->realloc_old;
   t->realloc_old = NULL;
   if (p == 0 && size != 0 && b) {
      register_block(b);   /* failed: the old block is still the program's */
      return;
   }
   if (b)
      VG_(freeEltPA)(block_pool, b);
   /* The new block is the realloc site's (unless an inner malloc
      reported it already: realloc(NULL, n)). */
   new_block(tid, p, size, 0, fn);
}

Bool mp_heap_client_request(ThreadId tid, const UWord *args)
{
   switch (args[0]) {
   case MP_USERREQ__ALLOC:
      new_block(tid, args[1], args[2], args[3], args[4]);
      return True;
   case MP_USERREQ__FREE:
      if (args[1])
         free_block(tid, args[1]);
      return True;
   case MP_USERREQ__REALLOC_BEGIN:
      realloc_begin(tid, args[1]);
      return True;
   case MP_USERREQ__REALLOC_END:
      realloc_end(tid, args[1], args[2], args[3], args[4]);
      return True;
   default:
      return False;
   }
}

void mp_heap_pre_clo_init(void)
{
   blocks = VG_(HT_construct)("mp.heap.blocks");
   block_pool = VG_(newPA)(sizeof(heap_block), 1024, VG_(malloc), "mp.heap.block",
                           VG_(free));
   sites = VG_(HT_construct)("mp.heap.sites");
   mp_sites_init();
}
