/*--------------------------------------------------------------------*/
/*--- memprof: loops found from backward branches.       mp_loops.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The loop nest of the guest program, learnt from its machine code, and
   which loops each thread is executing (MACPO 5.2 counts
   streams per loop, MTL writes access formulas over loop counters).

   Static part.  The adapter reports every backward branch it instruments
   (target <= branch, both in one function).  A loop is the address range
   [head, tail] of one function, head = the branch target, tail = the
   highest branch back to that head (several back edges to one head make
   one loop).  Loops nest by range containment: the parent of a loop is
   the smallest loop of the same function whose range contains it.  The
   forest does not depend on the order in which back edges are found.

   Excursions.  A compiler places a loop's rarely taken blocks past its
   back edge (gcc -O2's block reordering); such a block ends with a jump
   back into the loop's body.  That jump is backward, but no loop: a
   back edge from past the tail of a loop P into P's body (P.head <
   target <= P.tail < branch) is an excursion of P, and P's range (with
   its ancestors') grows to hold the block, so that running it does not
   end P's instance.  A loop found earlier whose back edge turns out to
   be one is demoted (mp_loop.excursion) and never entered again.  A
   loop whose inner loop's latch the compiler placed past the outer
   loop's tail is read the same way: its iterations count as the outer
   loop's body.

   Dynamic part.  Per thread, a stack of active loop frames, outermost
   first.  A frame is one execution instance of a loop: it starts when
   the thread enters the loop's range (an "entry") and ends when the
   thread leaves it (an "exit").  Its counter is the number of back edges
   taken in this instance: 0 in the first pass through the body, then
   1, 2, ...  The counters of the active frames are the thread's
   iteration vector (for mp_formula); (loop, instance) identifies the
   instance for mp_streams.

   What "iterations" means: back edges taken.  A source loop whose body
   runs n times reports n iterations when compiled with the test at the
   bottom after an initial jump to it (gcc -O0) or with the test at the
   top (clang -O0), and n-1 when rotated (the body falls into the test
   at the bottom, -O1 and above).  Only the machine code is seen, so no
   layout-independent trip count is possible.

   Rules (and their limits) for calls and returns.  R0 is exact and
   needs the stack pointer; R1-R4 go on code addresses alone.
   R0  mp_loops_unwind(sp): the frames at the top of the stack begun
       with a lower stack pointer than sp end.  Their activation is
       gone, however it went: ret, longjmp, exception unwinding, a tail
       jump through a PLT stub.  This keeps the stack as deep as the
       program's calls times its loop depth, whatever the code does.
   R1  An address of function F pops F's frames at the top of the stack
       whose ranges do not contain it, and pushes the loops of F that
       contain it (innermost loop by range, then its ancestors).
   R2  An address of another function than the top frame's never pops
       that frame: a call from a loop body (to a function with or
       without loops of its own) does not end the loop.  The callee's
       loops are pushed above the caller's.
   R3  Returning into a loop: when the top frame belongs to another
       function and the address lies inside an active loop of F in the
       nearest run of F's frames further down the stack, the frames
       above that run are popped: their functions returned from the
       middle of their loops (early return, longjmp).
   R4  Optional, exact: mp_loops_return(fn), if the adapter reports
       function returns, pops F's frames at the top of the stack.
   Limits: recursion from inside a loop of F to F itself is read by R1
   as leaving the loop (the instance ends at the call, a new one starts
   after the return: entries are over-counted, iterations are not lost).
   Without R0 and R4, a return from the middle of a loop into a caller
   that has no active loop leaves the frame active until its function
   runs again outside that loop.  Two loops of one function whose ranges
   overlap without nesting (irreducible layouts) are not nested: at an
   address in both, the smaller one is active.

   Cost.  mp_loops_at: O(1) with no hashing while the address stays
   inside the innermost active loop and that loop has no inner loop;
   otherwise one hash look-up of (function, address) (memoised innermost
   loop) and O(depth) for a change of loops.  Back edges: O(1) when the
   loop is on top; mp_loops_at_site replaces the hash look-up by the
   caller's memo.  Static changes: a new back edge shapes its
   function's forest again from its e back edges, O(r * e * k) for k
   loops and r rounds (one per link of the longest chain of excursions
   found through one another, plus one; instrumentation time only).
*/
#ifndef MP_LOOPS_H
#define MP_LOOPS_H

