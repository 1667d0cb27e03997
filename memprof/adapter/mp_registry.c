/*--------------------------------------------------------------------*/
/*--- memprof: the variable registry: address -> variable.         ---*/
/*---                                                mp_registry.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Every access is attributed to exactly one variable, looked
   up in this order:
     1. user-named ranges (MEMPROF_NAME_RANGE), which may lie inside a
        heap block or a global;
     2. live heap blocks (mp_heap.c registers them);
     3. the thread's stack: the frame holding the address, unwound once
        per (SP, function) and cached; a named local (array, struct or
        scalar) of that frame (mp_stackvars.h; not with
        --read-var-info=no), else "stack:<function>";
     4. globals and statics: the data symbols of every loaded object,
        read from its symbol table (works without -g); the stack never
        overlaps them, and is checked first because it is cheaper;
     5. the allocator's memory outside live blocks: the header before
        each block, the bytes after its end in its last granule, and
        whatever held a block that was freed (free lists, the copies
        realloc makes), until it is unmapped or is a block again, and
        the rest of the brk segment (glibc's main arena: its top, the
        thread's tcache): one variable, "malloc (allocator internals)";
     6. the section of a loaded object the address lies in, for data
        that no symbol covers (GOT, relocated pointers, .dynsym read by
        the dynamic linker): "<object>:<section>", kind other;
     7. "other".
   Each variable is given its owner (mp_owner.h) when it is made: a
   global's or a section's object, the object of a frame's code (a
   named local's frame's); "other" is no one's, and the allocator's
   memory belongs to the allocator's object (mp_registry_allocator_at).
   Step 2 is O(1) whatever the number of live blocks (mp_granmap).
   Steps 1 and 4 are interval-map lookups, O(log n).  The access helper
   keeps each instruction's last answer (mp_instr), valid until
   mp_g_registry_gen changes (a munmap, a named range), so loops over
   globals and heap blocks rarely get here.  Two kinds of answer are
   kept with a condition this file checks: the running function's own
   frame (its local, or the rest of the frame) while the stack pointer
   stays the same, and a page of "other" memory with no heap block in
   it until a block is made or a mapping changes (mp_g_other_gen).
*/
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xarray.h"

#include "mp_clo.h"
#include "mp_granmap.h"
#include "mp_naming.h"
#include "mp_rangemap.h"
#include "mp_stackvars.h"
#include "mp_tool.h"
#include "mp_util.h"
#include "mp_vgcompat.h"

UInt mp_g_registry_gen = 0;
ULong stats__resolves = 0;
ULong stats__stack_unwinds = 0;

static mp_rangemap *user_ranges;  /* value: var id + 1 */
/* Live heap blocks: per granule, the block's slot + 1 (or
   ALLOCATOR_GRANULE: the allocator's memory); a slot holds the
   block's variable and start, so one O(1) look-up answers both (the
   start is what structure and formula analysis measure offsets from).
   Slots of freed blocks are reused: memory is 16 bytes per live block
   beside the granule map's 4 per 16 bytes of heap. */
typedef struct {
   Addr start;
   SizeT len;
   UInt var;
   UInt next_free;    /* free list, slot + 1; 0 ends it */
} heap_slot;
UInt *mp_g_heap_life;   /* per slot, parallel to heap_slots */

static mp_granmap  *heap_granules;
/* Blocks of BIG_BLOCK bytes or more are kept in a range map instead
   (value: slot + 1): the granule map would cost a quarter of the block
   whether the program touches it or not (4 GiB allocated, one page
   used: 1 GB of map).  Few blocks are that big, so the O(log n) look-up
   is rare, and an instruction caches the block's range like a global's. */
#define BIG_BLOCK (1UL << 20)
#define ALLOCATOR_GRANULE 0xFFFFFFFFu
static mp_rangemap *big_blocks;
static heap_slot   *heap_slots;
static UInt         n_heap_slots, heap_slots_cap, heap_free_slot;
static mp_rangemap *global_ranges;/* value: global_sym* */
static UInt other_var, allocator_var;
static Addr brk_lo, brk_hi;       /* the brk segment, [lo, hi) */

/*------------------------------------------------------------*/
/*--- Globals                                              ---*/
/*------------------------------------------------------------*/

typedef struct {
   UInt var;
   Bool described;   /* declaration looked up (--read-var-info) */
} global_sym;

typedef struct {
   Addr text_avma;
   const HChar *filename;   /* the core's, valid while loaded */
} loaded_object;

static XArray *objects;        /* of loaded_object: symbols registered */
static Bool    objects_stale = True;

static Bool object_known(const DebugInfo *di)
{
   Word i, n = VG_(sizeXA)(objects);
   Addr text = VG_(DebugInfo_get_text_avma)(di);
   const HChar *fname = VG_(DebugInfo_get_filename)(di);
   for (i = 0; i < n; i++) {
      loaded_object *o = VG_(indexXA)(objects, i);
      if (o->text_avma == text && VG_(strcmp)(o->filename, fname) == 0)
         return True;
   }
   return False;
}

/* A global named as the source names it: the symbol table keeps C++
   data symbols mangled ("_ZZ4mainE5table" is main::table) and C's
   with the compiler's suffixes ("u1.3", a static local of a function
   found at exit: main::u1; "buf.lto_priv.0"). */
