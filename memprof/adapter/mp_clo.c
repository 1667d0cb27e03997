/*--------------------------------------------------------------------*/
/*--- memprof: command-line options.                      mp_clo.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Options are parsed in one chain, Valgrind style.  A bad value makes
   the core print a message naming the option and exit 1 before the
   client starts (VG_(fmsg_bad_option)); an unknown option is refused by
   the core in the same way when mp_clo_process returns False.
*/
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_xarray.h"

#include "mp_clo.h"
#include "mp_owner.h"
#include "mp_util.h"
#include "mp_window.h"

const HChar *mp_clo_out_file = "memprof.out.%p";
Int          mp_clo_summary = 10;
Bool         mp_clo_show_runtime = False;
Bool         mp_clo_output_all = False;
Bool         mp_clo_collect_atstart = True;
const HChar *mp_clo_toggle_collect[MP_MAX_TOGGLE_PATTERNS];
Int          mp_clo_n_toggle_collect = 0;
const HChar *mp_clo_alloc_fns[MP_MAX_ALLOC_FNS];
Int          mp_clo_n_alloc_fns = 0;
ULong        mp_clo_min_var_size = 0;
Bool         mp_clo_cache_sim = True;
Bool         mp_clo_miss_causes_sampled = True;
const HChar *mp_clo_level[3] = { NULL, NULL, NULL };
const HChar *mp_clo_tlb = NULL;
Int          mp_clo_cores = 0;
Int          mp_clo_cores_per_socket = 0;
Int          mp_clo_L2_shared_by = 0;
Int          mp_clo_L3_shared_by = 0;
UInt         mp_clo_latency[5] = { 4, 12, 40, 200, 300 };
UInt         mp_clo_thread_map[MP_MAX_THREAD_MAP][2];
Int          mp_clo_n_thread_map = 0;
const HChar *mp_clo_thread_map_arg = NULL;
Bool         mp_clo_reuse = True;
Int          mp_clo_analysis_procs = -1;
Bool         mp_clo_helper_check = False;
Bool         mp_clo_sharing = True;
Bool         mp_clo_sharing_given = False;
Bool         mp_clo_strides = True;
Bool         mp_clo_loops = True;
UInt         mp_clo_prefetch_streams = 16;
mp_prefetch_cfg mp_clo_prefetch = { MP_PREFETCH_NONE, MP_PREFETCH_DEFAULT_STREAMS };
const HChar *mp_clo_affinity_dot = NULL;
Bool         mp_clo_whatif_split = True;
Bool         mp_clo_whatif_pad = True;
Bool         mp_clo_whatif_interchange = True;
Bool         mp_clo_whatif_tile = True;
Bool         mp_clo_whatif_fuse = True;
Bool         mp_clo_whatif_fission = True;
Bool         mp_clo_whatif_pad_conflicts = True;
UInt         mp_clo_whatif_min_gain = 5;
UInt         mp_clo_page_size = 4096;
Int          mp_clo_sample_mode = MP_SAMPLE_DETAIL;
Bool         mp_clo_sample_given = False;
Bool         mp_clo_exact = False;
double       mp_clo_sample_rate = 0.01;
UInt         mp_clo_sample_window = 100000;
UInt         mp_clo_sample_max_gap = 400000;
ULong        mp_clo_window_len = MP_DETAIL_WINDOW;
ULong        mp_clo_window_gap = MP_DETAIL_PERIOD;
ULong        mp_clo_window_first = MP_DETAIL_FIRST;
Int          mp_clo_stride_history = 5;
Bool         mp_clo_stride_filtered = True;
ULong        mp_clo_stride_threshold = 128;

/* A copy of the text at s up to the first of stops (or the end), for
   a message. */
static HChar *token(const HChar *s, const HChar *stops)
{
   SizeT n = 0;
   HChar *t;
   while (s[n] && !VG_(strchr)(stops, s[n]))
      n++;
   t = VG_(malloc)("mp.clo.token", n + 1);
   VG_(memcpy)(t, s, n);
   t[n] = '\0';
   return t;
}

/* --latency=L1:4,L2:12,L3:40,mem:200,remote:300 (any subset, any
   order, each key once); NULL if well formed, else what is wrong (the
   run stops there: it is never freed). */
