/*--------------------------------------------------------------------*/
/*--- memprof: the differences between the Valgrind versions.      ---*/
/*---                                                 mp_vgcompat.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   memprof is built against the installed Valgrind's tool interface,
   which changes between releases.  Every difference memprof meets is
   bridged here, and only here, keyed on the version that valgrind.h
   states (__VALGRIND_MAJOR__, __VALGRIND_MINOR__); the rest of the tool
   calls the mp_vg_* names below.  The test command runs every test
   against Valgrind 3.19 (Debian 12's), and the regression tests against
   Debian 13's 3.24 and the newest release, Debian unstable's (3.27
   today): auto/memprof-release-test.sh.

   The changes of the tool interface up to 3.27, and what they ask of
   memprof:
     3.21  VG_(am_shadow_alloc) returns a SysRes, and
           VG_(out_of_memory_NORETURN) takes the error: bridged below.
     3.22  the allocator-replacement functions of
           VG_(needs_malloc_replacement) take alignment arguments: none;
           memprof does not replace the allocator, it wraps the C
           library's in its preloaded object (mp_preload.c).
     3.23  VG_(needs_core_errors) takes a Bool: none; memprof does not
           ask for the core's errors.
     3.26  Iop_Clz64/32 and Iop_Ctz64/32 are gone (the Nat forms stay):
           none; the instrumentation passes the program's IR through and
           builds only additions, comparisons and Boolean operations.
     3.27  guard pages inside a client segment (NSegment.hasGuardPages):
           none; memprof reads a segment's kind and bounds only, and no
           access reaches a guard page.  --num-callers is at least 2: the
           heap's allocation sites take any depth (mp_heap.c).
           VG_(args_the_exename) is no longer const: only read.

   Where the tool API has no way to do what memprof needs, memprof calls
   a core function the static core library exports but the tool headers
   do not declare.  Each such function is declared here, and only here,
   with why the API does not serve; each is exercised by the regression
   and robustness tests, which run against every supported Valgrind
   (auto/memprof-test.sh --valgrind=PREFIX):
     VG_(DebugInfo_syms_howmany), VG_(DebugInfo_syms_getidx): the walk
        of an object's symbol table, for its data symbols (the globals
        of a program without variable debug information); the API looks
        symbols up by address only.  Tests: sect_runs, global_array.
     VG_(clo_read_inline_info): the core reads the debug information's
        inlined calls by default only for memcheck, helgrind, drd,
        massif and dhat, and the API has no say; memprof names a block
        past a wrapper inlined into its caller, so it sets the default
        before the options are read (--read-inline-info=no still wins).
        Tests: heap_inlined, heap_vector_O2.
     VG_(clo_read_var_info): whether the debug information's variables
        are read (the core's --read-var-info).  memprof names stack
        locals from them by default, but only the program's objects'
        are worth their cost (libc6-dbg's: seconds and 70 MB per run),
        and the API's VG_(needs_var_info) reads every object's: memprof
        turns the reading off around the mapping of a runtime object's
        file (mp_stackvars.c).  Tests: stack_default, stack_cfa.
     VG_(am_shared_mmap_file_float_valgrind): memory that stays shared
        across a fork, for the ring that carries the accesses to the
        analysis helper (mp_helper.c); the API maps private memory only.
        Tests: helper_exact, the robustness suite's helper cases.
     VG_(safe_fd): moves a descriptor into Valgrind's reserved range,
        close-on-exec, where the program cannot see or close it (the
        helper's pipe); the API's VG_(pipe) gives the lowest free ones.
        Tests: the robustness suite's helper cases (fds: the program's
        descriptors as natively; family: its children).
     VG_(print_preamble): wrapped at link time, so that the option
        checks that need every option run before the banner; the API
        calls no tool function between the last option and the banner.
        Test: the robustness suite's bad options ("first on stderr").
*/
#ifndef MP_VGCOMPAT_H
#define MP_VGCOMPAT_H

#include "valgrind.h"              /* __VALGRIND_MAJOR__, __VALGRIND_MINOR__ */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_machine.h"
#include "libvex_guest_offsets.h"

#if !defined(__VALGRIND_MAJOR__) || !defined(__VALGRIND_MINOR__)
#  error "valgrind.h states no version (__VALGRIND_MAJOR__/__VALGRIND_MINOR__)"
#endif

/* True when built against Valgrind MAJ.MIN or later. */
#define MP_VG_AT_LEAST(maj, min) \
   (__VALGRIND_MAJOR__ > (maj) \
    || (__VALGRIND_MAJOR__ == (maj) && __VALGRIND_MINOR__ >= (min)))

#if !MP_VG_AT_LEAST(3, 19)
#  error "memprof needs Valgrind 3.19 or later"
#endif

/* Fresh anonymous pages for a table, or NULL.  Valgrind 3.21 made
   VG_(am_shadow_alloc) return a SysRes instead of a pointer (NULL on
   failure), and gave VG_(out_of_memory_NORETURN) the failure's error
   number as a third argument. */
