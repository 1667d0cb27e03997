/*--------------------------------------------------------------------*/
/*--- memprof: naming heap allocation sites.             mp_sites.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   A heap variable is named where the program receives its block: at
   the first frame, going out from the allocation call, whose callee
   did not return the block.  Real code allocates through wrappers
   (xmalloc, g_malloc, a suite's alloc_data, std::vector's allocator),
   and the wrapper's line names nothing the user wrote.

   Wrappers are found at run time, not by name: when a site is new,
   the return address of each frame from the allocating one outward is
   watched (mp_instrument.c calls mp_sites_return there), and the value
   the callee returns is compared with the block (a pointer into it
   counts: allocators with a header return past it).  The verdict belongs
   to the call site (its return address) and is kept, so a call site is
   watched once in the run: after the verdict its watch is an inline
   load and compare, the helper no longer called.  posix_memalign's out-parameter tells
   directly which frame the block went to.  --alloc-fn=NAME marks a
   wrapper by name, as in Massif.

   The name at that frame comes from its source line (mp_naming.c):
   the assignment's left-hand side, the object of a method, the
   variable a constructor or a declaration macro declares, the
   out-parameter.  Frames in system headers (the C++ library's
   templates) are passed over to the program's own line.  Without
   debug information the name is the frame's function, heap@fn, with a
   suffix #2, #3 ... where two sites would share one.

   A function inlined into its caller is a frame too (Valgrind's inline
   information, which memprof reads by default): a wrapper from the
   program's own header (static inline CALLOC storing calloc's block in
   a local it returns) is passed over to the line that calls it, as a
   called wrapper is, and the C++ library's templates inlined into
   main are passed over to main's line (std::vector<double> v(n)).
   An inlined wrapper's return cannot be watched: the wrapper is passed
   over when its line keeps the block in a plain local or returns the
   call's value, and the line that calls it calls the wrapper.

   A site is named at once from its allocating frame; when the watched
   returns move it outward, it is named again.  A site whose wrapper
   never returns before the exit (exit() called below it) keeps its
   first name.  Cost: per new site, a stack walk and source line reads;
   per watched return address, one translation discarded, a helper
   call each time it runs until the verdict and a load after it.
   Nothing per access.
*/
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_machine.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_transtab.h"
#include "pub_tool_vki.h"
#include "pub_tool_wordfm.h"

#include "mp_clo.h"
#include "mp_naming.h"
#include "mp_srctype.h"
#include "mp_tool.h"
#include "mp_util.h"

/* What a call site's callee did with the block allocated below it. */
typedef enum {
   CALLEE_PENDING,   /* watched: its return not seen yet */
   CALLEE_RETURNS,   /* returned it: a wrapper */
   CALLEE_KEEPS      /* returned something else: the caller is not the receiver */
} callee_verdict;

/* Keyed by the call site's return address. */
typedef struct {
   VgHashNode node;
   callee_verdict verdict;
   /* Read inline by the watch at the return address (its guard): the
      helper runs only while this is 1.  The record is never freed, so
      translations may keep its address. */
   UInt watching;
   /* while pending: the return being waited for */
   ThreadId tid;
   Addr block;
   SizeT size;
   Addr callee_sp;   /* the callee's frame; a return with SP at or below
                        it is a deeper recursion's */
} call_site;

/* A site whose receiving frame waits on watched returns. */
typedef struct pending_site {
   UInt var;
   UInt n;
   UInt start;            /* frame the walk starts from */
   UInt named_at;         /* frame its current name comes from */
   Addr *ips;             /* return addresses - 1 above frame 0 */
   struct pending_site *next;
} pending_site;

static VgHashTable *call_sites;
static pending_site *pending;
static VgHashTable *line_sites;   /* key: location id; value: its calls */
/* The sites named after the library call that kept their block (key:
   variable id): suffixed #2, #3 ... as the sites named after a
   function are. */
static VgHashTable *library_sites;

/* The type a site's naming line gives its blocks, and the file that
   line is in, where the structure's definition is looked for at exit
   (mp_sites_field_name); its members, once read. */
typedef struct {
   VgHashNode node;          /* key: variable id */
   HChar *type, *path;       /* owned; type NULL: none */
   mp_src_field *fields;     /* owned, once read */
   mp_struct_unit *units;    /* owned: the fields' offsets and sizes */
   uint32_t n_fields;
   uint64_t size;
   Bool read;
} site_type;
static VgHashTable *site_types;

/* The allocating calls of one source line, by the address of the call
   instruction, in the order the run first named a site at each. */
typedef struct {
   VgHashNode node;
   UInt n;
   Addr *calls;
} line_count;

