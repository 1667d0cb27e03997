/*--------------------------------------------------------------------*/
/*--- memprof: the locals of inlined functions.        mp_inlvars.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Per object of the program, its inlined functions' locals as the
   reader gives them (link-time code ranges, sorted by start), read the
   first time an address of it is asked about, and the question: which
   of them are in scope at a code address.  The ELF file is read whole
   section by section (the debug sections only), then let go; the
   records stay.
*/
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"

#include "mp_elf.h"
#include "mp_inlvars.h"
#include "mp_owner.h"

#define MAX_OBJECTS 64   /* program objects read at most; more are not */

/* One object's locals.  max_hi[k]: the highest hi among locals[0..k],
   so that a look-up walks back from the last local starting at or
   below the address only while one could still hold it. */
typedef struct {
   HChar *path;
   Addr text_avma;             /* identifies the mapping */
   PtrdiffT bias;              /* run-time minus link-time addresses */
   mp_dw_local *locals;
   ULong *max_hi;
   UInt n;
} object;

static object objects[MAX_OBJECTS];
static UInt n_objects;
static ULong n_locals, n_asked, n_found, n_skipped_units, read_ms;
static UInt n_unreadable;

/* The sections the reader takes, by name, and where their buffers go. */
static Bool wanted(mp_dwarf_sections *s, const HChar *name, const uint8_t ***buf,
                   uint64_t **size)
{
   static const struct {
      const HChar *name;
      SizeT buf, size;
   } table[] = {
#define SECTION(n) { ".debug_" #n, __builtin_offsetof(mp_dwarf_sections, n), \
                     __builtin_offsetof(mp_dwarf_sections, n##_size) }
      SECTION(info), SECTION(abbrev), SECTION(str), SECTION(line_str),
      SECTION(str_offsets), SECTION(addr), SECTION(rnglists), SECTION(loclists),
      SECTION(ranges), SECTION(loc),
#undef SECTION
   };
   UInt i;
   for (i = 0; i < sizeof table / sizeof table[0]; i++)
      if (VG_(strcmp)(name, table[i].name) == 0) {
         *buf = (const uint8_t **)((UChar *)s + table[i].buf);
         *size = (uint64_t *)((UChar *)s + table[i].size);
         return True;
      }
   return False;
}

static void free_sections(mp_dwarf_sections *s)
{
   const uint8_t *bufs[] = { s->info, s->abbrev, s->str, s->line_str, s->str_offsets,
                             s->addr, s->rnglists, s->loclists, s->ranges, s->loc };
   UInt i;
   for (i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
      if (bufs[i])
         VG_(free)((void *)bufs[i]);
}

/* Reads the debug sections of the ELF file at path into s; False (s
   emptied) if it has no .debug_info or one is compressed or cannot be
   read. */
static Bool read_sections(const HChar *path, mp_dwarf_sections *s)
{
   HChar name[24];
   mp_elf e;
   ULong i;
   Bool ok = True;
   VG_(memset)(s, 0, sizeof *s);
   if (!mp_elf_open(path, &e))
      return False;
   for (i = 0; i < e.shnum && ok; i++) {
      const uint8_t **buf;
      uint64_t *size;
      mp_elf_section sh;
      UChar *data;
      if (!mp_elf_section_at(&e, i, name, sizeof name, &sh)
          || !wanted(s, name, &buf, &size) || *buf != NULL)
         continue;
      if (sh.flags & MP_ELF_SHF_COMPRESSED) {
         ok = False;      /* zlib's; the reader takes plain sections */
         break;
      }
      data = VG_(malloc)("mp.inlvars.section", sh.size ? sh.size : 1);
      if (sh.size > 0 && !mp_elf_read(&e, sh.offset, data, sh.size)) {
         VG_(free)(data);
         ok = False;
         break;
      }
      *buf = data;
      *size = sh.size;
   }
   mp_elf_close(&e);
   if (!ok || s->info == NULL || s->abbrev == NULL) {
      free_sections(s);
      VG_(memset)(s, 0, sizeof *s);
      return False;
   }
   return True;
}

/* The object of code address ip, read on first use; NULL if it is no
   program's or has no locals to give. */
static object *object_of(Addr ip)
{
   const DebugInfo *di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), ip);
   const HChar *path;
   mp_dwarf_sections s;
   mp_dw_local *locals;
   object *o;
   size_t n, skipped = 0, k;
   UInt i, t0;
   if (di == NULL || (path = VG_(DebugInfo_get_filename)(di)) == NULL)
      return NULL;
   for (i = 0; i < n_objects; i++)
      if (objects[i].text_avma == VG_(DebugInfo_get_text_avma)(di)
          && VG_(strcmp)(objects[i].path, path) == 0)
         return objects[i].n ? &objects[i] : NULL;
   if (n_objects == MAX_OBJECTS || mp_class_of_object(path) != MP_CLASS_PROGRAM)
      return NULL;
   o = &objects[n_objects++];
   VG_(memset)(o, 0, sizeof *o);
   o->path = VG_(strdup)("mp.inlvars.path", path);
   o->text_avma = VG_(DebugInfo_get_text_avma)(di);
   o->bias = VG_(DebugInfo_get_text_bias)(di);
   t0 = VG_(read_millisecond_timer)();
   if (!read_sections(path, &s)) {
      n_unreadable++;
      return NULL;
   }
   n = mp_dwarf_read_inlined_locals(&s, &locals, &skipped);
   free_sections(&s);
   read_ms += VG_(read_millisecond_timer)() - t0;
   n_skipped_units += skipped;
   if (n == 0)
      return NULL;
   o->locals = locals;
   o->n = (UInt)n;
   o->max_hi = VG_(malloc)("mp.inlvars.maxhi", n * sizeof(ULong));
   for (k = 0; k < n; k++)
      o->max_hi[k] = k == 0 || locals[k].hi > o->max_hi[k - 1] ? locals[k].hi : o->max_hi[k - 1];
   n_locals += n;
   return o;
}

UInt mp_inlvars_at(Addr ip, const mp_dw_local ***out)
{
#if defined(VGA_amd64)
   object *o = object_of(ip);
   ULong at;
   UInt lo, hi, n = 0;
   Int k;
   *out = NULL;
   n_asked++;
   if (o == NULL)
      return 0;
   at = (ULong)(ip - o->bias);
   /* the last local starting at or below at */
   for (lo = 0, hi = o->n; lo < hi;) {
      UInt mid = lo + (hi - lo) / 2;
      if (o->locals[mid].lo <= at)
         lo = mid + 1;
      else
         hi = mid;
   }
   for (k = (Int)lo - 1; k >= 0 && o->max_hi[k] > at; k--)
      if (o->locals[k].hi > at) {
         if (*out == NULL)
            *out = VG_(malloc)("mp.inlvars.found", (SizeT)lo * sizeof(**out));
         (*out)[n++] = &o->locals[k];
      }
   n_found += n > 0;
   return n;
#else
   *out = NULL;
   return 0;
#endif
}

void mp_inlvars_stats(void)
{
   VG_(dmsg)("memprof: inlined functions' locals: %llu in %u objects, read in %llu ms "
             "(%llu units not readable, %u objects without readable sections); "
             "%llu of %llu code addresses have some\n",
             n_locals, n_objects, read_ms, n_skipped_units, n_unreadable, n_found, n_asked);
}