static mp_var *add_global(const HChar *sym, UInt size)
{
   HChar *source = mp_demangle_data(sym);
   mp_var *v = mp_vars_add(mp_g_vars, MP_VAR_GLOBAL, source ? source : sym, NULL, size);
   if (source)
      VG_(free)(source);
   else
      v->static_local = mp_strip_compiler_suffix(v->name) == 2;
   return v;
}

static void register_symbols(const DebugInfo *di)
{
   Int i, n = VG_(DebugInfo_syms_howmany)(di);
   loaded_object o;
   for (i = 0; i < n; i++) {
      mp_vg_sym_avmas ad;
      UInt size;
      const HChar *name, **sec;
      Bool is_text, is_ifunc, is_global;
      global_sym *g;
      mp_var *v;
      VG_(DebugInfo_syms_getidx)(di, i, &ad, &size, &name, &sec,
                                 &is_text, &is_ifunc, &is_global);
      if (is_text || size == 0 || ad.main == 0)
         continue;
      /* An alias of a symbol seen before (environ / __environ) loses. */
      if (mp_rangemap_lookup(global_ranges, ad.main, NULL, NULL, NULL)
          || mp_rangemap_lookup(global_ranges, ad.main + size - 1, NULL, NULL, NULL))
         continue;
      v = add_global(name, size);
      mp_var_set_owner(v, VG_(DebugInfo_get_filename)(di));
      g = VG_(malloc)("mp.reg.global", sizeof *g);
      g->var = v->id;
      g->described = False;
      if (mp_rangemap_insert(global_ranges, ad.main, size, g) != 0)
         VG_(free)(g);   /* straddles a symbol seen before */
   }
   o.text_avma = VG_(DebugInfo_get_text_avma)(di);
   o.filename = VG_(DebugInfo_get_filename)(di);
   VG_(addToXA)(objects, &o);
}

/* Objects appear at mmap; their symbols are read here, lazily, the
   next time an address is not found. */
static void load_new_objects(void)
{
   const DebugInfo *di;
   if (!objects_stale)
      return;
   objects_stale = False;
   for (di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di))
      if (!object_known(di))
         register_symbols(di);
}

/*------------------------------------------------------------*/
/*--- Section pages                                        ---*/
/*------------------------------------------------------------*/

/* The variable of each recently resolved page that lies wholly in one
   section of one object with no symbol in it: the data of stripped
   programs (every program of a distribution) and a library's unnamed
   data.  Without it, each such access was resolved from scratch (the
   instruction cache held its exact address only): a walk of every
   thread slot for a foreign stack, then the section look-up, 52% and
   13% of gzip -9's time.  Direct-mapped by page number; an entry is
   valid in its epoch, which any mmap or munmap ends. */
/* The ABI's red zone below SP (128 bytes on amd64, none on arm64). */
#define STACK_REDZONE VG_STACK_REDZONE_SZB
#define SECT_PAGE       4096
#define SECT_PAGES      4096          /* entries, a power of two */
#define SECT_STEP       8             /* sections are 8-byte aligned */

typedef struct {
   Addr page;       /* page address + 1; 0: empty */
   UInt epoch;
   UInt var;
} sect_page;

static sect_page sect_pages[SECT_PAGES];
static UInt      sect_epoch = 1;
/* Bumped with the epoch and at every heap block made: an instruction's
   cached page of "other" memory (MP_OTHER_SLOT) holds while it stays,
   since no block lay in the page when it was cached. */
UInt             mp_g_other_gen = 1;

/* Pages may have changed hands: every page's verdict is stale. */
static void new_sect_epoch(void)
{
   sect_epoch++;
   mp_g_other_gen++;
}

static sect_page *sect_slot(Addr base)
{
   return &sect_pages[(base / SECT_PAGE) & (SECT_PAGES - 1)];
}

/* a's page's variable if known, else (UInt)-1. */
static UInt sect_page_var(Addr a)
{
   Addr base = a & ~(Addr)(SECT_PAGE - 1);
   const sect_page *p = sect_slot(base);
   /* var is (UInt)-1 for a page known to be mixed */
   return p->page == base + 1 && p->epoch == sect_epoch ? p->var : (UInt)-1;
}

/* The pages around base that are remembered as var's, as base is, up
   to SECT_RUN each way: [*lo, *hi).  A section's page stays its
   section's until an unmapping, so an instruction may keep the run as
   it keeps one page, and its accesses anywhere in a stripped program's
   arrays (one section variable) do not come back here at each page. */
#define SECT_RUN 16
static void sect_run(Addr base, UInt var, Addr *lo, Addr *hi)
{
   UInt i;
   *lo = base;
   *hi = base + SECT_PAGE;
   for (i = 0; i < SECT_RUN && *lo >= SECT_PAGE && sect_page_var(*lo - SECT_PAGE) == var; i++)
      *lo -= SECT_PAGE;
   for (i = 0; i < SECT_RUN && *hi != 0 && sect_page_var(*hi) == var; i++)
      *hi += SECT_PAGE;
}

/* The slot of the page at base, to be judged now, marked mixed until
   the judge says otherwise; NULL if it was judged under this epoch.
   Either way the verdict is kept: a mixed page is not checked again
   (up to 512 look-ups) at each of its accesses. */
static sect_page *page_to_judge(Addr base)
{
   sect_page *p = sect_slot(base);
   if (p->page == base + 1 && p->epoch == sect_epoch)
      return NULL;
   p->page = base + 1;
   p->epoch = sect_epoch;
   p->var = (UInt)-1;
   return p;
}