/*------------------------------------------------------------*/
/*--- Frames                                               ---*/
/*------------------------------------------------------------*/

/* dir/file, or file when it is absolute or dir unknown. */
static HChar *source_path(const HChar *dir, const HChar *file)
{
   if (file[0] == '/' || dir == NULL || dir[0] == '\0')
      return mp_asprintf("%s", file);
   return mp_asprintf("%s/%s", dir, file);
}

/* Line 'line' of dir/file, whole (freed by the caller), or NULL if
   unreadable. */
static HChar *read_source_line(const HChar *dir, const HChar *file, UInt line)
{
   HChar *path, chunk[4096];
   mp_strbuf text = MP_STRBUF_INIT;
   SysRes sr;
   Int fd, got, i, from;
   UInt cur = 1;
   path = source_path(dir, file);
   sr = VG_(open)(path, VKI_O_RDONLY, 0);
   VG_(free)(path);
   if (sr_isError(sr))
      return NULL;
   fd = sr_Res(sr);
   while (cur <= line && (got = VG_(read)(fd, chunk, sizeof chunk)) > 0) {
      for (i = 0, from = 0; i < got && cur <= line; i++) {
         if (chunk[i] != '\n')
            continue;
         if (cur == line)
            mp_strbuf_add(&text, chunk + from, i - from);
         cur++;
         from = i + 1;
      }
      if (cur == line && from < got)
         mp_strbuf_add(&text, chunk + from, got - from);
   }
   VG_(close)(fd);
   if (cur <= line && text.len == 0) {
      if (text.s)
         VG_(free)(text.s);
      return NULL;
   }
   return mp_strbuf_take(&text);
}

static Bool is_alloc_fn_option(const HChar *fn)
{
   Int i;
   for (i = 0; i < mp_clo_n_alloc_fns; i++)
      if (VG_(strcmp)(fn, mp_clo_alloc_fns[i]) == 0)
         return True;
   return False;
}

/* Whether fn is an allocation function itself (its caller allocates):
   malloc calling itself through an alias, operator new calling malloc,
   realloc(NULL, n) calling malloc; or a wrapper named by --alloc-fn. */
static Bool is_allocator_fn(const HChar *fn)
{
   static const HChar *const names[] = {
      "malloc", "calloc", "realloc", "reallocarray", "free", "memalign",
      "aligned_alloc", "posix_memalign", "valloc", "pvalloc",
      "__libc_malloc", "__libc_calloc", "__libc_realloc",
      "__libc_memalign", "_mid_memalign", NULL
   };
   Int i;
   if (VG_(strncmp)(fn, "operator new", 12) == 0
       || VG_(strncmp)(fn, "operator delete", 15) == 0)
      return True;
   for (i = 0; names[i]; i++)
      if (VG_(strcmp)(fn, names[i]) == 0)
         return True;
   return is_alloc_fn_option(fn);
}

/* The allocating frame: the first one that is neither memprof's
   wrapper (in vgpreload_memprof) nor an allocation function that the
   wrapped one was called from. */
static UInt allocating_frame(const Addr *ips, UInt n)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   UInt i;
   for (i = 0; i < n; i++) {
      const HChar *obj, *fn;
      if (VG_(get_objname)(ep, ips[i], &obj)
          && VG_(strstr)(obj, "vgpreload_") != NULL)
         continue;
      if (VG_(get_fnname)(ep, ips[i], &fn) && is_allocator_fn(fn))
         continue;
      return i;
   }
   return n - 1;
}

/* Source in the system's headers (the C++ library's containers and
   allocators): the program does not name its data there. */
static Bool is_system_source(const HChar *dir, const HChar *file)
{
   const HChar *path = file[0] == '/' || dir == NULL ? file : dir;
   return VG_(strncmp)(path, "/usr/include/", 13) == 0
          || VG_(strncmp)(path, "/usr/lib/", 9) == 0;
}

/*------------------------------------------------------------*/
/*--- Names                                                ---*/
/*------------------------------------------------------------*/

/* Which of the allocating calls of the source line 'where' the call
   at ip is, from 0, in the order the run reached them: "a = malloc(n);
   b = malloc(n);" runs in that order, so the k-th call takes the
   line's k-th allocating statement.  Keyed by the call's instruction,
   not by the sites: a call reached from several call stacks makes a
   site each, and each is the same statement; a site named again when
   a wrapper's return moves it outward counts once. */
