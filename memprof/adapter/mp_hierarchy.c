/*--------------------------------------------------------------------*/
/*--- memprof: the simulated machine: caches, cores, latencies.    ---*/
/*---                                                mp_hierarchy.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Builds the cache hierarchy (mp_cache) from the options, or from the
   host's caches (mp_hostcache) where an option is not given, checks it
   before the client runs, and maps threads to cores: thread t (numbered
   from 1 in creation order) runs on core (t - 1) mod cores unless
   --thread-map says otherwise.
*/
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"

#include "mp_clo.h"
#include "mp_hostcache.h"
#include "mp_vgcompat.h"
#include "mp_hierarchy.h"
#include "mp_set_sample.h"

mp_hierarchy mp_g_hier;
UChar *mp_g_sample_sets;
UWord  mp_g_sample_set_mask;
UInt   mp_g_sample_line_shift;
UInt   mp_g_sample_shift;
UInt  *mp_g_sample_rank;
UInt   mp_g_sample_set_bits;
UInt   mp_g_sample_n_sets;
mp_line_sums *mp_g_line_sums;
mp_unit_sums *mp_g_set_sums;
static mp_cache_cfg built_cfg;   /* what mp_g_hier.cache was built from */
static mp_cache_cfg built_tlb;   /* and mp_g_hier.tlb */

/* Refuses an integer option: --option=<n>. */
static void bad_int_option(const HChar *opt, Int n, const HChar *why)
{
   HChar value[16];
   VG_(snprintf)(value, sizeof value, "%d", n);
   mp_bad_option(opt, value, "%s", why);
}

static void build_tlb(mp_hierarchy *h);
static void pick_line_sample(mp_cache_cfg *cfg);

static const HChar *const level_opts[3] = { "--L1", "--L2", "--L3" };

/* The tables of a cache instance are mapped at the first access of one
   of its cores, while the program runs.  Checks now that the system
   grants them, so that a level too large for this machine is refused as
   a bad option rather than ending the run out of memory: maps one
   instance of each level, two with the what-if replays (which simulate
   a copy of the hierarchy at exit), all at once, as separate mappings
   as in the run, then removes them.  Their pages are never written. */
static void check_address_space(const mp_cache_cfg *cfg)
{
   void *map[2 * MP_CACHE_MAX_LEVELS];
   ULong bytes[2 * MP_CACHE_MAX_LEVELS];
   UInt copies = mp_clo_whatif_split || mp_clo_whatif_pad || mp_clo_whatif_interchange
                 || mp_clo_whatif_tile || mp_clo_whatif_pad_conflicts || mp_clo_whatif_fuse
                 ? 2 : 1;
   UInt n = 0, i, failed = ~0u;
   HChar opt[8], why[200];
   UWord err;
   for (i = 0; i < copies * cfg->n_levels && failed == ~0u; i++) {
      bytes[n] = VG_PGROUNDUP(mp_cache_instance_table_bytes(cfg, i % cfg->n_levels));
      map[n] = mp_vg_shadow_alloc(bytes[n], &err);
      if (map[n])
         n++;
      else
         failed = i % cfg->n_levels;
   }
   for (i = 0; i < n; i++)
      VG_(am_munmap_valgrind)((Addr)map[i], bytes[i]);
   if (failed == ~0u)
      return;
   VG_(snprintf)(opt, sizeof opt, "--L%u", failed + 1);
   VG_(snprintf)(why, sizeof why,
                 "L%u: too large to simulate here: the system refuses the %llu MiB of "
                 "address space its tables take%s",
                 failed + 1,
                 (ULong)(mp_cache_instance_table_bytes(cfg, failed) + (1 << 20) - 1) >> 20,
                 copies == 2 ? " (twice with --what-if)" : "");
   mp_bad_option(opt, mp_clo_level[failed], "%s", why);
}

static mp_cache_counts *vars_counts(UInt var)
{
   return mp_vars_cache_counts(mp_g_vars, var);
}

mp_cache_counts *(*mp_g_hier_counts_of)(UInt var) = vars_counts;

static void retire(void *arg, uint32_t level, uint32_t owner, uint64_t hits)
{
   mp_cache_counts_retire(mp_g_hier_counts_of(owner), level, hits);
}

static void invalidated(void *arg, uint32_t level, uint32_t owner)
{
   mp_g_hier_counts_of(owner)->invalidations_suffered++;
}