/* After a resolved to var through its section: remembers the page if
   every 8 bytes of it are of that same object and section kind, in one
   mapping, and no global symbol or named range overlaps it. */
static void remember_sect_page(Addr a, UInt var)
{
   Addr base = a & ~(Addr)(SECT_PAGE - 1), off;
   const HChar *obj0 = NULL;
   VgSectKind k0;
   NSegment const *seg;
   sect_page *p = page_to_judge(base);
   if (!p)
      return;
   k0 = VG_(DebugInfo_sect_kind)(&obj0, base);
   seg = VG_(am_find_nsegment)(base);
   if (!seg || seg->end < base + SECT_PAGE - 1
       || mp_rangemap_overlaps(global_ranges, base, base + SECT_PAGE - 1)
       || mp_rangemap_overlaps(user_ranges, base, base + SECT_PAGE - 1))
      return;
   for (off = SECT_STEP; off < SECT_PAGE; off += SECT_STEP) {
      const HChar *obj = NULL;
      if (VG_(DebugInfo_sect_kind)(&obj, base + off) != k0 || obj != obj0)
         return;
   }
   p->var = var;
}

/* After a resolved to "other" (memory of no variable: a program's own
   anonymous mappings, such as an interpreter's arenas): remembers the
   page as other, so that its next accesses skip the look-ups that come
   after the heap's in mp_registry_resolve (stacks, globals, the brk
   segment, the sections), which answer the same for every address of
   it while nothing is mapped, unmapped, grown or started (each bumps
   sect_epoch).  Only a page that none of them can claim: inside one
   anonymous mapping and past any object's .bss (anonymous memory right
   after the object's file pages, which Valgrind merges with the
   anonymous mappings after it), on no thread's stack, outside the brk
   segment and every global.  Small heap blocks are found before
   the page is consulted (the granule map), and a large block allocated
   later bumps the epoch, so no block is hidden. */
static void remember_other_page(Addr a)
{
   Addr base = a & ~(Addr)(SECT_PAGE - 1), end = base + SECT_PAGE - 1;
   sect_page *p = page_to_judge(base);
   NSegment const *seg, *prev;
   ThreadId t;
   Addr lo, hi;
   if (!p)
      return;
   seg = VG_(am_find_nsegment)(base);
   if (!seg || seg->kind != SkAnonC || seg->start > base || seg->end < end)
      return;
   /* After a file mapping, the segment may begin with an object's
      .bss: one range from at most a page into it; a later page whose
      start is no section's lies beyond it. */
   prev = seg->start > 0 ? VG_(am_find_nsegment)(seg->start - 1) : NULL;
   if (prev && prev->kind == SkFileC) {
      const HChar *obj = NULL;
      if (base < seg->start + SECT_PAGE
          || VG_(DebugInfo_sect_kind)(&obj, base) != Vg_SectUnknown)
         return;
   }
   if ((brk_hi != 0 && base < brk_hi && end >= brk_lo)
       || mp_rangemap_overlaps(global_ranges, base, end)
       || mp_rangemap_overlaps(big_blocks, base, end))
      return;
   VG_(thread_stack_reset_iter)(&t);
   while (VG_(thread_stack_next)(&t, &lo, &hi))
      if (base <= hi && end + STACK_REDZONE >= lo)
         return;
   p->var = other_var;
}

void mp_registry_note_mmap(void)
{
   objects_stale = True;
   new_sect_epoch();
}

typedef struct {
   Addr lo, hi;
   XArray *doomed;   /* of Addr: starts of globals to remove */
} unmap_walk;

static int collect_unmapped(uint64_t start, uint64_t len, void *value, void *arg)
{
   unmap_walk *w = arg;
   if (start >= w->lo && start < w->hi)
      VG_(addToXA)(w->doomed, &start);
   return start >= w->hi;
}

void mp_registry_note_munmap(Addr a, SizeT len)
{
   unmap_walk w;
   Word i;
   w.lo = a;
   w.hi = a + len;
   w.doomed = VG_(newXA)(VG_(malloc), "mp.reg.unmap", VG_(free), sizeof(Addr));
   mp_rangemap_foreach(global_ranges, collect_unmapped, &w);
   for (i = 0; i < VG_(sizeXA)(w.doomed); i++) {
      void *g;
      if (mp_rangemap_remove(global_ranges, *(Addr *)VG_(indexXA)(w.doomed, i),
                             NULL, &g))
         VG_(free)(g);
   }
   /* Memory mapped again later is not the allocator's. */
   mp_granmap_set(heap_granules, a, len, 0);
   for (i = VG_(sizeXA)(objects) - 1; i >= 0; i--) {
      loaded_object *o = VG_(indexXA)(objects, i);
      if (o->text_avma >= w.lo && o->text_avma < w.hi)
         VG_(removeIndexXA)(objects, i);
   }
   /* Instructions may have cached the unmapped globals, or pages of its
      sections. */
   mp_g_registry_gen++;
   new_sect_epoch();
   VG_(deleteXA)(w.doomed);
   objects_stale = True;
}

/*------------------------------------------------------------*/
/*--- Questions to the debug information                   ---*/
/*------------------------------------------------------------*/