#include "mp_platform.h"

#define MP_LOOP_NONE UINT32_MAX
/* mp_loops_carrier: the earlier access was not followed (before the
   loops were, or in a gap of the sampling windows). */
#define MP_LOOP_UNSEEN (UINT32_MAX - 1)

#define MP_LOOPS_TOUCHED_WORDS 4

/* One loop; ids are dense: 0 .. mp_loops_count() - 1.
   Layout: a call-heavy program enters a loop instance every few
   accesses (sqlite3: one per six), and each entry and exit reads and
   writes its loop's record, which the analyses' own state has mostly
   pushed out of the host's caches.  The records are 64-byte aligned
   (mp_loops.c), and what entering and leaving touch fills two lines:
   the first holds the nesting and the counters (entry: the chain of
   parents, entries; exit: exits, max_iterations; a back edge:
   iterations), the second the filters an exit merges into.  The rest,
   read at the report, follows. */
typedef struct {
   /* line 1: the nest and the counters */
   uint32_t fn;              /* the adapter's function id */
   uint32_t parent;          /* enclosing loop, MP_LOOP_NONE at top level */
   uint32_t depth;           /* 1 at top level */
   uint32_t n_children;      /* loops whose parent this is */
   uint64_t head, tail;      /* guest addresses; the range is [head, tail]:
                                tail is its highest back edge, or an
                                excursion's return past it */
   /* Dynamic, summed over threads. */
   uint64_t entries;         /* execution instances started */
   uint64_t exits;           /* instances finished */
   uint64_t iterations;      /* back edges taken */
   uint64_t max_iterations;  /* most back edges in one finished instance */
   /* line 2: the variables accessed, and those written, while it was
      active, its callees' and inner loops' accesses included
      (mp_loops_touch): Bloom filters of one hash,
      MP_LOOPS_TOUCHED_WORDS * 64 bits each.  Two loops that only read a
      variable do not depend on each other through it (a pointer both
      load, a table both look up). */
   uint64_t touched[MP_LOOPS_TOUCHED_WORDS];
   uint64_t written[MP_LOOPS_TOUCHED_WORDS];
   /* line 3: where it is in the source, and what it turned out to be */
   const char *file;         /* file of the head's location, NULL if unknown */
   const char *scope;        /* the function whose code its back edge is
                                (the innermost inlined one), NULL if unknown */
   uint32_t first_line;      /* source lines seen in the loop, in that file; */
   uint32_t last_line;       /*   0 when unknown */
   int never_entered;        /* at exit: no instance ever began
                                (mp_loops_drop_unentered) */
   int excursion;            /* no loop: its back edge was found to
                                return into another loop from past that
                                loop's tail (above); never entered again */
   uint8_t pad_to_lines[32];
} mp_loop;

/* One active loop of a thread. */
typedef struct {
   uint32_t loop;
   uint32_t fn;              /* its loop's function (mp_loop.fn), here
                                so that the rules read no loop record */
   uint64_t instance;        /* the loop's entries count when it began:
                                1, 2, ...; unique per loop over threads */
   uint64_t iterations;      /* back edges taken so far in this instance */
   uint64_t sp;              /* the thread's stack pointer when it began
                                (mp_loops_unwind), 0 if never told */
   uint64_t begun;           /* the epoch its entry made (mp_loops_epoch) */
   int seen;                 /* active at an access the carriers were
                                told of (mp_loops_seen) */
   int fell_through;         /* its back edge was not taken, and the
                                thread stayed in it: an excursion's
                                jump back is then the next iteration */
} mp_loop_frame;

typedef struct mp_loops mp_loops;

/* Called at every exit of an instance (mp_streams_loop_end fits). */
typedef void (*mp_loops_exit_fn)(void *arg, uint32_t tid, uint32_t loop,
                                 uint64_t instance, uint64_t iterations);

mp_loops *mp_loops_new(void);
void      mp_loops_free(mp_loops *l);
void      mp_loops_set_exit_hook(mp_loops *l, mp_loops_exit_fn fn, void *arg);

/*--- Static part (instrumentation time) ---*/

/* A branch at 'branch' jumping back to 'target' in function fn; locs are
   "file:line" or NULL, scopes the function whose code each is (the
   innermost inlined one) or NULL.  The branch is the loop's own control
   (its increment, test and jump): its file and scope are the loop's,
   while the target, the body's first instruction, may be a function
   inlined there, whose line then does not widen the loop's.  Returns
   the id of the loop at target (a demoted one, mp_loop.excursion, for an
   excursion's jump back), MP_LOOP_NONE if target > branch (not a back
   edge).
   May grow the loop's tail and re-nest the function's loops. */