static UInt call_on_line(const HChar *where, Addr ip)
{
   UWord key = mp_vars_location(mp_g_vars, where, NULL);
   line_count *c = VG_(HT_lookup)(line_sites, key);
   UInt k;
   if (!c) {
      c = VG_(calloc)("mp.sites.line", 1, sizeof *c);
      c->node.key = key;
      VG_(HT_add_node)(line_sites, c);
   }
   for (k = 0; k < c->n; k++)
      if (c->calls[k] == ip)
         return k;
   c->calls = VG_(realloc)("mp.sites.calls", c->calls, (c->n + 1) * sizeof *c->calls);
   c->calls[c->n] = ip;
   return c->n++;
}

/* One level of the calls inlined at an instruction, innermost first:
   the function and the source line (for the levels out of the
   innermost, the line of the inlined call). */
#define MAX_INLINE 16
typedef struct {
   HChar fn[128];
   HChar file[256];
   UInt line;
} inl_level;

/* Parses describe_IP's "0x...: FN (FILE:LINE)"; False without a
   source line ("(in OBJECT)"). */
static Bool parse_level(const HChar *text, inl_level *lv)
{
   const HChar *fn = VG_(strstr)(text, ": "), *open, *colon, *end;
   SizeT len;
   if (fn == NULL)
      return False;
   fn += 2;
   end = text + VG_(strlen)(text);
   if (end == fn || end[-1] != ')')
      return False;
   open = end - 1;
   while (open > fn && *open != '(')
      open--;
   colon = end - 1;
   while (colon > open && *colon != ':')
      colon--;
   if (open == fn || colon == open || open[-1] != ' ')
      return False;
   lv->line = (UInt)VG_(strtoll10)(colon + 1, NULL);
   len = (SizeT)(open - 1 - fn) < sizeof lv->fn - 1 ? (SizeT)(open - 1 - fn) : sizeof lv->fn - 1;
   VG_(memcpy)(lv->fn, fn, len);
   lv->fn[len] = '\0';
   len = (SizeT)(colon - open - 1) < sizeof lv->file - 1 ? (SizeT)(colon - open - 1)
                                                         : sizeof lv->file - 1;
   VG_(memcpy)(lv->file, open + 1, len);
   lv->file[len] = '\0';
   return lv->line != 0;
}

/* The levels of the calls inlined at ip, innermost first; 0 when the
   first has no source line. */
static UInt inline_levels(DiEpoch ep, Addr ip, inl_level *lv)
{
   InlIPCursor *c = VG_(new_IIPC)(ep, ip);
   UInt k = 0;
   do {
      if (!parse_level(VG_(describe_IP)(ep, ip, c), &lv[k]))
         break;
      k++;
   } while (k < MAX_INLINE && VG_(next_IIPC)(c));
   VG_(delete_IIPC)(c);
   return k;
}

Bool mp_sites_code_fn(Addr ip, HChar *buf, SizeT n)
{
   inl_level lv[MAX_INLINE];
   if (n == 0 || inline_levels(VG_(current_DiEpoch)(), ip, lv) == 0)
      return False;
   VG_(strncpy)(buf, lv[0].fn, n - 1);
   buf[n - 1] = '\0';
   return True;
}

static const HChar *base_name(const HChar *path)
{
   const HChar *slash = VG_(strrchr)(path, '/');
   return slash ? slash + 1 : path;
}

/* The directory of the source file of an inlined call's line: the
   inline information gives file names only.  The line table of the
   function around ip names the file with its directory at the
   function's own instructions; they are looked for within 16 KB. */
static const HChar *level_dir(DiEpoch ep, Addr ip, const HChar *file)
{
   const HChar *f, *d, *fn, *own;
   UInt line;
   Addr a;
   Int step;
   if (!VG_(get_fnname)(ep, ip, &own))
      return NULL;
   for (step = -1; step <= 1; step += 2)
      for (a = ip; a != ip + (Addr)(step * 16384); a += (Addr)step) {
         if (!VG_(get_fnname)(ep, a, &fn) || VG_(strcmp)(fn, own) != 0)
            break;
         if (VG_(get_filename_linenum)(ep, a, &f, &d, &line)
             && VG_(strcmp)(base_name(f), base_name(file)) == 0)
            return d;
      }
   return NULL;
}

static Bool is_ident_char(HChar c)
{
   return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9') || c == '_';
}

/* A plain identifier: the block kept in a local, not stored away. */
static Bool is_plain_local(const HChar *name)
{
   const HChar *p;
   for (p = name; *p; p++)
      if (!is_ident_char(*p))
         return False;
   return name[0] != '\0';
}

/* How the block reached the frame whose line names it. */
typedef enum {
   BY_ALLOC_CALL,    /* the line calls the allocation function */
   BY_OUT_PARAM,     /* ... posix_memalign, with the block's pointer */
   BY_RETURN,        /* a callee (a wrapper) returned it */
   BY_PASSED_OUT     /* a callee stored it through &p */
} arrival;

