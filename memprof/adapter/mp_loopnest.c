/*--------------------------------------------------------------------*/
/*--- memprof: loops, streams, structures and formulas at run time. ---*/
/*---                                                 mp_loopnest.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The adapter side of the loop analyses: owns the loop engine (mp_loops),
   the streams per loop (mp_streams), the structure inference
   (mp_structs) and the access formulas (mp_formula); mp_instrument.c
   calls in here at instrumentation time (each back edge it finds) and
   from the generated code (superblock entries, back edges taken,
   returns); the list of analyses calls it at every access and at the
   other steps of its life (mp_an_loops.h).

   With --loops=no none of this exists and the instrumentation adds no
   call for it.
*/
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xarray.h"

#include "mp_an_ctx.h"
#include "mp_clo.h"
#include "mp_hierarchy.h"
#include "mp_loopnest.h"
#include "mp_threads.h"
#include "mp_tool.h"
#include "mp_util.h"

mp_loops   *mp_g_loops;
mp_streams *mp_g_streams;
mp_structs *mp_g_structs;
mp_formula *mp_g_formula;

/* Every instrumented instruction by its dense id, for the report. */
static mp_instr **instr_by_id;
static UInt n_instr_ids, instr_ids_cap;

/* The first block start seen per variable: field names are asked of the
   debug info at that block. */
static Addr *first_block;
static UInt n_first_block;

/* The streams are counted per instance in the detail windows.  In a
   sampling gap the loops are followed but their accesses are not: an
   instance ending there is counted, with what the window before saw of
   it, at the next window's start (mp_loopnest_window_start) or at the
   exit. */
static void streams_exit(void *arg, uint32_t tid, uint32_t loop,
                         uint64_t instance, uint64_t iterations)
{
   (void)iterations;
   if (mp_g_detailing)
      mp_streams_loop_end(arg, tid, loop, instance);
}

void mp_loopnest_init(void)
{
   mp_streams_cfg sc;
   const char *err = NULL;
   if (!mp_clo_loops)
      return;
   mp_g_loops = mp_loops_new();
   sc.threshold = mp_clo_prefetch_streams;
   mp_g_streams = mp_streams_new(&sc, &err);
   tl_assert2(mp_g_streams != NULL, "%s", err);   /* range-checked option */
   mp_loops_set_exit_hook(mp_g_loops, streams_exit, mp_g_streams);
   mp_g_structs = mp_structs_new();
   mp_g_formula = mp_formula_new();
}

void mp_loopnest_register_instr(mp_instr *ii)
{
   if (n_instr_ids == instr_ids_cap) {
      instr_ids_cap = instr_ids_cap ? 2 * instr_ids_cap : 4096;
      instr_by_id = VG_(realloc)("mp.loopnest.ids", instr_by_id,
                                 instr_ids_cap * sizeof *instr_by_id);
   }
   ii->id = n_instr_ids;
   instr_by_id[n_instr_ids++] = ii;
}

const mp_instr *mp_loopnest_instr(UInt id)
{
   return id < n_instr_ids ? instr_by_id[id] : NULL;
}

/* "file:line" of a (freed by the caller), or NULL. */
static HChar *where_of(Addr a)
{
   const HChar *file, *dir;
   UInt line;
   if (!VG_(get_filename_linenum)(VG_(current_DiEpoch)(), a, &file, &dir, &line))
      return NULL;
   return mp_asprintf("%s:%u", file, line);
}

/* The function whose code each source line is, by "file:line" and the
   function the instruction is in: a line of one function's code is
   that function's text, so the inline information (read through the
   core's description of an address, microseconds each) is read once per
   line and function, not per instruction.  The function is part of the
   key because one line may hold two functions' code (a lambda's body
   and the statement that makes it).  Keys whose hashes collide with a
   cached one are looked up each time. */
typedef struct {
   VgHashNode node;     /* key: the hash of loc */
   HChar *loc;          /* "file:line@function" */
   HChar *fn;           /* NULL: not known */
} line_scope;
static VgHashTable *line_scopes;