static const HChar *parse_latency(const HChar *s)
{
   static const HChar *const keys[5] = { "L1", "L2", "L3", "mem", "remote" };
   HChar *tok;
   Bool seen[5] = { False, False, False, False, False };
   if (*s == '\0')
      return "the list is empty: expected a list such as "
             "L1:4,L2:12,L3:40,mem:200,remote:300";
   while (*s) {
      Int k, matched = -1;
      const HChar *start = s;
      HChar *end;
      Long v;
      for (k = 0; k < 5; k++) {
         SizeT n = VG_(strlen)(keys[k]);
         if (VG_(strncmp)(s, keys[k], n) == 0 && s[n] == ':') {
            matched = k;
            s += n + 1;
            break;
         }
      }
      tok = token(start, ":,");
      for (k = 0; matched < 0 && k < 5; k++)
         if (VG_(strcmp)(tok, keys[k]) == 0)
            return mp_asprintf("%s: expected a colon and cycles, as in %s:%u",
                               tok, tok, mp_clo_latency[k]);
      if (matched < 0)
         return mp_asprintf("'%s' is not a key: expected L1, L2, L3, mem or remote, "
                            "as in L1:4,L2:12,L3:40,mem:200,remote:300", tok);
      VG_(free)(tok);
      if (seen[matched])
         return mp_asprintf("%s is given twice", keys[matched]);
      seen[matched] = True;
      v = VG_(strtoll10)(s, &end);
      if (end == s || v < 0 || v > 1000000 || (*end != ',' && *end != '\0'))
         return mp_asprintf("%s: '%s' is not a number of cycles from 0 to 1000000",
                            keys[matched], token(s, ","));
      mp_clo_latency[matched] = (UInt)v;
      s = end;
      if (*s == ',' && s[1] == '\0')
         return "the list ends with a comma";
      if (*s == ',')
         s++;
   }
   return NULL;
}

/* --thread-map=1:0,2:1: thread (creation number) to core; False if
   malformed. */
static Bool parse_thread_map(const HChar *s)
{
   mp_clo_n_thread_map = 0;
   while (*s) {
      HChar *end;
      Long t = VG_(strtoll10)(s, &end), c;
      if (end == s || *end != ':' || t < 1 || mp_clo_n_thread_map == MP_MAX_THREAD_MAP)
         return False;
      s = end + 1;
      c = VG_(strtoll10)(s, &end);
      if (end == s || c < 0 || c > 100000)
         return False;
      mp_clo_thread_map[mp_clo_n_thread_map][0] = (UInt)t;
      mp_clo_thread_map[mp_clo_n_thread_map][1] = (UInt)c;
      mp_clo_n_thread_map++;
      s = end;
      if (*s == ',' && s[1] != '\0')
         s++;
      else if (*s != '\0')
         return False;
   }
   return mp_clo_n_thread_map > 0;
}

/* An instruction count: digits with an optional k, m or g suffix
   (10^3, 10^6, 10^9).  0 if malformed or above 10^15. */
static ULong parse_instructions(const HChar *s, const HChar **rest)
{
   HChar *end;
   Long n = VG_(strtoll10)(s, &end);
   ULong mult = 1;
   if (end == s || n < 1)
      return 0;
   switch (*end) {
   case 'k': case 'K': mult = 1000ULL; end++; break;
   case 'm': case 'M': mult = 1000000ULL; end++; break;
   case 'g': case 'G': mult = 1000000000ULL; end++; break;
   default: break;
   }
   if ((ULong)n > 1000000000000000ULL / mult)
      return 0;
   *rest = end;
   return (ULong)n * mult;
}

/* periodic[:W[,P]], windows[:W[,G]] or detail[:W[,P[,F]]] (first: F
   allowed) after the mode name: the window and the period or largest
   gap, and the first window's length, in instructions.  False if
   malformed or not a valid schedule. */
static Bool parse_windows(const HChar *s, mp_window_mode mode, ULong *first)
{
   const HChar *end;
   if (*s != '\0') {
      if (*s++ != ':')
         return False;
      mp_clo_window_len = parse_instructions(s, &end);
      if (mp_clo_window_len == 0)
         return False;
      s = end;
      if (*s != '\0') {
         if (*s++ != ',')
            return False;
         mp_clo_window_gap = parse_instructions(s, &end);
         if (mp_clo_window_gap == 0)
            return False;
         s = end;
         if (*s != '\0') {
            if (*s++ != ',' || first == NULL)
               return False;
            /* 0 is allowed: no first window longer than the others */
            if (*s == '0' && s[1] == '\0')
               *first = 0;
            else if ((*first = parse_instructions(s, &end)) == 0 || *end != '\0')
               return False;
         }
      }
   }
   return mp_window_check(mode, mp_clo_window_len, mp_clo_window_gap) == NULL;
}

/* A fraction in (0, 1]: a decimal, or 1/N. */
static Bool parse_rate(const HChar *s, double *rate)
{
   HChar *end;
   if (s[0] == '1' && s[1] == '/') {
      Long n = VG_(strtoll10)(s + 2, &end);
      if (end == s + 2 || *end != '\0' || n < 1 || n > (1L << 30))
         return False;
      *rate = 1.0 / (double)n;
      return True;
   }
   *rate = VG_(strtod)(s, &end);
   return end != s && *end == '\0' && *rate > 0.0 && *rate <= 1.0;
}