uint32_t mp_loops_add_back_edge(mp_loops *l, uint32_t fn, uint64_t branch,
                                uint64_t target, const char *branch_loc,
                                const char *target_loc, const char *branch_scope,
                                const char *target_scope);

/* The function whose code an address is, asked only when a line would
   widen a loop whose scope is known; NULL if unknown. */
typedef const char *(*mp_loops_scope_fn)(void *arg);

/* Widens the source line range of every loop of fn containing addr
   with loc ("file:line", same file as the loop's head only, and the
   same scope when both are known: a function inlined into the loop,
   from the same file, does not stretch the loop's lines to its own).
   scope_of may be NULL.  Optional: head and tail locations alone give
   a partial range. */
void mp_loops_add_line(mp_loops *l, uint32_t fn, uint64_t addr, const char *loc,
                       mp_loops_scope_fn scope_of, void *arg);

uint32_t       mp_loops_count(const mp_loops *l);
/* The most active frames one thread has had at once: bounded by the
   program's call depth times its loop depth (R0), not by its work. */
uint32_t       mp_loops_deepest(const mp_loops *l);
const mp_loop *mp_loops_get(const mp_loops *l, uint32_t loop);

/* The innermost loop of fn containing addr, MP_LOOP_NONE if none. */
uint32_t mp_loops_innermost(mp_loops *l, uint32_t fn, uint64_t addr);

/* Whether loop 'loop' is 'outer' or lies inside it (MP_LOOP_NONE: no). */
int mp_loops_within(const mp_loops *l, uint32_t loop, uint32_t outer);

/*--- Dynamic part (run time), thread ids 0 .. any ---*/

/* Thread tid executes code of function fn at addr (each superblock
   entry, or each instruction: the finer, the more exact the exits). */
void mp_loops_at(mp_loops *l, uint32_t tid, uint32_t fn, uint64_t addr);

/* A caller's memo of the innermost loop at one (function, address),
   such as a translated call site: valid while gen is the forest's
   generation, which never is 0 (a zeroed site is empty).  After 2^32
   generations a stale site could pass for valid; nothing near that
   many back edges is ever found. */
typedef struct {
   uint32_t loop, gen;
} mp_loops_site;

/* mp_loops_at for a site whose memo the caller keeps: no hashing. */
void mp_loops_at_site(mp_loops *l, uint32_t tid, uint32_t fn, uint64_t addr,
                      mp_loops_site *site);

/* Thread tid runs with its stack pointer at sp (the stack grows down).
   A frame begun with the stack pointer below sp belongs to a function
   activation that is gone: returned, or left by longjmp, by exception
   unwinding or by a tail jump whose target returned; those instances
   end here, whatever the code addresses said.  Frames begun from now on
   record sp.  Call it before mp_loops_at* with the same thread; without
   it, only the address rules below end instances.  O(1) plus the frames
   ended. */
void mp_loops_unwind(mp_loops *l, uint32_t tid, uint64_t sp);

/* mp_loops_unwind then mp_loops_at_site, in one call: a block begins.
   Relies on mp_loops_unsettle at every change of running thread. */
void mp_loops_enter_block(mp_loops *l, uint32_t tid, uint64_t sp, uint32_t fn,
                          uint64_t addr, mp_loops_site *site);

/* What the generated code may check before calling in, so that the
   calls of a loop's body repeated change nothing and cost nothing (the
   adapter's fast path; Cachegrind counts inline the same way).  Of the
   thread that called in last, while 'loop' is its innermost active
   loop (MP_LOOP_NONE: no promise):
   - a block of function 'fn' starting in [head, tail] with the stack
     pointer at 'sp' changes nothing: mp_loops_unwind and
     mp_loops_at_site would return at once (head > tail when the loop
     has a loop inside it);
   - a back edge of 'loop' only adds one to *loop_iterations and
     *frame_iterations (what mp_loops_back_edge_taken would do), and
     one not taken only sets *frame_fell_through to 1 (what
     mp_loops_back_edge_fell_through would do);
   - while 'valid', a return from a function other than 'fn' (the
     innermost frame's, MP_LOOPS_NO_FN without frames) changes nothing;
   - while 'valid', with the stack pointer at 'sp', a block of another
     function than 'fn', at an address in no loop as the forest of
     generation 'gen' knew it, changes nothing (rule R2).
   Any call in may change it; mp_loops_unsettle before another thread
   runs.  The pointer stays valid for the engine's life. */
