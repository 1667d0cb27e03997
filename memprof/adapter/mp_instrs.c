/*--------------------------------------------------------------------*/
/*--- memprof: one record per guest instruction.       mp_instrs.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The table of the instructions' records (mp_instr, mp_tool.h): one
   per guest instruction address, made the first time the instrumenter
   (mp_instrument.c) meets the address and shared by every later
   translation of it, so retranslation does not grow memory.  A record
   carries the instruction's names and the state the access path keeps
   for it (its cached resolution, its counts record, its stride runs).

   The instrumenter makes the records; what keeps state in them walks
   the table when that state must be made complete or forgotten for
   every instruction at once (the stride step, mp_an_stride.h, at an
   output and in a forked child).
*/
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_mallocfree.h"

#include "mp_loopnest.h"
#include "mp_tool.h"
#include "mp_util.h"

typedef struct {
   VgHashNode node;   /* key: iaddr */
   mp_instr ii;
} instr_node;

static VgHashTable *instrs;
ULong stats__instrs = 0;

void mp_instrs_init(void)
{
   instrs = VG_(HT_construct)("mp.instrs");
}

/* "file:line" of iaddr (freed by the caller), or NULL. */
static HChar *describe_where(Addr iaddr)
{
   const HChar *file, *dir;
   UInt line;
   DiEpoch ep = VG_(current_DiEpoch)();
   if (!VG_(get_filename_linenum)(ep, iaddr, &file, &dir, &line))
      return NULL;
   return mp_asprintf("%s:%u", file, line);
}

mp_instr *mp_instrs_get(Addr iaddr)
{
   instr_node *n = VG_(HT_lookup)(instrs, iaddr);
   HChar *where;
   const HChar *fn;
   DiEpoch ep = VG_(current_DiEpoch)();
   if (n)
      return &n->ii;
   stats__instrs++;
   n = VG_(calloc)("mp.instr.1", 1, sizeof *n);
   n->node.key = iaddr;
   n->ii.iaddr = iaddr;
   if (!VG_(get_fnname)(ep, iaddr, &fn))
      fn = NULL;
   /* A PLT stub's jump to the resolver (PLT0) goes backwards, and all
      code without a symbol would be one function "???" spanning
      objects: neither has loops of the program. */
   n->ii.no_loops = fn == NULL
                    || VG_(DebugInfo_sect_kind)(NULL, iaddr) == Vg_SectPLT;
   /* get_fnname's buffer is overwritten by the next call: intern now. */
   n->ii.fn = mp_vars_location(mp_g_vars, NULL, fn ? fn : "???");
   where = describe_where(iaddr);
   if (!VG_(get_fnname)(ep, iaddr, &fn))
      fn = NULL;
   n->ii.loc = mp_vars_location(mp_g_vars, where, fn);
   if (where)
      VG_(free)(where);
   else {
      /* Without a source line, the object is what the advice can name. */
      const HChar *obj;
      if (VG_(get_objname)(ep, iaddr, &obj))
         mp_vars_location_set_object(mp_g_vars, n->ii.loc, obj);
   }
   n->ii.cache_gen = (UInt)-1;
   if (mp_g_loops)
      mp_loopnest_register_instr(&n->ii);
   VG_(HT_add_node)(instrs, n);
   return &n->ii;
}

void mp_instrs_walk_start(void)
{
   VG_(HT_ResetIter)(instrs);
}

mp_instr *mp_instrs_walk_next(void)
{
   instr_node *n = VG_(HT_Next)(instrs);
   return n ? &n->ii : NULL;
}

/*------------------------------------------------------------*/
/*--- Segments (--sample=lines)                            ---*/
/*------------------------------------------------------------*/

/* Each member: an instruction and its unconditional loads and stores
   per execution of the segment. */
typedef struct {
   mp_instr *ii;
   UInt per_exec[2];
} segment_member;

struct mp_segment {
   ULong executions;          /* the translated code's counter */
   UInt n, cap;
   segment_member *members;
   struct mp_segment *next;   /* every segment, newest first */
};

static mp_segment *segments;

mp_segment *mp_segment_new(void)
{
   mp_segment *s = VG_(calloc)("mp.segment", 1, sizeof *s);
   s->next = segments;
   segments = s;
   return s;
}

void mp_segment_add(mp_segment *s, mp_instr *ii, Bool is_write)
{
   UInt i;
   for (i = 0; i < s->n; i++)
      if (s->members[i].ii == ii)
         break;
   if (i == s->n) {
      if (s->n == s->cap) {
         s->cap = s->cap ? 2 * s->cap : 4;
         s->members = VG_(realloc)("mp.segment.members", s->members,
                                   s->cap * sizeof *s->members);
      }
      s->members[s->n].ii = ii;
      s->members[s->n].per_exec[0] = s->members[s->n].per_exec[1] = 0;
      s->n++;
   }
   s->members[i].per_exec[is_write ? 1 : 0]++;
}

ULong *mp_segment_counter(mp_segment *s)
{
   return &s->executions;
}

void mp_segments_settle(void)
{
   mp_segment *s;
   UInt i;
   for (s = segments; s; s = s->next) {
      if (s->executions == 0)
         continue;
      for (i = 0; i < s->n; i++) {
         s->members[i].ii->executed[0] += s->executions * s->members[i].per_exec[0];
         s->members[i].ii->executed[1] += s->executions * s->members[i].per_exec[1];
      }
      s->executions = 0;
   }
}