/* --sample=off | shards[:RATE] | bursty[:WINDOW[,MAXGAP]]
   | periodic[:W[,P]] | windows[:W[,G]]; False if malformed. */
static Bool parse_sample(const HChar *s)
{
   static HChar window[128];
   HChar *end;
   /* Each --sample starts from the defaults: parameters of an earlier
      --sample do not carry over. */
   mp_clo_sample_rate = 0.01;
   mp_clo_sample_window = 100000;
   mp_clo_sample_max_gap = 400000;
   mp_clo_window_len = 1000000;
   mp_clo_window_gap = 50000000;
   if (VG_(strncmp)(s, "periodic", 8) == 0) {
      mp_clo_sample_mode = MP_SAMPLE_PERIODIC;
      /* 1% of a long run: the windows cost the full analysis's time, the
         gaps little, and on long runs the error is the windows' cold
         start, the same at a period of 50m (docs/performance.md). */
      mp_clo_window_gap = 100000000;
      return parse_windows(s + 8, MP_WINDOW_PERIODIC, NULL);
   }
   if (VG_(strncmp)(s, "detail", 6) == 0) {
      mp_clo_sample_mode = MP_SAMPLE_DETAIL;
      mp_clo_window_len = MP_DETAIL_WINDOW;
      mp_clo_window_gap = MP_DETAIL_PERIOD;
      mp_clo_window_first = MP_DETAIL_FIRST;
      return parse_windows(s + 6, MP_WINDOW_PERIODIC, &mp_clo_window_first);
   }
   if (VG_(strncmp)(s, "lines", 5) == 0) {
      HChar rate[32];
      SizeT n;
      mp_clo_sample_mode = MP_SAMPLE_LINES;
      mp_clo_sample_rate = MP_LINES_RATE;
      mp_clo_window_len = MP_DETAIL_WINDOW;
      mp_clo_window_gap = MP_LINES_PERIOD;
      mp_clo_window_first = 0;
      s += 5;
      if (*s == '\0')
         return True;
      if (*s++ != ':')
         return False;
      /* RATE, then the detail windows as --sample=detail's: ,W,P[,F] */
      for (n = 0; s[n] != '\0' && s[n] != ','; n++)
         ;
      if (n == 0 || n >= sizeof rate)
         return False;
      VG_(memcpy)(rate, s, n);
      rate[n] = '\0';
      if (!parse_rate(rate, &mp_clo_sample_rate))
         return False;
      if (s[n] == '\0')
         return True;
      VG_(snprintf)(window, sizeof window, ":%s", s + n + 1);
      return parse_windows(window, MP_WINDOW_PERIODIC, &mp_clo_window_first);
   }
   if (VG_(strncmp)(s, "windows", 7) == 0) {
      mp_clo_sample_mode = MP_SAMPLE_WINDOWS;
      return parse_windows(s + 7, MP_WINDOW_FIBONACCI, NULL);
   }
   if (VG_(strcmp)(s, "off") == 0) {
      mp_clo_sample_mode = 0;
      return True;
   }
   if (VG_(strncmp)(s, "shards", 6) == 0) {
      mp_clo_sample_mode = 1;
      s += 6;
      if (*s == '\0')
         return True;
      if (*s++ != ':')
         return False;
      mp_clo_sample_rate = VG_(strtod)(s, &end);
      /* At least 2^-32: the hash of a line is compared with RATE * 2^32. */
      return end != s && *end == '\0' && mp_clo_sample_rate * 4294967296.0 >= 1.0
             && mp_clo_sample_rate <= 1.0;
   }
   if (VG_(strncmp)(s, "bursty", 6) == 0) {
      Long w, g;
      mp_clo_sample_mode = 2;
      s += 6;
      if (*s == '\0')
         return True;
      if (*s++ != ':')
         return False;
      w = VG_(strtoll10)(s, &end);
      if (end == s || w < 1 || w > 1000000000)
         return False;
      mp_clo_sample_window = (UInt)w;
      s = end;
      if (*s == '\0')
         return True;
      if (*s++ != ',')
         return False;
      g = VG_(strtoll10)(s, &end);
      if (end == s || *end != '\0' || g < 0 || g > 4000000000LL)
         return False;
      mp_clo_sample_max_gap = (UInt)g;
      return True;
   }
   return False;
}

/* --what-if=none or a list of split, pad, interchange, tile,
   pad-conflicts, fuse, fission */
