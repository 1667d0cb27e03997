/*--------------------------------------------------------------------*/
/*--- memprof: the registry's stack frames.         mp_reg_stack.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   An address on a thread's stack belongs to the frame holding it:
   "stack:<function>", or a named local (array, struct or scalar) of
   that frame (mp_stackvars.h; not with --read-var-info=no).  The
   frames come from an unwind of the thread, made once per (SP,
   function) and cached; what a code address tells of its frame (its
   function's variable, its locals) is computed once per address.
   Pushes and pops at the stack pointer, and an instruction's accesses
   to its own frame while the stack pointer stays (cached by the
   driver, mp_reg_cache_frame), need no unwind.  Another thread's
   stack is unwound from where that thread stopped.
*/
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xarray.h"

#include "mp_clo.h"
#include "mp_inlvars.h"
#include "mp_naming.h"
#include "mp_registry_int.h"
#include "mp_stackvars.h"
#include "mp_util.h"
#include "mp_vgcompat.h"

#define MAX_FRAMES 32

/* What a code address tells about its frame, computed once per address
   and kept: the frame's variable (stack:<function>) and, with
   --read-var-info=yes, the local variables in scope there. */
typedef enum { FROM_SP, FROM_FP, FROM_CFA } local_base;

typedef struct {
   PtrdiffT base;     /* from SP, FP or the frame's CFA (its caller's SP) */
   SizeT    size;     /* bytes */
   local_base from;
   UInt     var;      /* NO_VAR until its first access (see local_var) */
   HChar   *name;     /* while var is NO_VAR: the core's name */
} local_block;

#define NO_VAR ((UInt)-1)

typedef struct frame_info_ {
   VgHashNode node;   /* key: code address */
   UInt frame_var;
   UInt n_locals;
   local_block *locals;
   HChar *fn;         /* the function's name, while a local has no var */
} frame_info;

/* One thread's unwound frames, valid while its SP and the accessing
   function are those it was unwound for; loops reuse it, calls and
   returns rebuild it (one unwind, no symbol lookup). */
typedef struct {
   Bool valid;
   Addr sp;
   Addr ip;           /* foreign unwinds: the thread's IP it was made at */
   UInt fn;
   UInt n;
   Addr ips[MAX_FRAMES], sps[MAX_FRAMES], fps[MAX_FRAMES];
   struct frame_info_ *fis[MAX_FRAMES];  /* frame_info_for(ips[i]), once */
} stack_cache;

/* Per thread, STACK_WAYS unwinds keyed by (SP, function), replaced in
   turn: a call and its return come back to the caller's unwind instead
   of making it again (gzip -9 called its match loop millions of times,
   two unwinds a call).  Made on the thread's first stack access.
   Why only four: the key says where the running function's frame is,
   not who called it nor what the frame pointer holds, so an unwind is
   right only while the call it was made in lasts, which four ways
   replaced in turn roughly bound.  sqlite3 thrashes them (98% of its
   unwinds are of a key unwound before), but a table of 64 unwinds kept
   them so long that it named wrong callers (30,000 of sqlite3's
   accesses went from sqlite3BtreeInsert's frame to that of its set-up's
   sqlite3PagerSetPagesize); checking each caller's return address
   fixed that, not the stale frame pointers (stack_block's locals were
   lost), and ran no faster (1.09 and 1.04 times the old time on
   sqlite3 and python3).  With the frame pointer in the key it unwound
   as often as four ways.  Unwinds are about 2% of sqlite3's run, less
   elsewhere. */
#define STACK_WAYS 4
static stack_cache **stack_caches;   /* indexed by ThreadId */
static UInt        *stack_victim;    /* indexed by ThreadId: next way replaced */
static VgHashTable *stack_vars;      /* key: interned (fn, local) -> var */
static VgHashTable *frame_infos;     /* key: code address */
/* Other threads' unwinds, made where each stopped. */
static stack_cache *foreign_caches;  /* indexed by the owner's ThreadId */

/* The variable stack:<fn>, or the local 'local' of fn (size: its
   declared size in bytes), of the function fn of the object whose file
   name is obj (NULL if unknown).  Functions of one name in two objects
   (a static "init", "_fini", "???") are two variables: each has its
   object's class.  *made: the variable if this call created it. */
