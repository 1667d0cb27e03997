/*--------------------------------------------------------------------*/
/*--- memprof: VEX IR instrumentation and the access helper.       ---*/
/*---                                              mp_instrument.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Every guest data access becomes a call to mp_on_access(ii, addr,
   size|kind), where ii is the accessing instruction's record
   (mp_instr, made by mp_instrs.c at its first translation).  Covered:
   loads (WrTmp of Iex_Load), stores, guarded loads and stores
   (LoadG/StoreG, the call is guarded the same way), CAS (single and
   double: a load and a store of the whole width), LL/SC (the LL a
   load, the SC a store) and dirty helpers that declare memory effects
   (mFx/mAddr/mSize: a load, a store, or both for Ifx_Modify).  A
   read-modify-write instruction is two accesses, a load then a store,
   as it is to the memory system.

   The access path is mp_on_access below, one function once inlined:
   it resolves the access (variable, counts record, thread, core) into
   a context, ends the instruction's stride runs if it moved to another
   variable, and hands the context to the analyses of the list in
   mp_analyses.h, whose mp_analyses_prefetch and mp_analyses_access
   call each analysis's step (mp_an_<name>_access, in mp_an_<name>.h)
   by name, in the list's order.  The instrumenter also keeps the
   sampling schedule, which opens and closes the windows and tells the
   list when one opens (mp_analyses_window_start).

   The instructions of Valgrind's preloaded objects (vgpreload_*.so:
   memprof's allocation wrappers, the core's) are not instrumented:
   their accesses are the tool's bookkeeping, not the program's.  The
   allocator they wrap is the program's, and is.

   Collection: on or off for the whole process through
   --collect-atstart and MEMPROF_START/STOP; with --toggle-collect, a
   thread collects only while it is inside a matching function (between
   entry and return, detected as the thread's SP rising above its SP at
   entry, which also covers longjmp out of it) and collection is on.

   Threads are numbered 1, 2, ... in creation order: Valgrind gives a
   finished thread's id to the next one, and counting ids would merge
   threads that ran one after the other.
*/
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_seqmatch.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"

#include "mp_analyses.h"
#include "mp_clo.h"
#include "mp_hierarchy.h"
#include "mp_loopnest.h"
#include "mp_threads.h"
#include "mp_tool.h"
#include "mp_vgcompat.h"          /* MP_VG_OFFSET_RET: a returned value */
#include "mp_window.h"

/*------------------------------------------------------------*/
/*--- Collection state                                     ---*/
/*------------------------------------------------------------*/

#define MAX_TOGGLE_DEPTH 256

typedef struct {
   UInt depth;                        /* toggled functions entered */
   Addr entry_sp[MAX_TOGGLE_DEPTH];   /* SP at each entry, innermost last */
} toggle_state;

static Bool          client_on;       /* --collect-atstart, START/STOP */
static Bool          ever_off;        /* collection was off at some point */

/* Guest instructions executed (outside Valgrind's preloaded objects), for
   misses per thousand instructions.  Incremented by inline IR at each
   instruction, no helper call: exact and cheap. */
ULong mp_g_instructions;
/* --sample=periodic|windows: the schedule, and the word the translated
   code tests before every helper call (1 while a window is open and
   collection is on).  Read inline, so a gap costs a load per superblock
   and a not-taken branch per access, no call.
   --sample=detail (detailed): the same schedule opens and closes the
   windows of the detail analyses alone (mp_analyses.h); every access
   still reaches the helper, and mp_g_detailing is the word the loop
   hooks test instead (it and mp_g_detail_weight are the list's,
   mp_an_ctx.h: the schedule here sets them). */
static mp_window     schedule;
static Bool          windowed;
static Bool          detailed;
/* The loop hooks run in the windows alone: with --sample=periodic|
   windows, and with --sample=lines, whose gaps must cost little more
   than --tool=none (following the loops there costs a call-heavy
   program twice that). */
static Bool          loops_windowed;
static UWord         analysing = 1;
static toggle_state *toggles;         /* indexed by ThreadId */

/* What an access seen by the detail analyses stands for: 1 in the
   first window (which sees every access), P/W (rounded) in the later
   ones, which see one instruction in P/W. */
static UInt detail_weight(void)
{
   ULong w;
   if (!detailed || schedule.windows < 2)
      return 1;
   w = (mp_clo_window_gap + mp_clo_window_len / 2) / mp_clo_window_len;
   return w > 1 ? (UInt)w : 1;
}

static void update_analysing(void)
{
   analysing = client_on && (!windowed || schedule.in_window);
   mp_g_detailing = analysing && (!detailed || schedule.in_window);
   mp_g_carrying = analysing && (!detailed || !loops_windowed || schedule.in_window);
   mp_g_detail_weight = detail_weight();
}

void mp_set_collecting(Bool on)
{
   client_on = on;
   ever_off |= !on;
   update_analysing();
}

/* Called from the translated code once the instruction count reaches
   the schedule's next boundary.  A window starting finds the analyses'
   state as the gap left it, unobserved (the threads' loop nests): their
   window_start steps run. */
static VG_REGPARM(0) void mp_window_boundary(void)
{
   Bool begins = mp_window_switch(&schedule, mp_g_instructions);
   update_analysing();
   if (begins)
      mp_analyses_window_start(detailed && !loops_windowed);
}

ULong mp_instructions_observed(void)
{
   return windowed ? mp_window_analysed(&schedule, mp_g_instructions) : mp_g_instructions;
}

Bool mp_sampling_windows(ULong *analysed, ULong *windows)
{
   if (!windowed && !detailed)
      return False;
   *analysed = mp_window_analysed(&schedule, mp_g_instructions);
   *windows = schedule.windows;
   return True;
}

Bool mp_collection_was_partial(void)
{
   return ever_off || toggles != NULL;
}
Bool mp_is_collecting(void) { return client_on; }

static inline Bool collecting(ThreadId tid)
{
   return client_on && (toggles == NULL || toggles[tid].depth > 0);
}

void mp_thread_created(ThreadId child)
{
   mp_analyses_thread_start(mp_threads_number(child));
   if (toggles)
      toggles[child].depth = 0;
}

