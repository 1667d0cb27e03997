/*--------------------------------------------------------------------*/
/*--- memprof: the locals of a frame, from the debug information.  ---*/
/*---                                               mp_stackvars.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Which objects' variables the core reads (the core's flag, on only
   for the program's objects built with -g), the process apart that
   asks it for a frame's locals, and the questions sent to it
   (mp_stackvars.h says why it is apart).  A question is the code
   address; the answer, the number of blocks then the blocks, as the
   core's StackBlock (the same binary on both ends).
*/
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_vki.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_libcsignal.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"

#include "mp_apart.h"
#include "mp_elf.h"
#include "mp_owner.h"
#include "mp_stackvars.h"
#include "mp_vgcompat.h"

#define MAX_BLOCKS 4096   /* a frame's locals beyond these are not named */
#define UNKNOWN_OBJECT 0xffffffffu   /* the answer's count: ip's object is new */

/* Whether the core reads an object's variables as it maps it, or when
   the object is first looked at (Valgrind 3.22 and later). */
#define LAZY_READING MP_VG_AT_LEAST(3, 22)

static Bool var_info;        /* the program's locals are named */
static Bool every_object;    /* --read-var-info=yes: every object's too */
static Bool exe_has_variables;   /* the executable was built with -g */
static Int asks = -1, answers = -1;   /* ours: -1 when none runs */
static UInt server_epoch;             /* the DiEpoch it was forked in */
static UInt n_unreadable;
static ULong n_asked, n_started;

/* Whether the ELF file at path has a .debug_info section (it was
   built with -g); True when it cannot tell. */
static Bool has_debug_info(const HChar *path)
{
   HChar name[12];
   mp_elf e;
   mp_elf_section sh;
   ULong i;
   Bool found = False;
   if (path == NULL || !mp_elf_open(path, &e))
      return True;
   for (i = 0; i < e.shnum && !found; i++)
      found = mp_elf_section_at(&e, i, name, sizeof name, &sh)
              && VG_(strcmp)(name, ".debug_info") == 0;
   mp_elf_close(&e);
   return found;
}

/* The executable's file: a name without a slash is looked for in
   PATH, as the shell and Valgrind did (a new allocation, or NULL). */
static HChar *executable_path(const HChar *name)
{
   const HChar *path = VG_(getenv)("PATH"), *p, *end;
   if (name == NULL)
      return NULL;
   if (VG_(strchr)(name, '/') || path == NULL)
      return VG_(strdup)("mp.stackvars.exe", name);
   for (p = path; *p; p = *end ? end + 1 : end) {
      HChar *full;
      SysRes sr;
      for (end = p; *end && *end != ':'; end++)
         ;
      full = VG_(malloc)("mp.stackvars.exe", (SizeT)(end - p) + VG_(strlen)(name) + 2);
      VG_(memcpy)(full, p, (SizeT)(end - p));
      full[end - p] = '/';
      VG_(strcpy)(full + (end - p) + 1, name);
      sr = VG_(open)(full, VKI_O_RDONLY, 0);
      if (!sr_isError(sr)) {
         VG_(close)((Int)sr_Res(sr));
         return full;
      }
      VG_(free)(full);
   }
   return NULL;
}

void mp_stackvars_pre_clo_init(void)
{
   /* Eagerly, the executable's and the loader's are read before the
      program starts: worth the loader's cost (libc6-dbg's, 0.3 s) only
      for an executable with variables to name.  Lazily, Valgrind's own
      would be read too (for its stack traces). */
   HChar *exe = executable_path(VG_(args_the_exename));
   exe_has_variables = has_debug_info(exe);
   if (exe)
      VG_(free)(exe);
   VG_(clo_read_var_info) = !LAZY_READING && exe_has_variables;
}

void mp_stackvars_init(void)
{
   Word i;
   var_info = True;
   /* The last of the options wins, as the core reads them. */
   for (i = 0; i < VG_(sizeXA)(VG_(args_for_valgrind)); i++) {
      const HChar *arg = *(HChar **)VG_(indexXA)(VG_(args_for_valgrind), i);
      if (VG_(strcmp)(arg, "--read-var-info=yes") == 0)
         var_info = every_object = True;
      else if (VG_(strcmp)(arg, "--read-var-info=no") == 0)
         var_info = every_object = False;
   }
   VG_(clo_read_var_info) = every_object || (var_info && !LAZY_READING && exe_has_variables);
}

/* Whether path is a file of the program's objects. */
static Bool program_file(const HChar *path)
{
   return path && mp_class_of_object(path) == MP_CLASS_PROGRAM;
}