typedef struct {
   uint64_t head, tail, sp;
   uint64_t *loop_iterations, *frame_iterations;
   int *frame_fell_through;
   uint32_t loop, fn, valid;
   uint32_t gen;             /* the forest's generation (mp_loops_site) */
   /* The engine's own: the thread's frames, and mp_loops_at's memo
      (the innermost loop of its last placement, the forest's generation
      and the frames then), so that mp_loops_enter_block answers from
      this one record. */
   uint32_t n, memo_inner, memo_gen, memo_n;
} mp_loops_settled;
#define MP_LOOPS_NO_FN UINT32_MAX

const mp_loops_settled *mp_loops_settled_state(const mp_loops *l);
/* Another thread than the last caller's is about to run. */
void mp_loops_unsettle(mp_loops *l);

/* Thread tid took the back edge of loop (the adapter knows the id from
   mp_loops_add_back_edge).  If the loop is not the innermost active
   one, the thread is first placed at the loop's tail. */
void mp_loops_back_edge_taken(mp_loops *l, uint32_t tid, uint32_t loop);

/* The conditional back edge of 'loop' was not taken (the code after
   the branch runs): a loop exit, or the rare block of a rotated loop
   that an excursion's jump back then brings to its next iteration.
   For a loop's excursions, mp_loops_back_edge_taken is told of each
   excursion's jump back with the id mp_loops_add_back_edge returned
   for it. */
void mp_loops_back_edge_fell_through(mp_loops *l, uint32_t tid, uint32_t loop);

/* For the id of an excursion's jump back (mp_loops_add_back_edge), the
   loop it returns into as the forest is now; MP_LOOP_NONE for a loop's
   own back edge.  While the thread sits in that loop and its back edge
   did not fall through, the jump back changes nothing: the adapter's
   fast path. */
uint32_t mp_loops_returns_to(mp_loops *l, uint32_t loop);

/* Optional (R4): thread tid returns from function fn. */
void mp_loops_return(mp_loops *l, uint32_t tid, uint32_t fn);

/* Ends every active instance of the thread (thread exit), of every
   thread (before the report). */
void mp_loops_thread_exit(mp_loops *l, uint32_t tid);
void mp_loops_flush(mp_loops *l);
/* The accesses made so far were not followed by the caller's tags (a
   sampling gap in which the loops themselves were followed): a reuse of
   them is MP_LOOP_UNSEEN to mp_loops_carrier.  The active instances and
   their counters go on. */
void mp_loops_forget(mp_loops *l);
/* At exit: a loop no thread ever entered (a back edge translated in a
   superblock, never taken: code after main's time loop jumping back
   over it) encloses nothing that ran inside it, yet found last it
   would deepen every loop of its range, after their formulas were
   fitted at their depths.  Such loops contain no other from here on;
   the parents, depths and child counts of their functions are made
   again without them. */
void mp_loops_drop_unentered(mp_loops *l);

/* Ends every active instance and zeroes the counts of every loop (a
   forked child counts its own); the loops themselves stay. */
void mp_loops_reset_counts(mp_loops *l);

/* The thread's innermost active loop (MP_LOOP_NONE if none), and its
   instance if 'instance' is not NULL.  O(1). */
uint32_t mp_loops_current(const mp_loops *l, uint32_t tid, uint64_t *instance);

/* The thread's active frames, outermost first; returns their number. */
uint32_t mp_loops_active(const mp_loops *l, uint32_t tid, const mp_loop_frame **frames);

/* The epoch: the number of loop instances begun so far, by every
   thread, plus one at every flush and forget.  It orders an access against the
   entries of the loops active now: an access made at epoch E happened
   inside every active frame whose 'begun' is <= E.  The pointer stays
   valid for the engine's life, so that a caller on the access path can
   read the epoch without a call. */
const uint64_t *mp_loops_epoch(const mp_loops *l);
/* The epoch of the last flush, 0 before the first: after a flush, the
   counters of the loops a thread is found in count from there, not from
   the loops' entries. */