/* The identifier line src gives the block. */
static HChar *name_on_line(const HChar *src, const HChar *file,
                           const HChar *where, Addr ip, arrival how)
{
   Bool fortran = mp_is_fortran_file(file);
   HChar *ident = NULL;
   if (how == BY_OUT_PARAM)
      ident = mp_name_from_out_param(src, "posix_memalign");
   else if (how == BY_PASSED_OUT)
      ident = mp_name_from_statement(src);
   /* The k-th site named on a line takes the line's k-th allocating
      statement: "a = malloc(n); b = malloc(n);" runs in that order.
      One statement reached from several call stacks (a function
      called from several places): each site takes its name. */
   if (!ident)
      ident = mp_name_from_source_line_nth(src, fortran, call_on_line(where, ip));
   if (!ident)
      ident = mp_name_from_source_line(src, fortran);
   if (!ident && how == BY_RETURN && !fortran)
      ident = mp_name_from_statement(src);
   return ident;
}

/* heap@fn, the function's compiler suffix dropped. */
static HChar *heap_at_fn(const HChar *fn)
{
   HChar *name = mp_asprintf("heap@%s", fn);
   mp_strip_compiler_suffix(name);
   return name;
}

/* The name of a frame without a source line: its function's, or the
   next named frame's out. */
static HChar *name_without_source(const Addr *ips, UInt from, UInt n)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   const HChar *fn, *obj, *base;
   UInt i;
   for (i = from; i < n; i++)
      if (VG_(get_fnname)(ep, ips[i], &fn) && !is_allocator_fn(fn))
         return heap_at_fn(fn);
   if (VG_(get_objname)(ep, ips[from], &obj)) {
      base = VG_(strrchr)(obj, '/');
      return mp_asprintf("heap@%s", base ? base + 1 : obj);
   }
   return mp_asprintf("heap@%#lx", ips[from]);
}

/* The owner of a site is the object of its receiving frame r: a block
   the program's code receives is the program's (through malloc,
   strdup, fopen), one the C library keeps for itself (stdio's buffers)
   or the dynamic linker allocates is theirs.  Past the C++ runtime's
   string members, which build a string for their caller. */
static void own_site(mp_var *v, const Addr *ips, UInt n, UInt r)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   const HChar *fn;
   UInt q = r;
   while (q + 1 < n && VG_(get_fnname)(ep, ips[q], &fn) && mp_class_builds_for_caller(fn))
      q++;
   mp_var_set_owner(v, mp_code_object(ips[q]));
}

/* The source line of the level i of the calls inlined at ip, whole,
   or NULL; *dir_out its directory (NULL: not known). */
static HChar *level_source(DiEpoch ep, Addr ip, const inl_level *lv, UInt i,
                           const HChar *inner_dir, const HChar **dir_out)
{
   const HChar *dir = i == 0 ? inner_dir : level_dir(ep, ip, lv[i].file);
   *dir_out = dir;
   if (dir == NULL && lv[i].file[0] != '/')
      return NULL;
   return read_source_line(dir, lv[i].file, lv[i].line);
}

/* Whether the line that calls an inlined wrapper takes what it
   returns: assigns it ("double *a = alloc<double>(n);") or returns it
   in turn.  A call as a statement ("kernel(d, n);", a function that
   allocates into a local of its own and was inlined into its caller)
   takes nothing: the block belongs to the callee's line. */
static Bool takes_result(const HChar *line, const HChar *file)
{
   HChar *name;
   if (mp_line_returns_call(line))
      return True;
   name = mp_name_from_source_line(line, mp_is_fortran_file(file));
   if (name)
      VG_(free)(name);
   return name != NULL;
}

/* The line of frame ip that names the block: of the calls inlined at
   ip, the innermost that is the program's, then out over the inlined
   wrappers.  *how says how the block reached the frame, and how it
   reached the line chosen.  False when no level is the program's. */
static void qualify_member(DiEpoch ep, Addr ip, const inl_level *lv, const HChar *ldir,
                           HChar **name);
static HChar *source_with_headers(const HChar *path);
static Bool append_file(mp_strbuf *b, const HChar *path);