/* Level k's geometry from --L<k+1>= if given, else the host's; False if
   the level is absent ("none", or the host has no such level). */
static Bool level_geometry(UInt k, const mp_host_caches *host,
                           mp_cache_level_cfg *l, Bool *from_option)
{
   VG_(memset)(l, 0, sizeof *l);
   *from_option = mp_clo_level[k] != NULL;
   if (mp_clo_level[k]) {
      mp_clo_cache_level(k, l);
      /* "none" only: a size of 0 is an error of the engine's check */
      return VG_(strcmp)(mp_clo_level[k], "none") != 0;
   }
   if (k >= host->n_levels)
      return False;
   l->size = host->level[k].size;
   l->assoc = host->level[k].assoc;
   l->line = host->level[k].line;
   return True;
}

/* The host's sharing of level k when it fits the simulated cores (it
   must divide them), else private. */
static UInt host_sharing(const mp_host_caches *host, UInt k, UInt cores)
{
   UInt by = k < host->n_levels ? host->level[k].shared_by : 1;
   return by >= 1 && by <= cores && cores % by == 0 ? by : 1;
}

/* 32768 -> "32 KiB", for messages. */
static const HChar *size_text(ULong b, HChar *buf, Int n)
{
   if (b >= (1ULL << 30) && b % (1ULL << 30) == 0)
      VG_(snprintf)(buf, n, "%llu GiB", b >> 30);
   else if (b >= (1ULL << 20) && b % (1ULL << 20) == 0)
      VG_(snprintf)(buf, n, "%llu MiB", b >> 20);
   else if (b >= (1ULL << 10) && b % (1ULL << 10) == 0)
      VG_(snprintf)(buf, n, "%llu KiB", b >> 10);
   else
      VG_(snprintf)(buf, n, "%llu B", b);
   return buf;
}

/* The engine refused the hierarchy with err, which starts with the
   level's name ("L2: ..."): refuses the option that made it so, with
   its value. */
static void refuse_geometry(const char *err, const Bool from_option[3])
{
   const Int shared_by[3] = { 0, mp_clo_L2_shared_by, mp_clo_L3_shared_by };
   UInt k, j;
   if (err[0] != 'L' || err[1] < '1' || err[1] > '3') {
      if (mp_clo_cores)
         bad_int_option("--cores", mp_clo_cores, err);
      mp_bad_option("--L1", mp_clo_level[0], "%s", err);
   }
   k = (UInt)(err[1] - '1');
   if (VG_(strstr)(err, "shared by")) {
      /* The level's sharing, the one above's, else the sockets'. */
      for (j = k + 1; j-- > 1; )
         if (shared_by[j])
            bad_int_option(j == 1 ? "--L2-shared-by" : "--L3-shared-by", shared_by[j], err);
      if (mp_clo_cores_per_socket)
         bad_int_option("--cores-per-socket", mp_clo_cores_per_socket, err);
      if (mp_clo_cores)
         bad_int_option("--cores", mp_clo_cores, err);
   }
   if (from_option[k])
      mp_bad_option(level_opts[k], mp_clo_level[k], "%s", err);
   /* A level of the host's that does not fit a level given. */
   for (j = 0; j < 3; j++)
      if (from_option[j])
         mp_bad_option(level_opts[j], mp_clo_level[j], "%s; the L%u is the host's: give "
                       "--L%u too", err, k + 1, k + 1);
   mp_bad_option(level_opts[k], NULL, "%s (the host's L%u)", err, k + 1);
}

/* Each level must hold at least as much as the one above it: a smaller
   one is a mistake (a k for an m), whose misses would mean nothing.  The
   host's own levels are taken as they are. */
static void check_level_order(const mp_cache_cfg *cfg, const Bool from_option[3])
{
   UInt k;
   HChar big[32], small[32];
   for (k = 1; k < cfg->n_levels; k++) {
      const mp_cache_level_cfg *up = &cfg->level[k - 1], *lo = &cfg->level[k];
      if (lo->size >= up->size || (!from_option[k] && !from_option[k - 1]))
         continue;
      size_text(up->size, big, sizeof big);
      size_text(lo->size, small, sizeof small);
      if (from_option[k])
         mp_bad_option(level_opts[k], mp_clo_level[k],
                       "the L%u (%s) is smaller than the L%u above it (%s%s%s%s%s): each "
                       "level must be at least as large as the one above", k + 1, small, k,
                       big, from_option[k - 1] ? ", " : ", the host's",
                       from_option[k - 1] ? level_opts[k - 1] : "",
                       from_option[k - 1] ? "=" : "",
                       from_option[k - 1] ? mp_clo_level[k - 1] : "");
      mp_bad_option(level_opts[k - 1], mp_clo_level[k - 1],
                    "the L%u (%s) is larger than the host's L%u below it (%s): each level "
                    "must be at least as large as the one above (give --L%u too, or "
                    "--L%u=none)", k, big, k + 1, small, k + 1, k + 1);
   }
}