static VG_REGPARM(0) void mp_toggle_enter(void)
{
   ThreadId tid = VG_(get_running_tid)();
   toggle_state *ts = &toggles[tid];
   /* Deeper recursion than this only loses the inner exits, which the
      outermost exit covers anyway. */
   if (ts->depth < MAX_TOGGLE_DEPTH)
      ts->entry_sp[ts->depth++] = VG_(get_SP)(tid);
}

static VG_REGPARM(0) void mp_toggle_check(void)
{
   ThreadId tid = VG_(get_running_tid)();
   toggle_state *ts = &toggles[tid];
   if (ts->depth == 0)
      return;
   {
      Addr sp = VG_(get_SP)(tid);
      while (ts->depth > 0 && sp > ts->entry_sp[ts->depth - 1])
         ts->depth--;
   }
}

static Bool fn_matches_toggle(const HChar *fn)
{
   Int i;
   for (i = 0; i < mp_clo_n_toggle_collect; i++)
      if (VG_(string_match)(mp_clo_toggle_collect[i], fn))
         return True;
   return False;
}

/*------------------------------------------------------------*/
/*--- The access helper: the hot path                      ---*/
/*------------------------------------------------------------*/

#define MP_WRITE_BIT ((UWord)1 << 63)

/* One access, top to bottom:
   1. whether the thread collects (--toggle-collect, MEMPROF_STOP);
   2. the variable: the instruction's cached resolution, else the
      registry (mp_registry_resolve, which refills the cache);
   3. the (variable, line) counts record, kept in the instruction while
      it stays on one variable; when it moves to another, its stride
      runs end first, counted in the old variable's record
      (mp_an_stride_end_runs: no stride from one variable to another),
      and the counts it held for the old variable go to their records
      (mp_vars_flush_held);
   4. the context every analysis reads (mp_an_ctx.h);
   5. for a scattered instruction, the list's prefetch step
      (mp_analyses_prefetch in mp_analyses.h);
   6. the list's access step (mp_analyses_access in mp_analyses.h),
      which calls every analysis's mp_an_<name>_access by name, in the
      list's order.
   Every step is static inline: the whole path is this one function. */
static VG_REGPARM(3) void mp_on_access(mp_instr *ii, Addr a, UWord size_kind)
{
   ThreadId tid = VG_(get_running_tid)();
   mp_event e;
   mp_an_ctx c;

   if (!collecting(tid))
      return;
   e.addr = a;
   e.size = (UInt)(size_kind & ~MP_WRITE_BIT);
   e.is_write = (size_kind & MP_WRITE_BIT) != 0;
   e.tid = mp_g_thread_serial[tid];
   e.loc = ii->loc;
   e.iaddr = ii->iaddr;
   if (mp_instr_cache_answers(ii, a, tid))
      e.var = ii->cache_var;
   else
      e.var = mp_registry_resolve(tid, a, ii);
   if (ii->lc != NULL && ii->lc_var != e.var)
      ii->multi_var = True;
   if (ii->lc == NULL || ii->lc_var != e.var) {
      if (mp_an_stride_on())
         mp_an_stride_end_runs(ii, MP_AN_STRIDE_COUNT);
      if (ii->lc != NULL)
         mp_vars_flush_held(mp_g_vars, ii->lc_var, ii->lc, &ii->held);
      ii->lc = mp_vars_line_counts(mp_g_vars, e.var, ii->loc);
      ii->lc_var = e.var;
      ii->lc_id = ii->lc->id;
      if (mp_g_stream_on)
         mp_helper_line_record(ii->lc);
   }
   c.e = &e;
   c.ii = ii;
   c.lc = ii->lc;
   c.tid = tid;
   c.core = mp_g_thread_core[tid];
   c.sampled = mp_g_sample_sets == NULL || mp_sampled_access(a, e.size);
   if (mp_g_sample_sets == NULL) {
      ii->executed[e.is_write]++;    /* inline with --sample=lines */
   } else {
      if (c.sampled)
         ii->in_sample[e.is_write]++;
      if (mp_g_detailing) {
         ii->in_window[e.is_write]++;
         ii->lc->in_window[e.is_write]++;
      }
   }
   c.served = 0;
   c.cycles = 0;
   c.in_footprint = False;
   c.start_known = False;
   /* An instruction whose last access missed the simulated L2 likely
      misses the host's caches in the analyses' tables too: their reads
      are started now, and done after the cache simulation, so that
      their misses overlap with its own. */
   if (ii->scattered)
      mp_analyses_prefetch(&c);
   mp_analyses_access(&c);
}

/*------------------------------------------------------------*/
/*--- Instrumentation                                      ---*/
/*------------------------------------------------------------*/

/* True if iaddr belongs to one of Valgrind's preloaded objects. */
static Bool in_vgpreload(Addr iaddr)
{
   const HChar *obj = mp_code_object(iaddr);
   return obj && VG_(strstr)(obj, "/vgpreload_") != NULL;
}

/* The guest layout of the superblock being instrumented. */
static const VexGuestLayout *cur_layout;

/* Declares that the helper reads the guest's SP, FP (and on arm64 LR)
   and sets its IP: attributing a stack address unwinds the stack from
   them, so iropt must not sink their updates past the call (it would,
   for a helper declaring no guest-state effects); the IP, which VEX
   leaves stale inside a superblock, is set to the accessing
   instruction's. */
static void declare_unwind_regs(IRDirty *d)
{
   static const Int regs[] = MP_VG_UNWIND_REGS;
   UInt i, n = 0;
   VG_(memset)(&d->fxState, 0, sizeof(d->fxState));
   d->fxState[n].fx = Ifx_Read;
   d->fxState[n].offset = cur_layout->offset_SP;
   d->fxState[n++].size = cur_layout->sizeof_SP;
   for (i = 0; i < sizeof regs / sizeof regs[0]; i++) {
      d->fxState[n].fx = Ifx_Read;
      d->fxState[n].offset = regs[i];
      d->fxState[n++].size = 8;
   }
   d->fxState[n].fx = Ifx_Modify;
   d->fxState[n].offset = cur_layout->offset_IP;
   d->fxState[n++].size = cur_layout->sizeof_IP;
   d->nFxState = n;
}