static UInt stack_var_of(const HChar *fn, const HChar *local, const HChar *obj,
                         SizeT size, mp_var **made)
{
   UWord key = ((UWord)mp_vars_location(mp_g_vars, fn, local) << 32)
               | mp_vars_location(mp_g_vars, obj, "(object)");
   mp_reg_var_node *n = VG_(HT_lookup)(stack_vars, key);
   *made = NULL;
   if (!n) {
      HChar *frame = local ? NULL : mp_asprintf("stack:%s", fn);
      mp_var *v = mp_vars_add(mp_g_vars, MP_VAR_STACK, local ? local : frame, NULL,
                              local ? size : 0);
      if (frame)
         VG_(free)(frame);
      v->function = VG_(strdup)("mp.reg.stackfn", fn);
      v->whole_frame = local == NULL;
      n = VG_(malloc)("mp.reg.stackvar", sizeof *n);
      n->node.key = key;
      n->var = v->id;
      VG_(HT_add_node)(stack_vars, n);
      *made = v;
   }
   return n->var;
}

const HChar *mp_code_object(Addr a)
{
   const HChar *path;
   return VG_(get_objname)(VG_(current_DiEpoch)(), a, &path) ? path : NULL;
}

/* stack:<fn> of the code at ip (0: unknown). */
static UInt stack_var(const HChar *fn, Addr ip)
{
   const HChar *path = ip ? mp_code_object(ip) : NULL;
   mp_var *made;
   UInt var;
   var = stack_var_of(fn, NULL, path ? mp_object_base(path) : NULL, 0, &made);
   if (made) {
      mp_var_set_owner(made, path);
      /* A frame of no object is a failed unwind's (an address read off
         the stack inside the dynamic linker's trampoline): no one's. */
      if (!path)
         made->cls = MP_CLASS_OTHER;
   }
   return var;
}

/* The local 'local' of the frame whose variable is frame_var, owned
   as that frame is. */
static UInt local_stack_var(UInt frame_var, const HChar *fn, const HChar *local,
                            SizeT size)
{
   const mp_var *frame = mp_vars_get(mp_g_vars, frame_var);
   mp_var *made;
   UInt var = stack_var_of(fn, local, frame->object, size, &made);
   if (made) {
      mp_var_set_owner(made, frame->object);
      made->cls = frame->cls;   /* decided on the whole path */
   }
   return var;
}

/* The core names a stack block by the first 15 bytes of its variable's
   name (StackBlock.name); a longer name is asked for at the block's
   first access, when its address is known: a data description names
   the variable whole. */
#define CORE_NAME_MAX (sizeof(((StackBlock *)0)->name) - 1)

static UInt local_var(frame_info *fi, local_block *b, Addr a)
{
   HChar *what, *file, *full = NULL;
   UInt line;
   SizeT n = VG_(strlen)(b->name);
   if (mp_registry_describe(a, &what, &file, &line)) {
      /* "name", or "name[3].x" for a part of it */
      SizeT k = 0;
      while (what[k] && what[k] != '[' && what[k] != '.')
         k++;
      what[k] = '\0';
      if (k >= n && VG_(strncmp)(what, b->name, n) == 0)
         full = what;
      else
         VG_(free)(what);
      if (file)
         VG_(free)(file);
   }
   if (!full) {
      /* not found whole: the cut is marked */
      full = mp_asprintf("%s\xe2\x80\xa6", b->name);
   }
   b->var = local_stack_var(fi->frame_var, fi->fn, full, b->size);
   VG_(free)(full);
   VG_(free)(b->name);
   b->name = NULL;
   return b->var;
}

