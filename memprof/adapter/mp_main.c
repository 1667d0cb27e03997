/*--------------------------------------------------------------------*/
/*--- memprof: which data structures make a program slow.          ---*/
/*---                                                    mp_main.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof, a Valgrind tool that attributes every
   data access to a variable (global, heap allocation site, stack frame
   or local, user-named range) and reports per-variable metrics.

   Copyright (C) 2026 the memprof developers.

   This program is free software; you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation; either version 2 of the License, or (at
   your option) any later version.  See COPYING.

   This file owns the tool's life: setup, client requests, fork, and at
   exit the run's facts gathered into the results (mp_results_build),
   the output file and the --affinity-dot file (the writers' text,
   written whole to a temporary name, then renamed, so it is complete or
   absent) and the exit summary (mp_exit_summary.c) on Valgrind's log.
*/
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_xarray.h"

#include "memprof.h"
#include "mp_clo.h"
#include "mp_estimates.h"
#include "mp_clreq.h"
#include "mp_hierarchy.h"
#include "mp_loopnest.h"
#include "mp_inlvars.h"
#include "mp_stackvars.h"
#include "mp_threads.h"
#include "mp_exit_summary.h"
#include "mp_report.h"
#include "mp_report_loops.h"
#include "mp_util.h"
#include "mp_vgcompat.h"
#include "mp_analyses.h"
#include "mp_owner.h"
#include "mp_tool.h"

/* Bytes per cache line for the footprint and strides without a
   simulated cache (--cache-sim=no); else the simulated L1's. */
#define MP_LINE_SIZE 64

mp_vars *mp_g_vars;

#if defined(VGA_arm64)
/* The core's atomics call libgcc's out-of-line helpers, whose
   constructor asks the C library's __getauxval whether the CPU has LSE.
   The tool links no C library and runs no constructors: the helpers keep
   their load-exclusive/store-exclusive path, and this only resolves the
   reference. */
unsigned long __getauxval(unsigned long type);
unsigned long __getauxval(unsigned long type)
{
   (void)type;
   return 0;
}
#endif

/*------------------------------------------------------------*/
/*--- Client requests                                      ---*/
/*------------------------------------------------------------*/

#define MAX_RANGE_NAME 65536   /* bytes of a user name kept */

/* name as it may go to a terminal or a log line: control bytes (ESC
   sequences, newlines) become \xNN; valid until the next call. */
static mp_strbuf shown_name = MP_STRBUF_INIT;

static const HChar *printable(const HChar *name)
{
   shown_name.len = 0;
   mp_strbuf_add(&shown_name, "", 0);
   for (; *name; name++) {
      UChar c = (UChar)*name;
      if (c < 0x20 || c == 0x7f)
         mp_strbuf_printf(&shown_name, "\\x%02x", c);
      else
         mp_strbuf_add(&shown_name, name, 1);
   }
   return shown_name.s;
}

/* Copies the client's NUL-terminated string at a into buf: byte by
   byte, each checked to be readable client memory (a bad pointer must
   not crash the tool); a string of size bytes or more (no terminator
   in sight) is cut, the cut marked with an ellipsis; "unnamed" for
   NULL, an empty string or an unreadable one. */
static void client_string(Addr a, HChar *buf, SizeT size)
{
   SizeT n = 0;
   while (a != 0 && n + 1 < size
          && VG_(am_is_valid_for_client)(a + n, 1, VKI_PROT_READ)) {
      buf[n] = *(const HChar *)(a + n);
      if (buf[n] == '\0')
         break;
      n++;
   }
   buf[n] = '\0';
   if (n + 1 == size)
      mp_utf8_cut(buf, size - 2);
   if (n == 0)
      VG_(strcpy)(buf, "unnamed");
}

static Bool mp_handle_client_request(ThreadId tid, UWord *args, UWord *ret)
{
   if (!VG_IS_TOOL_USERREQ('M', 'P', args[0]))
      return False;
   *ret = 0;
   if (mp_heap_client_request(tid, args))
      return True;
   switch (args[0]) {
   case VG_USERREQ__MEMPROF_START:
      mp_set_collecting(True);
      break;
   case VG_USERREQ__MEMPROF_STOP:
      mp_set_collecting(False);
      break;
   case VG_USERREQ__MEMPROF_NAME_RANGE: {
      HChar *name = VG_(malloc)("mp.main.rangename", MAX_RANGE_NAME);
      client_string(args[3], name, MAX_RANGE_NAME);
      if (!mp_registry_name_range(args[1], args[2], name)) {
         VG_(umsg)("Warning: MEMPROF_NAME_RANGE(%#lx, %lu, \"%s\") ignored: "
                   "empty or overlapping a range named before\n",
                   args[1], args[2], printable(name));
         *ret = 1;
      }
      VG_(free)(name);
      break;
   }
   case MP_USERREQ__THREAD_CREATED:
      mp_threads_named(tid, args[1]);
      break;
   case MP_USERREQ__THREAD_JOINED: {
      UInt serial = mp_threads_joined(args[1]);
      if (serial != 0)
         mp_analyses_thread_joined(serial);
      break;
   }
   case VG_USERREQ__MEMPROF_UNNAME_RANGE:
      if (!mp_registry_unname_range(args[1])) {
         VG_(umsg)("Warning: MEMPROF_UNNAME_RANGE(%#lx): no named range "
                   "starts there\n", args[1]);
         *ret = 1;
      }
      break;
   default:
      VG_(umsg)("Warning: unknown memprof client request %#lx\n", args[0]);
      return False;
   }
   return True;
}