static Bool program_fd(Int fd)
{
   HChar link[32], path[VKI_PATH_MAX];
   Int n;
   VG_(sprintf)(link, "/proc/self/fd/%d", fd);
   n = VG_(readlink)(link, path, sizeof path - 1);
   if (n <= 0)
      return False;
   path[n] = '\0';
   return program_file(path);
}

static Bool mapping_program;   /* between an mmap of its file and after */

/* Has the core read the program's objects it knows of, their
   variables included: where it reads lazily, whatever first looks at
   an object decides, and the flag is off but here (a name asked for
   reads the object). */
static void read_program_objects(void)
{
   const DebugInfo *di;
   if (!LAZY_READING)
      return;
   VG_(clo_read_var_info) = True;
   for (di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di)) {
      const HChar *fn;
      Addr text = VG_(DebugInfo_get_text_avma)(di);
      /* not Valgrind's own executable, which the core reads too */
      if (VG_(DebugInfo_get_text_size)(di) > 0 && VG_(am_is_valid_for_client)(text, 1, 0)
          && program_file(VG_(DebugInfo_get_filename)(di)))
         VG_(get_fnname)(VG_(current_DiEpoch)(), text, &fn);
   }
   VG_(clo_read_var_info) = every_object;
}

void mp_stackvars_pre_mmap(Int fd)
{
   if (!var_info || every_object || fd < 0)
      return;
   mapping_program = program_fd(fd);
   if (!LAZY_READING)
      VG_(clo_read_var_info) = mapping_program;
}

void mp_stackvars_post_mmap(void)
{
   if (!var_info || every_object)
      return;
   if (mapping_program)
      read_program_objects();
   mapping_program = False;
   VG_(clo_read_var_info) = !LAZY_READING;
}

void mp_stackvars_client_starts(void)
{
   /* The executable and the loader were mapped by Valgrind itself. */
   if (var_info && !every_object)
      read_program_objects();
}

/* All n bytes, or False (end of file or an error). */
static Bool read_all(Int fd, void *buf, SizeT n)
{
   UChar *p = buf;
   while (n > 0) {
      Int got = VG_(read)(fd, p, n);
      if (got <= 0)
         return False;
      p += got;
      n -= got;
   }
   return True;
}

static Bool write_all(Int fd, const void *buf, SizeT n)
{
   const UChar *p = buf;
   while (n > 0) {
      Int put = VG_(write)(fd, p, n);
      if (put <= 0)
         return False;
      p += put;
      n -= put;
   }
   return True;
}

/*------------------------------------------------------------*/
/*--- The process apart                                    ---*/
/*------------------------------------------------------------*/

static void answer(Int out, Addr ip)
{
   const HChar *fn, *obj;
   XArray *blocks;
   UInt n, i;
   if (!VG_(get_objname)(VG_(current_DiEpoch)(), ip, &obj)) {
      /* mapped after this process was forked */
      n = UNKNOWN_OBJECT;
      write_all(out, &n, sizeof n);
      return;
   }
   /* Its debug information may not have been read when this process
      was forked: a name asked for reads it. */
   VG_(get_fnname)(VG_(current_DiEpoch)(), ip, &fn);
   blocks = VG_(di_get_stack_blocks_at_ip)(ip, False);
   n = (UInt)VG_(sizeXA)(blocks);
   if (n > MAX_BLOCKS)
      n = MAX_BLOCKS;
   write_all(out, &n, sizeof n);
   for (i = 0; i < n; i++)
      write_all(out, VG_(indexXA)(blocks, i), sizeof(StackBlock));
   VG_(deleteXA)(blocks);
}

/* Its only descriptors are its two pipes' ends: the core's messages,
   its assertion's among them, go nowhere. */
static void __attribute__((noreturn)) server_main(void *arg, Int out)
{
   Int in = *(Int *)arg, keep[2];
   vki_sigset_t all;
   Addr ip;
   keep[0] = in;
   keep[1] = out;
   VG_(memset)(&all, 0xff, sizeof all);
   VG_(sigprocmask)(VKI_SIG_SETMASK, &all, NULL);
   mp_apart_close_all_but(keep, 2);
   VG_(prctl)(15 /* PR_SET_NAME */, (ULong)(Addr)"memprof-varinfo", 0, 0, 0);
   while (read_all(in, &ip, sizeof ip))
      answer(out, ip);
   VG_(exit)(0);
}

/*------------------------------------------------------------*/
/*--- Asking                                               ---*/
/*------------------------------------------------------------*/

static void stop_server(void)
{
   if (asks >= 0)
      VG_(close)(asks);
   if (answers >= 0)
      VG_(close)(answers);
   asks = answers = -1;
}

