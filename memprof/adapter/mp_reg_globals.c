/*--------------------------------------------------------------------*/
/*--- memprof: the registry's globals.            mp_reg_globals.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Globals and statics: the data symbols of every loaded object, read
   from its symbol table (works without -g) the first time an address
   is not found after the object was mapped, and dropped when it is
   unmapped.  A look-up is O(log n) in an interval map.  A static
   local is placed in its function at its first access; with
   --read-var-info=yes a global's declaration is read then too, from
   the debug information's description of its address
   (mp_registry_describe, which the stack's locals use as well).
*/
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_xarray.h"

#include "mp_naming.h"
#include "mp_rangemap.h"
#include "mp_registry_int.h"
#include "mp_util.h"
#include "mp_vgcompat.h"

typedef struct {
   UInt var;
   Bool described;   /* declaration looked up (--read-var-info) */
} global_sym;

typedef struct {
   Addr text_avma;
   const HChar *filename;   /* the core's, valid while loaded */
} loaded_object;

static mp_rangemap *global_ranges;/* value: global_sym* */
static XArray *objects;        /* of loaded_object: symbols registered */
static Bool    objects_stale = True;

void mp_reg_globals_init(void)
{
   global_ranges = mp_rangemap_new();
   objects = VG_(newXA)(VG_(malloc), "mp.reg.objects", VG_(free),
                        sizeof(loaded_object));
}

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

void mp_reg_globals_note_mmap(void)
{
   objects_stale = True;
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

void mp_reg_globals_unmap(Addr a, SizeT len)
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
   for (i = VG_(sizeXA)(objects) - 1; i >= 0; i--) {
      loaded_object *o = VG_(indexXA)(objects, i);
      if (o->text_avma >= w.lo && o->text_avma < w.hi)
         VG_(removeIndexXA)(objects, i);
   }
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
/*--- Resolution                                           ---*/
/*------------------------------------------------------------*/

UInt mp_reg_globals_resolve(Addr a, mp_instr *ii, Bool cacheable)
{
   uint64_t start, len;
   void *val;
   global_sym *g;
   load_new_objects();
   if (!mp_rangemap_lookup(global_ranges, a, &start, &len, &val))
      return MP_REG_NONE;
   g = val;
   if (!g->described) {
      describe_global(g, a);
      place_static_local(g->var, ii->iaddr);
   }
   if (cacheable)
      mp_reg_cache_range(ii, start, len, g->var);
   else
      mp_reg_cache_nothing(ii);
   return g->var;
}

Bool mp_reg_globals_lookup(Addr a, Addr *start, SizeT *len, UInt *var)
{
   uint64_t s, l;
   void *val;
   if (!mp_rangemap_lookup(global_ranges, a, &s, &l, &val))
      return False;
   *start = (Addr)s;
   *len = (SizeT)l;
   *var = ((const global_sym *)val)->var;
   return True;
}

Bool mp_reg_globals_overlaps(Addr lo, Addr hi)
{
   return mp_rangemap_overlaps(global_ranges, lo, hi) != 0;
}
