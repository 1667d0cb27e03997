/*--------------------------------------------------------------------*/
/*--- memprof: processes apart from the program's.                 ---*/
/*---                                                   mp_apart.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
*/
#include "pub_tool_basics.h"
#include "pub_tool_vki.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_libcsignal.h"
#include "pub_tool_mallocfree.h"

#include "mp_apart.h"
#include "mp_vgcompat.h"

/* Linux's poll bits (the vki headers name the struct only). */
#define MP_POLLERR 0x008
#define MP_POLLHUP 0x010

Bool mp_apart_peer_gone(Int fd, Int ms)
{
   struct vki_pollfd p;
   SysRes sr;
   p.fd = fd;
   p.events = 0;
   p.revents = 0;
   sr = VG_(poll)(&p, 1, ms);
   return !sr_isError(sr) && sr_Res(sr) > 0 && (p.revents & (MP_POLLHUP | MP_POLLERR));
}

static Bool kept(Int fd, const Int *keep, UInt n)
{
   UInt i;
   for (i = 0; i < n; i++)
      if (keep[i] == fd)
         return True;
   return False;
}

void mp_apart_close_all_but(const Int *keep, UInt n)
{
   static UChar buf[4096];
   Int dir = VG_(fd_open)("/proc/self/fd", VKI_O_RDONLY, 0), got, *fds = NULL;
   UInt n_fds = 0, cap = 0, i;
   if (dir < 0)
      return;
   while ((got = VG_(getdents64)(dir, (struct vki_dirent64 *)buf, sizeof buf)) > 0) {
      Int off = 0;
      while (off < got) {
         const struct vki_dirent64 *d = (const struct vki_dirent64 *)(buf + off);
         HChar *end;
         Int fd = (Int)VG_(strtoll10)(d->d_name, &end);
         off += d->d_reclen;
         if (end == d->d_name || *end != '\0' || fd == dir || kept(fd, keep, n))
            continue;
         if (n_fds == cap) {
            cap = cap ? 2 * cap : 64;
            fds = VG_(realloc)("mp.apart.fds", fds, cap * sizeof *fds);
         }
         fds[n_fds++] = fd;
      }
   }
   VG_(close)(dir);
   for (i = 0; i < n_fds; i++)
      VG_(close)(fds[i]);
   if (fds)
      VG_(free)(fds);
}

/* VG_(fork), less the descriptor it leaks: Valgrind's fork makes a
   pipe through which the child waits until the parent has noted its pid
   (its SIGCHLD is then not the program's), and the parent closes only
   the pipe's write end.  The read end would stay among the program's
   descriptors (the lowest free one when the program starts).  The pipe
   takes the two lowest free descriptors, which a pipe made and closed
   just before finds; a Valgrind that makes no such pipe leaves the
   number free, and closing it does nothing. */
static Int fork_closing_leak(void)
{
   Int probe[2], pid;
   if (VG_(pipe)(probe) != 0)
      return VG_(fork)();
   VG_(close)(probe[0]);
   VG_(close)(probe[1]);
   pid = VG_(fork)();
   if (pid > 0)
      VG_(close)(probe[0]);
   return pid;
}

/* Twice: the first child says the grandchild's pid and exits, so the
   program never has a child of ours. */
Int mp_apart_fork(mp_apart_body body, void *arg, Int *read_fd)
{
   Int res[2], pid, status, got, apart = 0;
   if (VG_(pipe)(res) != 0)
      return -1;
   pid = fork_closing_leak();
   if (pid == 0) {
      Int h = VG_(fork)();
      if (h == 0)
         body(arg, res[1]);
      VG_(write)(res[1], &h, sizeof h);
      VG_(exit)(0);
   }
   VG_(close)(res[1]);
   if (pid > 0)
      VG_(waitpid)(pid, &status, 0);
   got = pid > 0 ? VG_(read)(res[0], &apart, sizeof apart) : 0;
   if (got != sizeof apart || apart <= 0) {
      VG_(close)(res[0]);
      return -1;
   }
   *read_fd = VG_(safe_fd)(res[0]);
   return apart;
}
