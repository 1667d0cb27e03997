/*--------------------------------------------------------------------*/
/*--- memprof: heap blocks and allocation sites.          mp_heap.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   memprof replaces malloc and friends (Valgrind's vgpreload mechanism,
   as DHAT and Memcheck) so that it sees every block's life.  All the
   blocks allocated from one call stack (depth --num-callers) form one
   heap variable, the "allocation site".  The site is named after the
   identifier its result is assigned to on the source line of the
   allocating call (mp_naming.c), else heap@file:line.

   realloc moves every block (a new block at the realloc's site, the
   contents copied, the old block freed), so a realloc'd buffer is the
   variable of its latest realloc site, as a user reading the source
   expects.  Cost: a stack unwind and a hash lookup per allocation, an
   interval-map insert/remove per allocation/free.  The stack is looked
   up as unwound, frames below main included; only a stack not seen
   before is cut at main and looked up again (a symbol look-up per frame,
   the main cost of a small allocation when done every time), so a site
   is still the stack from main up.  Block records come from a pool, not
   from Valgrind's arena.
*/
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_execontext.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_poolalloc.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"

#include "mp_naming.h"
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

/*------------------------------------------------------------*/
/*--- Naming a site                                        ---*/
/*------------------------------------------------------------*/

/* Line 'line' of dir/file, whole (freed by the caller), or NULL if
   unreadable. */
static HChar *read_source_line(const HChar *dir, const HChar *file, UInt line)
{
   HChar *path, chunk[4096];
   mp_strbuf text = MP_STRBUF_INIT;
   SysRes sr;
   Int fd, got, i, from;
   UInt cur = 1;
   if (file[0] == '/' || dir == NULL || dir[0] == '\0')
      path = mp_asprintf("%s", file);
   else
      path = mp_asprintf("%s/%s", dir, file);
   sr = VG_(open)(path, VKI_O_RDONLY, 0);
   VG_(free)(path);
   if (sr_isError(sr))
      return NULL;
   fd = sr_Res(sr);
   while (cur <= line && (got = VG_(read)(fd, chunk, sizeof chunk)) > 0) {
      for (i = 0, from = 0; i < got && cur <= line; i++) {
         if (chunk[i] != '\n')
            continue;
         if (cur == line)
            mp_strbuf_add(&text, chunk + from, i - from);
         cur++;
         from = i + 1;
      }
      if (cur == line && from < got)
         mp_strbuf_add(&text, chunk + from, got - from);
   }
   VG_(close)(fd);
   if (cur <= line && text.len == 0) {
      if (text.s)
         VG_(free)(text.s);
      return NULL;
   }
   return mp_strbuf_take(&text);
}

/* The allocating frame: the first one outside Valgrind's malloc
   replacement (whose frames come first in the stack). */
static Int allocating_frame(const Addr *ips, Int n)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   Int i;
   for (i = 0; i < n; i++) {
      const HChar *obj;
      if (VG_(get_objname)(ep, ips[i], &obj)
          && VG_(strstr)(obj, "vgpreload_") != NULL)
         continue;
      return i;
   }
   return n - 1;
}

/* How many sites were found on the source line 'where' before this one
   (and counts this one). */
static VgHashTable *line_sites;   /* key: location id of where */

typedef struct {
   VgHashNode node;
   UInt count;
} line_count;

static UInt sites_on_line(const HChar *where)
{
   UWord key = mp_vars_location(mp_g_vars, where, NULL);
   line_count *c = VG_(HT_lookup)(line_sites, key);
   if (!c) {
      c = VG_(calloc)("mp.heap.linesites", 1, sizeof *c);
      c->node.key = key;
      VG_(HT_add_node)(line_sites, c);
   }
   return c->count++;
}

static mp_var *new_site(const Addr *ips, Int n)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   Int f = allocating_frame(ips, n), i;
   const HChar *file, *dir, *fn;
   UInt line;
   HChar *where = NULL, *name, *src, *ident = NULL;
   Bool have_where;
   mp_var *v;

   have_where = VG_(get_filename_linenum)(ep, ips[f], &file, &dir, &line);
   if (have_where) {
      where = mp_asprintf("%s:%u", file, line);
      /* The k-th site found on a line is named after the line's k-th
         allocation statement: "a = malloc(n); b = malloc(n);" runs in
         that order (a line with more sites than statements: the
         first). */
      src = read_source_line(dir, file, line);
      if (src) {
         ident = mp_name_from_source_line_nth(src, mp_is_fortran_file(file),
                                              sites_on_line(where));
         /* one statement reached from several call stacks (a wrapper
            like xmalloc): each site takes its name */
         if (!ident)
            ident = mp_name_from_source_line(src, mp_is_fortran_file(file));
         VG_(free)(src);
      }
      if (ident)
         name = ident;
      else
         name = mp_asprintf("heap@%s", where);
   } else if (VG_(get_fnname)(ep, ips[f], &fn)) {
      name = mp_asprintf("heap@%s", fn);
   } else {
      const HChar *obj, *base;
      if (VG_(get_objname)(ep, ips[f], &obj)) {
         base = VG_(strrchr)(obj, '/');
         name = mp_asprintf("heap@%s", base ? base + 1 : obj);
      } else {
         name = mp_asprintf("heap@%#lx", ips[f]);
      }
   }
   v = mp_vars_add(mp_g_vars, MP_VAR_HEAP, name, where, 0);
   VG_(free)(name);
   if (where)
      VG_(free)(where);
   v->n_alloc_stack = n - f;
   v->alloc_stack = VG_(malloc)("mp.heap.stack", (n - f) * sizeof(char *));
   for (i = f; i < n; i++)
      v->alloc_stack[i - f] = VG_(strdup)("mp.heap.frame",
                                          VG_(describe_IP)(ep, ips[i], NULL));
   return v;
}

