/*--------------------------------------------------------------------*/
/*--- memprof: the analysis helper process and its access stream.  ---*/
/*---                                                  mp_helper.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The helper's life (fork, wait, death), the producer's side of the
   ring (room, the records that are not accesses, the counts handed
   back) and the helper's loop.  The design, the records and the guest's
   view are in mp_helper.h.
*/
#include "pub_tool_basics.h"
#include "pub_tool_vki.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_libcsignal.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"

#include "mp_clo.h"
#include "mp_helper.h"
#include "mp_hostcache.h"
#include "mp_loopnest.h"
#include "mp_reuse_step.h"
#include "mp_vgcompat.h"

#define RING_RECORDS (1u << 18)   /* 4 MiB of records */
#define BATCH        4096u        /* records between two publications */
#define WAIT_MS      1            /* a wait's poll */
#define RESULTS_MAGIC 0x6d707231u /* "mpr1" */

/* Linux's poll bits (the vki headers name the struct only). */
#define MP_POLLIN  0x001
#define MP_POLLERR 0x008
#define MP_POLLHUP 0x010

/* The ring's positions, each on its own host cache line: the producer
   writes head, the helper tail.  Records [tail, head) are the helper's
   to read; the producer may write up to tail + RING_RECORDS. */
typedef struct {
   volatile ULong head;
   UChar pad1[56];
   volatile ULong tail;
   UChar pad2[56];
} ring_header;

#define HEADER_BYTES 4096

Bool mp_g_reuse_apart;
mp_stream mp_g_stream;
const uint64_t *mp_g_loop_changes;

static ring_header *hdr;
/* The one pipe between the two processes, the helper writing: its
   counts at a sync and at the end.  Each end also tells its process
   when the other is gone, however it ended: the reader sees a hang-up,
   the writer an error (poll reports both whatever it asks).  One
   descriptor of Valgrind's reserved range, which has few to spare. */
static Int from_helper = -1;
static Int helper_pid;
static Bool ran;               /* its counts were taken at least once */
static ULong reuse_bytes;      /* its history's, at the last counts */
static ULong waits;            /* the producer waited for room */
static ULong helper_ticks;     /* its CPU time, 1/100 s, at the last counts */
static ULong helper_peak_kb;   /* its peak resident memory then */
static UChar *announced;       /* line record ids the helper knows */
static UInt n_announced;

/*------------------------------------------------------------*/
/*--- Whether to run it                                    ---*/
/*------------------------------------------------------------*/

Bool mp_helper_wanted(void)
{
   if (!mp_clo_reuse || mp_clo_analysis_procs == 0)
      return False;
   return mp_clo_analysis_procs > 0 || mp_host_cpus_allowed() >= 2;
}

/*------------------------------------------------------------*/
/*--- The helper                                           ---*/
/*------------------------------------------------------------*/

typedef struct {
   mp_line_reuse r;
   UInt var;
} line_slot;

static line_slot *lines;     /* by line record id */
static UInt n_lines;

/* *table, of *n elements of elem bytes, grown by doubling (from 1024)
   so that index i is in it, the new elements zero. */
static void *grown(const HChar *cc, void *table, UInt *n, UInt i, SizeT elem)
{
   UInt m = *n ? *n : 1024;
   UChar *t;
   while (m <= i)
      m *= 2;
   t = VG_(realloc)(cc, table, m * elem);
   VG_(memset)(t + *n * elem, 0, (m - *n) * elem);
   *n = m;
   return t;
}

static line_slot *line_of(UInt id)
{
   if (id >= n_lines)
      lines = grown("mp.helper.lines", lines, &n_lines, id, sizeof *lines);
   return &lines[id];
}

/* Buffered writes to the producer; a failed write (the producer is
   gone) ends the helper. */
static UChar out_buf[65536];
static UInt out_n;
static Int out_fd;

static void out_flush(void)
{
   UInt off = 0;
   while (off < out_n) {
      Int w = VG_(write)(out_fd, out_buf + off, (Int)(out_n - off));
      if (w <= 0)
         VG_(exit)(1);
      off += (UInt)w;
   }
   out_n = 0;
}

static void out(const void *p, UInt n)
{
   const UChar *s = p;
   while (n > 0) {
      UInt k = sizeof out_buf - out_n;
      if (k > n)
         k = n;
      VG_(memcpy)(out_buf + out_n, s, k);
      out_n += k;
      s += k;
      n -= k;
      if (out_n == sizeof out_buf)
         out_flush();
   }
}

