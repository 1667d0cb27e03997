/*--------------------------------------------------------------------*/
/*--- memprof: the registry's user-named ranges.    mp_reg_named.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The ranges a program names with MEMPROF_NAME_RANGE: the first step
   of the registry's cascade, since a range may lie inside a heap block
   or a global and then wins over it.  Ranges never overlap (a second
   one that would is refused); a look-up is O(log n).  While any range
   exists the other resolvers cache nothing that could hide one.
*/
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

#include "mp_rangemap.h"
#include "mp_registry_int.h"

static mp_rangemap *user_ranges;  /* value: var id + 1 */

void mp_reg_named_init(void)
{
   user_ranges = mp_rangemap_new();
}

UInt mp_reg_n_named;

Bool mp_reg_named_lookup(Addr a, Addr *start, SizeT *len, UInt *var)
{
   uint64_t s, l;
   void *val;
   if (!mp_rangemap_lookup(user_ranges, a, &s, &l, &val))
      return False;
   *start = (Addr)s;
   *len = (SizeT)l;
   *var = (UInt)((UWord)val - 1);
   return True;
}

Bool mp_reg_named_overlaps(Addr lo, Addr hi)
{
   return mp_rangemap_overlaps(user_ranges, lo, hi) != 0;
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
   mp_reg_n_named = (UInt)mp_rangemap_count(user_ranges);
   mp_g_registry_gen++;
   return True;
}

Bool mp_registry_unname_range(Addr a)
{
   if (!mp_rangemap_remove(user_ranges, a, NULL, NULL))
      return False;
   mp_reg_n_named = (UInt)mp_rangemap_count(user_ranges);
   mp_g_registry_gen++;
   return True;
}