static frame_info *frame_info_for(Addr ip)
{
   frame_info *fi = VG_(HT_lookup)(frame_infos, ip);
   const mp_dw_local **inlined = NULL;
   const HChar *name;
   XArray *blocks;
   UInt i, n_blocks, n_inlined;
   Bool asked, keep_fn = False;
   if (fi)
      return fi;
   if (!VG_(get_fnname)(VG_(current_DiEpoch)(), ip, &name))
      name = "???";
   fi = VG_(calloc)("mp.reg.frame", 1, sizeof *fi);
   fi->node.key = ip;
   /* the core's name is overwritten by its next answer; a specialised
      copy (kernel.constprop.0) is its source function's frame */
   fi->fn = VG_(strdup)("mp.reg.fn", name);
   mp_strip_compiler_suffix(fi->fn);
   fi->frame_var = stack_var(fi->fn, ip);
   /* The runtime's frames are summed per object unless the user asks
      for them: their locals are asked for only then (mp_stackvars.h
      says what a question costs). */
   asked = mp_vars_get(mp_g_vars, fi->frame_var)->cls == MP_CLASS_PROGRAM
           || mp_clo_show_runtime;
   blocks = asked ? mp_stackvars_at(ip, fi->fn) : NULL;
   n_inlined = asked && mp_stackvars_naming() ? mp_inlvars_at(ip, &inlined) : 0;
   n_blocks = blocks ? (UInt)VG_(sizeXA)(blocks) : 0;
   if (n_blocks + n_inlined > 0)
      fi->locals = VG_(malloc)("mp.reg.locals", (n_blocks + n_inlined) * sizeof(local_block));
   /* The inlined functions' first: the innermost scopes, whose slots
      the outer function's locals of other scopes may share at -O2. */
   for (i = 0; i < n_inlined; i++) {
      local_block *l = &fi->locals[fi->n_locals++];
      l->base = (PtrdiffT)inlined[i]->offset;
      l->size = (SizeT)inlined[i]->size;
      l->from = inlined[i]->base == MP_DW_CFA ? FROM_CFA
                : inlined[i]->base == MP_DW_SP ? FROM_SP : FROM_FP;
      l->name = NULL;
      l->var = local_stack_var(fi->frame_var, inlined[i]->function, inlined[i]->name,
                               l->size);
   }
   for (i = 0; i < n_blocks; i++) {
      StackBlock *b = VG_(indexXA)(blocks, i);
      local_block *l;
      /* valgrind.h's client request macros keep their arguments in a
         block's array of their own (_zzq_args): not a variable of the
         program's source, its bytes are the frame's */
      if (VG_(strncmp)(b->name, "_zzq_", 5) == 0)
         continue;
      l = &fi->locals[fi->n_locals++];
      l->base = b->base;
      l->size = b->szB;
      l->from = b->spRel ? FROM_SP : FROM_FP;
      l->name = NULL;
      if (VG_(strlen)(b->name) < CORE_NAME_MAX) {
         l->var = local_stack_var(fi->frame_var, fi->fn, b->name, b->szB);
      } else {
         l->var = NO_VAR;
         l->name = VG_(strdup)("mp.reg.localname", b->name);
         keep_fn = True;
      }
   }
   if (!keep_fn) {
      VG_(free)(fi->fn);
      fi->fn = NULL;
   }
   if (inlined)
      VG_(free)(inlined);
   if (blocks)
      VG_(deleteXA)(blocks);
   VG_(HT_add_node)(frame_infos, fi);
   return fi;
}

/* Narrows [*rlo, *rhi), which holds a, to exclude [start, end), which
   does not. */
static void exclude(Addr a, Addr start, Addr end, Addr *rlo, Addr *rhi)
{
   if (end <= a) {
      if (end > *rlo)
         *rlo = end;
   } else if (start < *rhi) {
      *rhi = start;
   }
}

/* The local of fi holding address a of frame i of c, else NO_VAR;
   with rlo, narrows [*rlo, *rhi) as frame_var_of says. */
static UInt local_of(stack_cache *c, UInt i, frame_info *fi, Addr a, ThreadId tid,
                     Addr ip, Addr *rlo, Addr *rhi)
{
   UInt k;
   for (k = 0; k < fi->n_locals; k++) {
      local_block *b = &fi->locals[k];
      Addr start;
      if (b->from == FROM_CFA && i + 1 >= c->n)
         continue;   /* the outermost frame: its CFA is not known */
      start = (b->from == FROM_SP ? c->sps[i] : b->from == FROM_FP ? c->fps[i] : c->sps[i + 1])
              + b->base;
      if (a >= start && a < start + b->size) {
         if (b->var == NO_VAR) {
            /* the description unwinds the thread from its IP */
            if (ip)
               mp_vg_set_IP(tid, ip);
            if (rlo)
               *rhi = *rlo;
            return local_var(fi, b, a);
         }
         /* The first local holding a wins: the earlier ones are out. */
         if (rlo) {
            if (start > *rlo)
               *rlo = start;
            if (start + b->size < *rhi)
               *rhi = start + b->size;
         }
         return b->var;
      }
      if (rlo)
         exclude(a, start, start + b->size, rlo, rhi);
   }
   return NO_VAR;
}

/* The variable of address a in frame i of c, which spans [lo, hi); ip:
   the instruction making the access when c is the running thread's,
   else 0.  With rlo, also the addresses around a that the same answer
   holds for in this frame, [*rlo, *rhi): none if *rhi == *rlo (a local
   not yet described). */