typedef struct {
   UInt magic, lines, carrier_vars, pad;
   mp_reuse_stats st;
   uint64_t bytes, carriers_added, carriers_unseen;
   uint64_t cpu_ticks;        /* the helper's CPU time so far, 1/100 s */
   uint64_t peak_kb;          /* and its peak resident memory */
} counts_header;

/* A line's record as sent: its reuses, their bins following when
   r.bins is not NULL (the pointer itself means nothing to the reader). */
typedef struct {
   UInt id;
   mp_line_reuse r;
} line_header;

/* This process's user and system time, in /proc's ticks (1/100 s on
   Linux whatever the kernel's HZ), 0 if unknown. */
static uint64_t own_cpu_ticks(void)
{
   HChar buf[1024];
   const HChar *p;
   Int field;
   uint64_t ticks = 0;
   if (!mp_host_read_text("/proc/self/stat", buf, sizeof buf))
      return 0;
   p = VG_(strrchr)(buf, ')');     /* the name may hold spaces */
   /* after it: field 3 (state) on; utime and stime are 14 and 15 */
   for (field = 2; p && *p && field < 15; p++)
      if (*p == ' ' && ++field >= 14)
         ticks += VG_(strtoull10)(p + 1, NULL);
   return ticks;
}

/* This process's peak resident memory, kB (VmHWM), 0 if unknown. */
static uint64_t own_peak_kb(void)
{
   HChar buf[8192];
   const HChar *p;
   if (!mp_host_read_text("/proc/self/status", buf, sizeof buf))
      return 0;
   p = VG_(strstr)(buf, "VmHWM:");
   return p ? VG_(strtoull10)(p + 6, NULL) : 0;
}

/* Every count so far, to the producer: the lines with a reuse, the
   carriers' tables, the engine's counts. */
static void send_counts(void)
{
   counts_header h;
   UInt i, vars = mp_g_carriers ? mp_carriers_var_bound(mp_g_carriers) : 0;
   VG_(memset)(&h, 0, sizeof h);
   h.magic = RESULTS_MAGIC;
   for (i = 0; i < n_lines; i++)
      h.lines += lines[i].r.cold || lines[i].r.bins;
   for (i = 0; i < vars; i++)
      h.carrier_vars += mp_carriers_of(mp_g_carriers, i) != NULL;
   mp_reuse_get_stats(mp_g_reuse, &h.st);
   h.bytes = mp_reuse_bytes(mp_g_reuse);
   if (mp_g_carriers)
      mp_carriers_counts(mp_g_carriers, &h.carriers_added, &h.carriers_unseen);
   h.cpu_ticks = own_cpu_ticks();
   h.peak_kb = own_peak_kb();
   out(&h, sizeof h);
   for (i = 0; i < n_lines; i++) {
      const mp_line_reuse *r = &lines[i].r;
      line_header lh;
      if (!r->cold && !r->bins)
         continue;
      lh.id = i;
      lh.r = *r;
      out(&lh, sizeof lh);
      if (r->bins)
         out(r->bins, 2 * sizeof *r->bins);
   }
   for (i = 0; i < vars; i++) {
      const mp_var_carriers *vc = mp_carriers_of(mp_g_carriers, i);
      if (vc) {
         out(&i, sizeof i);
         out(vc, sizeof *vc);
      }
   }
   h.magic = ~RESULTS_MAGIC;
   out(&h.magic, sizeof h.magic);
   out_flush();
}

/* Waits up to WAIT_MS on fd, this process's end of the pipe; whether
   the other process is gone (its end closed).  Nothing is asked for:
   poll reports a hang-up (the reader's) and an error (the writer's)
   anyway, and the counts sent are not read here. */
static Bool peer_gone(Int fd)
{
   struct vki_pollfd p;
   SysRes sr;
   p.fd = fd;
   p.events = 0;
   p.revents = 0;
   sr = VG_(poll)(&p, 1, WAIT_MS);
   return !sr_isError(sr) && sr_Res(sr) > 0 && (p.revents & (MP_POLLHUP | MP_POLLERR));
}

/* Nothing to read: wait a little, or stop if the producer is gone. */
static void wait_for_records(void)
{
   if (peer_gone(out_fd))
      VG_(exit)(0);
}

