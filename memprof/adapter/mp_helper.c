/*--------------------------------------------------------------------*/
/*--- memprof: the analysis helper process and its access stream.  ---*/
/*---                                                  mp_helper.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The helpers' life (fork, wait, death), the producer's side of the
   ring (room, the records that are not accesses, the counts handed
   back) and a helper's loop.  The design, the records and the guest's
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

#include "mp_apart.h"
#include "mp_clo.h"
#include "mp_hier_step.h"
#include "mp_helper.h"
#include "mp_hostcache.h"
#include "mp_loopnest.h"
#include "mp_reuse_step.h"
#include "mp_vgcompat.h"

#define RING_RECORDS (1u << 18)   /* 4 MiB of records */
#define BATCH        4096u        /* records between two publications */
#define WAIT_MS      1            /* a wait's poll */
#define RESULTS_MAGIC 0x6d707232u /* "mpr2" */
#define MAX_HELPERS  2

/* What a helper analyses. */
#define ROLE_REUSE 1u
#define ROLE_HIER  2u


/* The ring's positions, each on its own host cache line: the producer
   writes head, helper i tail[i].  Records [tail[i], head) are helper
   i's to read; the producer may write up to the slowest live helper's
   tail + RING_RECORDS. */
typedef struct {
   volatile ULong v;
   UChar pad[56];
} ring_position;

typedef struct {
   ring_position head;
   ring_position tail[MAX_HELPERS];
} ring_header;

#define HEADER_BYTES 4096

Bool mp_g_reuse_apart;
Bool mp_g_hier_apart;
Bool mp_g_stream_on;
mp_stream mp_g_stream;
const uint64_t *mp_g_loop_changes;

static ring_header *hdr;

/* A helper as the producer sees it.  Its pipe, the helper writing: its
   counts at a sync and at the end.  Each end also tells its process
   when the other is gone, however it ended: the reader sees a hang-up,
   the writer an error (poll reports both whatever it asks).  One
   descriptor of Valgrind's reserved range each, which has few to
   spare. */
typedef struct {
   UInt roles;
   Int fd;                 /* -1: gone, or stopped at the end */
   Int pid;
   ULong ticks;            /* its CPU time, 1/100 s, at the last counts */
   ULong peak_kb;          /* its peak resident memory then */
} helper_info;

static helper_info helpers[MAX_HELPERS];
static UInt n_helpers;
static Bool ran;               /* the reuse helper's counts were taken */
static ULong reuse_bytes;      /* its history's, at the last counts */
static ULong cache_bytes;      /* the hierarchy's, at the last counts */
static ULong waits;            /* the producer waited for room */
static UChar *announced;       /* line record ids the helpers know */
static UInt n_announced;

/*------------------------------------------------------------*/
/*--- Whether to run it                                    ---*/
/*------------------------------------------------------------*/

/* The hierarchy can run apart when nothing on the access path reads
   what it decides (mp_helper.h). */
static Bool hierarchy_separable(void)
{
   return mp_g_hier.cache != NULL && mp_clo_prefetch.kind == MP_PREFETCH_NONE
          && mp_g_hier.cores / mp_g_hier.cores_per_socket < 2;
}

void mp_helper_plan(void)
{
   Int procs = mp_clo_analysis_procs;
   UInt cpus;
   /* auto: a helper per analysis from two CPUs on.  Three processes
      on two CPUs beat two whose helper does both (gzip -9 and xz -6,
      where the hierarchy is heavy, it would be the slowest). */
   if (procs < 0) {
      cpus = mp_host_cpus_allowed();
      procs = cpus >= 2 ? MAX_HELPERS : 0;
   }
   if (procs == 0)
      return;
   mp_g_reuse_apart = mp_clo_reuse;
   mp_g_hier_apart = hierarchy_separable();
   if (!mp_g_reuse_apart && !mp_g_hier_apart)
      return;
   mp_g_stream_on = True;
   if (procs >= 2 && mp_g_reuse_apart && mp_g_hier_apart) {
      helpers[0].roles = ROLE_REUSE;
      helpers[1].roles = ROLE_HIER;
      n_helpers = 2;
   } else {
      helpers[0].roles = (mp_g_reuse_apart ? ROLE_REUSE : 0) | (mp_g_hier_apart ? ROLE_HIER : 0);
      n_helpers = 1;
   }
}

/*------------------------------------------------------------*/
/*--- The helper                                           ---*/
/*------------------------------------------------------------*/