uint64_t mp_loops_last_flush(const mp_loops *l);

/* The carrier of a reuse (Beyls and D'Hollander's reuse paths): the
   innermost loop of thread tid active both now and at the earlier
   access to the data, made at epoch 'then'; MP_LOOP_NONE if no active
   loop was (the two accesses lie in separate loop nests, or outside
   loops); MP_LOOP_UNSEEN if 'then' precedes the last flush or forget
   (the earlier access was not followed).  O(depth). */
uint32_t mp_loops_carrier(const mp_loops *l, uint32_t tid, uint64_t then);

/* The child instances a loop instance keeps, the last ones to end: a
   reuse between two loops more than this many apart in one iteration
   of their parent is not seen as between siblings. */
#define MP_LOOPS_CHILDREN 16

/* The thread's active instances were active at an access whose reuse
   the caller measures: only those go into their parents' rings of
   ended children, so that a copy kept by mp_loops_mirror, sent the
   frames at such accesses, keeps the same rings.  O(depth). */
void mp_loops_seen(mp_loops *l, uint32_t tid);

/* mp_loops_carrier, and where the two accesses of the reuse lie below
   the carrier: *to, the loop of the carrier's child instance active now
   (MP_LOOP_NONE: the access is in the carrier's own body), *from, the
   loop of the child instance that had begun last at the earlier access,
   among the MP_LOOPS_CHILDREN seen (mp_loops_seen) that ended last
   (MP_LOOP_NONE if none); across[0] and across[1], the loops of the
   first and of the last child instance seen that began after the
   earlier access and has ended, of neither of those loops: loops that
   ran between them (the same loop if one did; MP_LOOP_NONE if none).
   A fusion of the two whose first between loop is fused with them too
   may still be crossed by the last.
   With the carrier MP_LOOP_NONE, the children are the thread's
   outermost loops.  Two different loops are adjacent loops (or nests)
   whose fusion would bring the reuse closer, unless another ran
   between them, whose accesses a fusion would reorder with the later
   loop's.  (An access made after a child ended and before the next
   began is taken for the child's.)
   Cost: O(depth + MP_LOOPS_CHILDREN); the rings cost O(1) per instance
   that ends. */
uint32_t mp_loops_siblings(const mp_loops *l, uint32_t tid, uint64_t then,
                           uint32_t *from, uint32_t *to, uint32_t across[2]);

/* What mp_loops_carrier reads, for a copy of the loops that answers it
   in another process (the reuse analysis's helper, mp_helper.h): a
   counter that moves whenever the answer for some (tid, then) may have
   changed (a frame pushed or popped, a flush, a forget), the epoch
   before which earlier accesses are unseen, and a setter that makes
   tid's active frames (loop and begun are read), the epoch and that
   bound what another copy had. */
const uint64_t *mp_loops_changes(const mp_loops *l);
uint64_t mp_loops_unseen_before(const mp_loops *l);
void mp_loops_mirror(mp_loops *l, uint32_t tid, const mp_loop_frame *frames, uint32_t n,
                     uint64_t epoch, uint64_t unseen_before);

/* Thread tid read (is_write 0) or wrote variable var, at the cache
   line 'part' of a variable that is not one datum (a frame's unnamed
   bytes: mp_var.whole_frame), else at part 0: every loop active in it
   notes it, in its filters once that instance has ended.  O(1). */
void mp_loops_touch(mp_loops *l, uint32_t tid, uint32_t var, uint64_t part, int is_write);
/* Whether var (at part 0) may have been accessed, or written, while
   loop L was active (a false yes one time in MP_LOOPS_TOUCHED_WORDS *
   64 per variable, or more when L touched many; never a false no). */
int mp_loops_touched(const mp_loop *L, uint32_t var);
int mp_loops_written(const mp_loop *L, uint32_t var);
/* Whether loops a and b may depend on each other: one may have written
   what the other accessed (a variable, or a part of one), by their
   filters.  Two loops that only read a variable do not depend on each
   other through it.  Never a false no. */
int mp_loops_may_depend(const mp_loop *a, const mp_loop *b);

/* Copies the iteration vector (the counters of the active frames,
   outermost first) into iters[0 .. max-1]; returns the full depth. */
uint32_t mp_loops_iteration_vector(const mp_loops *l, uint32_t tid,
                                   uint64_t *iters, uint32_t max);

#endif /* MP_LOOPS_H */