static UWord hash_loc(const HChar *s)
{
   UWord h = 5381;
   while (*s)
      h = h * 33 + (UChar)*s++;
   return h;
}

static const HChar *scope_at(Addr a, const HChar *loc)
{
   static HChar uncached[128];
   const HChar *outer;
   HChar fn[128], *key;
   line_scope *ls;
   UWord h;
   if (loc == NULL)
      return NULL;
   if (!VG_(get_fnname)(VG_(current_DiEpoch)(), a, &outer))
      outer = "";
   key = mp_asprintf("%s@%s", loc, outer);
   h = hash_loc(key);
   if (line_scopes == NULL)
      line_scopes = VG_(HT_construct)("mp.loopnest.scopes");
   ls = VG_(HT_lookup)(line_scopes, h);
   if (ls != NULL) {
      Bool same = VG_(strcmp)(ls->loc, key) == 0;
      VG_(free)(key);
      return same ? ls->fn : mp_sites_code_fn(a, uncached, sizeof uncached) ? uncached : NULL;
   }
   ls = VG_(malloc)("mp.loopnest.scope", sizeof *ls);
   ls->node.key = h;
   ls->loc = key;
   ls->fn = mp_sites_code_fn(a, fn, sizeof fn) ? VG_(strdup)("mp.loopnest.scope.fn", fn) : NULL;
   VG_(HT_add_node)(line_scopes, ls);
   return ls->fn;
}

/* A counter per function, bumped whenever its loops change (a loop
   found, or grown by another back edge): the generated code's promise
   that a block lies in no loop of its function holds while the counter
   is what it was at translation (mp_loopnest_fn_loops_changes).  In
   chunks that never move, since the code holds their addresses. */
#define FN_CHUNK 4096
static UInt **fn_changes;
static UInt n_fn_chunks;

const UInt *mp_loopnest_fn_loops_changes(UInt fn)
{
   UInt c = fn / FN_CHUNK;
   if (c >= n_fn_chunks) {
      UInt n = n_fn_chunks ? 2 * n_fn_chunks : 16;
      while (n <= c)
         n *= 2;
      fn_changes = VG_(realloc)("mp.loopnest.fnch", fn_changes, n * sizeof *fn_changes);
      VG_(memset)(fn_changes + n_fn_chunks, 0, (n - n_fn_chunks) * sizeof *fn_changes);
      n_fn_chunks = n;
   }
   if (fn_changes[c] == NULL)
      fn_changes[c] = VG_(calloc)("mp.loopnest.fnch", FN_CHUNK, sizeof(UInt));
   return &fn_changes[c][fn % FN_CHUNK];
}

UInt mp_loopnest_back_edge(Addr branch, Addr target, UInt fn)
{
   HChar *bw = where_of(branch), *tw = where_of(target);
   UInt before = mp_loops_settled_state(mp_g_loops)->gen;
   UInt loop = mp_loops_add_back_edge(mp_g_loops, fn, branch, target, bw, tw,
                                      scope_at(branch, bw), scope_at(target, tw));
   if (mp_loops_settled_state(mp_g_loops)->gen != before)
      (*(UInt *)mp_loopnest_fn_loops_changes(fn))++;
   if (bw)
      VG_(free)(bw);
   if (tw)
      VG_(free)(tw);
   return loop;
}

/* An instruction, for the loops' question of whose code its line is. */
typedef struct {
   Addr a;
   const HChar *loc;
} code_line;

static const char *scope_of(void *arg)
{
   const code_line *cl = arg;
   return scope_at(cl->a, cl->loc);
}

void mp_loopnest_note_line(UInt fn, Addr a)
{
   HChar *loc = where_of(a);
   if (loc) {
      code_line cl;
      cl.a = a;
      cl.loc = loc;
      mp_loops_add_line(mp_g_loops, fn, a, loc, scope_of, &cl);
      VG_(free)(loc);
   }
}

/*------------------------------------------------------------*/
/*--- Called from the generated code                       ---*/
/*------------------------------------------------------------*/

const mp_loops_settled *mp_loopnest_settled(void)
{
   return mp_loops_settled_state(mp_g_loops);
}