/* A line record as the helper counts it: what every access reads (its
   variable) and the hierarchy counts, in one host cache line.  Its L1
   hits that counted nothing else are held here, as an instruction's
   are in Valgrind's process (mp_held_counts), and reach the variable's
   and the line's counts before they are sent (hold_flush): most
   accesses then touch this line and the simulation only.  Its reuses
   are apart, in reuses[], so that a helper of one analysis reads one
   line of the other's. */
typedef struct {
   UInt var;
   UInt pad;
   uint64_t l1_hits;
   mp_line_cache cache;
} line_slot;

static UInt roles;           /* in a helper: its analyses */
static UInt self;            /* and its index */
static line_slot *lines;     /* by line record id */
static mp_line_reuse *reuses;  /* and their reuses, n_lines too (reuse role) */
static UInt n_lines;
/* A variable as the cache helper counts it: its cache counts (made at
   its first count) and its footprint's lines. */
typedef struct {
   mp_cache_counts *cc;
   uint64_t lines;
} var_slot;

static var_slot *vars;       /* by variable id */
static UInt n_vars;
static uint64_t *struct_cycles;       /* by structure stream */
static UInt n_struct_cycles, structs_used;

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
   if (id >= n_lines) {
      UInt n = n_lines;
      lines = grown("mp.helper.lines", lines, &n_lines, id, sizeof *lines);
      if (roles & ROLE_REUSE)
         reuses = grown("mp.helper.reuses", reuses, &n, id, sizeof *reuses);
   }
   return &lines[id];
}

static var_slot *var_of(UInt var)
{
   if (var >= n_vars)
      vars = grown("mp.helper.vars", vars, &n_vars, var, sizeof *vars);
   if (!vars[var].cc)
      vars[var].cc = VG_(calloc)("mp.helper.cc", 1, sizeof *vars[var].cc);
   return &vars[var];
}