static Bool parse_whatif(const HChar *s)
{
   mp_clo_whatif_split = mp_clo_whatif_pad = mp_clo_whatif_interchange = False;
   mp_clo_whatif_tile = mp_clo_whatif_pad_conflicts = mp_clo_whatif_fuse = False;
   mp_clo_whatif_fission = False;
   if (VG_(strcmp)(s, "none") == 0)
      return True;
   while (*s) {
      if (VG_(strncmp)(s, "split", 5) == 0 && (s[5] == ',' || s[5] == '\0')) {
         mp_clo_whatif_split = True;
         s += 5;
      } else if (VG_(strncmp)(s, "pad", 3) == 0 && (s[3] == ',' || s[3] == '\0')) {
         mp_clo_whatif_pad = True;
         s += 3;
      } else if (VG_(strncmp)(s, "interchange", 11) == 0
                 && (s[11] == ',' || s[11] == '\0')) {
         mp_clo_whatif_interchange = True;
         s += 11;
      } else if (VG_(strncmp)(s, "tile", 4) == 0 && (s[4] == ',' || s[4] == '\0')) {
         mp_clo_whatif_tile = True;
         s += 4;
      } else if (VG_(strncmp)(s, "pad-conflicts", 13) == 0
                 && (s[13] == ',' || s[13] == '\0')) {
         mp_clo_whatif_pad_conflicts = True;
         s += 13;
      } else if (VG_(strncmp)(s, "fuse", 4) == 0 && (s[4] == ',' || s[4] == '\0')) {
         mp_clo_whatif_fuse = True;
         s += 4;
      } else if (VG_(strncmp)(s, "fission", 7) == 0 && (s[7] == ',' || s[7] == '\0')) {
         mp_clo_whatif_fission = True;
         s += 7;
      } else {
         return False;
      }
      if (*s == ',' && s[1] != '\0')
         s++;
      else if (*s == ',')
         return False;
   }
   return mp_clo_whatif_split || mp_clo_whatif_pad || mp_clo_whatif_interchange
          || mp_clo_whatif_tile || mp_clo_whatif_pad_conflicts || mp_clo_whatif_fuse
          || mp_clo_whatif_fission;
}

void mp_bad_option(const HChar *option, const HChar *value, const HChar *format, ...)
{
   SizeT n = VG_(strlen)(option) + (value ? VG_(strlen)(value) : 0) + 2;
   HChar *arg = VG_(malloc)("mp.clo.bad", n), *why;
   mp_strbuf b = MP_STRBUF_INIT;
   va_list vargs;
   va_start(vargs, format);
   mp_strbuf_vprintf(&b, format, vargs);
   va_end(vargs);
   why = mp_strbuf_take(&b);
   VG_(snprintf)(arg, n, "%s%s%s", option, value ? "=" : "", value ? value : "");
   /* In the parsing mode the core's message is fatal and goes to
      stderr, whatever --log-file says. */
   VG_(set_Clo_Mode)(cloP);
   VG_(fmsg_bad_option)(arg, "%s\n", why);
   VG_(exit)(1);   /* not reached */
}

/* Reads decimal digits at *p; False if none or on overflow. */
static Bool parse_u64(const HChar **p, ULong *v)
{
   const HChar *s = *p;
   ULong x = 0;
   if (*s < '0' || *s > '9')
      return False;
   for (; *s >= '0' && *s <= '9'; s++) {
      UInt d = (UInt)(*s - '0');
      if (x > (~0ULL - d) / 10)
         return False;
      x = x * 10 + d;
   }
   *p = s;
   *v = x;
   return True;
}

void mp_clo_cache_level(UInt k, mp_cache_level_cfg *l)
{
   static const HChar *const opts[3] = { "--L1", "--L2", "--L3" };
   const HChar *spec = mp_clo_level[k], *p = spec;
   ULong size, assoc, line, mult = 1;

   if (VG_(strcmp)(spec, "none") == 0) {
      l->size = 0;
      l->assoc = 0;
      l->line = 0;
      return;
   }
   if (!parse_u64(&p, &size))
      goto bad;
   if (*p == 'k' || *p == 'K') { mult = 1024; p++; }
   else if (*p == 'm' || *p == 'M') { mult = 1024 * 1024; p++; }
   else if (*p == 'g' || *p == 'G') { mult = 1024 * 1024 * 1024; p++; }
   if (size > ~0ULL / mult)
      goto bad;
   size *= mult;
   if (*p != ',')
      goto bad;
   p++;
   if (!parse_u64(&p, &assoc) || *p != ',')
      goto bad;
   p++;
   if (!parse_u64(&p, &line) || *p != 0)
      goto bad;
   if (assoc > 0xffffffffULL || line > 0xffffffffULL)
      goto bad;
   l->size = size;
   l->assoc = (uint32_t)assoc;
   l->line = (uint32_t)line;
   return;

bad:
   mp_bad_option(opts[k], spec, "'%s' is not a cache geometry: expected size,assoc,line "
                 "(e.g. 32k,8,64) or none", spec);
}

/* Options whose value must not be empty: VG_BINT_CLO reads "" as 0. */
static const HChar *const numeric_options[] = {
   "--summary=", "--min-var-size=", "--cores=", "--cores-per-socket=",
   "--L2-shared-by=", "--L3-shared-by=", "--stride-history=", "--stride-threshold=",
   "--page-size=", "--prefetch-streams=", "--what-if-min-gain=", NULL
};