/*------------------------------------------------------------*/
/*--- Address-space events                                 ---*/
/*------------------------------------------------------------*/

/* The brk segment is the allocator's main arena. */
static void mp_new_mem_brk(Addr a, SizeT len, ThreadId tid)
{
   mp_registry_brk(a, len, True);
}

static void mp_die_mem_brk(Addr a, SizeT len)
{
   mp_registry_brk(a, len, False);
}

static void mp_new_mem_mmap(Addr a, SizeT len, Bool rr, Bool ww, Bool xx,
                            ULong di_handle)
{
   mp_registry_note_mmap();
}

/* The core reports the main thread too (with no parent), after
   mp_instrument_init has numbered it 1. */
static void mp_pre_thread_ll_create(ThreadId parent, ThreadId child)
{
   if (parent != VG_INVALID_THREADID) {
      mp_thread_created(child);
      mp_threads_note_created(parent, child);
      mp_registry_threads(child, +1);
   }
}

static void mp_pre_thread_ll_exit(ThreadId tid)
{
   mp_registry_threads(tid, -1);
   mp_analyses_thread_exit(mp_thread_serial(tid));
}

static void mp_die_mem_munmap(Addr a, SizeT len)
{
   mp_registry_note_munmap(a, len);
   mp_analyses_unmap(a, len);
}

/* A successful execve replaces the process without running the tool's
   exit: the output is written now (and again at exit if the execve
   fails; the later file replaces the earlier whole). */
static void write_output(Bool summary);

/* How the process ended, for the output's "end": an exit_group system
   call (exit, _exit, a return from main) is an exit with its status; a
   run that reaches the tool's end without one was killed by a signal
   (a crash, abort, SIGTERM): its counts stop where it died. */
static Bool saw_exit;
static Int  exit_status;
static const HChar *end_by = "signal";

/* Execs made so far: with --trace-children=yes the new program is
   profiled too, under the same pid, and would write the same file: the
   file written before each exec is named <file>.exec-<n> instead. */
static UInt execs;

/* The output names with %q{VAR} replaced by the variable's value at
   start-up (the client may change its environment before it exits);
   %p and %% are left for VG_(expand_file_name) at write time, so a
   forked child still writes under its own pid.  An unset variable is an
   error now, naming the option. */
static const HChar *out_file_template, *dot_file_template;
static Bool forked_child;
static Bool has_pid(const HChar *template);
static HChar *output_name(const HChar *option, const HChar *template);

/* A forked child whose output name has no %p writes <name>.<pid>; the
   program it execs under --trace-children=yes is a new Valgrind that
   knows nothing of the fork and would write <name>, the parent's file.
   It gets the child's name as a last option of those the core passes
   on (VG_(args_for_valgrind)), %% for a %. */
static void pass_own_name(const HChar *option, const HChar *template)
{
   HChar *path = output_name(option, template), *arg, *q;
   const HChar *p;
   SizeT n = VG_(strlen)(option) + 2 * VG_(strlen)(path) + 2;
   arg = VG_(malloc)("mp.main.execarg", n);
   q = arg + VG_(sprintf)(arg, "%s=", option);
   for (p = path; *p; p++) {
      if (*p == '%')
         *q++ = '%';
      *q++ = *p;
   }
   *q = '\0';
   VG_(addToXA)(VG_(args_for_valgrind), &arg);
   VG_(free)(path);
}

static void mp_pre_syscall(ThreadId tid, UInt syscallno, UWord *args, UInt nArgs)
{
   if (syscallno == __NR_mmap)
      mp_stackvars_pre_mmap((Int)args[4]);
   if (syscallno == __NR_execve || syscallno == __NR_execveat) {
      end_by = "exec";
      execs++;
      /* The run goes on if the execve fails: the counts are completed
         for the report, nothing is ended. */
      mp_analyses_flush();
      write_output(False);
      end_by = "signal";
      if (forked_child && mp_clo_trace_children()) {
         if (!has_pid(out_file_template))
            pass_own_name("--memprof-out-file", out_file_template);
         if (dot_file_template && !has_pid(dot_file_template))
            pass_own_name("--affinity-dot", dot_file_template);
      }
   }
   if (syscallno == __NR_exit_group) {
      saw_exit = True;
      exit_status = (Int)(args[0] & 0xff);
      end_by = "exit";
   }
}