/* A thread's active loops as they arrive (a frames record, a bound
   record, then one record per frame), given to the loops' copy once
   whole. */
typedef struct {
   UInt serial, want, n, cap;
   ULong epoch, unseen_before;
   mp_loop_frame *f;
} frames_in;

static void frames_arrived(frames_in *fi)
{
   if (fi->n == fi->want)
      mp_loops_mirror(mp_g_loops, fi->serial, fi->f, fi->n, fi->epoch, fi->unseen_before);
}

/* The records in order, until the end. */
static void __attribute__((noreturn)) helper_loop(void)
{
   const mp_stream_rec *ring = mp_g_stream.ring;
   ULong tail = 0, mask = mp_g_stream.mask;
   UInt serial = 0, group = 0;
   frames_in fi = { 0 };
   for (;;) {
      ULong head = __atomic_load_n(&hdr->head, __ATOMIC_ACQUIRE);
      if (head == tail) {
         wait_for_records();
         continue;
      }
      for (; tail < head; tail++) {
         const mp_stream_rec *r = &ring[tail & mask];
         switch (r->meta & MP_REC_KIND) {
         case MP_REC_ACCESS: {
            line_slot *ls = line_of(r->b);
            mp_event e;
            e.addr = r->a;
            e.size = r->meta >> 8;
            e.is_write = (r->meta & MP_REC_WRITE) != 0;
            e.tid = serial;
            e.var = ls->var;
            mp_an_reuse_lines(&e, group, &ls->r, (r->meta & MP_REC_TAGGED) != 0);
            break;
         }
         case MP_REC_THREAD:
            serial = (UInt)r->a;
            group = r->b;
            break;
         case MP_REC_LINE:
            line_of(r->b)->var = (UInt)r->a;
            break;
         case MP_REC_FRAMES:
            fi.epoch = r->a;
            fi.serial = r->b;
            break;
         case MP_REC_BOUND:
            fi.unseen_before = r->a;
            fi.want = r->b;
            fi.n = 0;
            if (fi.want > fi.cap) {
               fi.cap = fi.want;
               fi.f = VG_(realloc)("mp.helper.frames", fi.f, fi.cap * sizeof *fi.f);
            }
            frames_arrived(&fi);
            break;
         case MP_REC_FRAME:
            fi.f[fi.n].begun = r->a;
            fi.f[fi.n].loop = r->b;
            fi.n++;
            frames_arrived(&fi);
            break;
         case MP_REC_EXIT:
            mp_reuse_thread_exit(mp_g_reuse, (UInt)r->a);
            break;
         case MP_REC_SYNC:
            send_counts();
            break;
         case MP_REC_END:
            send_counts();
            VG_(exit)(0);
         default:
            VG_(exit)(2);
         }
         if ((tail & (BATCH - 1)) == 0)
            __atomic_store_n(&hdr->tail, tail, __ATOMIC_RELEASE);
      }
      __atomic_store_n(&hdr->tail, tail, __ATOMIC_RELEASE);
   }
}

/* Closes every descriptor of this process but keep, its pipe: the
   program's (a pipe's reader would wait for the helper to let go of
   its end), Valgrind's and the producer's ends of the pipes. */