/* With sampling windows, the superblock's copy of 'analysing' as an
   Ity_I1 temporary, tested by every helper call; when detailed, by the
   loop hooks' calls alone, which follow the loops in the gaps too (so
   that the loops' counters, and the access formulas fitted on them, are
   exact across windows).  IRTemp_INVALID when every call runs
   unconditionally. */
static IRTemp window_open;

/* With --sample=lines and detail analyses, whether a detail window is
   open (mp_g_detailing), read once per superblock after the schedule's
   check: IRTemp_INVALID otherwise. */
static IRTemp detail_open;

/* guard AND the window being open, as an atom (NULL: unconditional);
   with --sample=lines, the detail window. */
static IRExpr *window_guard(IRSB *sb, IRExpr *guard)
{
   IRTemp both, open = detail_open != IRTemp_INVALID ? detail_open : window_open;
   if (open == IRTemp_INVALID)
      return guard;
   if (guard == NULL)
      return IRExpr_RdTmp(open);
   both = newIRTemp(sb->tyenv, Ity_I1);
   addStmtToIRSB(sb, IRStmt_WrTmp(both, IRExpr_Binop(Iop_And1, guard,
                                                     IRExpr_RdTmp(open))));
   return IRExpr_RdTmp(both);
}

static IRExpr *both(IRSB *sb, IRExpr *a, IRExpr *b);

/* The byte of the sample's table for the line of addr + off, as IR. */
static IRExpr *sampled_byte(IRSB *sb, IRExpr *addr, Int off)
{
   IRTemp at = newIRTemp(sb->tyenv, Ity_I64), line = newIRTemp(sb->tyenv, Ity_I64);
   IRTemp set = newIRTemp(sb->tyenv, Ity_I64), slot = newIRTemp(sb->tyenv, Ity_I64);
   IRTemp byte = newIRTemp(sb->tyenv, Ity_I8);
   addStmtToIRSB(sb, IRStmt_WrTmp(at, off == 0 ? addr
                  : IRExpr_Binop(Iop_Add64, addr, IRExpr_Const(IRConst_U64((ULong)off)))));
   addStmtToIRSB(sb, IRStmt_WrTmp(line, IRExpr_Binop(Iop_Shr64, IRExpr_RdTmp(at),
                  IRExpr_Const(IRConst_U8((UChar)mp_g_sample_line_shift)))));
   addStmtToIRSB(sb, IRStmt_WrTmp(set, IRExpr_Binop(Iop_And64, IRExpr_RdTmp(line),
                  IRExpr_Const(IRConst_U64(mp_g_sample_set_mask)))));
   addStmtToIRSB(sb, IRStmt_WrTmp(slot, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(set),
                  mkIRExpr_HWord((HWord)mp_g_sample_sets))));
   addStmtToIRSB(sb, IRStmt_WrTmp(byte, IRExpr_Load(Iend_LE, Ity_I8, IRExpr_RdTmp(slot))));
   return IRExpr_RdTmp(byte);
}

/* --sample=lines: guard AND (a line of the access is in the sample OR a
   detail window is open), as an atom.  The test runs inline: an access
   outside the sample, between windows, costs a few instructions and no
   call.  Its last line is looked up too only for an access wider than
   8 bytes: a narrower one straddles lines only when misaligned, which
   compilers avoid, and the look-up would cost every access. */
static IRExpr *sample_guard(IRSB *sb, IRExpr *addr, Int size, IRExpr *guard)
{
   IRTemp any = newIRTemp(sb->tyenv, Ity_I8), in = newIRTemp(sb->tyenv, Ity_I1);
   IRExpr *first = sampled_byte(sb, addr, 0);
   addStmtToIRSB(sb, IRStmt_WrTmp(any, size > 8
                  ? IRExpr_Binop(Iop_Or8, first, sampled_byte(sb, addr, size - 1)) : first));
   addStmtToIRSB(sb, IRStmt_WrTmp(in, IRExpr_Binop(Iop_CmpNE8, IRExpr_RdTmp(any),
                                                   IRExpr_Const(IRConst_U8(0)))));
   if (detail_open != IRTemp_INVALID) {
      IRTemp either = newIRTemp(sb->tyenv, Ity_I1);
      addStmtToIRSB(sb, IRStmt_WrTmp(either, IRExpr_Binop(Iop_Or1, IRExpr_RdTmp(in),
                                                          IRExpr_RdTmp(detail_open))));
      in = either;
   }
   if (guard == NULL)
      return IRExpr_RdTmp(in);
   return both(sb, guard, IRExpr_RdTmp(in));
}

/* *counter += inc (an atom), as IR: a load, an add and a store, as
   Cachegrind's counters. */
static void add_to_counter(IRSB *sb, ULong *counter, IRExpr *inc)
{
   IRTemp old = newIRTemp(sb->tyenv, Ity_I64), new = newIRTemp(sb->tyenv, Ity_I64);
   IRExpr *at = mkIRExpr_HWord((HWord)counter);
   addStmtToIRSB(sb, IRStmt_WrTmp(old, IRExpr_Load(Iend_LE, Ity_I64, at)));
   addStmtToIRSB(sb, IRStmt_WrTmp(new, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(old), inc)));
   addStmtToIRSB(sb, IRStmt_Store(Iend_LE, at, IRExpr_RdTmp(new)));
}

/* ii->executed[is_write] += 1 when guard holds, as IR: for a
   conditional access, which its segment's count cannot stand for. */
static void add_execution_count(IRSB *sb, mp_instr *ii, Bool is_write, Int size,
                                IRExpr *guard)
{
   IRTemp inc = newIRTemp(sb->tyenv, Ity_I64);
   ii->access_size[is_write ? 1 : 0] = (UChar)(size > 255 ? 255 : size);
   addStmtToIRSB(sb, IRStmt_WrTmp(inc, IRExpr_ITE(guard, IRExpr_Const(IRConst_U64(1)),
                                                   IRExpr_Const(IRConst_U64(0)))));
   add_to_counter(sb, &ii->executed[is_write ? 1 : 0], IRExpr_RdTmp(inc));
}

/* --sample=lines: the segment of the superblock being instrumented
   whose unconditional accesses are counted together (mp_segment), or
   NULL before its first one. */
static mp_segment *segment;

/* The segment's count, at its end (before a side exit, or at the
   superblock's end): every path past this point made its accesses. */