/* The promise is of the thread that called last: another thread's
   blocks must call. */
void mp_loopnest_thread_runs(ThreadId tid)
{
   static ThreadId last = VG_INVALID_THREADID;
   if (mp_g_loops && tid != last)
      mp_loops_unsettle(mp_g_loops);
   last = tid;
}

/* sp is the guest's stack pointer there: frames of activations that
   returned or were unwound end first (R0 of mp_loops.h). */
VG_REGPARM(2) void mp_loop_at(mp_instr *ii, UWord sp)
{
   mp_loops_enter_block(mp_g_loops, mp_thread_serial(VG_(get_running_tid)()), sp, ii->fn,
                        ii->iaddr, &ii->at_site);
}

VG_REGPARM(1) void mp_loop_back_edge(UWord loop)
{
   mp_loops_back_edge_taken(mp_g_loops, mp_thread_serial(VG_(get_running_tid)()),
                            (uint32_t)loop);
}

VG_REGPARM(1) void mp_loop_fell_through(UWord loop)
{
   mp_loops_back_edge_fell_through(mp_g_loops, mp_thread_serial(VG_(get_running_tid)()),
                                   (uint32_t)loop);
}

VG_REGPARM(1) void mp_loop_return(UWord fn)
{
   mp_loops_return(mp_g_loops, mp_thread_serial(VG_(get_running_tid)()), (uint32_t)fn);
}

void mp_loopnest_thread_exit(UInt serial)
{
   if (mp_g_loops)
      mp_loops_thread_exit(mp_g_loops, serial);
}

ULong mp_g_loops_seen_changes = ~0ULL;
UInt mp_g_loops_seen_tid;

void mp_loopnest_far_reuse(mp_carriers *cs, UInt tid, UInt var, ULong now, UInt then,
                           ULong d)
{
   ULong at;
   UInt loop, from, to, across[2];
   /* The epoch of the earlier access, from its low 32 bits: less than
      2^32 loop entries ago (older ones pass for recent, and are far
      beyond any cache anyway). */
   at = now - (UInt)((UInt)now - then);
   loop = mp_loops_siblings(mp_g_loops, tid, at, &from, &to, across);
   if (loop == MP_LOOP_UNSEEN)
      mp_carriers_unseen(cs, var);
   else {
      mp_carriers_add(cs, var, loop, d);
      mp_carriers_add_pair(cs, var, loop, from, to, across, d);
   }
}

void mp_loopnest_window_start(Bool followed)
{
   if (!followed) {
      mp_loops_flush(mp_g_loops);
      return;
   }
   /* The instances go on, their counters exact, and so do the
      carriers, whose tags the gap left too (mp_g_carrying); the
      streams, which the gap did not see, end their instances at the
      last access they saw. */
   mp_streams_flush(mp_g_streams);
}

static void note_first_block(UInt var, Addr start)
{
   if (var >= n_first_block) {
      UInt n = n_first_block ? n_first_block : 256;
      while (n <= var)
         n *= 2;
      first_block = VG_(realloc)("mp.loopnest.blocks", first_block, n * sizeof *first_block);
      VG_(memset)(first_block + n_first_block, 0, (n - n_first_block) * sizeof *first_block);
      n_first_block = n;
   }
   if (first_block[var] == 0)
      first_block[var] = start;
}


/* An id of one execution of a loop, unique over loops and never 0. */
static ULong execution_of(const mp_loop_frame *fr)
{
   return (ULong)(fr->loop + 1) << 40 ^ fr->instance;
}

/* ii's innermost loop, recomputed when loops were found since. */
static UInt static_loop(mp_instr *ii)
{
   UInt n = mp_loops_count(mp_g_loops);
   if (ii->loops_known != n + 1) {
      ii->loop = mp_loops_innermost(mp_g_loops, ii->fn, ii->iaddr);
      ii->loops_known = n + 1;
   }
   return ii->loop;
}