static void mp_post_syscall(ThreadId tid, UInt syscallno, UWord *args,
                            UInt nArgs, SysRes res)
{
   if (syscallno == __NR_mmap)
      mp_stackvars_post_mmap();
}

/* A forked child reports its own accesses only: the parent's file
   already holds what happened before the fork.  It never replaces that
   file: when the name has no %p, the child writes <name>.<pid>
   (output_name), and says so once, now. */

static void mp_atfork_child(ThreadId tid)
{
   forked_child = True;
   if (!has_pid(out_file_template)) {
      HChar *path = output_name("--memprof-out-file", out_file_template);
      VG_(umsg)("memprof: forked child %d writes %s (--memprof-out-file has no %%p)\n",
                VG_(getpid)(), path);
      VG_(free)(path);
   }
   mp_helper_fork_child();
   mp_stackvars_atfork_child();
   mp_analyses_reset();
   mp_instrument_fork_child();
}

/*------------------------------------------------------------*/
/*--- Output file                                          ---*/
/*------------------------------------------------------------*/

static HChar *client_command(void)
{
   XArray *buf = VG_(newXA)(VG_(malloc), "mp.cmd", VG_(free), sizeof(HChar));
   Word i;
   HChar *s;
   VG_(addBytesToXA)(buf, VG_(args_the_exename), VG_(strlen)(VG_(args_the_exename)));
   for (i = 0; i < VG_(sizeXA)(VG_(args_for_client)); i++) {
      const HChar *arg = *(HChar **)VG_(indexXA)(VG_(args_for_client), i);
      VG_(addBytesToXA)(buf, " ", 1);
      VG_(addBytesToXA)(buf, arg, VG_(strlen)(arg));
   }
   VG_(addBytesToXA)(buf, "", 1);
   s = VG_(strdup)("mp.cmd.2", VG_(indexXA)(buf, 0));
   VG_(deleteXA)(buf);
   return s;
}

static HChar *temp_name_for(const HChar *path)
{
   SizeT n = VG_(strlen)(path) + 32;
   HChar *tmp = VG_(malloc)("mp.tmpname", n);
   VG_(snprintf)(tmp, n, "%s.tmp.%d", path, VG_(getpid)());
   return tmp;
}

/* A name the output must be written through, not renamed over: a
   symbolic link (the file it points to is the output) or something that
   is not a regular file (/dev/null, a FIFO a reader waits on). */
static Bool write_through(const HChar *path)
{
   HChar link[8];
   struct vg_stat st;
   SysRes sr;
   if (VG_(readlink)(path, link, sizeof link) >= 0)
      return True;
   sr = VG_(stat)(path, &st);
   return !sr_isError(sr) && !VKI_S_ISREG(st.mode);
}

/* The reason of a failed file operation, as the C library's strerror
   words it, for the errors a write of the output meets; the tool API
   has no strerror. */
static const HChar *errno_text(UWord err, HChar *buf, Int size)
{
   switch (err) {
   case VKI_ENOSPC:  return "No space left on device";
   case VKI_EFBIG:   return "File too large";
   case VKI_EIO:     return "Input/output error";
   case VKI_EACCES:  return "Permission denied";
   case VKI_EPERM:   return "Operation not permitted";
   case VKI_EROFS:   return "Read-only file system";
   case VKI_ENOENT:  return "No such file or directory";
   case VKI_ENOTDIR: return "Not a directory";
   case VKI_EISDIR:  return "Is a directory";
   case VKI_ELOOP:   return "Too many levels of symbolic links";
   case VKI_EMFILE:  return "Too many open files";
   case VKI_ENFILE:  return "Too many open files in system";
   case VKI_ENOMEM:  return "Cannot allocate memory";
   case VKI_EPIPE:   return "Broken pipe";
   case VKI_EINTR:   return "Interrupted system call";
   case VKI_EINVAL:  return "Invalid argument";
   default:
      VG_(snprintf)(buf, size, "error %lu", err);
      return buf;
   }
}

/* Writes all of text to fd: 0, or the error number of the write that
   failed (ENOSPC for a write that made no progress, as the kernel
   returns for a full device that took part of a buffer). */
static UWord write_all(Int fd, const HChar *text, SizeT len)
{
   SizeT done = 0;
   while (done < len) {
      Int chunk = (len - done) > (1 << 30) ? (1 << 30) : (Int)(len - done);
      Int w = VG_(write)(fd, text + done, chunk);
      if (w < 0)
         return (UWord)-w;
      if (w == 0)
         return VKI_ENOSPC;
      done += w;
   }
   return 0;
}

/* Writes text to path whole or not at all: a temporary file in the same
   directory, renamed over path once complete; written through a link or
   into a device or FIFO directly (there, whole is up to the reader).
   A failure is said with its reason: a full disk and a missing
   directory call for different remedies. */