static Bool start_server(void)
{
   Int p[2], pid, in;
   if (VG_(pipe)(p) != 0)
      return False;
   in = p[0];
   pid = mp_apart_fork(server_main, &in, &answers);
   VG_(close)(p[0]);
   if (pid <= 0) {
      VG_(close)(p[1]);
      answers = -1;
      return False;
   }
   asks = VG_(safe_fd)(p[1]);
   n_started++;
   server_epoch = VG_(current_DiEpoch)().n;
   return True;
}

static void said_unreadable(Addr ip, const HChar *fn)
{
   n_unreadable++;
   if (VG_(clo_verbosity) > 1)
      VG_(dmsg)("memprof: Valgrind's core cannot analyse the locations of the locals "
                "at %#lx in %s (an unwind rule it evaluates one way only): the frame "
                "is named as a whole\n", ip, fn);
}

/* The number of blocks at ip, their own to read next; UNKNOWN_OBJECT;
   or False if the process apart died on the question. */
static Bool ask(Addr ip, UInt *n)
{
   n_asked++;
   return write_all(asks, &ip, sizeof ip) && read_all(answers, n, sizeof *n);
}

/* A process apart to ask, forked if none runs; False if none can. */
static Bool ready(void)
{
   /* gone: a write to its pipe would raise the program's SIGPIPE */
   if (asks >= 0 && mp_apart_peer_gone(answers, 0))
      stop_server();
   if (asks >= 0 || start_server())
      return True;
   if (VG_(clo_verbosity) > 1)
      VG_(dmsg)("memprof: cannot fork the reader of the locals' debug "
                "information: stack frames are named as a whole\n");
   var_info = False;
   return False;
}

/* Whether the object of the code at ip was built with -g: one without
   variables (a distribution's python3, gzip) is never asked about, a
   question being a round trip between two processes (thousands of
   frames: seconds).  Per object, once. */
#define MAX_OBJECTS 256
static struct { HChar *path; Bool has; } objects[MAX_OBJECTS];
static UInt n_objects;

static Bool object_has_variables(Addr ip)
{
   const HChar *path;
   UInt i;
   if (!VG_(get_objname)(VG_(current_DiEpoch)(), ip, &path))
      return False;
   for (i = 0; i < n_objects; i++)
      if (VG_(strcmp)(objects[i].path, path) == 0)
         return objects[i].has;
   if (n_objects == MAX_OBJECTS)
      return True;
   objects[n_objects].path = VG_(strdup)("mp.stackvars.obj", path);
   objects[n_objects].has = has_debug_info(path);
   return objects[n_objects++].has;
}

XArray *mp_stackvars_at(Addr ip, const HChar *fn)
{
   XArray *blocks;
   UInt n, i;
   Bool ok;
#if defined(VGA_arm64)
   /* The core computes no canonical frame address on arm64, the frame
      base of every local: no question would get an answer.  (The
      variables' debug information still gives the globals' lines.) */
   return NULL;
#endif
   if (!var_info || (!every_object && !object_has_variables(ip)) || !ready())
      return NULL;
   ok = ask(ip, &n);
   if (ok && n == UNKNOWN_OBJECT && server_epoch != VG_(current_DiEpoch)().n) {
      /* Objects were mapped since it was forked: a new copy knows them. */
      stop_server();
      if (!ready())
         return NULL;
      ok = ask(ip, &n);
   }
   if (!ok) {
      stop_server();
      said_unreadable(ip, fn);
      return NULL;
   }
   if (n == 0 || n == UNKNOWN_OBJECT)
      return NULL;
   blocks = VG_(newXA)(VG_(malloc), "mp.stackvars", VG_(free), sizeof(StackBlock));
   for (i = 0; i < n; i++) {
      StackBlock b;
      if (!read_all(answers, &b, sizeof b)) {
         stop_server();
         VG_(deleteXA)(blocks);
         said_unreadable(ip, fn);
         return NULL;
      }
      b.name[sizeof b.name - 1] = '\0';
      VG_(addToXA)(blocks, &b);
   }
   return blocks;
}

/* At exit: the process apart reads the end of its questions and exits;
   waited for (its end of the answers closes), so that none of
   memprof's processes outlives the program. */
void mp_stackvars_finish(void)
{
   Int waited;
   if (asks < 0)
      return;
   VG_(close)(asks);
   asks = -1;
   for (waited = 0; waited < 2000 && !mp_apart_peer_gone(answers, 10); waited += 10)
      ;
   VG_(close)(answers);
   answers = -1;
}

void mp_stackvars_atfork_child(void)
{
   /* The parent's process apart answers the parent. */
   stop_server();
}

Bool mp_stackvars_naming(void)
{
   return var_info;
}

void mp_stackvars_stats(void)
{
   VG_(dmsg)("memprof: frames' locals asked for:  %llu, of %llu reader processes "
             "(%u frames not analysable)\n", n_asked, n_started, n_unreadable);
}