static UInt frame_var_of(stack_cache *c, UInt i, Addr a, Addr lo, Addr hi,
                         ThreadId tid, Addr ip, Addr *rlo, Addr *rhi)
{
   frame_info *fi = c->fis[i] ? c->fis[i] : (c->fis[i] = frame_info_for(c->ips[i]));
   mp_var *fv = mp_vars_get(mp_g_vars, fi->frame_var);
   UInt var;
   /* stack:<fn>'s size is its largest frame, red zone included when
      touched (the outermost frame runs to the top of the stack,
      environment included: not a frame size). */
   if (i + 1 < c->n) {
      if (hi - lo > fv->size)
         fv->size = hi - lo;
      if (a < lo && hi - a > fv->size)
         fv->size = hi - a;
   }
   if (rlo) {
      /* Below lo, the red zone: the size just counted holds for any
         address above a, not below it. */
      *rlo = a < lo ? a : lo;
      *rhi = hi;
   }
   /* The running frame's unwind is kept for its function while its SP
      stays (cached_unwind), made at another instruction: its locals
      are those in scope there, not at the accessing instruction.  At
      -O2 one SP serves the whole function, and blocks entered later
      reuse the slots of blocks left (an -O0 loop's scratch array, a
      second loop's table in the first loop's array): the locals are
      those of the accessing instruction. */
   if (i == 0 && ip != 0 && ip != c->ips[0])
      fi = frame_info_for(ip);
   var = local_of(c, i, fi, a, tid, ip, rlo, rhi);
   return var != NO_VAR ? var : fi->frame_var;
}

/* An unwind through code whose unwind information misleads it (a
   hand-written CFA rule, a JIT's code) goes on into garbage: return
   addresses in no executable mapping (0x8), stack pointers that do not
   grow.  Those frames are none; the last believable one then holds
   the stack up to its top, as the outermost frame does. */
static UInt believable_frames(const Addr *ips, const Addr *sps, UInt n)
{
   UInt i;
   for (i = 1; i < n; i++) {
      const NSegment *seg = VG_(am_find_nsegment)(ips[i]);
      if (seg == NULL || !seg->hasX || sps[i] < sps[i - 1])
         return i;
   }
   return n;
}

/* The unwind of tid made at SP sp in function fn, or NULL. */
static stack_cache *cached_unwind(ThreadId tid, Addr sp, UInt fn)
{
   stack_cache *set = stack_caches[tid];
   UInt w;
   for (w = 0; w < STACK_WAYS; w++)
      if (set[w].valid && set[w].sp == sp && set[w].fn == fn)
         return &set[w];
   return NULL;
}

/* Frame i of an unwind holds [sps[i], sps[i+1]); frame 0 also its red
   zone, the outermost frame everything up to the stack's top. */