static Bool write_file_whole(const HChar *path, const HChar *text, SizeT len)
{
   HChar *tmp, buf[32];
   SysRes sr;
   Int fd;
   UWord err;
   if (write_through(path)) {
      sr = VG_(open)(path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC, 0666);
      if (sr_isError(sr)) {
         VG_(umsg)("memprof: cannot write %s: %s; no output written\n", path,
                   errno_text(sr_Err(sr), buf, sizeof buf));
         return False;
      }
      err = write_all(sr_Res(sr), text, len);
      VG_(close)(sr_Res(sr));
      if (err)
         VG_(umsg)("memprof: cannot write %s: %s; output incomplete\n", path,
                   errno_text(err, buf, sizeof buf));
      return err == 0;
   }
   tmp = temp_name_for(path);
   sr = VG_(open)(tmp, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC, 0666);
   if (sr_isError(sr)) {
      VG_(umsg)("memprof: cannot create %s: %s; no output written\n", tmp,
                errno_text(sr_Err(sr), buf, sizeof buf));
      VG_(free)(tmp);
      return False;
   }
   fd = sr_Res(sr);
   err = write_all(fd, text, len);
   VG_(close)(fd);
   if (err) {
      VG_(unlink)(tmp);
      VG_(umsg)("memprof: cannot write %s: %s; no output written\n", path,
                errno_text(err, buf, sizeof buf));
   } else if (VG_(rename)(tmp, path) != 0) {
      /* VG_(rename) keeps its error number to itself. */
      VG_(unlink)(tmp);
      VG_(umsg)("memprof: cannot rename %s to %s; no output written\n", tmp, path);
      err = 1;
   }
   VG_(free)(tmp);
   return err == 0;
}

/* value with each %q{VAR} replaced by VAR's value now, at start-up (a
   '%' in that value made literal), so that an unset variable is a bad
   option before the client runs, not a lost output at exit. */
static const HChar *expand_env_now(const HChar *option, const HChar *value)
{
   XArray *buf = VG_(newXA)(VG_(malloc), "mp.expand", VG_(free), sizeof(HChar));
   const HChar *p = value;
   HChar *res;
   while (*p) {
      if (p[0] == '%' && p[1] == 'q' && p[2] == '{') {
         const HChar *end = VG_(strchr)(p + 3, '}');
         HChar *var;
         const HChar *val;
         SizeT n = end ? (SizeT)(end - (p + 3)) : 0;
         if (end == NULL || n == 0)
            mp_bad_option(option, value, "a %%q{...} is not closed or names no variable");
         var = VG_(malloc)("mp.expand.var", n + 1);
         VG_(memcpy)(var, p + 3, n);
         var[n] = '\0';
         val = VG_(getenv)(var);
         if (val == NULL)
            mp_bad_option(option, value, "environment variable %s is not set", var);
         VG_(free)(var);
         for (; *val; val++) {
            /* a '%' in the value is literal */
            if (*val == '%')
               VG_(addBytesToXA)(buf, "%", 1);
            VG_(addBytesToXA)(buf, val, 1);
         }
         p = end + 1;
         continue;
      }
      if (p[0] == '%' && p[1] != '\0') {
         VG_(addBytesToXA)(buf, p, 2);
         p += 2;
         continue;
      }
      VG_(addBytesToXA)(buf, p, 1);
      p++;
   }
   VG_(addBytesToXA)(buf, "", 1);
   res = VG_(strdup)("mp.expand", VG_(indexXA)(buf, 0));
   VG_(deleteXA)(buf);
   return res;
}

/* Whether an output name has a %p (not a %%p, which is a literal). */
static Bool has_pid(const HChar *template)
{
   const HChar *p;
   for (p = template; *p; p++)
      if (p[0] == '%') {
         if (p[1] == 'p')
            return True;
         if (p[1] != '\0')
            p++;
      }
   return False;
}

/* The path an output is written to now: the name with %p and %%
   expanded, and in a forked child, if the name has no %p, ".<pid>"
   added (the parent writes the name itself). */
static HChar *output_name(const HChar *option, const HChar *template)
{
   HChar *path = VG_(expand_file_name)(option, template);
   if (forked_child && !has_pid(template)) {
      SizeT n = VG_(strlen)(path) + 16;
      HChar *own = VG_(malloc)("mp.main.forkpath", n);
      VG_(snprintf)(own, n, "%s.%d", path, VG_(getpid)());
      VG_(free)(path);
      path = own;
   }
   return path;
}

/* An output file (--memprof-out-file, --affinity-dot) must be creatable
   before the client runs: a directory, a bad directory or %q{UNSET}
   stops now, with the option's name, not at exit with the results
   lost. */
