/*--------------------------------------------------------------------*/
/*--- memprof: the registry's sections, pages.   mp_reg_sections.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The last steps of the cascade: the section of a loaded object an
   address lies in, for data that no symbol covers (GOT, relocated
   pointers, .dynsym read by the dynamic linker): "<object>:<section>",
   kind other, owned by the object; else "other", memory of no
   variable, owned by no one.  And the page table that answers for
   whole pages found to be one section's, or "other", before the
   stacks and globals are asked, since they cannot claim such a page
   until an mmap, munmap, brk change, thread start or large block
   (each ends the epoch).
*/
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"

#include "mp_registry_int.h"
#include "mp_util.h"

UInt mp_g_other_var;
static VgHashTable *section_vars;   /* key: interned (object, section) */

void mp_reg_sections_init(void)
{
   section_vars = VG_(HT_construct)("mp.reg.sectvars");
   mp_g_other_var = mp_vars_add(mp_g_vars, MP_VAR_OTHER, "other", NULL, 0)->id;
   mp_vars_get(mp_g_vars, mp_g_other_var)->cls = MP_CLASS_OTHER;
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
#define SECT_PAGE       MP_REG_PAGE
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
void mp_reg_sections_new_epoch(void)
{
   sect_epoch++;
   mp_g_other_gen++;
}

static sect_page *sect_slot(Addr base)
{
   return &sect_pages[(base / SECT_PAGE) & (SECT_PAGES - 1)];
}

/* a's page's variable if known, else MP_REG_NONE. */
static UInt sect_page_var(Addr a)
{
   Addr base = a & ~(Addr)(SECT_PAGE - 1);
   const sect_page *p = sect_slot(base);
   /* var is MP_REG_NONE for a page known to be mixed */
   return p->page == base + 1 && p->epoch == sect_epoch ? p->var : MP_REG_NONE;
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
   p->var = MP_REG_NONE;
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
       || mp_reg_globals_overlaps(base, base + SECT_PAGE - 1)
       || mp_reg_named_overlaps(base, base + SECT_PAGE - 1))
      return;
   for (off = SECT_STEP; off < SECT_PAGE; off += SECT_STEP) {
      const HChar *obj = NULL;
      if (VG_(DebugInfo_sect_kind)(&obj, base + off) != k0 || obj != obj0)
         return;
   }
   p->var = var;
}

/* The threads' stacks, as the core gives them, read again in each
   epoch (a thread started or ended bumps it): walking the core's thread
   table at every look-up cost python3 4% of its run. */
typedef struct { Addr lo, hi; } stack_range;
static stack_range *stacks;   /* VG_N_THREADS of them */
static UInt n_stacks, stacks_epoch;

/* Does [lo, hi] touch a thread's stack or the red zone below it?  A
   stack pointer moves with no event, so such memory may become a
   frame's. */
static Bool near_a_stack(Addr lo, Addr hi)
{
   UInt i;
   if (stacks_epoch != sect_epoch) {
      ThreadId t;
      Addr slo, shi;
      if (!stacks)
         stacks = VG_(malloc)("mp.reg.stacks", VG_N_THREADS * sizeof *stacks);
      n_stacks = 0;
      VG_(thread_stack_reset_iter)(&t);
      while (n_stacks < VG_N_THREADS && VG_(thread_stack_next)(&t, &slo, &shi)) {
         stacks[n_stacks].lo = slo;
         stacks[n_stacks++].hi = shi;
      }
      stacks_epoch = sect_epoch;
   }
   for (i = 0; i < n_stacks; i++)
      if (lo <= stacks[i].hi && hi + MP_REG_REDZONE >= stacks[i].lo)
         return True;
   return False;
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
   if (mp_reg_heap_overlaps(base, end) || mp_reg_globals_overlaps(base, end)
       || near_a_stack(base, end))
      return;
   p->var = mp_g_other_var;
}