/* The part of its variable an access touched, for the loops' filters
   of what they read and wrote (mp_loops_touch): a frame's unnamed bytes
   by their 64-byte block, since two loops spilling to one frame touch
   different slots; a named variable whole (0). */
static uint64_t touched_part(const mp_event *e)
{
   return mp_vars_get(mp_g_vars, e->var)->whole_frame ? (e->addr >> 6) + 1 : 0;
}

UInt mp_loopnest_access(UInt tid, mp_instr *ii, const mp_event *e, UInt cycles,
                        Addr start)
{
   uint64_t instance, iters[MP_FORMULA_MAX_DEPTH], execution;
   uint32_t loop = mp_loops_current(mp_g_loops, tid, &instance), depth, own, k;
   const mp_loop_frame *frames;
   UInt stream = MP_NO_STREAM;

   if (start != 0) {
      note_first_block(e->var, start);
      stream = mp_structs_access(mp_g_structs, ii->id, e->var, e->addr, start, e->size,
                                 loop == MP_LOOP_NONE ? 0 : loop + 1, cycles);
   }
   if (loop == MP_LOOP_NONE)
      return stream;
   mp_loops_touch(mp_g_loops, tid, e->var, touched_part(e), e->is_write);
   mp_streams_access(mp_g_streams, tid, loop, instance, ii->id, e->var, e->addr);
   /* The formula is in the counters of the instruction's own function's
      loops, and only when the thread is known to be in the instruction's
      innermost loop: before a newly found loop's first back edge, code
      translated before it was found runs with an outer loop on top. */
   if (loop != static_loop(ii))
      return stream;
   /* A formula is found in the first accesses and then only verified:
      every access of the first MP_FORMULA_FULL, then one in MP_FORMULA_EVERY
      (the fit ratio is a ratio of the accesses looked at). */
   if (ii->loop_accesses++ >= MP_FORMULA_FULL && (ii->loop_accesses & (MP_FORMULA_EVERY - 1)))
      return stream;
   own = mp_loops_get(mp_g_loops, loop)->depth;
   /* With --sample=periodic|windows the loops are not followed in the
      gaps: after a window's start, the loops the thread is found in
      count from there, not from their entries, and its accesses would
      refute a formula found before.  An instruction with a formula from
      before the first window's end keeps it, unchecked; one first seen
      later is fitted in its windows (right for nests begun inside one).
      --sample=detail follows them throughout: nothing is flushed. */
   if (ii->formula_before_flush && mp_loops_last_flush(mp_g_loops) != 0)
      return stream;
   depth = mp_loops_active(mp_g_loops, tid, &frames);
   if (depth < own || depth > MP_FORMULA_MAX_DEPTH)
      return stream;
   /* Fitted in one execution of the instruction's outermost loop (its
      function's), whose strides may depend on the call's arguments.
      Once settled, only that execution's accesses change the formula
      (its trip counts, when it goes on after another thread's ran):
      the others, most of a call-heavy program's, cost no call. */
   execution = execution_of(&frames[depth - own]);
   if (ii->formula_settled_depth == own && execution != ii->formula_settled_in)
      return stream;
   if (mp_loops_last_flush(mp_g_loops) == 0)
      ii->formula_before_flush = True;
   /* Keyed by (depth, instruction): an enclosing loop found later
      deepens the vector, and the formula starts again with it.  A
      refit keeps the sampling: an access one in 16 further along the
      innermost loop still gives that loop's coefficient. */
   for (k = 0; k < own; k++)
      iters[k] = frames[depth - own + k].iterations;
   if (mp_formula_access_exec(mp_g_formula, (uint64_t)own << 32 | ii->id, iters, own,
                              e->addr, e->size, e->is_write,
                              start ? start : MP_FORMULA_NO_BLOCK, execution)
          & MP_FORMULA_SETTLED
       && ii->formula_settled_depth != own) {
      ii->formula_settled_depth = own;
      ii->formula_settled_in =
         mp_formula_get(mp_g_formula, (uint64_t)own << 32 | ii->id)->execution;
   }
   return stream;
}