UInt mp_reg_stack_resolve(ThreadId tid, Addr a, mp_instr *ii)
{
   Addr sp = VG_(get_SP)(tid);
   Addr max = VG_(thread_get_stack_max)(tid);
   stack_cache *c;
   UInt i;
   if (a + MP_REG_REDZONE < sp || a >= max)
      return MP_REG_NONE;
   if (!stack_caches[tid])
      stack_caches[tid] = VG_(calloc)("mp.reg.stack", STACK_WAYS, sizeof(stack_cache));
   /* A push or call stores at the SP it has just lowered, a pop or ret
      loads at the SP it is about to raise: below every local of its
      function, in that function's frame (frame 0 of an unwind), with no
      unwind.  A prologue pushes and an epilogue pops at a new SP each:
      unwinding for each was most of the unwinds of -O2 code.  The
      frame's size comes from its other accesses. */
   if ((ii->pushes || ii->pops) && a - sp < MP_AT_SP_BYTES) {
      SizeT size = VG_(thread_get_stack_size)(tid);
      if (ii->frame_var == 0)
         ii->frame_var = frame_info_for(ii->iaddr)->frame_var + 1;
      /* The same answer at the next call's stack pointer, anywhere in
         the thread's stack (not on a stack elsewhere: a coroutine's in
         a heap block is the block's). */
      mp_reg_cache_at_sp(ii, size > 0 && size <= max ? max - size : sp, max,
                         ii->frame_var - 1);
      return ii->frame_var - 1;
   }
   c = cached_unwind(tid, sp, ii->fn);
   if (!c || ii->pushes) {
      c = &stack_caches[tid][stack_victim[tid]];
      stack_victim[tid] = (stack_victim[tid] + 1) % STACK_WAYS;
      stats__stack_unwinds++;
      /* The guest IP is only brought up to date at superblock exits (a
         call chased into its callee leaves it at the call): the
         instruction being executed is ii's. */
      mp_vg_set_IP(tid, ii->iaddr);
      /* A push or call has already lowered the SP when it stores; the
         unwind information of its address describes the SP before. */
      c->n = VG_(get_StackTrace_with_deltas)(tid, c->ips, MAX_FRAMES, c->sps,
                                             c->fps, 0, ii->pushes ? 8 : 0);
      c->n = believable_frames(c->ips, c->sps, c->n);
      VG_(memset)(c->fis, 0, sizeof c->fis);
      /* That frame list is right for this instruction only. */
      c->valid = c->n > 0 && !ii->pushes;
      c->sp = sp;
      c->fn = ii->fn;
      if (c->n == 0)
         return stack_var("???", 0);
   }
   /* The running function's own frame, its red zone included: the
      answer holds for the instruction while the stack pointer stays
      where it is (mp_tool.h), as the unwind itself is kept for the
      function at that stack pointer (cached_unwind; all code without a
      symbol is one function "???" there). */
   if (!ii->pushes && (c->n == 1 || a < c->sps[1])) {
      Addr rlo, rhi;
      UInt var = frame_var_of(c, 0, a, c->sps[0], c->n == 1 ? max : c->sps[1], tid,
                              ii->iaddr, &rlo, &rhi);
      if (rhi > rlo)
         mp_reg_cache_frame(ii, sp, rlo, rhi, var);
      return var;
   }
   for (i = 0; i + 1 < c->n; i++)
      if (a < c->sps[i + 1])
         return frame_var_of(c, i, a, c->sps[i], c->sps[i + 1], tid, ii->iaddr, NULL,
                             NULL);
   return frame_var_of(c, c->n - 1, a, c->sps[c->n - 1], max, tid, ii->iaddr, NULL,
                       NULL);
}

/* An address on another thread's stack: OpenMP workers reading the
   master's locals, a thread handed a pointer to its creator's array.
   That thread is not running: its SP and IP are where it stopped, so
   its unwind stays valid until it runs again. */
UInt mp_reg_foreign_stack_resolve(ThreadId tid, Addr a)
{
   ThreadId t;
   Addr lo, hi;
   VG_(thread_stack_reset_iter)(&t);
   while (VG_(thread_stack_next)(&t, &lo, &hi)) {
      stack_cache *c;
      Addr sp, ip;
      UInt i;
      if (t == tid || a + MP_REG_REDZONE < lo || a > hi)
         continue;
      c = &foreign_caches[t];
      sp = VG_(get_SP)(t);
      ip = VG_(get_IP)(t);
      if (!c->valid || c->sp != sp || c->ip != ip) {
         stats__stack_unwinds++;
         c->n = VG_(get_StackTrace_with_deltas)(t, c->ips, MAX_FRAMES, c->sps,
                                                c->fps, 0, 0);
         c->n = believable_frames(c->ips, c->sps, c->n);
         VG_(memset)(c->fis, 0, sizeof c->fis);
         c->valid = c->n > 0;
         c->sp = sp;
         c->ip = ip;
         if (c->n == 0)
            return stack_var("???", 0);
      }
      for (i = 0; i + 1 < c->n; i++)
         if (a < c->sps[i + 1])
            return frame_var_of(c, i, a, c->sps[i], c->sps[i + 1], t, 0, NULL, NULL);
      return frame_var_of(c, c->n - 1, a, c->sps[c->n - 1], hi + 1, t, 0, NULL, NULL);
   }
   return MP_REG_NONE;
}

void mp_reg_stack_init(void)
{
   stack_caches = VG_(calloc)("mp.reg.stacks", VG_N_THREADS + 1, sizeof(stack_cache *));
   stack_victim = VG_(calloc)("mp.reg.victims", VG_N_THREADS + 1, sizeof(UInt));
   foreign_caches = VG_(calloc)("mp.reg.fstacks", VG_N_THREADS + 1, sizeof(stack_cache));
   stack_vars = VG_(HT_construct)("mp.reg.stackvars");
   frame_infos = VG_(HT_construct)("mp.reg.frames");
}

void mp_reg_stack_thread_gone(ThreadId tid)
{
   /* A later thread given this id may run on the same, reused stack. */
   if (stack_caches[tid])
      VG_(memset)(stack_caches[tid], 0, STACK_WAYS * sizeof(stack_cache));
}