static Bool naming_line(DiEpoch ep, Addr ip, arrival *how, HChar **where,
                        HChar **name, site_type *st)
{
   inl_level lv[MAX_INLINE];
   const HChar *file, *dir, *ldir;
   HChar *src = NULL, *outer, *probe;
   UInt line, k, i;

   if (!VG_(get_filename_linenum)(ep, ip, &file, &dir, &line))
      return False;
   k = inline_levels(ep, ip, lv);
   if (k == 0) {
      k = 1;
      VG_(strncpy)(lv[0].fn, "", sizeof lv[0].fn);
      VG_(strncpy)(lv[0].file, file, sizeof lv[0].file - 1);
      lv[0].file[sizeof lv[0].file - 1] = '\0';
      lv[0].line = line;
   }
   /* The system's levels (the C++ library's templates) and those whose
      source cannot be read are passed over: the program's line called
      them. */
   for (i = 0; i < k; i++) {
      src = level_source(ep, ip, lv, i, dir, &ldir);
      if (src && !is_system_source(ldir, lv[i].file))
         break;
      if (src)
         VG_(free)(src);
      src = NULL;
      *how = BY_RETURN;
   }
   if (i == k) {
      /* No level is the program's with a line to read: as a frame
         without inlined calls, named at its line unless that is the
         system's (then the next frame out names it). */
      if (is_system_source(dir, file))
         return False;
      *where = mp_asprintf("%s:%u", file, line);
      *name = NULL;
      return True;
   }
   /* An inlined wrapper keeps the block in a plain local and returns
      it, or returns the call's value directly (a template allocation
      helper in a header: "{ return static_cast<T *>(malloc(...)); }");
      the line that calls the wrapper names it. */
   while (i + 1 < k) {
      Bool returns = mp_line_returns_call(src);
      probe = mp_name_from_source_line(src, mp_is_fortran_file(lv[i].file));
      outer = level_source(ep, ip, lv, i + 1, dir, &ldir);
      if (!(returns || (probe && is_plain_local(probe))) || !outer
          || !mp_line_calls(outer, lv[i].fn) || !takes_result(outer, lv[i + 1].file)
          || (ldir && is_system_source(ldir, lv[i + 1].file))) {
         if (probe)
            VG_(free)(probe);
         if (outer)
            VG_(free)(outer);
         break;
      }
      VG_(free)(probe);
      VG_(free)(src);
      src = outer;
      i++;
      *how = BY_RETURN;
   }
   *where = mp_asprintf("%s:%u", lv[i].file, lv[i].line);
   *name = name_on_line(src, lv[i].file, *where, ip, *how);
   if (*name && !mp_is_fortran_file(lv[i].file)) {
      st->type = mp_src_pointee_type(src, *name);
      st->path = st->type ? source_path(ldir, lv[i].file) : NULL;
      if (is_plain_local(*name))
         qualify_member(ep, ip, &lv[i], ldir, name);
   }
   VG_(free)(src);
   return True;
}

/* The class of a method's name ("ns::Domain::alloc(int)": "Domain",
   template arguments dropped), in buf; False for a free function. */
static Bool class_of(const HChar *fn, HChar *buf, SizeT size)
{
   const HChar *end = fn, *last = NULL, *prev = NULL, *p;
   Int depth = 0;
   SizeT len;
   for (p = fn; *p && !(*p == '(' && depth == 0); p++) {
      if (*p == '<')
         depth++;
      else if (*p == '>' && depth > 0)
         depth--;
      else if (depth == 0 && p[0] == ':' && p[1] == ':') {
         prev = last;
         last = p;
         p++;
      }
   }
   if (!last)
      return False;
   end = last;
   p = prev ? prev + 2 : fn;
   len = 0;
   while (p < end && *p != '<' && len + 1 < size)
      buf[len++] = *p++;
   buf[len] = '\0';
   return len > 0;
}

/* A block assigned to a data member in one of its class's methods
   (LULESH's "m_nodelist = ..." in Domain's) is the member of that
   class, Domain::m_nodelist, as the class's source declares it.  The
   class is the method's qualifier, or, for a method inlined (known by
   its bare name), the class whose code holds the line. */
static void qualify_member(DiEpoch ep, Addr ip, const inl_level *lv, const HChar *ldir,
                           HChar **name)
{
   const HChar *fn = lv->fn;
   HChar cls[128], *path, *text;
   mp_strbuf own = MP_STRBUF_INIT;
   if (fn[0] == '\0' && !VG_(get_fnname)(ep, ip, &fn))
      return;
   path = source_path(ldir, lv->file);
   if (!class_of(fn, cls, sizeof cls)) {
      HChar *at = append_file(&own, path) ? mp_src_class_at(own.s, lv->line) : NULL;
      if (own.s)
         VG_(free)(own.s);
      if (!at) {
         VG_(free)(path);
         return;
      }
      VG_(strncpy)(cls, at, sizeof cls - 1);
      cls[sizeof cls - 1] = '\0';
      VG_(free)(at);
   }
   text = source_with_headers(path);
   VG_(free)(path);
   if (text && mp_src_class_declares(text, cls, *name)) {
      HChar *q = mp_asprintf("%s::%s", cls, *name);
      VG_(free)(*name);
      *name = q;
   }
   if (text)
      VG_(free)(text);
}

