/*--------------------------------------------------------------------*/
/*--- memprof: processes apart from the program's.                 ---*/
/*---                                                   mp_apart.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   memprof forks processes of its own (the analysis helpers, the
   reader of stack variables' debug information) that the program must
   never see: not as a child (its SIGCHLD, a wait(-1) that reaps it),
   not through a descriptor left among the program's.  Each is a
   grandchild of Valgrind's process, whose parent exits at once.
*/
#ifndef MP_APART_H
#define MP_APART_H

#include "pub_tool_basics.h"

typedef void (*mp_apart_body)(void *arg, Int write_fd) __attribute__((noreturn));

/* Forks a process apart from the program's that runs body(arg, w),
   w the write end of a pipe whose read end (moved out of the program's
   descriptor range) is *read_fd.  Every other descriptor is still
   open in it; body closes them (mp_apart_close_all_but).  Returns its
   pid, or -1 (nothing left open). */
Int mp_apart_fork(mp_apart_body body, void *arg, Int *read_fd);

/* Waits up to ms milliseconds on fd, this process's end of a pipe to
   a process apart (or its parent); whether the other one is gone (its
   end closed).  Nothing is asked for: poll reports a hang-up (the
   reader's) and an error (the writer's) anyway.  Checked before a
   write, whose SIGPIPE would be the program's. */
Bool mp_apart_peer_gone(Int fd, Int ms);

/* Closes every descriptor of this process but the n in keep: the
   program's (a pipe's reader would wait for the process to let go of
   its end), Valgrind's log included. */
void mp_apart_close_all_but(const Int *keep, UInt n);

#endif /* MP_APART_H */