mp_block_place mp_loopnest_block_place(UInt fn, Addr a)
{
   UInt loop = mp_loops_innermost(mp_g_loops, fn, a);
   if (loop == MP_LOOP_NONE)
      return MP_BLOCK_NO_LOOP;
   return mp_loops_get(mp_g_loops, loop)->n_children == 0 ? MP_BLOCK_LEAF_LOOP
                                                           : MP_BLOCK_OUTER_LOOP;
}

/* Is a the head of a known loop (a branch target going back)? */
Bool mp_loopnest_is_head(UInt fn, Addr a)
{
   UInt loop = mp_loops_innermost(mp_g_loops, fn, a);
   return loop != MP_LOOP_NONE && mp_loops_get(mp_g_loops, loop)->head == a;
}

/*------------------------------------------------------------*/
/*--- For the report                                       ---*/
/*------------------------------------------------------------*/

void mp_loopnest_finish(void)
{
   if (!mp_g_loops)
      return;
   mp_loops_flush(mp_g_loops);
   mp_streams_flush(mp_g_streams);
   mp_loops_drop_unentered(mp_g_loops);
}

void mp_loopnest_reset(void)
{
   if (!mp_g_loops)
      return;
   /* A forked child: its own loops from now on.  The loop forest (code)
      stays; instances and counts restart. */
   mp_loops_reset_counts(mp_g_loops);
   mp_streams_free(mp_g_streams);
   {
      mp_streams_cfg sc;
      const char *err = NULL;
      sc.threshold = mp_clo_prefetch_streams;
      mp_g_streams = mp_streams_new(&sc, &err);
      mp_loops_set_exit_hook(mp_g_loops, streams_exit, mp_g_streams);
   }
   mp_structs_reset(mp_g_structs);
   mp_formula_free(mp_g_formula);
   mp_g_formula = mp_formula_new();
   {
      UInt id;
      for (id = 0; id < n_instr_ids; id++)
         if (instr_by_id[id])
            instr_by_id[id]->formula_settled_depth = 0;
   }
}

mp_instr_fact *mp_loopnest_instr_facts(uint32_t *n_out)
{
   mp_instr_fact *f = VG_(calloc)("mp.loopnest.facts", n_instr_ids + 1, sizeof *f);
   UInt id;
   mp_segments_settle();
   for (id = 0; id < n_instr_ids; id++) {
      const mp_instr *ii = instr_by_id[id];
      if (ii == NULL)
         continue;
      f[id].known = 1;
      f[id].loc = ii->loc;
      f[id].var = ii->lc ? ii->lc_var : UINT32_MAX;
      f[id].iaddr = ii->iaddr;
      f[id].fn = ii->fn;
      f[id].loop = ii->no_loops ? MP_LOOP_NONE
                                : mp_loops_innermost(mp_g_loops, ii->fn, ii->iaddr);
      /* With --sample=lines and collection off at times, the inline
         counts, which count throughout, are not the collected
         accesses. */
      if (mp_g_sample_sets == NULL || !mp_collection_was_partial())
         f[id].executed = ii->executed[0] + ii->executed[1];
   }
   *n_out = n_instr_ids;
   return f;
}

/* The name of the field at 'offset' of var's structures, from the debug
   info (--read-var-info=yes): Valgrind describes an address inside a
   global or local as inside "a[0].b": the text after the last '.' of
   that path names the field.  A heap block has no type there: its
   site's source line and the structure's definition name it. */
char *mp_loopnest_field_name(uint32_t var, uint64_t offset, uint64_t size)
{
   HChar *what, *file, *dot, *field = NULL;
   UInt line;
   if (mp_vars_get(mp_g_vars, var)->kind == MP_VAR_HEAP)
      return mp_sites_field_name(var, offset, size);
   if (var >= n_first_block || first_block[var] == 0
       || !mp_registry_describe(first_block[var] + offset, &what, &file, &line))
      return NULL;
   dot = VG_(strrchr)(what, '.');
   if (dot && dot[1])
      field = VG_(strdup)("mp.loopnest.field", dot + 1);
   VG_(free)(what);
   if (file)
      VG_(free)(file);
   return field;
}