static void check_writable(const HChar *option, const HChar *value)
{
   HChar *path = VG_(expand_file_name)(option, value);
   HChar *tmp;
   struct vg_stat st;
   SysRes sr = VG_(stat)(path, &st);
   if (!sr_isError(sr) && VKI_S_ISDIR(st.mode))
      mp_bad_option(option, value, "%s is a directory: expected a file name", path);
   if (write_through(path)) {
      /* /dev/null and links are written through at exit: no temporary
         file in their directory (/dev is not writable for most users).
         A FIFO is not opened now: that would wait for its reader. */
      VG_(free)(path);
      return;
   }
   tmp = temp_name_for(path);
   sr = VG_(open)(tmp, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_EXCL, 0666);
   if (sr_isError(sr))
      mp_bad_option(option, value, "cannot create a file in the directory of %s", path);
   VG_(close)(sr_Res(sr));
   VG_(unlink)(tmp);
   VG_(free)(tmp);
   VG_(free)(path);
}

static void check_output_writable(void)
{
   out_file_template = expand_env_now("--memprof-out-file", mp_clo_out_file);
   check_writable("--memprof-out-file", out_file_template);
   if (mp_clo_affinity_dot) {
      if (!mp_clo_loops)
         mp_bad_option("--affinity-dot", mp_clo_affinity_dot,
                       "the structure analysis needs --loops=yes");
      dot_file_template = expand_env_now("--affinity-dot", mp_clo_affinity_dot);
      check_writable("--affinity-dot", dot_file_template);
   }
}

/*------------------------------------------------------------*/
/*--- Exit summary                                         ---*/
/*------------------------------------------------------------*/

/* The summary's lines (mp_exit_summary.c writes them) go to Valgrind's
   log. */
static void log_line(void *arg, const char *line)
{
   VG_(umsg)("%s", line);
}

/* --affinity-dot: the field affinity graphs of the structures found,
   one Graphviz graph per variable, written whole like the output. */
static void dot_emit(void *arg, const char *text, size_t len)
{
   XArray *buf = arg;
   VG_(addBytesToXA)(buf, text, (Word)len);
}

static void write_affinity_dot(const mp_results *res)
{
   HChar *path = output_name("--affinity-dot", dot_file_template);
   XArray *buf = VG_(newXA)(VG_(malloc), "mp.dot", VG_(free), sizeof(HChar));
   mp_report_struct_dot(res, dot_emit, buf);
   if (!write_file_whole(path, VG_(sizeXA)(buf) ? VG_(indexXA)(buf, 0) : "",
                         VG_(sizeXA)(buf)))
      VG_(umsg)("memprof: could not write %s\n", path);
   VG_(deleteXA)(buf);
   VG_(free)(path);
}

/* The OpenMP runtime among the loaded objects (GCC's libgomp, LLVM's
   libomp, Intel's libiomp5), by its file name, or NULL; *wait_set
   whether the user chose how its threads wait, which the summary then
   does not question. */
static const char *openmp_runtime(int *wait_set)
{
   static const HChar *const runtimes[] = { "libgomp.so", "libomp.so", "libiomp5.so" };
   const DebugInfo *di;
   UInt k;
   *wait_set = VG_(getenv)("OMP_WAIT_POLICY") != NULL || VG_(getenv)("GOMP_SPINCOUNT") != NULL
               || VG_(getenv)("KMP_BLOCKTIME") != NULL;
   for (di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di)) {
      const HChar *path = VG_(DebugInfo_get_filename)(di), *base = VG_(strrchr)(path, '/');
      base = base ? base + 1 : path;
      for (k = 0; k < sizeof runtimes / sizeof runtimes[0]; k++)
         if (VG_(strncmp)(base, runtimes[k], VG_(strlen)(runtimes[k])) == 0)
            return base;
   }
   return NULL;
}

static const char *code_object(uint64_t iaddr)
{
   return mp_code_object((Addr)iaddr);
}

static int block_of(uint64_t addr, uint64_t *start, uint64_t *len, uint32_t *var)
{
   Addr s;
   SizeT l;
   UInt v;
   if (!mp_registry_block_of((Addr)addr, &s, &l, &v))
      return 0;
   *start = s;
   *len = l;
   if (var)
      *var = v;
   return 1;
}