static UInt section_var(Addr a)
{
   const HChar *obj = NULL, *base, *sect;
   VgSectKind k = VG_(DebugInfo_sect_kind)(&obj, a);
   mp_reg_var_node *n;
   UInt key;
   if (k == Vg_SectUnknown || obj == NULL) {
      /* Parts of a mapped file no section covers (ELF headers, .dynsym
         and .dynstr read by the dynamic linker): named by the file. */
      NSegment const *seg = VG_(am_find_nsegment)(a);
      if (!seg || seg->kind != SkFileC || !(obj = VG_(am_get_filename)(seg)))
         return mp_g_other_var;
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

/* section_var's answers by address.  An access in a page that the page
   memo refuses (one holding a global symbol, or the end of one section
   and the start of another, or anonymous memory beside heap blocks)
   reaches section_var every time: a look-up of the object's section,
   its file name and their variable, 3% of Valgrind's process's samples
   on sqlite3, whose 786k such look-ups asked an address asked before
   99% of the time.  Direct-mapped; an entry is valid in its epoch, as the
   page memo's, since only a mapping made or removed changes the
   answer. */
#define SECT_ADDRS      4096          /* entries, a power of two */

typedef struct {
   Addr addr;       /* address + 1; 0: empty */
   UInt epoch;
   UInt var;
} sect_addr;

static sect_addr sect_addrs[SECT_ADDRS];

static UInt section_var_memo(Addr a)
{
   sect_addr *m = &sect_addrs[(a ^ a >> 12) & (SECT_ADDRS - 1)];
   if (m->addr != a + 1 || m->epoch != sect_epoch) {
      m->var = section_var(a);
      m->addr = a + 1;
      m->epoch = sect_epoch;
   }
   return m->var;
}

/*------------------------------------------------------------*/
/*--- Resolution                                           ---*/
/*------------------------------------------------------------*/

/* No stack or large block lies in an object's section, or in an other
   page (the large block that comes to one makes it stale). */
UInt mp_reg_pages_resolve(Addr a, mp_instr *ii, Bool cacheable)
{
   UInt var = sect_page_var(a);
   Addr base = a & ~(Addr)(SECT_PAGE - 1);
   if (var == MP_REG_NONE)
      return MP_REG_NONE;
   if (cacheable && var != mp_g_other_var) {
      Addr lo, hi;
      sect_run(base, var, &lo, &hi);
      mp_reg_cache_range(ii, lo, hi - lo, var);
   }
   else if (cacheable && mp_reg_heap_empty(base, SECT_PAGE))
      mp_reg_cache_other(ii, base, MP_REG_PAGE);
   else
      mp_reg_cache_nothing(ii);
   return var;
}

UInt mp_reg_sections_resolve(Addr a, mp_instr *ii, Bool cacheable)
{
   UInt var = section_var_memo(a);
   /* An object's data stays its data until a munmap (which bumps the
      generation); the exact address is cached, so that a PLT stub
      reading its GOT slot again and again is answered at once, and the
      page for every instruction when it is all one section's. */
   if (var != mp_g_other_var && cacheable) {
      mp_reg_cache_range(ii, a, 1, var);
      remember_sect_page(a, var);
   } else {
      if (cacheable)
         remember_other_page(a);
      /* Where the page memo refuses the page (the first of an anonymous
         mapping after an object's, whose .bss may end there), the exact
         address is cached, as a GOT slot's: the main thread's control
         block (its TLS) lies there, whose stack-protector canary every
         function built with -fstack-protector reads (408k of sqlite3's
         resolutions, 220k of them then answered here; a heap block
         made ends every such answer).  No heap block holds it
         (the heap's resolver was asked first). */
      if (cacheable && var == mp_g_other_var && !near_a_stack(a, a))
         mp_reg_cache_other(ii, a, 1);
      else
         mp_reg_cache_nothing(ii);
   }
   return var;
}