/* Whether the receiver r lies in another object than the program's
   line q: a library kept the block for itself (MPI_Init's internal
   tables, stdio's buffers).  The variables of q's line hold none of
   it, whatever they are passed as. */
static Bool kept_by_library(DiEpoch ep, const Addr *ips, UInt r, UInt q)
{
   const HChar *receiver, *program;
   if (q == r || !VG_(get_objname)(ep, ips[r], &receiver))
      return False;
   if (!VG_(get_objname)(ep, ips[q], &program))
      return False;
   return VG_(strcmp)(receiver, program) != 0;
}

/*------------------------------------------------------------*/
/*--- The fields of a site's structure                     ---*/
/*------------------------------------------------------------*/

/* Keeps what the naming line told of v's type (replacing what an
   earlier naming told); st's strings are taken. */
static void keep_site_type(UInt var, site_type *st)
{
   site_type *old = VG_(HT_remove)(site_types, var);
   if (old) {
      if (old->type)
         VG_(free)(old->type);
      if (old->path)
         VG_(free)(old->path);
      mp_src_fields_free(old->fields, old->n_fields);
      if (old->units)
         VG_(free)(old->units);
      VG_(free)(old);
   }
   if (!st->type)
      return;
   old = VG_(calloc)("mp.sites.type", 1, sizeof *old);
   old->node.key = var;
   old->type = st->type;
   old->path = st->path;
   VG_(HT_add_node)(site_types, old);
}

/* The whole text of path appended to b; False if it cannot be read. */
static Bool append_file(mp_strbuf *b, const HChar *path)
{
   HChar chunk[4096];
   SysRes sr = VG_(open)(path, VKI_O_RDONLY, 0);
   Int fd, got;
   if (sr_isError(sr))
      return False;
   fd = sr_Res(sr);
   while ((got = VG_(read)(fd, chunk, sizeof chunk)) > 0)
      mp_strbuf_add(b, chunk, got);
   VG_(close)(fd);
   mp_strbuf_add(b, "\n", 1);
   return True;
}

/* The source file of path and the headers it includes with quotes
   from its own directory (where a program defines its structures),
   one text. */
static HChar *source_with_headers(const HChar *path)
{
   mp_strbuf b = MP_STRBUF_INIT;
   const HChar *slash = VG_(strrchr)(path, '/');
   HChar *own, *p;
   if (!append_file(&b, path)) {
      if (b.s)
         VG_(free)(b.s);
      return NULL;
   }
   own = mp_strbuf_take(&b);
   mp_strbuf_add(&b, own, VG_(strlen)(own));
   for (p = VG_(strstr)(own, "#include \""); p; p = VG_(strstr)(p + 1, "#include \"")) {
      HChar *name = p + 10, *end = VG_(strchr)(name, '"'), *hdr;
      if (!end || end - name > 200 || VG_(strchr)(name, '\n') < end)
         continue;
      {
         mp_strbuf h = MP_STRBUF_INIT;
         if (slash)
            mp_strbuf_add(&h, path, (SizeT)(slash - path) + 1);
         mp_strbuf_add(&h, name, (SizeT)(end - name));
         hdr = mp_strbuf_take(&h);
      }
      append_file(&b, hdr);
      VG_(free)(hdr);
   }
   VG_(free)(own);
   return mp_strbuf_take(&b);
}

/* var's site record with its structure read, or NULL. */
static site_type *site_structure(UInt var)
{
   site_type *st = VG_(HT_lookup)(site_types, var);
   HChar *text;
   UInt i;
   if (!st || st->read)
      return st;
   st->read = True;
   text = source_with_headers(st->path);
   if (!text)
      return st;
   st->fields = mp_src_struct_fields(text, st->type, &st->n_fields, &st->size);
   VG_(free)(text);
   if (st->n_fields) {
      st->units = VG_(malloc)("mp.sites.units", st->n_fields * sizeof *st->units);
      for (i = 0; i < st->n_fields; i++) {
         st->units[i].offset = st->fields[i].offset;
         st->units[i].size = st->fields[i].size;
      }
   }
   return st;
}

char *mp_sites_static_owner(Addr iaddr, const HChar *name)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   const HChar *file, *dir;
   HChar *path, *owner = NULL;
   mp_strbuf b = MP_STRBUF_INIT;
   UInt line;
   if (!VG_(get_filename_linenum)(ep, iaddr, &file, &dir, &line))
      return NULL;
   path = source_path(dir, file);
   if (append_file(&b, path)) {
      HChar *text = mp_strbuf_take(&b);
      owner = mp_src_static_owner(text, name);
      VG_(free)(text);
   } else if (b.s)
      VG_(free)(b.s);
   VG_(free)(path);
   return owner;
}