static void write_output(Bool summary)
{
   mp_report_cache rc;
   HChar *path = output_name("--memprof-out-file", out_file_template);
   if (mp_clo_trace_children() && VG_(strcmp)(end_by, "exec") == 0) {
      SizeT n = VG_(strlen)(path) + 24;
      HChar *pre = VG_(malloc)("mp.main.execpath", n);
      VG_(snprintf)(pre, n, "%s.exec-%u", path, execs);
      VG_(free)(path);
      path = pre;
   }
   HChar *cmd = client_command();
   mp_run run;
   mp_finished an;
   mp_adapter_queries ask;
   mp_results *res;
   mp_json *j;
   size_t len;
   const char *text;
   Bool written;
   ULong analysed, windows;
   int n_patterns;

   VG_(memset)(&run, 0, sizeof run);
   VG_(memset)(&an, 0, sizeof an);
   VG_(memset)(&ask, 0, sizeof ask);
   run.tool_version = MP_VERSION;
   run.command = cmd;
   run.pid = VG_(getpid)();
   run.line_size = mp_vars_line_size(mp_g_vars);
   run.collect_atstart = mp_clo_collect_atstart;
   run.toggle_collect = mp_clo_toggle_collect;
   run.n_toggle_collect = mp_clo_n_toggle_collect;
   run.min_var_size = mp_clo_min_var_size;
   run.show_runtime = mp_clo_show_runtime;
   run.output_all = mp_clo_output_all;
   run.program_tree = mp_owner_tree();
   run.program_patterns = mp_owner_patterns(&n_patterns);
   run.n_program_patterns = (uint32_t)n_patterns;
   run.summary_rows = mp_clo_summary;
   run.affinity_dot = mp_clo_affinity_dot != NULL && mp_g_structs != NULL;
   run.reuse_sampling = mp_clo_sample_mode == 1 ? "shards"
                      : mp_clo_sample_mode == 2 ? "bursty"
                      : mp_clo_sample_mode == MP_SAMPLE_LINES && mp_g_sample_shift ? "lines"
                      : "off";
   if (mp_clo_sample_mode == 1)
      run.reuse_rate = mp_clo_sample_rate;
   if (mp_clo_sample_mode == 2) {
      run.reuse_window = mp_clo_sample_window;
      run.reuse_max_gap = mp_clo_sample_max_gap;
   }
   /* A run that ended in the first detail window was analysed whole:
      nothing to say about windows. */
   if (mp_sampling_windows(&analysed, &windows)
       && !((mp_clo_sample_mode == MP_SAMPLE_DETAIL || mp_clo_sample_mode == MP_SAMPLE_LINES)
            && analysed == mp_g_instructions)) {
      run.instructions_analysed = analysed;
      run.windows = windows;
      run.window_mode = mp_clo_sample_mode == MP_SAMPLE_PERIODIC ? "periodic"
                      : mp_clo_sample_mode == MP_SAMPLE_WINDOWS ? "windows" : "detail";
      run.window = mp_clo_window_len;
      run.window_gap = mp_clo_window_gap;
      run.instructions_all = mp_g_instructions;
   }
   run.detail_strides = mp_g_stride != NULL;
   run.detail_loops = mp_g_loops != NULL;
   run.detail_loop_accesses = mp_g_loops_accesses;
   run.detail_weight = mp_g_detail_weight;
   run.sharing_enabled = mp_clo_sharing;
   run.page_size = mp_g_numa ? mp_clo_page_size : 0;
   run.sockets = mp_g_hier.cores / mp_g_hier.cores_per_socket;
   run.end_by = end_by;
   run.end_status = exit_status;
   run.whatif_split = mp_clo_whatif_split;
   run.whatif_pad = mp_clo_whatif_pad;
   run.whatif_interchange = mp_clo_whatif_interchange;
   run.whatif_tile = mp_clo_whatif_tile;
   run.whatif_pad_conflicts = mp_clo_whatif_pad_conflicts;
   run.whatif_fuse = mp_clo_whatif_fuse;
   run.whatif_fission = mp_clo_whatif_fission;
   run.whatif_min_gain = mp_clo_whatif_min_gain;
   run.fair_sched = mp_clo_fair_sched();
   run.openmp_runtime = openmp_runtime(&run.openmp_wait_set);

   an.vars = mp_g_vars;
   an.stride = mp_g_stride;
   an.reuse = mp_g_reuse;
   an.carriers = mp_g_carriers;
   if (mp_g_hier.cache) {
      UInt k;
      VG_(memset)(&rc, 0, sizeof rc);
      rc.n_levels = mp_g_hier.n_levels;
      for (k = 0; k < rc.n_levels; k++)
         rc.level[k] = mp_g_hier.level[k];
      for (k = 0; k <= rc.n_levels; k++)
         rc.latency[k] = mp_g_hier.latency[k];
      rc.cores = mp_g_hier.cores;
      rc.cores_per_socket = mp_g_hier.cores_per_socket;
      rc.source = mp_g_hier.source;
      rc.fallback_why = mp_g_hier.fallback_why;
      rc.cache = mp_g_hier.cache;
      /* Misses per thousand instructions: of the instructions whose
         accesses were seen. */
      rc.instructions = mp_collection_was_partial() ? 0 : mp_instructions_observed();
      rc.conflicts = mp_g_hier.conflicts;
      rc.tlb = mp_g_hier.tlb;
      rc.tlb_entries = mp_g_hier.tlb_entries;
      rc.tlb_assoc = mp_g_hier.tlb_assoc;
      rc.tlb_page = mp_g_hier.tlb_page;
      an.cache = &rc;
   }
   an.sharing = mp_g_sharing;
   an.whatif = mp_g_whatif;
   ask.block_of = block_of;
   ask.code_object = code_object;
   if (mp_g_loops) {
      an.loops = mp_g_loops;
      an.streams = mp_g_streams;
      an.formula = mp_g_formula;
      an.structs = mp_g_structs;
      an.instrs = mp_loopnest_instr_facts(&an.n_instrs);
      ask.field_name = mp_loopnest_field_name;
      ask.declared_members = mp_sites_declared_members;
   }

   mp_vars_name_static_locals(mp_g_vars);
   mp_vars_qualify_shared_locals(mp_g_vars);
   if (mp_g_sample_sets) {
      run.line_sample = 1;
      run.line_sample_shift = mp_g_sample_shift;
      run.l1_sets = (UInt)mp_g_sample_set_mask + 1;
      run.sample_sets = run.l1_sets >> mp_g_sample_shift;
      mp_estimates_make();
      run.unattributed_accesses = mp_estimates_unattributed();
   }
   res = mp_results_build(&run, &an, &ask);
   j = mp_report_json(res);
   if (mp_clo_affinity_dot && an.structs)
      write_affinity_dot(res);
   tl_assert(mp_json_ok(j));
   text = mp_json_text(j, &len);
   written = write_file_whole(path, text, len);
   if (summary)
      mp_exit_summary(res, path, written, log_line, NULL);
   mp_json_free(j);
   mp_results_free(res);
   if (mp_g_sample_sets)
      mp_estimates_undo();   /* the run may go on (an execve failed) */
   if (an.instrs)
      VG_(free)((mp_instr_fact *)an.instrs);
   VG_(free)(cmd);
   VG_(free)(path);
}