void mp_hierarchy_init(void)
{
   mp_host_caches host;
   mp_cache_cfg cfg;
   mp_hierarchy *h = &mp_g_hier;
   UInt k, any_option = 0, any_host = 0;
   Bool from_option[3] = { False, False, False };
   const char *err;
   HChar why[160];

   VG_(memset)(h, 0, sizeof *h);
   mp_host_caches_detect(&host);
   h->cores = mp_clo_cores ? (UInt)mp_clo_cores
            : host.cpus < MP_CACHE_MAX_CORES ? host.cpus : MP_CACHE_MAX_CORES;
   h->cores_per_socket = mp_clo_cores_per_socket ? (UInt)mp_clo_cores_per_socket
                                                  : h->cores;
   if (h->cores % h->cores_per_socket != 0) {
      VG_(snprintf)(why, sizeof why, "the %u cores%s are not a multiple of the cores "
                    "per socket", h->cores, mp_clo_cores ? "" : " (the host's CPUs)");
      bad_int_option("--cores-per-socket", mp_clo_cores_per_socket, why);
   }
   for (k = 0; k < MP_MAX_THREAD_MAP && k < (UInt)mp_clo_n_thread_map; k++)
      if (mp_clo_thread_map[k][1] >= h->cores)
         mp_bad_option("--thread-map", mp_clo_thread_map_arg, "thread %u: core %u is not "
                       "below the %u cores%s", mp_clo_thread_map[k][0],
                       mp_clo_thread_map[k][1], h->cores,
                       mp_clo_cores ? "" : " (the host's CPUs; see --cores)");

   VG_(memset)(&cfg, 0, sizeof cfg);
   for (k = 0; k < 3; k++) {
      mp_cache_level_cfg l;
      if (!level_geometry(k, &host, &l, &from_option[k])) {
         if (k == 0)
            mp_bad_option("--L1", mp_clo_level[0], "the L1 cannot be none");
         /* Nothing below a missing level: saying otherwise is an error. */
         if (k == 1 && mp_clo_level[2] && VG_(strcmp)(mp_clo_level[2], "none") != 0)
            mp_bad_option("--L3", mp_clo_level[2], "an L3 needs an L2 (--L2 is none)");
         if (k == 1 && mp_clo_L2_shared_by)
            bad_int_option("--L2-shared-by", mp_clo_L2_shared_by, "there is no L2 to share");
         if (mp_clo_L3_shared_by)
            bad_int_option("--L3-shared-by", mp_clo_L3_shared_by, "there is no L3 to share");
         break;
      }
      any_option |= from_option[k];
      any_host |= !from_option[k];
      l.shared_by = k == 0 ? 1
                  : k == 1 ? (mp_clo_L2_shared_by ? (UInt)mp_clo_L2_shared_by
                              : host_sharing(&host, 1, h->cores))
                  : (mp_clo_L3_shared_by ? (UInt)mp_clo_L3_shared_by : h->cores_per_socket);
      cfg.level[cfg.n_levels++] = l;
   }
   cfg.cores = h->cores;
   cfg.sample_shift = mp_clo_miss_causes_sampled ? MP_CACHE_SAMPLED_SHIFT : 0;
   if (mp_clo_sample_mode == MP_SAMPLE_LINES)
      pick_line_sample(&cfg);
   cfg.prefetch = mp_clo_prefetch;
   cfg.on_retire = retire;
   cfg.on_invalidate = invalidated;
   h->n_levels = cfg.n_levels;
   for (k = 0; k < cfg.n_levels; k++)
      h->level[k] = cfg.level[k];
   for (k = 0; k < cfg.n_levels; k++)
      h->latency[k] = mp_clo_latency[k];
   h->latency[cfg.n_levels] = mp_clo_latency[3];   /* memory */
   h->source = !any_host ? "options" : any_option ? "options and host" : host.source;
   h->fallback_why = any_host ? host.why : NULL;
   built_cfg = cfg;
   h->cache = mp_cache_new(&cfg, &err);
   if (!h->cache)
      refuse_geometry(err, from_option);
   check_level_order(&cfg, from_option);
   build_tlb(h);
   if (!mp_clo_cache_sim) {
      mp_cache_free(h->cache);
      h->cache = NULL;
      if (h->tlb) {
         mp_cache_free(h->tlb);
         h->tlb = NULL;
      }
      return;
   }
   check_address_space(&cfg);
   {
      uint64_t sets[MP_CACHE_MAX_LEVELS];
      for (k = 0; k < cfg.n_levels; k++)
         sets[k] = cfg.level[k].size / ((uint64_t)cfg.level[k].assoc * cfg.level[k].line);
      h->conflicts = mp_setdiag_new(cfg.n_levels, sets);
   }
}