static void close_segment(IRSB *sb)
{
   if (segment == NULL)
      return;
   add_to_counter(sb, mp_segment_counter(segment), IRExpr_Const(IRConst_U64(1)));
   segment = NULL;
}

static Bool always(const IRExpr *guard)
{
   return guard == NULL || (guard->tag == Iex_Const && guard->Iex.Const.con->tag == Ico_U1
                            && guard->Iex.Const.con->Ico.U1);
}

static void add_access(IRSB *sb, mp_instr *ii, IRExpr *addr, Int size,
                       Bool is_write, IRExpr *guard)
{
   UWord size_kind = (UWord)size | (is_write ? MP_WRITE_BIT : 0);
   IRExpr **args;
   IRDirty *d;
   tl_assert(ii != NULL);
   tl_assert(size > 0);
   tl_assert(isIRAtom(addr));
   if (mp_g_sample_sets) {
      /* An unconditional access is counted with its segment, a guarded
         one (a conditional load or store) alone. */
      if (always(guard)) {
         if (segment == NULL)
            segment = mp_segment_new();
         mp_segment_add(segment, ii, is_write);
         ii->access_size[is_write ? 1 : 0] = (UChar)(size > 255 ? 255 : size);
      } else
         add_execution_count(sb, ii, is_write, size, guard);
      guard = sample_guard(sb, addr, size, guard);
   } else if (!detailed)
      guard = window_guard(sb, guard);
   args = mkIRExprVec_3(mkIRExpr_HWord((HWord)ii), addr,
                        mkIRExpr_HWord(size_kind));
   d = unsafeIRDirty_0_N(3, "mp_on_access", VG_(fnptr_to_fnentry)(mp_on_access),
                         args);
   if (guard)
      d->guard = guard;
   declare_unwind_regs(d);
   addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/* mp_g_instructions += n, as IR.  Emitted before each side exit and at
   the end of the superblock for the instructions since the last one,
   so every path out counts each executed instruction once, for one
   load-add-store per exit instead of one per instruction. */
static void add_instruction_count(IRSB *sb, UInt *pending)
{
   if (*pending == 0)
      return;
   add_to_counter(sb, &mp_g_instructions, IRExpr_Const(IRConst_U64(*pending)));
   *pending = 0;
}

/* At a superblock's start, with sampling windows: crosses the schedule's
   boundary if the instruction count reached it, then reads 'analysing'
   into window_open. */
static void add_window_check(IRSB *sb)
{
   IRTemp now = newIRTemp(sb->tyenv, Ity_I64);
   IRTemp next = newIRTemp(sb->tyenv, Ity_I64);
   IRTemp due = newIRTemp(sb->tyenv, Ity_I1);
   IRTemp flag = newIRTemp(sb->tyenv, Ity_I64);
   IRDirty *d;
   addStmtToIRSB(sb, IRStmt_WrTmp(now, IRExpr_Load(Iend_LE, Ity_I64,
                                  mkIRExpr_HWord((HWord)&mp_g_instructions))));
   addStmtToIRSB(sb, IRStmt_WrTmp(next, IRExpr_Load(Iend_LE, Ity_I64,
                                  mkIRExpr_HWord((HWord)&schedule.next))));
   addStmtToIRSB(sb, IRStmt_WrTmp(due, IRExpr_Binop(Iop_CmpLE64U, IRExpr_RdTmp(next),
                                                    IRExpr_RdTmp(now))));
   d = unsafeIRDirty_0_N(0, "mp_window_boundary",
                         VG_(fnptr_to_fnentry)(mp_window_boundary), mkIRExprVec_0());
   d->guard = IRExpr_RdTmp(due);
   /* The helper writes 'analysing', read just below. */
   d->mFx = Ifx_Write;
   d->mAddr = mkIRExpr_HWord((HWord)&analysing);
   d->mSize = sizeof analysing;
   addStmtToIRSB(sb, IRStmt_Dirty(d));
   addStmtToIRSB(sb, IRStmt_WrTmp(flag, IRExpr_Load(Iend_LE, Ity_I64,
                                  d->mAddr)));
   window_open = newIRTemp(sb->tyenv, Ity_I1);
   addStmtToIRSB(sb, IRStmt_WrTmp(window_open,
                                  IRExpr_Binop(Iop_CmpNE64, IRExpr_RdTmp(flag),
                                               IRExpr_Const(IRConst_U64(0)))));
   if (mp_g_sample_sets) {
      IRTemp detail = newIRTemp(sb->tyenv, Ity_I64);
      addStmtToIRSB(sb, IRStmt_WrTmp(detail, IRExpr_Load(Iend_LE, Ity_I64,
                                     mkIRExpr_HWord((HWord)&mp_g_detailing))));
      detail_open = newIRTemp(sb->tyenv, Ity_I1);
      addStmtToIRSB(sb, IRStmt_WrTmp(detail_open,
                                     IRExpr_Binop(Iop_CmpNE64, IRExpr_RdTmp(detail),
                                                  IRExpr_Const(IRConst_U64(0)))));
   }
}

static void add_call0(IRSB *sb, const HChar *name, void *fn)
{
   IRDirty *d = unsafeIRDirty_0_N(0, name, VG_(fnptr_to_fnentry)(fn),
                                  mkIRExprVec_0());
   addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/* The guest's stack pointer at this point of the superblock, in a
   temporary (helper arguments must be atoms). */
static IRExpr *guest_sp(IRSB *sb)
{
   IRTemp t = newIRTemp(sb->tyenv, Ity_I64);
   addStmtToIRSB(sb, IRStmt_WrTmp(t, IRExpr_Get(cur_layout->offset_SP, Ity_I64)));
   return IRExpr_RdTmp(t);
}

/* A call site whose callee may be an allocation wrapper (mp_sites.c):
   what it returned, at the return address, in and out of sampling
   windows, while its flag says the verdict is still open. */
static void add_return_watch(IRSB *sb, Addr ia, const UInt *watching)
{
   IRTemp ret = newIRTemp(sb->tyenv, Ity_I64);
   IRTemp flag = newIRTemp(sb->tyenv, Ity_I32);
   IRTemp open = newIRTemp(sb->tyenv, Ity_I1);
   IRDirty *d;
   addStmtToIRSB(sb, IRStmt_WrTmp(ret, IRExpr_Get(MP_VG_OFFSET_RET, Ity_I64)));
   addStmtToIRSB(sb, IRStmt_WrTmp(flag, IRExpr_Load(Iend_LE, Ity_I32,
                                  mkIRExpr_HWord((HWord)watching))));
   addStmtToIRSB(sb, IRStmt_WrTmp(open, IRExpr_Binop(Iop_CmpNE32, IRExpr_RdTmp(flag),
                                                     IRExpr_Const(IRConst_U32(0)))));
   d = unsafeIRDirty_0_N(3, "mp_sites_return", VG_(fnptr_to_fnentry)(mp_sites_return),
                         mkIRExprVec_3(mkIRExpr_HWord(ia), IRExpr_RdTmp(ret),
                                       guest_sp(sb)));
   d->guard = IRExpr_RdTmp(open);
   addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/*------------------------------------------------------------*/
/*--- The loop hooks, with their fast path                 ---*/
/*------------------------------------------------------------*/

/* The loop hooks are called at every superblock start, back edge and
   return, in the sampling gaps too: in a loop's body repeated they
   change nothing but the iteration counts.  So the generated code
   first reads what the loop engine promised after its last call
   (mp_loops_settled) and calls only where that does not answer; a back
   edge of the loop the thread sits in is counted inline, as Cachegrind
   counts (through the promised counters' addresses, or into loop_sink
   when the call is the one to make).  Each call declares that it
   rewrites the promise, so that VEX reads it again after the call. */
static ULong loop_sink;

static IRExpr *load_settled(IRSB *sb, IRType ty, const void *field)
{
   IRTemp t = newIRTemp(sb->tyenv, ty);
   addStmtToIRSB(sb, IRStmt_WrTmp(t, IRExpr_Load(Iend_LE, ty, mkIRExpr_HWord((HWord)field))));
   return IRExpr_RdTmp(t);
}

static IRExpr *bit(IRSB *sb, IRExpr *e)
{
   IRTemp t = newIRTemp(sb->tyenv, Ity_I1);
   addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

static IRExpr *both(IRSB *sb, IRExpr *a, IRExpr *b)
{
   return a == NULL ? b : bit(sb, IRExpr_Binop(Iop_And1, a, b));
}

static void add_loop_call(IRSB *sb, const HChar *name, void *fn, Int regparms,
                          IRExpr **args, IRExpr *guard)
{
   const mp_loops_settled *st = mp_loopnest_settled();
   IRDirty *d = unsafeIRDirty_0_N(regparms, name, VG_(fnptr_to_fnentry)(fn), args);
   d->guard = window_guard(sb, guard);
   if (d->guard == NULL)
      d->guard = IRExpr_Const(IRConst_U1(True));
   d->mFx = Ifx_Modify;
   d->mAddr = mkIRExpr_HWord((HWord)st);
   d->mSize = sizeof *st;
   addStmtToIRSB(sb, IRStmt_Dirty(d));
}

static IRExpr *cmp32(IRSB *sb, IROp op, const UInt *field, UInt value)
{
   return bit(sb, IRExpr_Binop(op, load_settled(sb, Ity_I32, field),
                               IRExpr_Const(IRConst_U32(value))));
}

/* mp_loop_at for ii at ia, unless the promise says it would change
   nothing: with the stack pointer as at the last call, a block in the
   innermost loop the thread sits in, or, at an address in no loop of
   its function (while that function's loops are as they are now), of a
   function whose loops the thread is not in (R2: 93% of the calls on
   xz and gzip).  Where ia lies in a loop with loops inside, the check
   would mostly fail and only add to the call. */
static void add_loop_at(IRSB *sb, mp_instr *ii, Addr ia)
{
   const mp_loops_settled *st = mp_loopnest_settled();
   IRExpr *sp = guest_sp(sb), *stays;
   mp_block_place place = mp_loopnest_block_place(ii->fn, ia);
   /* With --sample=periodic|windows the hooks run in the windows
      alone, 1% of the run: the checks would cost more in the gaps than
      they save in the windows. */
   if (place == MP_BLOCK_OUTER_LOOP || loops_windowed) {
      add_loop_call(sb, "mp_loop_at", mp_loop_at, 2,
                    mkIRExprVec_2(mkIRExpr_HWord((HWord)ii), sp), NULL);
      return;
   }
   stays = bit(sb, IRExpr_Binop(Iop_CmpEQ64, load_settled(sb, Ity_I64, &st->sp), sp));
   if (place == MP_BLOCK_LEAF_LOOP) {
      stays = both(sb, stays, cmp32(sb, Iop_CmpEQ32, &st->fn, ii->fn));
      stays = both(sb, stays, bit(sb, IRExpr_Binop(Iop_CmpLE64U,
                                                   load_settled(sb, Ity_I64, &st->head),
                                                   IRExpr_Const(IRConst_U64(ia)))));
      stays = both(sb, stays, bit(sb, IRExpr_Binop(Iop_CmpLE64U,
                                                   IRExpr_Const(IRConst_U64(ia)),
                                                   load_settled(sb, Ity_I64, &st->tail))));
   } else {
      const UInt *changes = mp_loopnest_fn_loops_changes(ii->fn);
      stays = both(sb, stays, cmp32(sb, Iop_CmpNE32, &st->valid, 0));
      stays = both(sb, stays, cmp32(sb, Iop_CmpNE32, &st->fn, ii->fn));
      stays = both(sb, stays, cmp32(sb, Iop_CmpEQ32, changes, *changes));
   }
   add_loop_call(sb, "mp_loop_at", mp_loop_at, 2,
                 mkIRExprVec_2(mkIRExpr_HWord((HWord)ii), sp),
                 bit(sb, IRExpr_Unop(Iop_Not1, stays)));
}

/* One more into *counter, the promised counter's address read from
   *field when 'fast', else loop_sink. */
static void count_inline(IRSB *sb, IRExpr *fast, uint64_t *const *field)
{
   IRTemp p = newIRTemp(sb->tyenv, Ity_I64), old = newIRTemp(sb->tyenv, Ity_I64);
   IRTemp new = newIRTemp(sb->tyenv, Ity_I64);
   addStmtToIRSB(sb, IRStmt_WrTmp(p, IRExpr_ITE(fast, load_settled(sb, Ity_I64, field),
                                                mkIRExpr_HWord((HWord)&loop_sink))));
   addStmtToIRSB(sb, IRStmt_WrTmp(old, IRExpr_Load(Iend_LE, Ity_I64, IRExpr_RdTmp(p))));
   addStmtToIRSB(sb, IRStmt_WrTmp(new, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(old),
                                                    IRExpr_Const(IRConst_U64(1)))));
   addStmtToIRSB(sb, IRStmt_Store(Iend_LE, IRExpr_RdTmp(p), IRExpr_RdTmp(new)));
}

/* The jump back of an excursion (mp_loops.h), into loop 'into', taken
   when guard holds: nothing to do while the thread sits in that loop
   and its back edge did not fall through (a rare block left from the
   middle of the body, the common kind); else mp_loop_back_edge. */
static void add_excursion_return(IRSB *sb, UInt loop, UInt into, IRExpr *guard)
{
   const mp_loops_settled *st = mp_loopnest_settled();
   IRExpr *same = cmp32(sb, Iop_CmpEQ32, &st->loop, into), *quiet;
   IRTemp p = newIRTemp(sb->tyenv, Ity_I64), flag = newIRTemp(sb->tyenv, Ity_I32);
   addStmtToIRSB(sb, IRStmt_WrTmp(p, IRExpr_ITE(same, load_settled(sb, Ity_I64,
                                                                   &st->frame_fell_through),
                                                mkIRExpr_HWord((HWord)&loop_sink))));
   addStmtToIRSB(sb, IRStmt_WrTmp(flag, IRExpr_Load(Iend_LE, Ity_I32, IRExpr_RdTmp(p))));
   quiet = both(sb, same, bit(sb, IRExpr_Binop(Iop_CmpEQ32, IRExpr_RdTmp(flag),
                                               IRExpr_Const(IRConst_U32(0)))));
   add_loop_call(sb, "mp_loop_back_edge", mp_loop_back_edge, 1,
                 mkIRExprVec_1(mkIRExpr_HWord(loop)),
                 both(sb, guard, bit(sb, IRExpr_Unop(Iop_Not1, quiet))));
}

/* The back edge of loop taken (when guard holds; NULL: always): counted
   inline when it is the loop the thread sits in, else mp_loop_back_edge. */
static void add_back_edge(IRSB *sb, UInt loop, IRExpr *guard)
{
   const mp_loops_settled *st = mp_loopnest_settled();
   IRExpr *same, *fast;
   UInt into = mp_loops_returns_to(mp_g_loops, loop);
   if (loops_windowed) {     /* as in add_loop_at */
      add_loop_call(sb, "mp_loop_back_edge", mp_loop_back_edge, 1,
                    mkIRExprVec_1(mkIRExpr_HWord(loop)), guard);
      return;
   }
   if (into != MP_LOOP_NONE) {
      add_excursion_return(sb, loop, into, guard);
      return;
   }
   same = cmp32(sb, Iop_CmpEQ32, &st->loop, loop);
   fast = window_guard(sb, both(sb, guard, same));
   count_inline(sb, fast, &st->loop_iterations);
   count_inline(sb, fast, &st->frame_iterations);
   add_loop_call(sb, "mp_loop_back_edge", mp_loop_back_edge, 1,
                 mkIRExprVec_1(mkIRExpr_HWord(loop)),
                 both(sb, guard, bit(sb, IRExpr_Unop(Iop_Not1, same))));
}

/* The back edge of loop not taken, past the exit that takes it: set in
   the promised frame when it is the loop the thread sits in, else
   mp_loop_fell_through (mp_loops.h's excursions). */
static void add_fell_through(IRSB *sb, UInt loop)
{
   const mp_loops_settled *st = mp_loopnest_settled();
   IRExpr *same, *fast;
   IRTemp p;
   if (loops_windowed) {     /* as in add_loop_at */
      add_loop_call(sb, "mp_loop_fell_through", mp_loop_fell_through, 1,
                    mkIRExprVec_1(mkIRExpr_HWord(loop)), NULL);
      return;
   }
   same = cmp32(sb, Iop_CmpEQ32, &st->loop, loop);
   fast = window_guard(sb, same);
   p = newIRTemp(sb->tyenv, Ity_I64);
   addStmtToIRSB(sb, IRStmt_WrTmp(p, IRExpr_ITE(fast, load_settled(sb, Ity_I64,
                                                                   &st->frame_fell_through),
                                                mkIRExpr_HWord((HWord)&loop_sink))));
   addStmtToIRSB(sb, IRStmt_Store(Iend_LE, IRExpr_RdTmp(p), IRExpr_Const(IRConst_U32(1))));
   add_loop_call(sb, "mp_loop_fell_through", mp_loop_fell_through, 1,
                 mkIRExprVec_1(mkIRExpr_HWord(loop)), bit(sb, IRExpr_Unop(Iop_Not1, same)));
}

/* A return from ii's function: mp_loop_return, unless the promise says
   the thread's innermost frame is another function's (or it has none). */
static void add_loop_return(IRSB *sb, const mp_instr *ii)
{
   const mp_loops_settled *st = mp_loopnest_settled();
   IRExpr *unsure, *same;
   if (loops_windowed) {     /* as in add_loop_at */
      add_loop_call(sb, "mp_loop_return", mp_loop_return, 1,
                    mkIRExprVec_1(mkIRExpr_HWord(ii->fn)), NULL);
      return;
   }
   unsure = cmp32(sb, Iop_CmpEQ32, &st->valid, 0);
   same = cmp32(sb, Iop_CmpEQ32, &st->fn, ii->fn);
   add_loop_call(sb, "mp_loop_return", mp_loop_return, 1,
                 mkIRExprVec_1(mkIRExpr_HWord(ii->fn)),
                 bit(sb, IRExpr_Binop(Iop_Or1, unsure, same)));
}

/* The loop whose back edge a jump from ii (at ia) to target is, or
   MP_LOOP_NONE: a backward jump within one function.  A jump to itself
   is a rep-prefixed string instruction, not a loop of the program. */
static UInt back_edge_loop(const mp_instr *ii, Addr ia, Addr target)
{
   const mp_instr *to;
   if (!mp_g_loops || ii == NULL || ii->no_loops || target >= ia)
      return MP_LOOP_NONE;
   to = mp_instrs_get(target);
   if (to->no_loops || to->fn != ii->fn)
      return MP_LOOP_NONE;
   return mp_loopnest_back_edge(ia, target, ii->fn);
}

static Int size_of_loadg(IRLoadGOp cvt)
{
   IRType t_res, t_arg;
   typeOfIRLoadGOp(cvt, &t_res, &t_arg);
   return sizeofIRType(t_arg);
}

/* Adds the access calls for st, which is about to be copied to sbOut.
   Loads are traced before the statement (the address is known then);
   stores too, since tracing does not read the stored value. */
/* The temporary last written to the guest SP by the current instruction
   (IRTemp_INVALID if none): a store to it is a push (push, call). */
static IRTemp sp_tmp;
/* The temporary holding the guest SP's current value in the superblock
   (read by a GET or last PUT), IRTemp_INVALID if unknown; and whether
   the current instruction has loaded from it: with a PUT to the SP
   after, a pop or ret. */
static IRTemp sp_now;
static Bool   loads_at_sp;

static void instrument_stmt(IRSB *sbOut, const IRTypeEnv *tyenv, IRStmt *st,
                            mp_instr *ii)
{
   switch (st->tag) {
   case Ist_Put:
      if (st->Ist.Put.offset == cur_layout->offset_SP) {
         IRTemp t = st->Ist.Put.data->tag == Iex_RdTmp
                    ? st->Ist.Put.data->Iex.RdTmp.tmp : IRTemp_INVALID;
         sp_tmp = t;
         sp_now = t;
         if (loads_at_sp)
            ii->pops = True;
      }
      break;
   case Ist_NoOp: case Ist_IMark: case Ist_AbiHint:
   case Ist_PutI: case Ist_MBE: case Ist_Exit:
      break;
   case Ist_WrTmp: {
      IRExpr *e = st->Ist.WrTmp.data;
      if (e->tag == Iex_Get && e->Iex.Get.offset == cur_layout->offset_SP)
         sp_now = st->Ist.WrTmp.tmp;
      if (e->tag == Iex_Load) {
         if (sp_now != IRTemp_INVALID && e->Iex.Load.addr->tag == Iex_RdTmp
             && e->Iex.Load.addr->Iex.RdTmp.tmp == sp_now)
            loads_at_sp = True;
         add_access(sbOut, ii, e->Iex.Load.addr, sizeofIRType(e->Iex.Load.ty),
                    False, NULL);
      }
      break;
   }
   case Ist_Store:
      if (sp_tmp != IRTemp_INVALID && st->Ist.Store.addr->tag == Iex_RdTmp
          && st->Ist.Store.addr->Iex.RdTmp.tmp == sp_tmp)
         ii->pushes = True;
      add_access(sbOut, ii, st->Ist.Store.addr,
                 sizeofIRType(typeOfIRExpr(tyenv, st->Ist.Store.data)),
                 True, NULL);
      break;
   case Ist_StoreG: {
      IRStoreG *sg = st->Ist.StoreG.details;
      add_access(sbOut, ii, sg->addr,
                 sizeofIRType(typeOfIRExpr(tyenv, sg->data)), True, sg->guard);
      break;
   }
   case Ist_LoadG: {
      IRLoadG *lg = st->Ist.LoadG.details;
      add_access(sbOut, ii, lg->addr, size_of_loadg(lg->cvt), False, lg->guard);
      break;
   }
   case Ist_CAS: {
      IRCAS *cas = st->Ist.CAS.details;
      Int size = sizeofIRType(typeOfIRExpr(tyenv, cas->dataLo));
      if (cas->dataHi != NULL)
         size *= 2;   /* double-width CAS */
      add_access(sbOut, ii, cas->addr, size, False, NULL);
      add_access(sbOut, ii, cas->addr, size, True, NULL);
      break;
   }
   case Ist_LLSC: {
      IRType ty;
      if (st->Ist.LLSC.storedata == NULL) {
         ty = typeOfIRTemp(tyenv, st->Ist.LLSC.result);
         add_access(sbOut, ii, st->Ist.LLSC.addr, sizeofIRType(ty), False, NULL);
      } else {
         ty = typeOfIRExpr(tyenv, st->Ist.LLSC.storedata);
         add_access(sbOut, ii, st->Ist.LLSC.addr, sizeofIRType(ty), True, NULL);
      }
      break;
   }
   case Ist_Dirty: {
      IRDirty *d = st->Ist.Dirty.details;
      if (d->mFx == Ifx_None)
         break;
      tl_assert(d->mAddr != NULL && d->mSize > 0);
      if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
         add_access(sbOut, ii, d->mAddr, d->mSize, False, d->guard);
      if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
         add_access(sbOut, ii, d->mAddr, d->mSize, True, d->guard);
      break;
   }
   default:
      ppIRStmt(st);
      tl_assert2(0, "memprof: unhandled IR statement");
   }
}

/* Registers the superblock's back edges before it is instrumented, so
   that the loop heads inside it are known (mp_loop_at calls there). */
static void find_back_edges(IRSB *sbIn, Int i)
{
   mp_instr *ii = NULL;
   Addr ia = 0;
   if (in_vgpreload(sbIn->stmts[i]->Ist.IMark.addr + sbIn->stmts[i]->Ist.IMark.delta))
      return;
   for (; i < sbIn->stmts_used; i++) {
      IRStmt *st = sbIn->stmts[i];
      if (!st)
         continue;
      if (st->tag == Ist_IMark) {
         ia = st->Ist.IMark.addr + st->Ist.IMark.delta;
         ii = mp_instrs_get(ia);
      } else if (st->tag == Ist_Exit && st->Ist.Exit.jk == Ijk_Boring
                 && st->Ist.Exit.dst->tag == Ico_U64) {
         back_edge_loop(ii, ia, st->Ist.Exit.dst->Ico.U64);
      }
   }
   if (sbIn->jumpkind == Ijk_Boring && sbIn->next->tag == Iex_Const
       && sbIn->next->Iex.Const.con->tag == Ico_U64)
      back_edge_loop(ii, ia, sbIn->next->Iex.Const.con->Ico.U64);
}

IRSB *mp_instrument(VgCallbackClosure *closure, IRSB *sbIn,
                    const VexGuestLayout *layout, const VexGuestExtents *vge,
                    const VexArchInfo *archinfo_host,
                    IRType gWordTy, IRType hWordTy)
{
   IRSB *sbOut;
   Int i;
   Addr cur_ia = 0;
   mp_instr *ii = NULL;
   Bool first_imark = True, skip = False;
   const UInt *watching;
   UInt pending = 0;   /* instructions not yet added to mp_g_instructions */
   UInt exit_loop;     /* the loop whose back edge the last exit takes */

   if (gWordTy != hWordTy)
      VG_(tool_panic)("host/guest word size mismatch");
   cur_layout = layout;
   segment = NULL;
   window_open = IRTemp_INVALID;
   detail_open = IRTemp_INVALID;
   sp_now = IRTemp_INVALID;

   sbOut = deepCopyIRSBExceptStmts(sbIn);
   i = 0;
   while (i < sbIn->stmts_used && sbIn->stmts[i]->tag != Ist_IMark) {
      addStmtToIRSB(sbOut, sbIn->stmts[i]);
      i++;
   }
   if (toggles)
      add_call0(sbOut, "mp_toggle_check", mp_toggle_check);
   if (mp_g_loops)
      find_back_edges(sbIn, i);

   for (; i < sbIn->stmts_used; i++) {
      IRStmt *st = sbIn->stmts[i];
      if (!st || st->tag == Ist_NoOp)
         continue;
      if (st->tag == Ist_IMark) {
         Addr ia = st->Ist.IMark.addr + st->Ist.IMark.delta;
         /* A superblock never spans objects: decide once. */
         if (first_imark)
            skip = in_vgpreload(ia);
         ii = skip ? NULL : mp_instrs_get(ia);
         cur_ia = ia;
         sp_tmp = IRTemp_INVALID;
         loads_at_sp = False;
         addStmtToIRSB(sbOut, st);
         if (first_imark && !skip && (windowed || detailed))
            add_window_check(sbOut);
         if (!skip && mp_g_loops) {
            mp_loopnest_note_line(ii->fn, ia);
            /* Where the thread is, at the superblock's start and at
               each loop head inside it (a loop entered by falling into
               its head). */
            if (first_imark || mp_loopnest_is_head(ii->fn, ia))
               add_loop_at(sbOut, ii, ia);
         }
         if ((watching = mp_sites_watching(ia)) != NULL)
            add_return_watch(sbOut, ia, watching);
         if (!skip)
            pending++;
         if (toggles) {
            const HChar *fn;
            if (VG_(get_fnname_if_entry)(VG_(current_DiEpoch)(), ia, &fn)
                && fn_matches_toggle(fn))
               add_call0(sbOut, "mp_toggle_enter", mp_toggle_enter);
         }
         first_imark = False;
         continue;
      }
      tl_assert(!first_imark);
      if (!skip)
         instrument_stmt(sbOut, sbIn->tyenv, st, ii);
      exit_loop = MP_LOOP_NONE;
      if (!skip && st->tag == Ist_Exit && st->Ist.Exit.jk == Ijk_Boring
          && st->Ist.Exit.dst->tag == Ico_U64) {
         exit_loop = back_edge_loop(ii, cur_ia, st->Ist.Exit.dst->Ico.U64);
         if (exit_loop != MP_LOOP_NONE)
            add_back_edge(sbOut, exit_loop, st->Ist.Exit.guard);
      }
      if (st->tag == Ist_Exit) {
         add_instruction_count(sbOut, &pending);
         close_segment(sbOut);
      }
      addStmtToIRSB(sbOut, st);
      /* past the exit: the back edge was not taken (mp_loops.h's
         excursions); a loop's exit, mostly, so seldom run */
      if (exit_loop != MP_LOOP_NONE)
         add_fell_through(sbOut, exit_loop);
   }
   add_instruction_count(sbOut, &pending);
   close_segment(sbOut);
   if (!skip && mp_g_loops && ii != NULL) {
      if (sbIn->jumpkind == Ijk_Boring && sbIn->next->tag == Iex_Const
          && sbIn->next->Iex.Const.con->tag == Ico_U64) {
         UInt loop = back_edge_loop(ii, cur_ia, sbIn->next->Iex.Const.con->Ico.U64);
         if (loop != MP_LOOP_NONE)
            add_back_edge(sbOut, loop, NULL);
      } else if (sbIn->jumpkind == Ijk_Ret) {
         add_loop_return(sbOut, ii);
      }
   }
   return sbOut;
}

static void start_schedule(void)
{
   if (windowed || detailed)
      mp_window_init(&schedule, mp_clo_sample_mode != MP_SAMPLE_WINDOWS
                                ? MP_WINDOW_PERIODIC : MP_WINDOW_FIBONACCI,
                     mp_clo_window_len, mp_clo_window_gap);
   if (detailed)
      mp_window_set_first(&schedule, mp_clo_window_first);
   update_analysing();
}

void mp_instrument_fork_child(void)
{
   mp_g_instructions = 0;
   start_schedule();
}

void mp_instrument_init(void)
{
   mp_instrs_init();
   mp_threads_init();
   mp_thread_created(1);   /* the main thread, created before any hook */
   client_on = mp_clo_collect_atstart;
   ever_off = !client_on;
   if (mp_clo_n_toggle_collect > 0)
      toggles = VG_(calloc)("mp.toggles", VG_N_THREADS + 1, sizeof(toggle_state));
   windowed = mp_clo_sample_mode == MP_SAMPLE_PERIODIC
              || mp_clo_sample_mode == MP_SAMPLE_WINDOWS;
   /* Without a detail analysis on, the schedule would sample nothing. */
   detailed = (mp_clo_sample_mode == MP_SAMPLE_DETAIL || mp_clo_sample_mode == MP_SAMPLE_LINES)
              && (mp_g_stride != NULL || mp_g_loops != NULL);
   loops_windowed = windowed || (detailed && mp_clo_sample_mode == MP_SAMPLE_LINES);
   start_schedule();
}