static inline void *mp_vg_shadow_alloc(SizeT n, UWord *err)
{
#if MP_VG_AT_LEAST(3, 21)
   SysRes sr = VG_(am_shadow_alloc)(n);
   if (sr_isError(sr)) {
      *err = sr_Err(sr);
      return NULL;
   }
   *err = 0;
   return (void *)sr_Res(sr);
#else
   *err = 0;
   return VG_(am_shadow_alloc)(n);
#endif
}

static inline __attribute__((noreturn))
void mp_vg_out_of_memory(const HChar *who, SizeT n, UWord err)
{
#if MP_VG_AT_LEAST(3, 21)
   VG_(out_of_memory_NORETURN)(who, n, err);
#else
   (void)err;
   VG_(out_of_memory_NORETURN)(who, n);
#endif
   __builtin_unreachable();
}

/*------------------------------------------------------------*/
/*--- The guest's instruction pointer                      ---*/
/*------------------------------------------------------------*/

/* The guest IP is brought up to date only at superblock exits; an
   unwind from inside a superblock needs the instruction being run.
   The tool API writes the guest state by offset (shadow area 0 is the
   real state); the offset is the platform's. */
#if defined(VGA_amd64)
#  define MP_VG_OFFSET_IP OFFSET_amd64_RIP
#elif defined(VGA_arm64)
#  define MP_VG_OFFSET_IP OFFSET_arm64_PC
#else
#  error "memprof: the guest instruction pointer's offset is not known here"
#endif

/* The 8-byte registers besides SP and IP that the core's unwinder
   starts from (VG_(get_UnwindStartRegs)): the frame pointer, and on
   arm64 the link register.  The guest layout names the frame pointer
   on amd64 only. */
#if defined(VGA_amd64)
#  define MP_VG_UNWIND_REGS { OFFSET_amd64_RBP }
#elif defined(VGA_arm64)
#  include "libvex_guest_arm64.h"
#  define MP_VG_UNWIND_REGS { __builtin_offsetof(VexGuestARM64State, guest_X29), \
                              __builtin_offsetof(VexGuestARM64State, guest_X30) }
#else
#  error "memprof: the guest unwind registers are not known here"
#endif

/* The register a function returns its value in (an allocation wrapper's
   block, mp_instrument.c), by the platform's calling convention. */
#if defined(VGA_amd64)
#  define MP_VG_OFFSET_RET OFFSET_amd64_RAX
#elif defined(VGA_arm64)
#  define MP_VG_OFFSET_RET OFFSET_arm64_X0
#else
#  error "memprof: the guest return value register's offset is not known here"
#endif

static inline void mp_vg_set_IP(ThreadId tid, Addr ip)
{
   VG_(set_shadow_regs_area)(tid, 0, MP_VG_OFFSET_IP, sizeof ip, (const UChar *)&ip);
}

/*------------------------------------------------------------*/
/*--- Core functions the tool API lacks                    ---*/
/*------------------------------------------------------------*/

/* An object's symbol table, by index.  The prototypes match Valgrind
   3.15 to 3.27 on amd64 and arm64, where SymAVMAs is { Addr main; }. */
typedef struct { Addr main; } mp_vg_sym_avmas;
extern Int  VG_(DebugInfo_syms_howmany)(const DebugInfo *di);
extern void VG_(DebugInfo_syms_getidx)(const DebugInfo *di, Int idx,
                                       mp_vg_sym_avmas *ad, UInt *size,
                                       const HChar **pri_name,
                                       const HChar ***sec_names,
                                       Bool *isText, Bool *isIFunc,
                                       Bool *isGlobal);

/* Whether the debug information's inlined calls are read (the core's
   --read-inline-info). */
extern Bool VG_(clo_read_inline_info);

/* Whether the debug information's variables are read (the core's
   --read-var-info), when an object is mapped or its deferred reading
   happens. */
extern Bool VG_(clo_read_var_info);

/* A shared mapping of fd (here /dev/zero: shared anonymous memory) that
   the address space manager knows as Valgrind's, so that the program is
   never given its addresses; a fork keeps it shared.  Valgrind's
   gdbserver maps its shared memory with it. */
extern SysRes VG_(am_shared_mmap_file_float_valgrind)(SizeT length, UInt prot,
                                                      Int fd, Off64T offset);
/* fd moved above the program's descriptors, close-on-exec; -1 on
   failure. */
extern Int VG_(safe_fd)(Int oldfd);

/* Valgrind prints its banner after the options are parsed and before
   the tool's post_clo_init, and calls no tool function in between: a
   refusal there would follow the banner, where the parsing's refusals
   come alone.  The link wraps VG_(print_preamble)
   (-Wl,--wrap=vgPlain_print_preamble, Makefile.am);
   MP_VG_BEFORE_PREAMBLE(f) defines the wrapper, which runs f first. */
#define MP_VG_BEFORE_PREAMBLE(f)                                    \
   void __real_vgPlain_print_preamble(Bool logging_to_fd);          \
   void __wrap_vgPlain_print_preamble(Bool logging_to_fd);          \
   void __wrap_vgPlain_print_preamble(Bool logging_to_fd)           \
   {                                                                \
      f();                                                          \
      __real_vgPlain_print_preamble(logging_to_fd);                 \
   }

#endif /* MP_VGCOMPAT_H */