Bool mp_clo_process(const HChar *arg)
{
   const HChar *tmp_str;
   Long tmp_long;
   Int i;

   for (i = 0; numeric_options[i]; i++)
      if (VG_(strcmp)(arg, numeric_options[i]) == 0)
         VG_(fmsg_bad_option)(arg, "expected a number\n");

   if VG_STR_CLO(arg, "--memprof-out-file", mp_clo_out_file) {
      if (mp_clo_out_file[0] == '\0')
         VG_(fmsg_bad_option)(arg, "the file name must not be empty\n");
   }
   else if VG_BINT_CLO(arg, "--summary", mp_clo_summary, 0, 1000000) {}
   else if VG_BOOL_CLO(arg, "--show-runtime", mp_clo_show_runtime) {}
   else if VG_BOOL_CLO(arg, "--output-all", mp_clo_output_all) {}
   else if VG_STR_CLO(arg, "--program-objects", tmp_str) {
      const HChar *why = mp_owner_add_program_objects(tmp_str);
      if (why)
         VG_(fmsg_bad_option)(arg, "%s: expected a comma-separated list of "
                              "file names or absolute paths (wildcards * and ?)\n",
                              why);
   }
   else if VG_BOOL_CLO(arg, "--collect-atstart", mp_clo_collect_atstart) {}
   else if VG_STR_CLO(arg, "--toggle-collect", tmp_str) {
      if (tmp_str[0] == '\0')
         VG_(fmsg_bad_option)(arg, "expected a function name pattern\n");
      if (mp_clo_n_toggle_collect == MP_MAX_TOGGLE_PATTERNS)
         VG_(fmsg_bad_option)(arg, "at most %d --toggle-collect patterns\n",
                              MP_MAX_TOGGLE_PATTERNS);
      mp_clo_toggle_collect[mp_clo_n_toggle_collect++] = tmp_str;
   }
   else if VG_STR_CLO(arg, "--alloc-fn", tmp_str) {
      if (tmp_str[0] == '\0')
         VG_(fmsg_bad_option)(arg, "expected a function name\n");
      if (mp_clo_n_alloc_fns == MP_MAX_ALLOC_FNS)
         VG_(fmsg_bad_option)(arg, "at most %d --alloc-fn functions\n",
                              MP_MAX_ALLOC_FNS);
      mp_clo_alloc_fns[mp_clo_n_alloc_fns++] = tmp_str;
   }
   else if VG_BINT_CLO(arg, "--min-var-size", tmp_long, 0, (Long)1 << 62) {
      mp_clo_min_var_size = (ULong)tmp_long;
   }
   else if VG_BOOL_CLO(arg, "--cache-sim", mp_clo_cache_sim) {}
   else if VG_XACT_CLO(arg, "--miss-causes=sampled", mp_clo_miss_causes_sampled, True) {}
   else if VG_XACT_CLO(arg, "--miss-causes=exact", mp_clo_miss_causes_sampled, False) {}
   else if VG_STR_CLO(arg, "--miss-causes", tmp_str) {
      VG_(fmsg_bad_option)(arg, "expected --miss-causes=sampled or --miss-causes=exact\n");
   }
   else if VG_STR_CLO(arg, "--L1", mp_clo_level[0]) {}
   else if VG_STR_CLO(arg, "--L2", mp_clo_level[1]) {}
   else if VG_STR_CLO(arg, "--L3", mp_clo_level[2]) {}
   else if VG_STR_CLO(arg, "--TLB", mp_clo_tlb) {}
   else if VG_BINT_CLO(arg, "--cores", mp_clo_cores, 1, 1024) {}
   else if VG_BINT_CLO(arg, "--cores-per-socket", mp_clo_cores_per_socket, 1, 1024) {}
   else if VG_BINT_CLO(arg, "--L2-shared-by", mp_clo_L2_shared_by, 1, 1024) {}
   else if VG_BINT_CLO(arg, "--L3-shared-by", mp_clo_L3_shared_by, 1, 1024) {}
   else if VG_STR_CLO(arg, "--latency", tmp_str) {
      const HChar *why = parse_latency(tmp_str);
      if (why)
         VG_(fmsg_bad_option)(arg, "%s\n", why);
   }
   else if VG_STR_CLO(arg, "--thread-map", mp_clo_thread_map_arg) {
      if (!parse_thread_map(mp_clo_thread_map_arg))
         VG_(fmsg_bad_option)(arg, "expected thread:core pairs such as 1:0,2:1 "
                              "(threads numbered from 1 in creation order)\n");
   }
   else if VG_BOOL_CLO(arg, "--reuse", mp_clo_reuse) {}
   else if VG_XACT_CLO(arg, "--analysis-procs=auto", mp_clo_analysis_procs, -1) {}
   else if VG_BOOL_CLO(arg, "--helper-check", mp_clo_helper_check) {}
   else if VG_STR_CLO(arg, "--analysis-procs", tmp_str) {
      const HChar *p = tmp_str;
      ULong n = 0;
      if (!parse_u64(&p, &n) || *p != '\0' || n > 64)
         VG_(fmsg_bad_option)(arg, "expected auto or a number of helper processes, "
                              "0 to 64\n");
      mp_clo_analysis_procs = (Int)n;
   }
   else if VG_BOOL_CLO(arg, "--sharing", mp_clo_sharing) { mp_clo_sharing_given = True; }
   else if VG_BOOL_CLO(arg, "--strides", mp_clo_strides) {}
   else if VG_BOOL_CLO(arg, "--loops", mp_clo_loops) {}
   else if VG_BINT_CLO(arg, "--prefetch-streams", tmp_long, 1, 1000000) {
      mp_clo_prefetch_streams = (UInt)tmp_long;
   }
   else if VG_STR_CLO(arg, "--prefetch", tmp_str) {
      const char *why;
      if (mp_prefetch_parse(tmp_str, &mp_clo_prefetch, &why) != 0)
         VG_(fmsg_bad_option)(arg, "%s\n", why);
   }
   else if VG_BINT_CLO(arg, "--what-if-min-gain", mp_clo_whatif_min_gain, 0, 100) {}
   else if VG_STR_CLO(arg, "--what-if", tmp_str) {
      if (!parse_whatif(tmp_str))
         VG_(fmsg_bad_option)(arg, "expected none, or a list of split, pad, interchange, tile, "
                                  "pad-conflicts\n");
   }
   else if VG_STR_CLO(arg, "--affinity-dot", mp_clo_affinity_dot) {
      if (mp_clo_affinity_dot[0] == '\0')
         VG_(fmsg_bad_option)(arg, "the file name must not be empty\n");
   }
   else if VG_BINT_CLO(arg, "--page-size", tmp_long, 512, (Long)1 << 30) {
      if (tmp_long & (tmp_long - 1))
         VG_(fmsg_bad_option)(arg, "the page size must be a power of two\n");
      mp_clo_page_size = (UInt)tmp_long;
   }
   else if VG_STR_CLO(arg, "--sample", tmp_str) {
      if (!parse_sample(tmp_str))
         VG_(fmsg_bad_option)(arg, "expected detail[:WINDOW[,PERIOD[,FIRST]]] (instructions, "
                              "PERIOD > WINDOW), off, shards[:RATE] (2^-32 <= RATE <= 1), "
                              "bursty[:WINDOW[,MAXGAP]] (accesses), "
                              "periodic[:WINDOW[,PERIOD]] (instructions, PERIOD > "
                              "WINDOW), windows[:WINDOW[,MAXGAP]] (instructions) or "
                              "lines[:RATE[,WINDOW,PERIOD[,FIRST]]] (0 < RATE <= 1, "
                              "or 1/N; the windows as detail's)\n");
      mp_clo_sample_given = True;
   }
   else if VG_BOOL_CLO(arg, "--exact", mp_clo_exact) {}
   else if VG_BINT_CLO(arg, "--stride-history", mp_clo_stride_history, 1, 16) {}
   else if VG_XACT_CLO(arg, "--stride-mode=filtered", mp_clo_stride_filtered, True) {}
   else if VG_XACT_CLO(arg, "--stride-mode=all", mp_clo_stride_filtered, False) {}
   else if VG_STR_CLO(arg, "--stride-mode", tmp_str) {
      VG_(fmsg_bad_option)(arg, "expected --stride-mode=filtered or --stride-mode=all\n");
   }
   else if VG_BINT_CLO(arg, "--stride-threshold", tmp_long, 1, (Long)1 << 40) {
      mp_clo_stride_threshold = (ULong)tmp_long;
   }
   else
      return False;
   return True;
}