/* The helper's own cache counts of variable var (mp_g_hier_counts_of). */
static mp_cache_counts *helper_counts_of(UInt var)
{
   return var_of(var)->cc;
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

/* What a helper sends at a sync and at the end: this, then the reuse
   section if it analyses the reuse distances (the lines with reuses,
   each a line_header and its bins if any, then the carriers' tables),
   then the hierarchy's (hier_header, the variables' counts, the lines',
   each level's conflict sets, the structure streams' cycles), then
   ~RESULTS_MAGIC. */
typedef struct {
   UInt magic, roles;
   uint64_t cpu_ticks;        /* the helper's CPU time so far, 1/100 s */
   uint64_t peak_kb;          /* and its peak resident memory */
} counts_header;

typedef struct {
   UInt lines, carrier_vars;
   mp_reuse_stats st;
   uint64_t bytes, carriers_added, carriers_unseen;
} reuse_header;

typedef struct {
   UInt vars, lines, structs, pad;
   UInt sets[MP_CACHE_MAX_LEVELS];
   mp_cache_totals raw[MP_CACHE_MAX_LEVELS];
   uint64_t bytes;
} hier_header;

/* A line's record as sent: its reuses, their bins following when
   r.bins is not NULL (the pointer itself means nothing to the reader). */
typedef struct {
   UInt id;
   mp_line_reuse r;
} line_header;

typedef struct {
   UInt id;
   mp_line_cache cache;
} line_cache_rec;

typedef struct {
   UInt var, pad;
   uint64_t lines;            /* its footprint's */
   mp_cache_counts cc;
} var_cache_rec;

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

static void send_reuse(void)
{
   reuse_header h;
   UInt i, carrier_vars = mp_g_carriers ? mp_carriers_var_bound(mp_g_carriers) : 0;
   VG_(memset)(&h, 0, sizeof h);
   for (i = 0; i < n_lines; i++)
      h.lines += reuses[i].cold || reuses[i].bins;
   for (i = 0; i < carrier_vars; i++)
      h.carrier_vars += mp_carriers_of(mp_g_carriers, i) != NULL;
   mp_reuse_get_stats(mp_g_reuse, &h.st);
   h.bytes = mp_reuse_bytes(mp_g_reuse);
   if (mp_g_carriers)
      mp_carriers_counts(mp_g_carriers, &h.carriers_added, &h.carriers_unseen);
   out(&h, sizeof h);
   for (i = 0; i < n_lines; i++) {
      const mp_line_reuse *r = &reuses[i];
      line_header lh;
      if (!r->cold && !r->bins)
         continue;
      lh.id = i;
      lh.r = *r;
      out(&lh, sizeof lh);
      if (r->bins)
         out(r->bins, 2 * sizeof *r->bins);
   }
   for (i = 0; i < carrier_vars; i++) {
      const mp_var_carriers *vc = mp_carriers_of(mp_g_carriers, i);
      if (vc) {
         out(&i, sizeof i);
         out(vc, sizeof *vc);
      }
   }
}

static Bool line_cache_used(const mp_line_cache *c)
{
   static const mp_line_cache zero;
   return VG_(memcmp)(c, &zero, sizeof zero) != 0;
}

/* The L1 hits the lines hold reach their variables' and their own
   counts, as mp_vars_flush_held adds an instruction's. */
static void hold_flush(void)
{
   UInt i;
   for (i = 0; i < n_lines; i++)
      if (lines[i].l1_hits) {
         mp_cache_counts_l1_hits(helper_counts_of(lines[i].var), &lines[i].cache,
                                 lines[i].l1_hits, lines[i].l1_hits * mp_g_hier.latency[0]);
         lines[i].l1_hits = 0;
      }
}

static void send_hierarchy(void)
{
   hier_header h;
   mp_setdiag_set st;
   UInt i, k;
   Long set;
   hold_flush();
   VG_(memset)(&h, 0, sizeof h);
   for (i = 0; i < n_vars; i++)
      h.vars += vars[i].cc != NULL;
   for (i = 0; i < n_lines; i++)
      h.lines += line_cache_used(&lines[i].cache);
   h.structs = structs_used;
   for (k = 0; k < mp_g_hier.n_levels; k++) {
      mp_cache_get_raw_totals(mp_g_hier.cache, k, &h.raw[k]);
      for (set = -1; (set = mp_setdiag_next(mp_g_hier.conflicts, k, set, &st)) >= 0; )
         h.sets[k]++;
   }
   h.bytes = mp_cache_bytes(mp_g_hier.cache);
   out(&h, sizeof h);
   for (i = 0; i < n_vars; i++)
      if (vars[i].cc) {
         var_cache_rec r;
         r.var = i;
         r.pad = 0;
         r.lines = vars[i].lines;
         r.cc = *vars[i].cc;
         out(&r, sizeof r);
      }
   for (i = 0; i < n_lines; i++)
      if (line_cache_used(&lines[i].cache)) {
         line_cache_rec r;
         r.id = i;
         r.cache = lines[i].cache;
         out(&r, sizeof r);
      }
   for (k = 0; k < mp_g_hier.n_levels; k++)
      for (set = -1; (set = mp_setdiag_next(mp_g_hier.conflicts, k, set, &st)) >= 0; )
         out(&st, sizeof st);
   if (structs_used)
      out(struct_cycles, structs_used * sizeof *struct_cycles);
}

/* Every count so far, to the producer. */
static void send_counts(void)
{
   counts_header h;
   UInt magic = ~RESULTS_MAGIC;
   VG_(memset)(&h, 0, sizeof h);
   h.magic = RESULTS_MAGIC;
   h.roles = roles;
   h.cpu_ticks = own_cpu_ticks();
   h.peak_kb = own_peak_kb();
   out(&h, sizeof h);
   if (roles & ROLE_REUSE)
      send_reuse();
   if (roles & ROLE_HIER)
      send_hierarchy();
   out(&magic, sizeof magic);
   out_flush();
}

/* After a sync the producer splits the sampled miss causes it was
   handed (mp_hierarchy_estimate_causes): so does the helper, so that
   the counts it hands at the end are split as the inline run's. */
static void hierarchy_synced(void)
{
   uint64_t raw[MP_CACHE_MAX_LEVELS][MP_MISS_N_CAUSES];
   UInt i;
   mp_hierarchy_raw_causes(raw);
   for (i = 0; i < n_vars; i++)
      if (vars[i].cc)
         mp_cache_counts_split(vars[i].cc, mp_g_hier.n_levels, raw);
}

/* Nothing to read: wait a little, or stop if the producer is gone. */
static void wait_for_records(void)
{
   if (mp_apart_peer_gone(out_fd, WAIT_MS))
      VG_(exit)(0);
}

/* A thread's active loops as they arrive (a frames record, a bound
   record, then one record per frame past those the last record kept),
   given to the loops' copy once whole. */
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

/* The hierarchy's step on one access, counted in the helper's
   records, and the variable's footprint; the cycles, for a struct
   record that may follow. */
static UInt hierarchy_access(const mp_event *e, UInt core, line_slot *ls)
{
   mp_cache_outcome o;
   if (mp_g_hier.tlb)
      mp_an_tlb_simulate(core, e);
   mp_an_cache_simulate(core, e, &o);
   if (!o.missed[0] && !o.prefetched[0] && !o.invalidations)
      ls->l1_hits++;
   else
      mp_cache_counts_outcome(helper_counts_of(e->var), &ls->cache, &o, mp_g_hier.n_levels,
                              mp_g_hier.latency);
   /* An L1 hit on a line the variable filled is in its footprint. */
   if (!o.owner_hit)
      var_of(e->var)->lines += mp_vars_footprint_add_access(mp_g_vars, e);
   return mp_g_hier.latency[o.served_by];
}

static void struct_access(UInt stream, UInt cycles)
{
   if (stream >= n_struct_cycles)
      struct_cycles = grown("mp.helper.structs", struct_cycles, &n_struct_cycles, stream,
                            sizeof *struct_cycles);
   if (stream >= structs_used)
      structs_used = stream + 1;
   struct_cycles[stream] += cycles;
}

/* The records in order, until the end. */
static void __attribute__((noreturn)) helper_loop(void)
{
   const mp_stream_rec *ring = mp_g_stream.ring;
   ULong tail = 0, mask = mp_g_stream.mask;
   UInt serial = 0, group = 0, core = 0, cycles = 0;
   frames_in fi = { 0 };
   for (;;) {
      ULong head = __atomic_load_n(&hdr->head.v, __ATOMIC_ACQUIRE);
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
            e.iaddr = 0;   /* read by a prefetcher only, which keeps the hierarchy inline */
            if (roles & ROLE_HIER)
               cycles = hierarchy_access(&e, core, ls);
            if (roles & ROLE_REUSE)
               mp_an_reuse_lines(&e, group, &reuses[r->b], (r->meta & MP_REC_TAGGED) != 0);
            break;
         }
         case MP_REC_THREAD:
            serial = (UInt)r->a;
            group = r->b;
            core = r->meta >> 8;
            break;
         case MP_REC_LINE:
            line_of(r->b)->var = (UInt)r->a;
            break;
         case MP_REC_STRUCT:
            if (roles & ROLE_HIER)
               struct_access(r->b, cycles << mp_g_sample_shift);
            break;
         case MP_REC_FRAMES:
            fi.epoch = r->a;
            fi.serial = r->b;
            break;
         case MP_REC_BOUND:
            fi.unseen_before = r->a;
            fi.want = r->b;
            fi.n = r->meta >> 8;      /* the frames kept from the last */
            if (fi.want > fi.cap) {
               fi.cap = fi.want;
               fi.f = VG_(realloc)("mp.helper.frames", fi.f, fi.cap * sizeof *fi.f);
            }
            if (roles & ROLE_REUSE)
               frames_arrived(&fi);
            break;
         case MP_REC_FRAME:
            fi.f[fi.n].begun = r->a;
            fi.f[fi.n].loop = r->b;
            fi.n++;
            if (roles & ROLE_REUSE)
               frames_arrived(&fi);
            break;
         case MP_REC_EXIT:
            if (roles & ROLE_REUSE)
               mp_reuse_thread_exit(mp_g_reuse, (UInt)r->a);
            break;
         case MP_REC_SYNC:
            send_counts();
            if (roles & ROLE_HIER)
               hierarchy_synced();
            break;
         case MP_REC_END:
            /* Lines still resident count for the reuse factor too. */
            if (roles & ROLE_HIER)
               mp_cache_finish(mp_g_hier.cache);
            send_counts();
            VG_(exit)(0);
         default:
            VG_(exit)(2);
         }
         if ((tail & (BATCH - 1)) == 0)
            __atomic_store_n(&hdr->tail[self].v, tail, __ATOMIC_RELEASE);
      }
      __atomic_store_n(&hdr->tail[self].v, tail, __ATOMIC_RELEASE);
   }
}