static void print_stats(void)
{
   VG_(dmsg)("memprof: instructions instrumented: %llu\n", stats__instrs);
   VG_(dmsg)("memprof: registry resolutions:      %llu\n", stats__resolves);
   VG_(dmsg)("memprof: stack unwinds:             %llu\n", stats__stack_unwinds);
   mp_stackvars_stats();
   mp_inlvars_stats();
   VG_(dmsg)("memprof: heap blocks:               %llu\n", stats__blocks);
   VG_(dmsg)("memprof: variables:                 %u\n", mp_vars_count(mp_g_vars));
   mp_analyses_stats();
}

/* The analyses end what is open and complete their counts before the
   report reads anything (write_output does not: it also writes the
   output before an execve, which may fail and let the run go on). */
static void mp_fini(Int exitcode)
{
   mp_analyses_finish();
   mp_sites_finish();
   mp_stackvars_finish();
   write_output(True);
   if (VG_(clo_verbosity) > 1)
      print_stats();
}

/*------------------------------------------------------------*/
/*--- Setup                                                ---*/
/*------------------------------------------------------------*/

/* The checks that need every option: the output names, the cache
   geometry (even with --cache-sim=no).  Once. */
static void check_options(void)
{
   static Bool done = False;
   Clo_Mode mode = VG_(Clo_Mode)();
   if (done)
      return;
   done = True;
   /* As while the options are parsed: the core's own refusals (a bad %
      in a file name, from VG_(expand_file_name)) are fatal, on stderr. */
   VG_(set_Clo_Mode)(cloP);
   if (mp_clo_exact) {
      if (mp_clo_sample_given && mp_clo_sample_mode != 0)
         mp_bad_option("--exact", "yes", "every analysis at every access: "
                       "it cannot go with a sampling --sample (use one or the other)");
      mp_clo_sample_mode = 0;
   }
   if (mp_clo_sample_mode == MP_SAMPLE_LINES) {
      /* False sharing is a matter of a line's bytes and its threads,
         one line at a time: a sample of the lines finds the falsely
         shared ones only when they are in it. */
      if (mp_clo_sharing_given && mp_clo_sharing)
         mp_bad_option("--sharing", "yes", "cannot go with --sample=lines, which follows a "
                       "sample of the lines: a falsely shared line would be found only if "
                       "it were in the sample");
      mp_clo_sharing = False;
   }
   check_output_writable();
   mp_hierarchy_init();
   VG_(set_Clo_Mode)(mode);
}

/*------------------------------------------------------------*/
/*--- The program's build tree                             ---*/
/*------------------------------------------------------------*/

static Bool is_file(const HChar *path)
{
   struct vg_stat st;
   SysRes sr = VG_(stat)(path, &st);
   return !sr_isError(sr) && VKI_S_ISREG(st.mode);
}

/* dir[0..n) "/" name, a new string ("." for an empty dir). */
static HChar *joined(const HChar *dir, Int n, const HChar *name)
{
   Int k = (Int)VG_(strlen)(name);
   HChar *s;
   if (n == 0) {
      dir = ".";
      n = 1;
   }
   s = VG_(malloc)("mp.main.join", n + k + 2);
   VG_(memcpy)(s, dir, n);
   s[n] = '/';
   VG_(memcpy)(s + n + 1, name, k + 1);
   return s;
}

/* name in the first directory of PATH that has it, as the core finds
   the executable (NULL: none has). */