static void add_site(UWord ecu, UInt var)
{
   heap_site *s = VG_(malloc)("mp.heap.site", sizeof *s);
   s->node.key = ecu;
   s->var = var;
   VG_(HT_add_node)(sites, s);
}

static UInt site_of_caller(ThreadId tid)
{
   Addr ips[MAX_CALLERS];
   Int depth = VG_(clo_backtrace_size) < MAX_CALLERS
                  ? VG_(clo_backtrace_size) : MAX_CALLERS;
   UInt n = VG_(get_StackTrace)(tid, ips, depth, NULL, NULL, 0), i;
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
   i = new_site(ips, n)->id;
   add_site(cut, i);
   if (cut != full)
      add_site(full, i);
   return i;
}

/*------------------------------------------------------------*/
/*--- Block life                                           ---*/
/*------------------------------------------------------------*/

static void *new_block(ThreadId tid, SizeT size, SizeT align, Bool zeroed)
{
   void *p = VG_(cli_malloc)(align, size);
   heap_block *b;
   mp_var *v;
   if (!p)
      return NULL;
   if (zeroed)
      VG_(memset)(p, 0, size);
   stats__blocks++;
   b = VG_(allocEltPA)(block_pool);
   b->node.key = (UWord)p;
   b->size = size;
   b->var = site_of_caller(tid);
   VG_(HT_add_node)(blocks, b);
   /* A zero-sized block still has an address that may be touched by
      mistake; it owns one byte so that the touch is attributed. */
   mp_registry_add_heap((Addr)p, size ? size : 1, b->var);
   v = mp_vars_get(mp_g_vars, b->var);
   v->blocks++;
   v->alloc_bytes += size;
   v->live_bytes += size;
   if (v->live_bytes > v->size)
      v->size = v->live_bytes;
   return p;
}

/* False if p is not a block of ours (a bad free: left alone, as the
   client would crash or corrupt the heap without Valgrind anyway). */
static Bool free_block(void *p)
{
   heap_block *b = VG_(HT_remove)(blocks, (UWord)p);
   mp_var *v;
   if (!b)
      return False;
   mp_registry_remove_heap((Addr)p, b->size ? b->size : 1);
   if (mp_g_sharing)
      mp_sharing_forget(mp_g_sharing, (Addr)p, b->size);
   v = mp_vars_get(mp_g_vars, b->var);
   v->live_bytes -= b->size;
   VG_(freeEltPA)(block_pool, b);
   VG_(cli_free)(p);
   return True;
}

static void *mp_malloc_w(ThreadId tid, SizeT n)
{
   return new_block(tid, n, VG_(clo_alignment), False);
}

static void *mp_aligned_w(ThreadId tid, SizeT n, SizeT align)
{
   return new_block(tid, n, align, False);
}

static void *mp_memalign_w(ThreadId tid, SizeT align, SizeT n)
{
   return new_block(tid, n, align, False);
}

static void *mp_calloc_w(ThreadId tid, SizeT nmemb, SizeT size1)
{
   ULong total = (ULong)nmemb * size1;
   if (size1 != 0 && total / size1 != nmemb)
      return NULL;   /* overflow: calloc fails, as libc's */
   return new_block(tid, total, VG_(clo_alignment), True);
}

static void mp_free_w(ThreadId tid, void *p)
{
   if (p)
      free_block(p);
}

static void mp_free_aligned_w(ThreadId tid, void *p, SizeT align)
{
   if (p)
      free_block(p);
}

static void *mp_realloc_w(ThreadId tid, void *p_old, SizeT new_size)
{
   heap_block *old;
   void *p_new;
   if (p_old == NULL)
      return mp_malloc_w(tid, new_size);
   old = VG_(HT_lookup)(blocks, (UWord)p_old);
   if (!old)
      return NULL;   /* not ours: fail rather than corrupt */
   p_new = new_block(tid, new_size, VG_(clo_alignment), False);
   if (!p_new)
      return NULL;
   VG_(memcpy)(p_new, p_old, old->size < new_size ? old->size : new_size);
   free_block(p_old);
   return p_new;
}

static SizeT mp_usable_size_w(ThreadId tid, void *p)
{
   heap_block *b = VG_(HT_lookup)(blocks, (UWord)p);
   return b ? b->size : 0;
}

void mp_heap_pre_clo_init(void)
{
   blocks = VG_(HT_construct)("mp.heap.blocks");
   block_pool = VG_(newPA)(sizeof(heap_block), 1024, VG_(malloc), "mp.heap.block",
                           VG_(free));
   sites = VG_(HT_construct)("mp.heap.sites");
   line_sites = VG_(HT_construct)("mp.heap.linesites");
   VG_(needs_malloc_replacement)(mp_malloc_w, mp_malloc_w, mp_aligned_w,
                                 mp_malloc_w, mp_aligned_w, mp_memalign_w,
                                 mp_calloc_w, mp_free_w, mp_free_w,
                                 mp_free_aligned_w, mp_free_w,
                                 mp_free_aligned_w, mp_realloc_w,
                                 mp_usable_size_w, 0);
}