/* --sample=lines: the sample's sets, from the L1's geometry. */
static void pick_line_sample(mp_cache_cfg *cfg)
{
   const mp_cache_level_cfg *l1 = &cfg->level[0];
   UInt sets = (UInt)(l1->size / ((uint64_t)l1->assoc * l1->line)), set;
   if (!mp_clo_cache_sim)
      mp_bad_option("--sample", "lines", "a sample of the lines needs the cache simulation "
                    "(--cache-sim=yes)");
   if (mp_clo_tlb && VG_(strcmp)(mp_clo_tlb, "none") != 0)
      mp_bad_option("--TLB", mp_clo_tlb, "cannot go with --sample=lines: a TLB's pages "
                    "hold lines of every set");
   if (mp_clo_prefetch.kind != MP_PREFETCH_NONE)
      mp_bad_option("--prefetch", NULL, "cannot go with --sample=lines: a prefetcher trains "
                    "on lines of every set");
   mp_g_sample_shift = mp_set_sample_shift(mp_clo_sample_rate, sets);
   mp_g_sample_sets = VG_(calloc)("mp.sample.sets", sets, 1);
   mp_set_sample_pick(mp_g_sample_sets, sets, mp_g_sample_shift);
   mp_g_sample_set_mask = sets - 1;
   while ((1u << mp_g_sample_line_shift) < l1->line)
      mp_g_sample_line_shift++;
   mp_g_sample_rank = VG_(malloc)("mp.sample.ranks", sets * sizeof *mp_g_sample_rank);
   for (set = 0; set < sets; set++)
      mp_g_sample_rank[set] = mp_g_sample_sets[set] ? ++mp_g_sample_n_sets : 0;
   while ((1u << mp_g_sample_set_bits) < sets)
      mp_g_sample_set_bits++;
   mp_g_line_sums = mp_line_sums_new();
   mp_g_set_sums = mp_unit_sums_new();
   cfg->set_sample_shift = mp_g_sample_shift;
   cfg->sampled_sets = mp_g_sample_sets;
}

/* --TLB=entries,assoc,page: a one-level cache per core whose "lines"
   are pages; its misses are the TLB misses. */