static HChar *in_search_path(const HChar *name)
{
   const HChar *path = VG_(getenv)("PATH"), *p = path;
   while (p && *p) {
      const HChar *end = VG_(strchr)(p, ':');
      Int n = end ? (Int)(end - p) : (Int)VG_(strlen)(p);
      HChar *full = joined(p, n, name);   /* "": the current directory */
      if (is_file(full))
         return full;
      VG_(free)(full);
      p = end ? end + 1 : NULL;
   }
   return NULL;
}

/* The executable's absolute path as the core maps it (so as its debug
   information names it): found as the core finds it, against the
   startup directory when relative, its symbolic links followed
   (/usr/bin/python3 is python3.11 beside it). */
static HChar *program_path(void)
{
   const HChar *name = VG_(args_the_exename);
   HChar *path, link[4096];
   Int hops;
   if (!name)
      return NULL;
   if (VG_(strchr)(name, '/'))
      path = name[0] == '/' ? VG_(strdup)("mp.main.exe", name)
                            : joined(VG_(get_startup_wd)(), VG_(strlen)(VG_(get_startup_wd)()), name);
   else if (!(path = in_search_path(name)))
      return NULL;
   if (path[0] != '/') {   /* a relative entry of PATH */
      HChar *abs = joined(VG_(get_startup_wd)(), VG_(strlen)(VG_(get_startup_wd)()), path);
      VG_(free)(path);
      path = abs;
   }
   for (hops = 0; hops < 8; hops++) {
      SSizeT n = VG_(readlink)(path, link, sizeof link - 1);
      HChar *next, *slash;
      if (n < 0)
         break;
      link[n] = '\0';
      slash = VG_(strrchr)(path, '/');
      next = link[0] == '/' ? VG_(strdup)("mp.main.exe", link)
                            : joined(path, (Int)(slash - path), link);
      VG_(free)(path);
      path = next;
   }
   return path;
}

/* The rule that tells the program's objects from the system's needs
   the program's place before the first object is classed. */
static void set_program_tree(void)
{
   HChar *path = program_path();
   if (path) {
      mp_owner_set_program(path);
      VG_(free)(path);
   }
}

/* Before the banner (mp_vgcompat.h); post_clo_init runs the checks
   too, in case a core calls the banner by another way. */
MP_VG_BEFORE_PREAMBLE(check_options)

static void mp_post_clo_init(void)
{
   check_options();
   set_program_tree();
   /* Before the analyses: they count in its records, at its line size. */
   mp_g_vars = mp_vars_new(mp_g_hier.cache ? mp_g_hier.level[0].line : MP_LINE_SIZE);
   mp_analyses_create();
   mp_registry_init();
   mp_stackvars_init();
   mp_instrument_init();
   /* Last: the helper is a copy of this process, every analysis made. */
   mp_helper_start();
}

static void mp_start_client_code(ThreadId tid, ULong blocks_done)
{
   static Bool started;
   (void)blocks_done;
   if (!started) {
      started = True;
      mp_stackvars_client_starts();
   }
   mp_loopnest_thread_runs(tid);
}

static void mp_pre_clo_init(void)
{
   VG_(details_name)("memprof");
   VG_(details_version)(MP_VERSION);
   VG_(details_description)("per-data-structure memory access profiler");
   VG_(details_copyright_author)(
      "Copyright (C) 2026, the memprof developers; GNU GPL'd.");
   VG_(details_bug_reports_to)("https://github.com/memprof/memprof/issues");
   VG_(details_avg_translation_sizeB)(500);
   /* Heap blocks are named past allocation wrappers inlined into their
      caller (mp_sites.c): read the inlined calls unless the user says
      --read-inline-info=no. */
   VG_(clo_read_inline_info) = True;
   /* Stack locals are named from the variables' debug information
      (mp_stackvars.h): read unless the user says --read-var-info=no. */
   mp_stackvars_pre_clo_init();

   VG_(basic_tool_funcs)(mp_post_clo_init, mp_instrument, mp_fini);
   VG_(needs_command_line_options)(mp_clo_process, mp_clo_print_usage,
                                   mp_clo_print_debug_usage);
   VG_(needs_client_requests)(mp_handle_client_request);
   mp_heap_pre_clo_init();
   VG_(track_new_mem_mmap)(mp_new_mem_mmap);
   VG_(track_die_mem_munmap)(mp_die_mem_munmap);
   VG_(track_new_mem_brk)(mp_new_mem_brk);
   VG_(track_die_mem_brk)(mp_die_mem_brk);
   VG_(track_pre_thread_ll_create)(mp_pre_thread_ll_create);
   VG_(track_pre_thread_ll_exit)(mp_pre_thread_ll_exit);
   VG_(track_start_client_code)(mp_start_client_code);
   VG_(atfork)(NULL, NULL, mp_atfork_child);
   VG_(needs_syscall_wrapper)(mp_pre_syscall, mp_post_syscall);
}

VG_DETERMINE_INTERFACE_VERSION(mp_pre_clo_init)