void mp_clo_print_usage(void)
{
   VG_(printf)(
"    --memprof-out-file=<file>  JSON output file [memprof.out.%%p]\n"
"                               %%p: pid, %%q{VAR}: value of env var VAR\n"
"    --summary=<n>              variables shown in the exit summary [10];\n"
"                               0 shows none.  Ranked by memory stall\n"
"                               cycles, the cycles beyond an L1 hit (what a\n"
"                               layout can save), then cycles; C++ functions\n"
"                               shown without their parameter lists\n"
"    --show-runtime=no|yes      in the exit summary, rank the variables of the\n"
"                               runtime (the C runtime and the libraries the\n"
"                               system installed), the dynamic linker,\n"
"                               Valgrind's preload and unattributed memory\n"
"                               with the program's, not one line per object,\n"
"                               and keep those above 0.1%% of all cycles in\n"
"                               full in the output file [no]\n"
"    --program-objects=<pats>   objects whose data is the program's, whatever\n"
"                               their place (a library doing the program's\n"
"                               work: libsqlite3*,libpython*); comma-separated\n"
"                               file names, or absolute paths, wildcards * and\n"
"                               ? (may be given several times) [none: the\n"
"                               executable and the shared objects of its build\n"
"                               tree, not those the system installed]\n"
"    --output-all=no|yes        write every variable in full in the output\n"
"                               file; else the variables that are not the\n"
"                               program's are one-line summaries, without\n"
"                               per-line records or analyses [no]\n"
"    --collect-atstart=no|yes   collection on from the start [yes]; else\n"
"                               from MEMPROF_START() (memprof.h)\n"
"    --toggle-collect=<func>    collect only inside functions matching <func>\n"
"                               and their callees (wildcards * and ?; may be\n"
"                               given several times)\n"
"    --alloc-fn=<name>          a function that allocates for its caller: the\n"
"                               heap variable is named at the caller (may be\n"
"                               given several times; wrappers that return the\n"
"                               block are found without it, inlined ones too:\n"
"                               memprof reads the inline information unless\n"
"                               given Valgrind's --read-inline-info=no) [none]\n"
"    --min-var-size=<bytes>     fold variables smaller than this into one\n"
"                               'other' entry [0]\n"
"    --cache-sim=yes|no         simulate the cache hierarchy [yes]\n"
"    --miss-causes=sampled|exact  split capacity from conflict misses of\n"
"                               levels of 16K lines or more on 1/16 of the\n"
"                               lines and estimate the rest, or on all\n"
"                               [sampled]\n"
"    --L1=<size>,<assoc>,<line> simulated L1 data cache (size in bytes, k/m/g\n"
"                               suffixes allowed) [the host's]\n"
"    --L2=<size>,<assoc>,<line>|none  L2 [the host's]\n"
"    --L3=<size>,<assoc>,<line>|none  L3; none: two levels [the host's]\n"
"    --TLB=<entries>,<assoc>,<page>|none  a data TLB per core, e.g.\n"
"                               64,4,4096 [none]\n"
"    --cores=<n>                simulated cores [the host's online CPUs]\n"
"    --cores-per-socket=<n>     cores per socket (NUMA node) [= cores]\n"
"    --L2-shared-by=<n>         cores sharing one L2 [1]\n"
"    --L3-shared-by=<n>         cores sharing one L3 [cores per socket]\n"
"    --prefetch=none|stream|stride[,N]\n"
"                               a hardware prefetcher per core, trained on its\n"
"                               demand misses, filling L2 (L1 when alone):\n"
"                               stream: a stream per 4 KiB page, two lines\n"
"                               ahead; stride: a stride per instruction, one\n"
"                               stride ahead; N streams per core, 1..64\n"
"                               [none; N 16]\n"
"    --latency=L1:4,L2:12,L3:40,mem:200,remote:300\n"
"                               cycles of an access served by each level, for\n"
"                               cycles per access [these]\n"
"    --thread-map=<t>:<c>,...   run thread t (1 = main, then in creation\n"
"                               order) on core c [thread t on core (t-1) mod\n"
"                               cores]\n"
"    --reuse=yes|no             multicore reuse distances per variable [yes]\n"
"    --analysis-procs=auto|<n>  helper processes that run analyses beside the\n"
"                               program, on other cores: 0 runs every\n"
"                               analysis in Valgrind's process; 1 runs the\n"
"                               reuse distances and the cache simulation in\n"
"                               one helper, 2 or more in one each; auto: 2\n"
"                               when this process may use two cores or more\n"
"                               [auto]\n"
"    --sharing=yes|no           false/true sharing and communication between\n"
"                               threads, from the program's second thread on\n"
"                               [yes]\n"
"    --loops=yes|no             loops from the back edges of the code, streams\n"
"                               per loop, structure splitting advice, access\n"
"                               formulas, the loop carrying each far reuse\n"
"                               (blocking advice) [yes]\n"
"    --prefetch-streams=<n>     flag loops with more concurrent strided\n"
"                               streams than this (hardware prefetchers track\n"
"                               about 16) [16]\n"
"    --what-if=split,pad,interchange,tile,pad-conflicts,fuse,fission|...|none\n"
"                               replay the recorded accesses (first 1M per\n"
"                               variable, 4M in all) of a structure under its\n"
"                               suggested split, and of a falsely shared\n"
"                               variable padded per thread, and the loop nest\n"
"                               of a loop-interchange, blocking or\n"
"                               conflict-sets advice (from its access\n"
"                               formulas) interchanged, tiled or with the\n"
"                               array padded, and the adjacent loops of a\n"
"                               loop-fusion advice fused, and the loop of a\n"
"                               too-many-streams advice split, with a stream\n"
"                               prefetcher, through a copy of the cache\n"
"                               hierarchy [split,pad,interchange,tile,\n"
"                               pad-conflicts,fuse,fission]\n"
"    --what-if-min-gain=<pct>   advise a split, a padding, an interchange, a\n"
"                               tiling, a fusion or a fission only if its\n"
"                               replay saves at least this share of the\n"
"                               variable's (the nest's, the loops') cycles;\n"
"                               the others are listed as rejected in the\n"
"                               output file [5]\n"
"    --affinity-dot=<file>      write the field affinity graphs of the\n"
"                               structures found as Graphviz DOT [none]\n"
"    --page-size=<bytes>        NUMA page size; with two or more sockets\n"
"                               (--cores / --cores-per-socket) a page lives on\n"
"                               the socket of the thread that first touches it\n"
"                               [4096]\n"
"    --sample=detail[:W[,P[,F]]]|lines[:R[,W,P[,F]]]|off|shards[:R]|bursty[:W[,G]]|\n"
"             periodic[:W[,P]]|windows[:W[,G]]\n"
"                               detail: the strides and loops see the first F\n"
"                               instructions, then windows of W, one every P\n"
"                               (the loops are followed throughout); every\n"
"                               other count stays exact (100k,1m,10m);\n"
"                               lines: for long runs, a sample of the cache\n"
"                               lines, whole sets of the L1 (R of them, as a\n"
"                               power of two, or 1/N; 1/32), followed by the\n"
"                               caches and the reuse distances from start to\n"
"                               exit; every count an estimate with its 95%%\n"
"                               interval, the accesses exact per instruction;\n"
"                               no sharing analysis; the strides and loops in\n"
"                               detail's windows (100k,10m,0);\n"
"                               off: every analysis at every access;\n"
"                               shards, bursty: sample the reuse-distance\n"
"                               analysis alone: lines with a hash below R\n"
"                               (SHARDS, R=0.01), or windows of W accesses\n"
"                               with Fibonacci gaps up to G (MACPO,\n"
"                               100000,400000); periodic, windows: run every\n"
"                               analysis only in windows of W instructions,\n"
"                               one every P (1m,100m), or with Fibonacci gaps\n"
"                               up to G (1m,50m), the instrumentation dormant\n"
"                               between them (k, m, g suffixes) [detail]\n"
"    --exact=no|yes             every analysis at every access, as\n"
"                               --sample=off [no]\n"
"    --strides=yes|no           stride histograms per variable [yes]\n"
"    --stride-history=<K>       stride histograms per variable and access\n"
"                               kind, against the 1st..K-th previous access\n"
"                               (1..16) [5]\n"
"    --stride-mode=filtered|all only strides >= the threshold in histogram k\n"
"                               enter histogram k+1 (Balle & Steely's second\n"
"                               variant), or every access enters all\n"
"                               [filtered]\n"
"    --stride-threshold=<bytes> threshold of the filtered mode [128]\n"
"    --read-var-info=yes|no     (core option) read the variables' debug\n"
"                               information, which names stack locals\n"
"                               (arrays, structs, scalars) and gives the\n"
"                               declaration file:line of globals: by\n"
"                               default the program's objects' only; yes:\n"
"                               every object's; no: none\n"
"    --num-callers=<n>          (core option) depth of the allocation stack\n"
"                               that identifies a heap variable [12]\n"
   );
}