char *mp_sites_field_name(UInt var, ULong offset, ULong size)
{
   site_type *st = site_structure(var);
   return st ? mp_src_field_name(st->fields, st->n_fields, st->size, offset, size) : NULL;
}

const mp_struct_unit *mp_sites_declared_members(uint32_t var, uint32_t *n, uint64_t *size)
{
   site_type *st = site_structure(var);
   if (!st || !st->units)
      return NULL;
   *n = st->n_fields;
   *size = st->size;
   return st->units;
}

/* Names v after frame r, the receiver, which got the block as 'how'
   says: after the first line from r out, counting the calls inlined
   at each frame, that is the program's.  A block a library kept is
   heap@ the library function the program called, at that line. */
static void name_site(mp_var *v, const Addr *ips, UInt n, UInt r, arrival how)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   HChar *where = NULL, *name = NULL;
   const HChar *fn;
   VgHashNode *lib;
   site_type st = { { NULL, 0 }, NULL, NULL, NULL, 0, 0, False };
   UInt q;

   own_site(v, ips, n, r);
   for (q = r; q < n; q++) {
      arrival h = q == r ? how : BY_RETURN;
      if (naming_line(ep, ips[q], &h, &where, &name, &st))
         break;
   }
   keep_site_type(v->id, &st);
   lib = VG_(HT_remove)(library_sites, v->id);
   if (q < n && q > r && kept_by_library(ep, ips, r, q)
       && VG_(get_fnname)(ep, ips[q - 1], &fn)) {
      if (name)
         VG_(free)(name);
      name = heap_at_fn(fn);
      if (!lib)
         lib = VG_(malloc)("mp.sites.lib", sizeof *lib);
      lib->key = v->id;
      VG_(HT_add_node)(library_sites, lib);
      lib = NULL;
   } else if (q < n) {
      if (!name)
         name = mp_asprintf("heap@%s", where);
   } else {
      name = name_without_source(ips, r, n);
   }
   if (lib)
      VG_(free)(lib);
   VG_(free)(v->name);
   v->name = name;
   if (v->where)
      VG_(free)(v->where);
   v->where = where;
}

/*------------------------------------------------------------*/
/*--- Watching the wrappers' returns                       ---*/
/*------------------------------------------------------------*/

static Addr return_address(const Addr *ips, UInt frame)
{
   return ips[frame + 1] + 1;   /* ips above frame 0 are the call's RA - 1 */
}

/* The receiving frame if the verdicts known so far decide it, else
   n (still waiting). */
static UInt receiving_frame(const Addr *ips, UInt n, UInt start)
{
   UInt k;
   for (k = start; k + 1 < n; k++) {
      call_site *c = VG_(HT_lookup)(call_sites, return_address(ips, k));
      if (!c || c->verdict == CALLEE_PENDING)
         return n;
      if (c->verdict == CALLEE_KEEPS)
         return k;
   }
   return n - 1;
}

/* Watches the return of each frame from start out whose call site has
   no verdict yet.  Runs in a client request, where translations may be
   discarded: a return address already translated gets the watch. */
static void watch_returns(ThreadId tid, const Addr *ips, const Addr *sps,
                          UInt n, UInt start, Addr block, SizeT size)
{
   UInt k;
   for (k = start; k + 1 < n; k++) {
      Addr ra = return_address(ips, k);
      call_site *c = VG_(HT_lookup)(call_sites, ra);
      if (c) {
         if (c->verdict == CALLEE_KEEPS)
            return;
         continue;
      }
      c = VG_(malloc)("mp.sites.call", sizeof *c);
      c->node.key = ra;
      c->verdict = CALLEE_PENDING;
      c->watching = 1;
      c->tid = tid;
      c->block = block;
      c->size = size ? size : 1;
      c->callee_sp = sps[k];
      VG_(HT_add_node)(call_sites, c);
      VG_(discard_translations_safely)(ra, 1, "memprof: allocation wrapper");
   }
}

static void resolve_pending(void)
{
   pending_site **pp = &pending;
   while (*pp) {
      pending_site *s = *pp;
      UInt r = receiving_frame(s->ips, s->n, s->start);
      if (r == s->n) {
         pp = &s->next;
         continue;
      }
      if (r != s->named_at)
         name_site(mp_vars_get(mp_g_vars, s->var), s->ips, s->n, r, BY_RETURN);
      *pp = s->next;
      VG_(free)(s->ips);
      VG_(free)(s);
   }
}

const UInt *mp_sites_watching(Addr a)
{
   call_site *c = VG_(HT_lookup)(call_sites, a);
   return c && c->verdict == CALLEE_PENDING ? &c->watching : NULL;
}