/* Helper i's process: out of the program's sight, then its loop. */
static void __attribute__((noreturn)) helper_main(UInt i, Int results)
{
   vki_sigset_t all;
   VG_(memset)(&all, 0xff, sizeof all);
   VG_(sigprocmask)(VKI_SIG_SETMASK, &all, NULL);
   mp_apart_close_all_but(&results, 1);
   VG_(prctl)(15 /* PR_SET_NAME */, (ULong)(Addr)"memprof-helper", 0, 0, 0);
   out_fd = results;
   self = i;
   roles = helpers[i].roles;
   if (roles & ROLE_HIER)
      mp_g_hier_counts_of = helper_counts_of;
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

/* The ring, shared with the helpers forked after. */
static Bool make_ring(const HChar **why)
{
   UChar *mem = shared_ring(HEADER_BYTES + RING_RECORDS * sizeof(mp_stream_rec), why);
   if (!mem)
      return False;
   hdr = (ring_header *)mem;
   mp_g_stream.ring = (mp_stream_rec *)(mem + HEADER_BYTES);
   mp_g_stream.mask = RING_RECORDS - 1;
   mp_g_stream.head = 0;
   mp_g_stream.room = BATCH;
   return True;
}

/* Helper i's process, apart from the program's (mp_apart.h). */
static void __attribute__((noreturn)) helper_body(void *arg, Int results)
{
   helper_main((UInt)(UWord)arg, results);
}

static Bool start(UInt i, const HChar **why)
{
   Int fd;
   Int pid = mp_apart_fork(helper_body, (void *)(UWord)i, &fd);
   if (pid <= 0) {
      *why = "fork failed";
      return False;
   }
   helpers[i].pid = pid;
   helpers[i].fd = fd;
   return True;
}

/* What a helper of these roles analyses, for messages. */
static const HChar *analyses_of(UInt roles_of)
{
   return roles_of == ROLE_REUSE ? "the reuse distances"
        : roles_of == ROLE_HIER ? "the cache simulation"
        : "the reuse distances and the cache simulation";
}

static const HChar *are(UInt roles_of)
{
   return roles_of == ROLE_HIER ? "is" : "are";
}

/* Helper i's analyses run here from now on (it could not start) or not
   at all (it died): neither is apart any more. */
static void roles_back(UInt i)
{
   if (helpers[i].roles & ROLE_REUSE)
      mp_g_reuse_apart = False;
   if (helpers[i].roles & ROLE_HIER)
      mp_g_hier_apart = False;
   helpers[i].fd = -1;
   mp_g_stream_on = mp_g_reuse_apart || mp_g_hier_apart;
}

void mp_helper_start(void)
{
   const HChar *why = NULL;
   UInt i;
   if (!mp_g_stream_on)
      return;
   for (i = 0; i < MAX_HELPERS; i++)
      helpers[i].fd = -1;
   for (i = 0; i < n_helpers; i++) {
      if (!(hdr || make_ring(&why)) || !start(i, &why)) {
         VG_(umsg)("memprof: no analysis helper process (%s): %s %s analysed in this one\n",
                   why, analyses_of(helpers[i].roles), are(helpers[i].roles));
         roles_back(i);
         continue;
      }
      if (VG_(clo_verbosity) > 1)
         VG_(dmsg)("memprof: %s %s analysed in helper process %d\n",
                   analyses_of(helpers[i].roles), are(helpers[i].roles), helpers[i].pid);
   }
}

/*------------------------------------------------------------*/
/*--- The producer's side                                  ---*/
/*------------------------------------------------------------*/

static void publish(void)
{
   __atomic_store_n(&hdr->head.v, mp_g_stream.head, __ATOMIC_RELEASE);
}

/* Helper i is gone (it answers nothing more): said once, and its
   analyses go with it. */
static void helper_died(UInt i)
{
   UInt r = helpers[i].roles;
   VG_(umsg)("memprof: the analysis helper process %d ended before the program did: "
             "the output has no %s\n", helpers[i].pid,
             r == ROLE_REUSE ? "reuse distances" : r == ROLE_HIER ? "cache simulation"
                             : "reuse distances and no cache simulation");
   if (r & ROLE_REUSE) {
      mp_g_reuse = NULL;
      mp_g_carriers = NULL;
   }
   if (r & ROLE_HIER) {
      mp_g_hier.cache = NULL;
      mp_g_hier.tlb = NULL;
      mp_g_hier.conflicts = NULL;
   }
   VG_(close)(helpers[i].fd);
   roles_back(i);
}

void mp_helper_make_room(void)
{
   publish();
   for (;;) {
      ULong limit = ~0ULL;
      UInt i, slowest = 0;
      for (i = 0; i < n_helpers; i++)
         if (helpers[i].fd >= 0) {
            ULong t = __atomic_load_n(&hdr->tail[i].v, __ATOMIC_ACQUIRE) + RING_RECORDS;
            if (t < limit) {
               limit = t;
               slowest = i;
            }
         }
      if (limit > mp_g_stream.head) {
         /* With every helper gone, the records go to a ring nobody
            reads until the stream stops. */
         mp_g_stream.room = mp_g_stream.head + BATCH < limit ? mp_g_stream.head + BATCH
                                                             : limit;
         return;
      }
      waits++;
      if (mp_apart_peer_gone(helpers[slowest].fd, WAIT_MS))
         helper_died(slowest);
   }
}

void mp_helper_thread(UInt serial, ThreadId tid)
{
   mp_helper_put(serial, mp_g_thread_group[tid], MP_REC_THREAD | (mp_g_thread_core[tid] << 8));
   mp_g_stream.serial = serial;
}

/* The frames of the last frames record, of mp_g_stream.frames_serial:
   a record sends those past the ones both have (an instance is one
   begun epoch), which a call-heavy program's loops, entered and left
   at every call, keep to one or none. */
static ULong *sent_begun;
static UInt n_sent, cap_sent;

void mp_helper_frames(UInt serial)
{
   const mp_loop_frame *f;
   UInt n = mp_loops_active(mp_g_loops, serial, &f), i, keep = 0;
   if (serial == mp_g_stream.frames_serial)
      while (keep < n && keep < n_sent && sent_begun[keep] == f[keep].begun)
         keep++;
   mp_helper_put(*mp_g_loop_epoch, serial, MP_REC_FRAMES);
   mp_helper_put(mp_loops_unseen_before(mp_g_loops), n, MP_REC_BOUND | keep << 8);
   if (n > cap_sent) {
      cap_sent = n > 2 * cap_sent ? n : 2 * cap_sent;
      sent_begun = VG_(realloc)("mp.helper.sent", sent_begun, cap_sent * sizeof *sent_begun);
   }
   for (i = keep; i < n; i++) {
      mp_helper_put(f[i].begun, f[i].loop, MP_REC_FRAME);
      sent_begun[i] = f[i].begun;
   }
   n_sent = n;
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

/* The helper being read. */
static Int from_helper = -1;

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
   if (a->n_pairs != b->n_pairs)
      return False;
   for (i = 0; i < a->n_pairs; i++)
      if (a->pair[i].from != b->pair[i].from || a->pair[i].to != b->pair[i].to
          || a->pair[i].across[0] != b->pair[i].across[0]
          || a->pair[i].across[1] != b->pair[i].across[1]
          || !same_carrier(&a->pair[i].k, &b->pair[i].k))
         return False;
   return True;
}

static void count_counted_line(const mp_line_counts *lc, void *arg)
{
   *(UInt *)arg += lc->reuse.cold || lc->reuse.bins;
}

/* What the inline copies counted that the helper did not send. */
static void check_reuse_totals(const reuse_header *h)
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

/* The reuse helper's counts become the producer's (with --helper-check,
   once compared with the producer's own: the output is the helper's,
   so a test comparing it with an inline run's sees the handing back
   too); False if the helper died first. */
static Bool take_reuse(void)
{
   reuse_header h;
   uint64_t (*bins)[MP_REUSE_N_BINS] = VG_(malloc)("mp.helper.bins", 2 * sizeof *bins);
   UInt i;
   Bool ok = read_all(&h, sizeof h);
   for (i = 0; ok && i < h.lines; i++) {
      line_header lh;
      mp_line_counts *lc;
      ok = read_all(&lh, sizeof lh) && (!lh.r.bins || read_all(bins, 2 * sizeof *bins));
      lc = ok ? mp_vars_line_by_id(mp_g_vars, lh.id) : NULL;
      if (!lc) {
         ok = False;
         break;
      }
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
   VG_(free)(bins);
   if (!ok)
      return False;
   reuse_bytes = h.bytes;
   ran = True;
   if (mp_clo_helper_check)
      check_reuse_totals(&h);
   mp_reuse_take_stats(mp_g_reuse, &h.st);
   if (mp_g_carriers)
      mp_carriers_take_counts(mp_g_carriers, h.carriers_added, h.carriers_unseen);
   return True;
}

/* The hierarchy's counts as handed, until the cache's flush step takes
   them (mp_helper_take_hierarchy). */
static struct {
   Bool pending;
   hier_header h;
   var_cache_rec *vars;
   line_cache_rec *lines;
   mp_setdiag_set *sets[MP_CACHE_MAX_LEVELS];
   uint64_t *structs;
} handed;

static void *read_array(const HChar *cc, UInt n, SizeT elem, Bool *ok)
{
   void *p;
   if (!*ok || n == 0)
      return NULL;
   p = VG_(malloc)(cc, n * elem);
   *ok = read_all(p, n * elem);
   return p;
}

static void drop_handed(void)
{
   UInt k;
   if (handed.vars)
      VG_(free)(handed.vars);
   if (handed.lines)
      VG_(free)(handed.lines);
   for (k = 0; k < MP_CACHE_MAX_LEVELS; k++)
      if (handed.sets[k])
         VG_(free)(handed.sets[k]);
   if (handed.structs)
      VG_(free)(handed.structs);
   VG_(memset)(&handed, 0, sizeof handed);
}

static Bool read_hierarchy(void)
{
   Bool ok;
   UInt k;
   drop_handed();
   ok = read_all(&handed.h, sizeof handed.h);
   handed.vars = read_array("mp.helper.hv", handed.h.vars, sizeof *handed.vars, &ok);
   handed.lines = read_array("mp.helper.hl", handed.h.lines, sizeof *handed.lines, &ok);
   for (k = 0; k < mp_g_hier.n_levels; k++)
      handed.sets[k] = read_array("mp.helper.hs", handed.h.sets[k], sizeof(mp_setdiag_set), &ok);
   handed.structs = read_array("mp.helper.hst", handed.h.structs, sizeof *handed.structs, &ok);
   handed.pending = ok;
   return ok;
}

static UInt checked_vars, checked_cache_lines;
static Bool check_said = True;   /* or to be said when the hierarchy's are taken */

static void say_check(void)
{
   if (mp_clo_helper_check)
      VG_(umsg)("memprof: helper check: %u line records' reuses, %u carrier tables, %u "
                "variables' and %u line records' cache counts compared, %u differ\n",
                checked_lines, checked_tables, checked_vars, checked_cache_lines, differ);
}

/* The inline copy's counts against the handed ones (--helper-check). */
static void check_hierarchy(void)
{
   static const mp_cache_counts zero_cc;
   static const mp_line_cache zero_lc;
   UInt i, k, inline_vars = 0;
   for (i = 0; i < handed.h.vars; i++) {
      const mp_var *v = mp_vars_get(mp_g_vars, handed.vars[i].var);
      checked_vars++;
      if (VG_(memcmp)(v->cache ? v->cache : &zero_cc, &handed.vars[i].cc, sizeof zero_cc))
         mismatch("cache counts of variable", handed.vars[i].var);
      if (v->lines != handed.vars[i].lines)
         mismatch("footprint of variable", handed.vars[i].var);
   }
   for (i = 0; i < mp_vars_count(mp_g_vars); i++)
      inline_vars += mp_vars_get(mp_g_vars, i)->cache != NULL;
   if (inline_vars != handed.h.vars)
      mismatch("number of variables with cache counts, inline", inline_vars);
   for (i = 0; i < handed.h.lines; i++) {
      const mp_line_counts *lc = mp_vars_line_by_id(mp_g_vars, handed.lines[i].id);
      checked_cache_lines++;
      if (!lc || VG_(memcmp)(&lc->cache, &handed.lines[i].cache, sizeof zero_lc))
         mismatch("cache counts of line record", handed.lines[i].id);
   }
   for (k = 0; k < mp_g_hier.n_levels; k++) {
      mp_cache_totals t;
      mp_setdiag_set st;
      Long set = -1;
      UInt n = 0;
      mp_cache_get_raw_totals(mp_g_hier.cache, k, &t);
      if (VG_(memcmp)(&t, &handed.h.raw[k], sizeof t))
         mismatch("totals of level", k + 1);
      while ((set = mp_setdiag_next(mp_g_hier.conflicts, k, set, &st)) >= 0) {
         if (n >= handed.h.sets[k] || VG_(memcmp)(&st, &handed.sets[k][n], sizeof st))
            mismatch("conflict set of level", k + 1);
         n++;
      }
      if (n != handed.h.sets[k])
         mismatch("number of conflict sets of level", k + 1);
   }
   if (mp_g_structs)
      for (i = 0; i < mp_structs_streams(mp_g_structs); i++)
         if (mp_structs_stream_cycles(mp_g_structs, i)
             != (i < handed.h.structs ? handed.structs[i] : 0))
            mismatch("cycles of structure stream", i);
}

void mp_helper_take_hierarchy(void)
{
   UInt i, k;
   if (!handed.pending || !mp_g_hier.cache)
      return;
   if (mp_clo_helper_check)
      check_hierarchy();
   for (i = 0; i < handed.h.vars; i++) {
      mp_vars_cache_set(mp_g_vars, handed.vars[i].var, &handed.vars[i].cc);
      mp_vars_set_lines(mp_g_vars, handed.vars[i].var, handed.vars[i].lines);
   }
   for (i = 0; i < handed.h.lines; i++) {
      mp_line_counts *lc = mp_vars_line_by_id(mp_g_vars, handed.lines[i].id);
      if (lc)
         lc->cache = handed.lines[i].cache;
   }
   for (k = 0; k < mp_g_hier.n_levels; k++) {
      mp_cache_set_raw_totals(mp_g_hier.cache, k, &handed.h.raw[k]);
      for (i = 0; i < handed.h.sets[k]; i++)
         mp_setdiag_put(mp_g_hier.conflicts, k, &handed.sets[k][i]);
   }
   for (i = 0; mp_g_structs && i < handed.h.structs; i++)
      mp_structs_set_stream_cycles(mp_g_structs, i, handed.structs[i]);
   cache_bytes = handed.h.bytes;
   drop_handed();
   if (!check_said) {
      check_said = True;
      say_check();
   }
}

/* Helper i's counts; False if it died first. */
static Bool take_counts(UInt i)
{
   counts_header h;
   UInt magic;
   from_helper = helpers[i].fd;
   if (!read_all(&h, sizeof h) || h.magic != RESULTS_MAGIC || h.roles != helpers[i].roles)
      return False;
   if ((h.roles & ROLE_REUSE) && !take_reuse())
      return False;
   if ((h.roles & ROLE_HIER) && !read_hierarchy())
      return False;
   if (!read_all(&magic, sizeof magic) || magic != ~RESULTS_MAGIC)
      return False;
   helpers[i].ticks = h.cpu_ticks;
   helpers[i].peak_kb = h.peak_kb;
   return True;
}

/* It exits now: once its end of the pipe is closed, it is gone, and no
   process of ours outlives the run. */
static void helper_stopped(UInt i)
{
   UChar c;
   while (VG_(read)(helpers[i].fd, &c, 1) > 0)
      ;
   VG_(close)(helpers[i].fd);
   helpers[i].fd = -1;
}

void mp_helper_collect(Bool end)
{
   UInt i;
   if (!mp_g_stream_on)
      return;
   mp_helper_put(0, 0, end ? MP_REC_END : MP_REC_SYNC);
   publish();
   for (i = 0; i < n_helpers; i++) {
      if (helpers[i].fd < 0)
         continue;
      if (!take_counts(i)) {
         if (helpers[i].roles & ROLE_HIER)
            drop_handed();
         helper_died(i);
         continue;
      }
      if (end)
         helper_stopped(i);
   }
   if (end) {
      mp_g_stream_on = False;
      check_said = !handed.pending;
      if (check_said)
         say_check();
   }
}

void mp_helper_fork_child(void)
{
   UInt i;
   if (!mp_g_stream_on)
      return;
   /* The parent's helpers and ring are the parent's: the child's copies
      of the pipes would keep a helper from seeing the parent go. */
   for (i = 0; i < n_helpers; i++)
      if (helpers[i].fd >= 0) {
         VG_(close)(helpers[i].fd);
         helpers[i].fd = -1;
      }
   mp_g_reuse_apart = mp_g_hier_apart = mp_g_stream_on = False;
   ran = False;
   drop_handed();
}

Bool mp_helper_ran(void)
{
   return ran;
}

ULong mp_helper_reuse_bytes(void)
{
   return reuse_bytes;
}

ULong mp_helper_cache_bytes(void)
{
   return cache_bytes;
}

void mp_helper_stats(void)
{
   UInt i;
   for (i = 0; i < n_helpers; i++)
      if (helpers[i].pid > 0 && (helpers[i].ticks || helpers[i].peak_kb))
         VG_(dmsg)("memprof: analysis helper: process %d (%s), %llu.%02llu s of CPU, peak "
                   "RSS %llu kB\n", helpers[i].pid,
                   analyses_of(helpers[i].roles),
                   helpers[i].ticks / 100, helpers[i].ticks % 100, helpers[i].peak_kb);
   if (n_helpers)
      VG_(dmsg)("memprof: analysis helpers: %llu records, the producer waited %llu times "
                "for room\n", mp_g_stream.head, waits);
}