static void build_tlb(mp_hierarchy *h)
{
   mp_cache_cfg tc;
   HChar *end;
   const HChar *s = mp_clo_tlb;
   Long entries, assoc, page;
   const char *err;
   if (!s || VG_(strcmp)(s, "none") == 0)
      return;
   entries = VG_(strtoll10)(s, &end);
   if (end == s || *end != ',')
      mp_bad_option("--TLB", mp_clo_tlb, "expected entries,assoc,page (e.g. 64,4,4096) or none");
   s = end + 1;
   assoc = VG_(strtoll10)(s, &end);
   if (end == s || *end != ',')
      mp_bad_option("--TLB", mp_clo_tlb, "expected entries,assoc,page (e.g. 64,4,4096) or none");
   s = end + 1;
   page = VG_(strtoll10)(s, &end);
   if (end == s || *end != '\0')
      mp_bad_option("--TLB", mp_clo_tlb, "expected entries,assoc,page (e.g. 64,4,4096) or none");
   /* In the TLB's terms, before the engine's check of a cache (whose
      lines are the pages) says the rest. */
   if (entries < 1 || entries > (1 << 24))
      mp_bad_option("--TLB", mp_clo_tlb, "%lld entries, expected 1 to %d", entries, 1 << 24);
   if (assoc < 1 || assoc > entries)
      mp_bad_option("--TLB", mp_clo_tlb, "associativity %lld, expected 1 to the %lld entries",
                    assoc, entries);
   if (entries % assoc != 0 || ((entries / assoc) & (entries / assoc - 1)) != 0)
      mp_bad_option("--TLB", mp_clo_tlb, "%lld entries of associativity %lld make %lld%s "
                    "sets, not a power of two", entries, assoc, entries / assoc,
                    entries % assoc ? " and a fraction of" : "");
   if (page < 8 || page > (1LL << 30) || (page & (page - 1)) != 0)
      mp_bad_option("--TLB", mp_clo_tlb, "page size %lld, expected a power of two from "
                    "8 to 2^30 bytes", page);
   VG_(memset)(&tc, 0, sizeof tc);
   tc.n_levels = 1;
   tc.cores = h->cores;
   tc.level[0].name = "TLB";
   tc.level[0].size = (uint64_t)entries * (uint64_t)page;
   tc.level[0].assoc = (uint32_t)assoc;
   tc.level[0].line = (uint32_t)page;
   tc.level[0].shared_by = 1;
   h->tlb = mp_cache_new(&tc, &err);
   if (!h->tlb)
      mp_bad_option("--TLB", mp_clo_tlb, "%s", err);
   h->tlb_entries = (uint64_t)entries;
   h->tlb_assoc = (uint32_t)assoc;
   h->tlb_page = (uint32_t)page;
   built_tlb = tc;
}

void mp_hierarchy_reset(void)
{
   const char *err;
   mp_cache_l1_oracle oracle;
   void *arg;
   if (!mp_g_hier.cache)
      return;
   oracle = mp_cache_get_l1_oracle(mp_g_hier.cache, &arg);
   mp_cache_free(mp_g_hier.cache);
   mp_g_hier.cache = mp_cache_new(&built_cfg, &err);
   tl_assert(mp_g_hier.cache != NULL);   /* it was built once already */
   if (oracle)
      tl_assert(mp_cache_set_l1_oracle(mp_g_hier.cache, oracle, arg));
   mp_setdiag_reset(mp_g_hier.conflicts);
   if (mp_g_set_sums) {
      mp_line_sums_free(mp_g_line_sums);
      mp_unit_sums_free(mp_g_set_sums);
      mp_g_line_sums = mp_line_sums_new();
      mp_g_set_sums = mp_unit_sums_new();
   }
}

void mp_hierarchy_reset_tlb(void)
{
   const char *err;
   if (!mp_g_hier.tlb)
      return;
   mp_cache_free(mp_g_hier.tlb);
   mp_g_hier.tlb = mp_cache_new(&built_tlb, &err);
   tl_assert(mp_g_hier.tlb != NULL);   /* it was built once already */
}

void mp_hierarchy_raw_causes(uint64_t raw[][MP_MISS_N_CAUSES])
{
   UInt k, c;
   for (k = 0; k < mp_g_hier.n_levels; k++) {
      mp_cache_totals t;
      mp_cache_get_raw_totals(mp_g_hier.cache, k, &t);
      for (c = 0; c < MP_MISS_N_CAUSES; c++)
         raw[k][c] = t.cause[c];
   }
}

void mp_hierarchy_estimate_causes(void)
{
   uint64_t raw[MP_CACHE_MAX_LEVELS][MP_MISS_N_CAUSES];
   UInt k;
   if (!mp_g_hier.cache)
      return;
   mp_hierarchy_raw_causes(raw);
   for (k = 0; k < mp_g_hier.n_levels; k++) {
      mp_cache_totals est;
      mp_cache_get_totals(mp_g_hier.cache, k, &est);
      /* The set diagnosis saw the sampled lines' conflicts only. */
      mp_setdiag_scale(mp_g_hier.conflicts, k, est.cause[MP_MISS_CONFLICT],
                       raw[k][MP_MISS_CONFLICT]);
   }
   mp_vars_split_unclassified(mp_g_vars, mp_g_hier.n_levels, raw);
}

UInt mp_hierarchy_core_of(UInt thread)
{
   Int i;
   for (i = 0; i < mp_clo_n_thread_map; i++)
      if (mp_clo_thread_map[i][0] == thread)
         return mp_clo_thread_map[i][1];
   return (thread - 1) % mp_g_hier.cores;
}