/* Valgrind's evaluator of DWARF location expressions prints a warning
   line ("evaluate_Dwarf3_Expr: unhandled DW_OP_ 0xa3") for each
   operation it does not implement, each time it meets one: gcc -O2
   describes many locals with DW_OP_entry_value (0xa3) and DW_OP_piece
   (0x93), and the questions below are asked per code address, so a
   trivial program printed thousands of them.  Such a local lives in
   registers, or only partly in memory: it is no stack block either
   way, and nothing memprof reports depends on it.  The core prints
   the warning only when not producing XML, so the flag is raised
   around the questions: the tool writes no XML, and all the flag
   changes in them is that warning and the form of a data description
   (which mp_registry_describe reads in that form). */
static Bool quiet_begin(void)
{
   Bool was = VG_(clo_xml);
   VG_(clo_xml) = True;
   return was;
}

static void quiet_end(Bool was)
{
   VG_(clo_xml) = was;
}

/* The text between open and close in s (close searched after open),
   or NULL; *end is after close. */
static const HChar *between(const HChar *s, const HChar *open, const HChar *close,
                            SizeT *len, const HChar **end)
{
   const HChar *a = VG_(strstr)(s, open), *b;
   if (!a)
      return NULL;
   a += VG_(strlen)(open);
   b = VG_(strstr)(a, close);
   if (!b)
      return NULL;
   *len = b - a;
   if (end)
      *end = b + VG_(strlen)(close);
   return a;
}

/* A copy of the n bytes at s with the XML escapes Valgrind writes
   (&amp; &lt; &gt;, and &quot; &apos; for good measure) undone. */
