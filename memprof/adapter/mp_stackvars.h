/*--------------------------------------------------------------------*/
/*--- memprof: the locals of a frame, from the debug information.  ---*/
/*---                                               mp_stackvars.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The core says which locals (arrays, structs, scalars) are in scope
   at a code address and where each lies from the stack or the frame
   pointer (VG_(di_get_stack_blocks_at_ip)), from the variables' debug
   information, which memprof has it read by default.  To find out
   whether a location depends on the SP or the FP, the core evaluates
   it with made-up register values, and asserts that every evaluation
   gives the same kind of answer; an unwind rule that holds only for
   real values (a frame's CFA on a register that is zero in the
   made-up set) breaks that, and the assertion would end the run.  So
   the question is asked in a process apart (mp_apart.h) that holds a
   copy of the core's debug information: if it dies on an address, the
   frame there is named as a whole, said under -v, and the next
   question starts a new one.  One question is a round trip through
   two pipes; the registry asks once per code address of a program's
   frame (its frame cache), only for objects built with -g (their ELF
   file has a .debug_info section), and a new process is forked only
   after a crash or when objects were mapped since the last one (its
   copy would not know them).
*/
#ifndef MP_STACKVARS_H
#define MP_STACKVARS_H

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_xarray.h"

/* Before the options: the core's default is memprof's. */
void mp_stackvars_pre_clo_init(void);

/* After the options: whether the program's locals are named (not
   with --read-var-info=no). */
void mp_stackvars_init(void);

/* Around the mmap of fd: a runtime object's file is read without its
   variables, unless the user said --read-var-info=yes (libc6-dbg's
   cost seconds and 70 MB per run, for locals that are summed per
   object anyway). */
void mp_stackvars_pre_mmap(Int fd);
void mp_stackvars_post_mmap(void);

/* Whether the program's locals are named (not --read-var-info=no). */
Bool mp_stackvars_naming(void);

/* Before the program's first instruction. */
void mp_stackvars_client_starts(void);

/* The locals in scope at ip (StackBlocks), or NULL if none are known:
   no debug information for them, or the core cannot analyse it (fn,
   the function at ip, is then named under -v).  The caller deletes
   the array. */
XArray *mp_stackvars_at(Addr ip, const HChar *fn);

/* Its counts, under -v. */
void mp_stackvars_stats(void);

/* At exit: the process apart ends, waited for (2 s at most). */
void mp_stackvars_finish(void);

/* In a child the program forked: its own process apart, later. */
void mp_stackvars_atfork_child(void);

#endif /* MP_STACKVARS_H */