static void close_all_but(Int keep)
{
   static UChar buf[4096];
   Int dir = VG_(fd_open)("/proc/self/fd", VKI_O_RDONLY, 0), n, *fds = NULL;
   UInt n_fds = 0, cap = 0, i;
   if (dir < 0)
      return;
   while ((n = VG_(getdents64)(dir, (struct vki_dirent64 *)buf, sizeof buf)) > 0) {
      Int off = 0;
      while (off < n) {
         const struct vki_dirent64 *d = (const struct vki_dirent64 *)(buf + off);
         HChar *end;
         Int fd = (Int)VG_(strtoll10)(d->d_name, &end);
         off += d->d_reclen;
         if (end == d->d_name || *end != '\0' || fd == dir || fd == keep)
            continue;
         if (n_fds == cap) {
            cap = cap ? 2 * cap : 64;
            fds = VG_(realloc)("mp.helper.fds", fds, cap * sizeof *fds);
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

/* The helper's process: out of the program's sight, then its loop. */
static void __attribute__((noreturn)) helper_main(Int results)
{
   vki_sigset_t all;
   VG_(memset)(&all, 0xff, sizeof all);
   VG_(sigprocmask)(VKI_SIG_SETMASK, &all, NULL);
   close_all_but(results);
   VG_(prctl)(15 /* PR_SET_NAME */, (ULong)(Addr)"memprof-helper", 0, 0, 0);
   out_fd = results;
   helper_loop();
}

/*------------------------------------------------------------*/
/*--- Start                                                ---*/
/*------------------------------------------------------------*/

/* The ring, shared with the processes forked after: NULL and *why on
   failure. */
static void *shared_ring(SizeT bytes, const HChar **why)
{
   Int fd = VG_(fd_open)("/dev/zero", VKI_O_RDWR, 0);
   SysRes sr;
   if (fd < 0) {
      *why = "cannot open /dev/zero";
      return NULL;
   }
   sr = VG_(am_shared_mmap_file_float_valgrind)(bytes, VKI_PROT_READ | VKI_PROT_WRITE, fd, 0);
   VG_(close)(fd);
   if (sr_isError(sr)) {
      *why = "no shared memory for its ring";
      return NULL;
   }
   return (void *)sr_Res(sr);
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

static Bool start(const HChar **why)
{
   Int res[2], pid, status, got;
   UChar *mem = shared_ring(HEADER_BYTES + RING_RECORDS * sizeof(mp_stream_rec), why);
   if (!mem)
      return False;
   hdr = (ring_header *)mem;
   mp_g_stream.ring = (mp_stream_rec *)(mem + HEADER_BYTES);
   mp_g_stream.mask = RING_RECORDS - 1;
   mp_g_stream.head = 0;
   mp_g_stream.room = BATCH;
   if (VG_(pipe)(res) != 0) {
      *why = "no pipe";
      return False;
   }
   /* Forked twice: the helper is not the program's child.  The first
      child says the helper's pid and exits. */
   pid = fork_closing_leak();
   if (pid == 0) {
      Int h = VG_(fork)();
      if (h == 0)
         helper_main(res[1]);
      VG_(write)(res[1], &h, sizeof h);
      VG_(exit)(0);
   }
   VG_(close)(res[1]);
   if (pid > 0)
      VG_(waitpid)(pid, &status, 0);
   got = pid > 0 ? VG_(read)(res[0], &helper_pid, sizeof helper_pid) : 0;
   if (got != sizeof helper_pid || helper_pid <= 0) {
      VG_(close)(res[0]);
      *why = "fork failed";
      return False;
   }
   from_helper = VG_(safe_fd)(res[0]);
   return True;
}

void mp_helper_start(void)
{
   const HChar *why = NULL;
   if (!mp_g_reuse_apart)
      return;
   if (!start(&why)) {
      VG_(umsg)("memprof: no analysis helper process (%s): the reuse distances are "
                "analysed in this one\n", why);
      mp_g_reuse_apart = False;
      return;
   }
   if (VG_(clo_verbosity) > 1)
      VG_(dmsg)("memprof: the reuse distances are analysed in helper process %d\n",
                helper_pid);
}

/*------------------------------------------------------------*/
/*--- The producer's side                                  ---*/
/*------------------------------------------------------------*/

static void publish(void)
{
   __atomic_store_n(&hdr->head, mp_g_stream.head, __ATOMIC_RELEASE);
}

/* The helper is gone (it answers nothing more): said once, and the
   reuse analysis goes with it. */
static void helper_died(void)
{
   VG_(umsg)("memprof: the analysis helper process %d ended before the program did: "
             "the output has no reuse distances\n", helper_pid);
   mp_g_reuse_apart = False;
   mp_g_reuse = NULL;
   mp_g_carriers = NULL;
   VG_(close)(from_helper);
   from_helper = -1;
}

void mp_helper_make_room(void)
{
   publish();
   for (;;) {
      ULong tail = __atomic_load_n(&hdr->tail, __ATOMIC_ACQUIRE);
      ULong limit = tail + RING_RECORDS;
      if (limit > mp_g_stream.head) {
         mp_g_stream.room = mp_g_stream.head + BATCH < limit ? mp_g_stream.head + BATCH
                                                             : limit;
         return;
      }
      waits++;
      if (peer_gone(from_helper)) {
         helper_died();
         /* The records in flight go to a ring nobody reads. */
         mp_g_stream.room = mp_g_stream.head + BATCH;
         return;
      }
   }
}

void mp_helper_thread(UInt serial, ThreadId tid)
{
   mp_helper_put(serial, mp_g_thread_group[tid], MP_REC_THREAD);
   mp_g_stream.serial = serial;
}

void mp_helper_frames(UInt serial)
{
   const mp_loop_frame *f;
   UInt n = mp_loops_active(mp_g_loops, serial, &f), i;
   mp_helper_put(*mp_g_loop_epoch, serial, MP_REC_FRAMES);
   mp_helper_put(mp_loops_unseen_before(mp_g_loops), n, MP_REC_BOUND);
   for (i = 0; i < n; i++)
      mp_helper_put(f[i].begun, f[i].loop, MP_REC_FRAME);
   mp_g_stream.frames_serial = serial;
   mp_g_stream.frames_changes = *mp_g_loop_changes;
}

void mp_helper_line_record(const mp_line_counts *lc)
{
   if (lc->id >= n_announced)
      announced = grown("mp.helper.announced", announced, &n_announced, lc->id, 1);
   if (!announced[lc->id]) {
      announced[lc->id] = 1;
      mp_helper_put(lc->var, lc->id, MP_REC_LINE);
   }
}

void mp_helper_thread_exit(UInt serial)
{
   mp_helper_put(serial, 0, MP_REC_EXIT);
}

/* Reads n bytes from the helper; False if it hung up first. */
static Bool read_all(void *p, SizeT n)
{
   UChar *s = p;
   while (n > 0) {
      Int r = VG_(read)(from_helper, s, n > 65536 ? 65536 : (Int)n);
      if (r <= 0)
         return False;
      s += r;
      n -= (SizeT)r;
   }
   return True;
}

/*--- --helper-check: the helper's counts against the inline ones ---*/

static UInt checked_lines, checked_tables, differ;

static void mismatch(const HChar *what, UInt id)
{
   if (differ++ < 5)
      VG_(umsg)("memprof: helper check: %s %u differs\n", what, id);
}

static Bool same_bins(const mp_line_reuse *a, const mp_line_reuse *b)
{
   const mp_line_reuse *x = a->bins ? a : b;
   UInt k;
   if (a->bins && b->bins)
      return VG_(memcmp)(a->bins, b->bins, 2 * sizeof *a->bins) == 0;
   for (k = 0; x->bins && k < MP_REUSE_N_BINS; k++)
      if (x->bins[0][k] || x->bins[1][k])
         return False;
   return True;
}

static Bool same_reuse(const mp_line_reuse *a, const mp_line_reuse *b)
{
   return a->sum[0] == b->sum[0] && a->sum[1] == b->sum[1] && a->n[0] == b->n[0]
          && a->n[1] == b->n[1] && a->cold == b->cold && same_bins(a, b);
}

static Bool same_carrier(const mp_carrier *a, const mp_carrier *b)
{
   return a->loop == b->loop && a->total == b->total
          && VG_(memcmp)(a->bins, b->bins, sizeof a->bins) == 0;
}

static Bool same_carriers(const mp_var_carriers *a, const mp_var_carriers *b)
{
   UInt i;
   if (!a || a->n != b->n || a->unseen != b->unseen || !same_carrier(&a->other, &b->other))
      return False;
   for (i = 0; i < a->n; i++)
      if (!same_carrier(&a->slot[i], &b->slot[i]))
         return False;
   return True;
}

static void count_counted_line(const mp_line_counts *lc, void *arg)
{
   *(UInt *)arg += lc->reuse.cold || lc->reuse.bins;
}

/* What the inline copies counted that the helper did not send. */
static void check_totals(const counts_header *h)
{
   mp_reuse_stats st;
   UInt inline_lines = 0, inline_tables = 0, i;
   mp_vars_foreach_line(mp_g_vars, count_counted_line, &inline_lines);
   if (inline_lines != h->lines)
      mismatch("number of line records with reuses, inline", inline_lines);
   if (mp_g_carriers) {
      uint64_t added, unseen;
      for (i = 0; i < mp_carriers_var_bound(mp_g_carriers); i++)
         inline_tables += mp_carriers_of(mp_g_carriers, i) != NULL;
      if (inline_tables != h->carrier_vars)
         mismatch("number of carrier tables, inline", inline_tables);
      mp_carriers_counts(mp_g_carriers, &added, &unseen);
      if (added != h->carriers_added || unseen != h->carriers_unseen)
         mismatch("count of far reuses, inline", (UInt)added);
   }
   mp_reuse_get_stats(mp_g_reuse, &st);
   if (st.accesses != h->st.accesses || st.analysed != h->st.analysed
       || st.threads != h->st.threads || st.groups != h->st.groups)
      mismatch("count of lines accessed, inline", (UInt)st.accesses);
}

/*--- The counts handed back ---*/

/* The helper's counts become the producer's (with --helper-check, once
   compared with the producer's own: the output is the helper's, so a
   test comparing it with an inline run's sees the handing back too);
   False if the helper died first. */
static Bool take_counts(void)
{
   counts_header h;
   uint64_t (*bins)[MP_REUSE_N_BINS] = VG_(malloc)("mp.helper.bins", 2 * sizeof *bins);
   UInt i, magic;
   Bool ok = read_all(&h, sizeof h) && h.magic == RESULTS_MAGIC;
   for (i = 0; ok && i < h.lines; i++) {
      line_header lh;
      mp_line_counts *lc;
      ok = read_all(&lh, sizeof lh) && (!lh.r.bins || read_all(bins, 2 * sizeof *bins));
      lc = ok ? mp_vars_line_by_id(mp_g_vars, lh.id) : NULL;
      if (!lc)
         break;
      if (lh.r.bins)
         lh.r.bins = bins;
      if (mp_clo_helper_check && (checked_lines++, !same_reuse(&lc->reuse, &lh.r)))
         mismatch("line record", lh.id);
      mp_vars_reuse_set(&lc->reuse, &lh.r);
   }
   for (i = 0; ok && i < h.carrier_vars; i++) {
      UInt var;
      mp_var_carriers vc;
      ok = read_all(&var, sizeof var) && read_all(&vc, sizeof vc) && mp_g_carriers;
      if (!ok)
         break;
      if (mp_clo_helper_check
          && (checked_tables++, !same_carriers(mp_carriers_of(mp_g_carriers, var), &vc)))
         mismatch("carrier table of variable", var);
      mp_carriers_take(mp_g_carriers, var, &vc);
   }
   ok = ok && read_all(&magic, sizeof magic) && magic == ~RESULTS_MAGIC;
   VG_(free)(bins);
   if (!ok)
      return False;
   reuse_bytes = h.bytes;
   helper_ticks = h.cpu_ticks;
   helper_peak_kb = h.peak_kb;
   ran = True;
   if (mp_clo_helper_check)
      check_totals(&h);
   mp_reuse_take_stats(mp_g_reuse, &h.st);
   if (mp_g_carriers)
      mp_carriers_take_counts(mp_g_carriers, h.carriers_added, h.carriers_unseen);
   return True;
}

static void ask_counts(UInt kind)
{
   mp_helper_put(0, 0, kind);
   publish();
   if (!take_counts())
      helper_died();
}

void mp_helper_sync(void)
{
   ask_counts(MP_REC_SYNC);
}

void mp_helper_end(void)
{
   UChar c;
   ask_counts(MP_REC_END);
   if (!mp_g_reuse_apart)
      return;
   if (mp_clo_helper_check)
      VG_(umsg)("memprof: helper check: %u line records and %u carrier tables compared, "
                "%u differ\n", checked_lines, checked_tables, differ);
   /* It exits now: once its end of the pipe is closed, it is gone, and
      no process of ours outlives the run. */
   while (VG_(read)(from_helper, &c, 1) > 0)
      ;
   VG_(close)(from_helper);
   from_helper = -1;
   mp_g_reuse_apart = False;
}

void mp_helper_fork_child(void)
{
   if (!mp_g_reuse_apart)
      return;
   /* The parent's helper and ring are the parent's: the child's copies
      of the pipes would keep the helper from seeing the parent go. */
   VG_(close)(from_helper);
   from_helper = -1;
   mp_g_reuse_apart = False;
   ran = False;
}

Bool mp_helper_ran(void)
{
   return ran;
}

ULong mp_helper_reuse_bytes(void)
{
   return reuse_bytes;
}

void mp_helper_stats(void)
{
   if (ran)
      VG_(dmsg)("memprof: analysis helper: process %d, %llu.%02llu s of CPU, peak RSS "
                "%llu kB, %llu records, the producer waited %llu times for room\n",
                helper_pid, helper_ticks / 100, helper_ticks % 100, helper_peak_kb,
                mp_g_stream.head, waits);
}