static HChar *unescape(const HChar *s, SizeT n)
{
   static const struct { const HChar *esc; HChar c; } escs[] = {
      { "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
      { "&quot;", '"' }, { "&apos;", '\'' },
   };
   HChar *out = VG_(malloc)("mp.reg.unescape", n + 1);
   SizeT i = 0, o = 0, k;
   while (i < n) {
      for (k = 0; k < sizeof escs / sizeof escs[0]; k++) {
         SizeT el = VG_(strlen)(escs[k].esc);
         if (i + el <= n && VG_(strncmp)(s + i, escs[k].esc, el) == 0) {
            out[o++] = escs[k].c;
            i += el;
            break;
         }
      }
      if (k == sizeof escs / sizeof escs[0])
         out[o++] = s[i++];
   }
   out[o] = '\0';
   return out;
}

/* The question is asked in the core's XML form (see quiet_begin), whose
   pieces are delimited whatever the names hold (spaces, quotes,
   commas, colons):
     <auxwhat>Location 0x.. is 0 bytes inside global var "g"</auxwhat>
     <auxwhat>Location 0x.. is 8 bytes inside a[1].y,</auxwhat>
     <xauxwhat><text>declared at f.c:3</text> <file>f.c</file>
        <line>3</line> </xauxwhat>
   (a local's description ends "in frame #1 of thread 1"). */
Bool mp_registry_describe(Addr a, HChar **what, HChar **file, UInt *line)
{
   XArray *d1 = VG_(newXA)(VG_(malloc), "mp.reg.desc1", VG_(free), sizeof(HChar));
   XArray *d2 = VG_(newXA)(VG_(malloc), "mp.reg.desc2", VG_(free), sizeof(HChar));
   Bool was = quiet_begin(), ok = False;
   *what = *file = NULL;
   *line = 0;
   if (VG_(get_data_description)(d1, d2, VG_(current_DiEpoch)(), a)
       && VG_(sizeXA)(d1) > 0) {
      const HChar *t1 = VG_(indexXA)(d1, 0);
      const HChar *t2 = VG_(sizeXA)(d2) > 0 ? VG_(indexXA)(d2, 0) : "";
      SizeT n;
      const HChar *p = between(t1, "<auxwhat>", "</auxwhat>", &n, NULL);
      const HChar *in;
      if (p && (in = VG_(strstr)(p, " inside ")) != NULL && in < p + n) {
         const HChar *end = p + n;
         in += 8;
         if (end > in && end[-1] == ',')
            end--;
         if ((VG_(strncmp)(in, "global var \"", 12) == 0
              || VG_(strncmp)(in, "local var \"", 11) == 0)
             && end > in && end[-1] == '"') {
            in = VG_(strchr)(in, '"') + 1;
            end--;
         }
         if (end > in) {
            *what = unescape(in, end - in);
            ok = True;
         }
      }
      p = between(t2, "<file>", "</file>", &n, NULL);
      if (ok && p && n > 0) {
         const HChar *l = between(t2, "<line>", "</line>", &n, NULL);
         *file = unescape(p, VG_(strstr)(p, "</file>") - p);
         *line = l ? (UInt)VG_(strtoll10)(l, NULL) : 0;
      }
   }
   quiet_end(was);
   VG_(deleteXA)(d1);
   VG_(deleteXA)(d2);
   return ok;
}

/* A static local's function: the one whose body declares it in the
   source file of the code that first touches it (that code may be a
   callee it was passed to, or OpenMP's outlined region), else that
   code's own function, the innermost of the calls inlined there (a
   static function inlined into main keeps its name).
   mp_vars_name_static_locals names it fn::name at exit; it falls back
   on the busiest location's function when none is known here. */
static void place_static_local(UInt var, Addr iaddr)
{
   mp_var *v = mp_vars_get(mp_g_vars, var);
   HChar fn[128];
   const HChar *sym;
   if (!v->static_local || v->function)
      return;
   v->function = mp_sites_static_owner(iaddr, v->name);
   if (v->function)
      return;
   if (mp_sites_code_fn(iaddr, fn, sizeof fn))
      v->function = VG_(strdup)("mp.reg.slfn", fn);
   else if (VG_(get_fnname)(VG_(current_DiEpoch)(), iaddr, &sym))
      v->function = VG_(strdup)("mp.reg.slfn", sym);   /* no line information */
   if (v->function)
      mp_strip_compiler_suffix(v->function);
}

/* With --read-var-info=yes, a global's declaration file:line, once. */
static void describe_global(global_sym *g, Addr a)
{
   HChar *what, *file;
   UInt line;
   mp_var *v = mp_vars_get(mp_g_vars, g->var);
   g->described = True;
   if (!mp_registry_describe(a, &what, &file, &line))
      return;
   if (file && !v->where)
      v->where = mp_asprintf("%s:%u", file, line);
   VG_(free)(what);
   if (file)
      VG_(free)(file);
}

/*------------------------------------------------------------*/
/*--- Stack                                                ---*/
/*------------------------------------------------------------*/

#define MAX_FRAMES 32

/* What a code address tells about its frame, computed once per address
   and kept: the frame's variable (stack:<function>) and, with
   --read-var-info=yes, the local variables in scope there. */
typedef struct {
   PtrdiffT base;     /* from SP or FP */
   SizeT    size;     /* bytes */
   Bool     sp_rel;
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
   two unwinds a call).  Made on the thread's first stack access. */
#define STACK_WAYS 4
static stack_cache **stack_caches;   /* indexed by ThreadId */
static UInt        *stack_victim;    /* indexed by ThreadId: next way replaced */
static VgHashTable *stack_vars;      /* key: interned (fn, local) -> var */
static VgHashTable *frame_infos;     /* key: code address */

typedef struct {
   VgHashNode node;
   UInt var;
} stack_var_node;

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
   stack_var_node *n = VG_(HT_lookup)(stack_vars, key);
   *made = NULL;
   if (!n) {
      HChar *frame = local ? NULL : mp_asprintf("stack:%s", fn);
      mp_var *v = mp_vars_add(mp_g_vars, MP_VAR_STACK, local ? local : frame, NULL,
                              local ? size : 0);
      if (frame)
         VG_(free)(frame);
      v->function = VG_(strdup)("mp.reg.stackfn", fn);
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
   const HChar *name;
   XArray *blocks;
   Word i;
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
   blocks = mp_vars_get(mp_g_vars, fi->frame_var)->cls == MP_CLASS_PROGRAM
            || mp_clo_show_runtime ? mp_stackvars_at(ip, fi->fn) : NULL;
   if (blocks && VG_(sizeXA)(blocks) > 0) {
      Bool keep_fn = False;
      fi->n_locals = VG_(sizeXA)(blocks);
      fi->locals = VG_(malloc)("mp.reg.locals", fi->n_locals * sizeof(local_block));
      for (i = 0; i < VG_(sizeXA)(blocks); i++) {
         StackBlock *b = VG_(indexXA)(blocks, i);
         local_block *l = &fi->locals[i];
         l->base = b->base;
         l->size = b->szB;
         l->sp_rel = b->spRel;
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
   } else {
      VG_(free)(fi->fn);
      fi->fn = NULL;
   }
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
   UInt k;
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
   for (k = 0; k < fi->n_locals; k++) {
      local_block *b = &fi->locals[k];
      Addr start = (b->sp_rel ? c->sps[i] : c->fps[i]) + b->base;
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
   return fi->frame_var;
}

/* var of a stack address, or (UInt)-1 if a is not on tid's stack.
   Frame i holds [sps[i], sps[i+1]); frame 0 also its red zone, the
   outermost frame everything up to the stack's top. */
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

/* ii's access at a in the running function's frame resolved to var,
   as does all of [lo, hi) while the stack pointer is sp. */
static void cache_frame(mp_instr *ii, Addr sp, Addr lo, Addr hi, UInt var)
{
   if (mp_rangemap_count(user_ranges) != 0)
      return;
   ii->cache_gen = mp_g_registry_gen;
   ii->cache_lo = lo;
   ii->cache_hi = hi;
   ii->cache_var = var;
   ii->cache_slot = MP_STACK_SLOT;
   ii->cache_sp = sp;
}

static UInt resolve_stack(ThreadId tid, Addr a, mp_instr *ii)
{
   Addr sp = VG_(get_SP)(tid);
   Addr max = VG_(thread_get_stack_max)(tid);
   stack_cache *c;
   UInt i;
   if (a + STACK_REDZONE < sp || a >= max)
      return (UInt)-1;
   if (!stack_caches[tid])
      stack_caches[tid] = VG_(calloc)("mp.reg.stack", STACK_WAYS, sizeof(stack_cache));
   /* A push or call stores at the SP it has just lowered, a pop or ret
      loads at the SP it is about to raise: below every local of its
      function, in that function's frame (frame 0 of an unwind), with no
      unwind.  A prologue pushes and an epilogue pops at a new SP each:
      unwinding for each was most of the unwinds of -O2 code.  The
      frame's size comes from its other accesses. */
   if ((ii->pushes || ii->pops) && a >= sp && a < sp + 16) {
      if (ii->frame_var == 0)
         ii->frame_var = frame_info_for(ii->iaddr)->frame_var + 1;
      cache_frame(ii, sp, sp, sp + 16, ii->frame_var - 1);
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
         cache_frame(ii, sp, rlo, rhi, var);
      return var;
   }
   for (i = 0; i + 1 < c->n; i++)
      if (a < c->sps[i + 1])
         return frame_var_of(c, i, a, c->sps[i], c->sps[i + 1], tid, ii->iaddr, NULL,
                             NULL);
   return frame_var_of(c, c->n - 1, a, c->sps[c->n - 1], max, tid, ii->iaddr, NULL,
                       NULL);
}

/* Threads alive, the main one included. */
static UInt live_threads = 1;

void mp_registry_threads(ThreadId tid, Int delta)
{
   live_threads += delta;
   new_sect_epoch();   /* other pages may now be a thread's stack */
   /* A later thread given this id may run on the same, reused stack. */
   if (delta < 0 && stack_caches[tid])
      VG_(memset)(stack_caches[tid], 0, STACK_WAYS * sizeof(stack_cache));
   /* ... and the instructions' frames cached (cache_frame) go with it. */
   if (delta < 0)
      mp_g_registry_gen++;
}

/* var of an address on another thread's stack (OpenMP workers reading
   the master's locals, a thread handed a pointer to its creator's
   array), or (UInt)-1.  That thread is not running: its SP and IP are
   where it stopped, so its unwind stays valid until it runs again. */
static stack_cache *foreign_caches;  /* indexed by the owner's ThreadId */

static UInt resolve_foreign_stack(ThreadId tid, Addr a)
{
   ThreadId t;
   Addr lo, hi;
   VG_(thread_stack_reset_iter)(&t);
   while (VG_(thread_stack_next)(&t, &lo, &hi)) {
      stack_cache *c;
      Addr sp, ip;
      UInt i;
      if (t == tid || a + STACK_REDZONE < lo || a > hi)
         continue;
      c = &foreign_caches[t];
      sp = VG_(get_SP)(t);
      ip = VG_(get_IP)(t);
      if (!c->valid || c->sp != sp || c->ip != ip) {
         stats__stack_unwinds++;
         c->n = VG_(get_StackTrace_with_deltas)(t, c->ips, MAX_FRAMES, c->sps,
                                                c->fps, 0, 0);
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
   return (UInt)-1;
}

/*------------------------------------------------------------*/
/*--- Object sections without symbols                      ---*/
/*------------------------------------------------------------*/

static VgHashTable *section_vars;   /* key: interned (object, section) */

static UInt section_var(Addr a)
{
   const HChar *obj = NULL, *base, *sect;
   VgSectKind k = VG_(DebugInfo_sect_kind)(&obj, a);
   stack_var_node *n;
   UInt key;
   if (k == Vg_SectUnknown || obj == NULL) {
      /* Parts of a mapped file no section covers (ELF headers, .dynsym
         and .dynstr read by the dynamic linker): named by the file. */
      NSegment const *seg = VG_(am_find_nsegment)(a);
      if (!seg || seg->kind != SkFileC || !(obj = VG_(am_get_filename)(seg)))
         return other_var;
      sect = "mapped";
   } else {
      sect = VG_(pp_SectKind)(k);
   }
   base = VG_(strrchr)(obj, '/');
   base = base ? base + 1 : obj;
   key = mp_vars_location(mp_g_vars, base, sect);
   n = VG_(HT_lookup)(section_vars, key);
   if (!n) {
      HChar *name = mp_asprintf("%s:%s", base, sect);
      n = VG_(malloc)("mp.reg.sectvar", sizeof *n);
      n->node.key = key;
      n->var = mp_vars_add(mp_g_vars, MP_VAR_OTHER, name, NULL, 0)->id;
      mp_var_set_owner(mp_vars_get(mp_g_vars, n->var), obj);
      VG_(free)(name);
      VG_(HT_add_node)(section_vars, n);
   }
   return n->var;
}

/*------------------------------------------------------------*/
/*--- Resolution                                           ---*/
/*------------------------------------------------------------*/

static void cache_range(mp_instr *ii, uint64_t start, uint64_t len, UInt var)
{
   ii->cache_gen = mp_g_registry_gen;
   ii->cache_lo = start;
   ii->cache_hi = start + len;
   ii->cache_var = var;
   ii->cache_slot = 0;
}

/* The page at base, of "other" memory with no heap block in it, until
   the next block or epoch (mp_g_other_gen). */
static void cache_other(mp_instr *ii, Addr base)
{
   cache_range(ii, base, SECT_PAGE, other_var);
   ii->cache_slot = MP_OTHER_SLOT;
   ii->cache_life = mp_g_other_gen;
}

static void cache_nothing(mp_instr *ii)
{
   ii->cache_gen = mp_g_registry_gen;
   ii->cache_lo = ii->cache_hi = 0;
   ii->cache_slot = 0;
}

/* A heap block of the granule map, by slot. */
static void cache_heap(mp_instr *ii, UInt slot)
{
   cache_range(ii, heap_slots[slot].start, heap_slots[slot].len, heap_slots[slot].var);
   ii->cache_slot = slot + 1;
   ii->cache_life = mp_g_heap_life[slot];
}

UInt mp_registry_resolve(ThreadId tid, Addr a, mp_instr *ii)
{
   uint64_t start, len;
   void *val;
   UInt var;
   /* A global may hold a named range: cache it only when none exists. */
   Bool cacheable = mp_rangemap_count(user_ranges) == 0;

   stats__resolves++;
   if (!cacheable && mp_rangemap_lookup(user_ranges, a, &start, &len, &val)) {
      var = (UInt)((UWord)val - 1);
      cache_range(ii, start, len, var);
      return var;
   }
   var = mp_granmap_get(heap_granules, a);
   if (var != 0) {
      /* A block's last granule may also hold the next chunk's header. */
      if (var != ALLOCATOR_GRANULE
          && a - heap_slots[var - 1].start < heap_slots[var - 1].len) {
         if (cacheable) cache_heap(ii, var - 1); else cache_nothing(ii);
         return heap_slots[var - 1].var;
      }
      /* blocks come and go there: nothing to cache */
      cache_nothing(ii);
      return allocator_var;
   }
   /* No stack or large block lies in an object's section, or in an
      other page (the large block that comes to one makes it stale). */
   var = sect_page_var(a);
   if (var != (UInt)-1) {
      Addr base = a & ~(Addr)(SECT_PAGE - 1);
      if (cacheable && var != other_var) {
         Addr lo, hi;
         sect_run(base, var, &lo, &hi);
         cache_range(ii, lo, hi - lo, var);
      }
      else if (cacheable && mp_granmap_empty(heap_granules, base, SECT_PAGE))
         cache_other(ii, base);
      else
         cache_nothing(ii);
      return var;
   }
   if (mp_rangemap_count(big_blocks) > 0
       && mp_rangemap_lookup(big_blocks, a, &start, &len, &val)) {
      var = heap_slots[(UWord)val - 1].var;
      if (cacheable) cache_range(ii, start, len, var); else cache_nothing(ii);
      return var;
   }
   var = resolve_stack(tid, a, ii);
   if (var == (UInt)-1 && live_threads > 1)
      var = resolve_foreign_stack(tid, a);
   if (var != (UInt)-1)
      return var;   /* resolve_stack cached what holds */
   load_new_objects();
   if (mp_rangemap_lookup(global_ranges, a, &start, &len, &val)) {
      global_sym *g = val;
      if (!g->described) {
         describe_global(g, a);
         place_static_local(g->var, ii->iaddr);
      }
      if (cacheable) cache_range(ii, start, len, g->var); else cache_nothing(ii);
      return g->var;
   }
   if (a >= brk_lo && a < brk_hi) {
      cache_nothing(ii);
      return allocator_var;
   }
   var = section_var(a);
   /* An object's data stays its data until a munmap (which bumps the
      generation); the exact address is cached, so that a PLT stub
      reading its GOT slot again and again is answered at once, and the
      page for every instruction when it is all one section's. */
   if (var != other_var && cacheable) {
      cache_range(ii, a, 1, var);
      remember_sect_page(a, var);
   } else {
      if (cacheable)
         remember_other_page(a);
      cache_nothing(ii);
   }
   return var;
}

/* Where the block (named range, heap block, global) holding a starts,
   for offsets in the report, its length and its variable (len and var
   may be NULL); False for stack and unknown memory. */
Bool mp_registry_block_of(Addr a, Addr *start, SizeT *len, UInt *var)
{
   uint64_t s, l;
   void *val;
   UInt slot;
   if (mp_rangemap_lookup(user_ranges, a, &s, &l, &val)) {
      if (var)
         *var = (UInt)(UWord)val - 1;
   } else if (mp_rangemap_lookup(global_ranges, a, &s, &l, &val)) {
      if (var)
         *var = ((const global_sym *)val)->var;
   } else {
      slot = mp_granmap_get(heap_granules, a);
      if (slot == ALLOCATOR_GRANULE
          || (slot != 0 && a - heap_slots[slot - 1].start >= heap_slots[slot - 1].len))
         return False;
      if (slot == 0) {
         if (!mp_rangemap_lookup(big_blocks, a, &s, &l, &val))
            return False;
         slot = (UInt)(UWord)val;
      } else {
         s = heap_slots[slot - 1].start;
         l = heap_slots[slot - 1].len;
      }
      if (var)
         *var = heap_slots[slot - 1].var;
   }
   *start = (Addr)s;
   if (len)
      *len = (SizeT)l;
   return True;
}

Addr mp_registry_block_start(Addr a, UInt var, const mp_instr *ii)
{
   UInt slot;
   Addr start;
   if (!mp_registry_has_blocks(mp_vars_get(mp_g_vars, var)))
      return 0;
   if (ii->cache_hi - ii->cache_lo > 1 && mp_instr_cache_holds(ii, a))
      return ii->cache_lo;
   slot = mp_granmap_get(heap_granules, a);
   if (slot != 0 && slot != ALLOCATOR_GRANULE
       && a - heap_slots[slot - 1].start < heap_slots[slot - 1].len)
      return heap_slots[slot - 1].start;
   return mp_registry_block_of(a, &start, NULL, NULL) ? start : 0;
}

/*------------------------------------------------------------*/
/*--- Heap blocks and named ranges                         ---*/
/*------------------------------------------------------------*/

void mp_registry_add_heap(Addr a, SizeT len, UInt var)
{
   UInt slot;
   if (heap_free_slot) {
      slot = heap_free_slot - 1;
      heap_free_slot = heap_slots[slot].next_free;
   } else {
      if (n_heap_slots == heap_slots_cap) {
         heap_slots_cap = heap_slots_cap ? 2 * heap_slots_cap : 1024;
         heap_slots = VG_(realloc)("mp.reg.slots", heap_slots,
                                   heap_slots_cap * sizeof *heap_slots);
         mp_g_heap_life = VG_(realloc)("mp.reg.life", mp_g_heap_life,
                                       heap_slots_cap * sizeof *mp_g_heap_life);
      }
      slot = n_heap_slots++;
      mp_g_heap_life[slot] = 0;
   }
   mp_g_other_gen++;   /* the block may lie in a page cached as other */
   heap_slots[slot].start = a;
   heap_slots[slot].len = len;
   heap_slots[slot].var = var;
   heap_slots[slot].next_free = 0;
   /* The chunk header before the block is the allocator's (unless it
      shares its granule with the block before, which has it). */
   if (a >= 16 && mp_granmap_get(heap_granules, a - 16) == 0)
      mp_granmap_set(heap_granules, a - 16, 1, ALLOCATOR_GRANULE);
   if (len >= BIG_BLOCK && mp_rangemap_insert(big_blocks, a, len,
                                              (void *)(UWord)(slot + 1)) == 0) {
      new_sect_epoch();   /* it may lie in pages remembered as other */
      /* where smaller blocks were freed: not the allocator's now */
      mp_granmap_set(heap_granules, a, len, 0);
      return;
   }
   mp_granmap_set(heap_granules, a, len, slot + 1);
}

void mp_registry_allocator_at(Addr fn)
{
   mp_var *v = mp_vars_get(mp_g_vars, allocator_var);
   const HChar *path = v->object || fn == 0 ? NULL : mp_code_object(fn);
   if (path)
      mp_var_set_owner(v, path);
}

void mp_registry_brk(Addr a, SizeT len, Bool grew)
{
   new_sect_epoch();   /* other pages may now be the brk segment's */
   if (grew) {
      if (brk_hi == 0 || a < brk_lo)
         brk_lo = a;
      if (a + len > brk_hi)
         brk_hi = a + len;
   } else if (a + len >= brk_hi && a < brk_hi) {
      brk_hi = a > brk_lo ? a : brk_lo;
   }
}

void mp_registry_remove_heap(Addr a, SizeT len)
{
   UInt slot = mp_granmap_get(heap_granules, a);
   if (slot == 0) {
      void *val;
      if (!mp_rangemap_remove(big_blocks, a, NULL, &val))
         return;
      slot = (UInt)(UWord)val;
      /* instructions may have cached the block's range */
      mp_g_registry_gen++;
   } else {
      /* the allocator's until it is a block again or unmapped */
      mp_granmap_set(heap_granules, a, len, ALLOCATOR_GRANULE);
   }
   heap_slots[slot - 1].next_free = heap_free_slot;
   heap_free_slot = slot;
   /* instructions may have cached the block: no longer theirs */
   mp_g_heap_life[slot - 1]++;
}

Bool mp_registry_name_range(Addr a, SizeT len, const HChar *name)
{
   mp_var *v;
   if (len == 0 || a + len < a)
      return False;
   {
      uint64_t s;
      /* Refuse overlap before creating the variable. */
      if (mp_rangemap_lookup(user_ranges, a, &s, NULL, NULL)
          || mp_rangemap_lookup(user_ranges, a + len - 1, &s, NULL, NULL))
         return False;
   }
   v = mp_vars_add(mp_g_vars, MP_VAR_OTHER, name, NULL, len);
   v->named_by = VG_(strdup)("mp.reg.namedby", "MEMPROF_NAME_RANGE");
   if (mp_rangemap_insert(user_ranges, a, len, (void *)(UWord)(v->id + 1)) != 0) {
      /* A smaller range inside: the variable stays, unused. */
      return False;
   }
   mp_g_registry_gen++;
   return True;
}

Bool mp_registry_unname_range(Addr a)
{
   if (!mp_rangemap_remove(user_ranges, a, NULL, NULL))
      return False;
   mp_g_registry_gen++;
   return True;
}

void mp_registry_init(void)
{
   user_ranges = mp_rangemap_new();
   heap_granules = mp_granmap_new();
   big_blocks = mp_rangemap_new();
   global_ranges = mp_rangemap_new();
   objects = VG_(newXA)(VG_(malloc), "mp.reg.objects", VG_(free),
                        sizeof(loaded_object));
   stack_caches = VG_(calloc)("mp.reg.stacks", VG_N_THREADS + 1, sizeof(stack_cache *));
   stack_victim = VG_(calloc)("mp.reg.victims", VG_N_THREADS + 1, sizeof(UInt));
   foreign_caches = VG_(calloc)("mp.reg.fstacks", VG_N_THREADS + 1, sizeof(stack_cache));
   stack_vars = VG_(HT_construct)("mp.reg.stackvars");
   frame_infos = VG_(HT_construct)("mp.reg.frames");
   section_vars = VG_(HT_construct)("mp.reg.sectvars");
   other_var = mp_vars_add(mp_g_vars, MP_VAR_OTHER, "other", NULL, 0)->id;
   mp_vars_get(mp_g_vars, other_var)->cls = MP_CLASS_OTHER;
   allocator_var = mp_vars_add(mp_g_vars, MP_VAR_OTHER,
                               "malloc (allocator internals)", NULL, 0)->id;
   /* the C library's, until a block names the allocator's object */
   mp_vars_get(mp_g_vars, allocator_var)->cls = MP_CLASS_RUNTIME;
}