VG_REGPARM(3) void mp_sites_return(Addr ra, UWord ret, UWord sp)
{
   call_site *c = VG_(HT_lookup)(call_sites, ra);
   if (!c || c->verdict != CALLEE_PENDING
       || VG_(get_running_tid)() != c->tid || sp <= c->callee_sp)
      return;
   c->verdict = ret - c->block < c->size ? CALLEE_RETURNS : CALLEE_KEEPS;
   c->watching = 0;
   resolve_pending();
}

/*------------------------------------------------------------*/
/*--- New sites                                            ---*/
/*------------------------------------------------------------*/

/* The frame whose stack holds a posix_memalign out-parameter, if the
   pointer lies in a frame from alloc out; else alloc. */
static UInt out_param_frame(ThreadId tid, const Addr *sps, UInt n, UInt alloc,
                            Addr out)
{
   UInt k;
   if (out < sps[alloc] || out >= VG_(thread_get_stack_max)(tid))
      return alloc;
   for (k = alloc; k + 1 < n; k++)
      if (out < sps[k + 1])
         return k;
   return n - 1;
}

mp_var *mp_sites_new(ThreadId tid, const Addr *ips, const Addr *sps, UInt n,
                     Addr block, SizeT size, Addr out)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   UInt alloc = allocating_frame(ips, n), start = alloc, r, i;
   arrival first;
   mp_var *v = mp_vars_add(mp_g_vars, MP_VAR_HEAP, "heap", NULL, 0);

   v->n_alloc_stack = n - alloc;
   v->alloc_stack = VG_(malloc)("mp.sites.stack", (n - alloc) * sizeof(char *));
   for (i = alloc; i < n; i++)
      v->alloc_stack[i - alloc] = VG_(strdup)("mp.sites.frame",
                                              VG_(describe_IP)(ep, ips[i], NULL));
   /* posix_memalign(&p, ...) with p in a caller's frame: the frames
      between passed their caller's pointer down, that caller has it. */
   if (out)
      start = out_param_frame(tid, sps, n, alloc, out);
   first = start == alloc ? (out ? BY_OUT_PARAM : BY_ALLOC_CALL) : BY_PASSED_OUT;
   r = receiving_frame(ips, n, start);
   if (r < n) {
      name_site(v, ips, n, r, r == start ? first : BY_RETURN);
      return v;
   }
   name_site(v, ips, n, start, first);
   watch_returns(tid, ips, sps, n, start, block, size);
   {
      pending_site *s = VG_(malloc)("mp.sites.pending", sizeof *s);
      s->var = v->id;
      s->n = n;
      s->start = start;
      s->named_at = start;
      s->ips = VG_(malloc)("mp.sites.ips", n * sizeof(Addr));
      VG_(memcpy)(s->ips, ips, n * sizeof(Addr));
      s->next = pending;
      pending = s;
   }
   return v;
}

static Word compare_names(UWord a, UWord b)
{
   return VG_(strcmp)((const HChar *)a, (const HChar *)b);
}

static void free_word(UWord p)
{
   VG_(free)((void *)p);
}

/* Sites named after a function (no source line, or the library call
   that kept the block) that share a name get #2, #3 ... in the order
   they were found. */
void mp_sites_finish(void)
{
   WordFM *seen = VG_(newFM)(VG_(malloc), "mp.sites.names", VG_(free),
                             compare_names);
   UInt i;
   for (i = 0; i < mp_vars_count(mp_g_vars); i++) {
      mp_var *v = mp_vars_get(mp_g_vars, i);
      UWord *count;
      HChar *suffixed;
      if (v->kind != MP_VAR_HEAP
          || (v->where != NULL && !VG_(HT_lookup)(library_sites, v->id)))
         continue;
      if (!VG_(lookupFM)(seen, NULL, (UWord *)&count, (UWord)v->name)) {
         count = VG_(malloc)("mp.sites.count", sizeof *count);
         *count = 1;
         VG_(addToFM)(seen, (UWord)VG_(strdup)("mp.sites.name", v->name),
                      (UWord)count);
         continue;
      }
      suffixed = mp_asprintf("%s#%lu", v->name, ++*count);
      VG_(free)(v->name);
      v->name = suffixed;
   }
   VG_(deleteFM)(seen, free_word, free_word);
}

void mp_sites_init(void)
{
   call_sites = VG_(HT_construct)("mp.sites.calls");
   line_sites = VG_(HT_construct)("mp.sites.lines");
   site_types = VG_(HT_construct)("mp.sites.types");
   library_sites = VG_(HT_construct)("mp.sites.library");
}