void mp_clo_print_debug_usage(void)
{
   VG_(printf)(
"    --helper-check=no|yes      with an analysis helper process, run its\n"
"                               analyses in Valgrind's process as well and\n"
"                               compare the two at the end, every count, on\n"
"                               stderr (the tests' proof that the helper\n"
"                               changes nothing) [no]\n"
   );
}

/* The value of the core's option NAME (e.g. "--trace-children") as the
   core read it, or dflt.  The tool headers do not declare the core's
   flags, but every option Valgrind was given is in
   VG_(args_for_valgrind), in the order the core read them (the rc
   files and VALGRIND_OPTS first), already checked by it: the last one
   wins, as in the core. */
static const HChar *core_option(const HChar *name, const HChar *dflt)
{
   const HChar *value = dflt;
   SizeT len = VG_(strlen)(name);
   Word i, n = VG_(sizeXA)(VG_(args_for_valgrind));

   for (i = 0; i < n; i++) {
      const HChar *arg = *(const HChar **)VG_(indexXA)(VG_(args_for_valgrind), i);
      if (VG_(strncmp)(arg, name, len) == 0 && arg[len] == '=')
         value = arg + len + 1;
   }
   return value;
}

Bool mp_clo_trace_children(void)
{
   return VG_STREQ(core_option("--trace-children", "no"), "yes");
}

Bool mp_clo_fair_sched(void)
{
   return !VG_STREQ(core_option("--fair-sched", "no"), "no");
}
