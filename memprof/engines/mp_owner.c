/*--------------------------------------------------------------------*/
/*--- memprof: whose code owns a variable.              mp_owner.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The class of an object goes first by its file name, whatever its
   directory: a libstdc++ built with the program's own compiler under
   /opt is the C++ runtime too.  The names are those of the libraries
   that come with the C library and with the compilers, which a program
   uses but does not write: their layouts are not the program's to
   change.  Then by its place: a library the system installed (MPI,
   hwloc, libsqlite3 beside libc under /usr/lib) is as little the
   program's to change, and its data, tens of thousands of variables
   in an MPI run, would bury the program's.  What the user built lies
   in the program's build tree, the executable's directory (its parent
   when the executable is in a bin directory of its own, as in the
   bin/ and lib/ of a build or an install prefix): a shared object
   outside it, or any file under the system's library directories, is
   the runtime's.  --program-objects names the objects that are the
   program's whatever their place or name (a library doing the
   program's work: libsqlite3 under the sqlite3 shell).
*/
#include "mp_owner.h"

static const char *const class_names[MP_CLASS_N] = {
   "program", "runtime", "loader", "preload", "other"
};

/* The rule of the run: set by the adapter before the client runs,
   read wherever a variable or a loop is given its class. */
static char *tree;          /* ends with '/'; NULL: not known */
static char *exe;
static char **patterns;
static int n_patterns;

const char *mp_class_name(mp_var_class c)
{
   mp_assert(c < MP_CLASS_N);
   return class_names[c];
}

/* The libraries of the C runtime, by their name up to ".so": glibc's
   (and musl's, whose C library is one object), GCC's and LLVM's
   language runtimes and sanitizers, and the kernel's vDSO. */
static const char *const runtime_stems[] = {
   "libc", "libm", "libmvec", "libpthread", "libdl", "librt", "libutil",
   "libresolv", "libnsl", "libanl", "libBrokenLocale", "libthread_db",
   "libcrypt", "libc_malloc_debug", "libmemusage", "libpcprofile",
   "libSegFault",
   "libgcc_s", "libstdc++", "libgfortran", "libquadmath", "libgomp",
   "libatomic", "libitm", "libobjc", "libgphobos", "libgdruntime", "libgo",
   "libasan", "libtsan", "liblsan", "libubsan", "libhwasan",
   "libc++", "libc++abi", "libunwind", "libomp",
   "linux-vdso",
   NULL
};

/* ... and the families named by a prefix: glibc's name-service
   modules, LLVM's compiler-rt, musl's C library. */
static const char *const runtime_prefixes[] = {
   "libnss_", "libclang_rt.", "libc.musl", NULL
};

static int starts_with(const char *s, const char *prefix)
{
   return mp_strncmp(s, prefix, mp_strlen(prefix)) == 0;
}

const char *mp_object_base(const char *path)
{
   const char *base = path, *p;
   for (p = path; *p; p++)
      if (*p == '/')
         base = p + 1;
   return base;
}

/* The length of base's name up to ".so" (followed by its end or a
   version: "libc.so.6", "libstdc++.so.6.0.30"), or -1 when it is no
   shared object's name (an executable, a data file). */
static long stem_length(const char *base)
{
   long i;
   for (i = 0; base[i]; i++)
      if (base[i] == '.' && base[i + 1] == 's' && base[i + 2] == 'o'
          && (base[i + 3] == '\0' || base[i + 3] == '.'))
         return i;
   return -1;
}

static int is_runtime_stem(const char *base, long n)
{
   int i;
   if (n < 0)
      return mp_strcmp(base, "[vdso]") == 0;
   for (i = 0; runtime_stems[i]; i++)
      if ((long)mp_strlen(runtime_stems[i]) == n && mp_strncmp(base, runtime_stems[i], n) == 0)
         return 1;
   for (i = 0; runtime_prefixes[i]; i++)
      if (starts_with(base, runtime_prefixes[i]))
         return 1;
   return 0;
}

/*------------------------------------------------------------*/
/*--- The program's objects by place and by pattern        ---*/
/*------------------------------------------------------------*/

/* Where the system installs libraries (and the files they map): the
   loader's default directories, the multiarch ones below them, and
   /usr/local/lib, where a library built from source is installed for
   every program (an MPI, say). */
static const char *const system_lib_dirs[] = {
   "/lib/", "/lib32/", "/lib64/", "/libx32/",
   "/usr/lib/", "/usr/lib32/", "/usr/lib64/", "/usr/libx32/",
   "/usr/local/lib/", "/usr/local/lib64/", NULL
};

/* The system's directories of programs: a program there has no build
   tree beside it. */
static const char *const system_bin_dirs[] = {
   "/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin",
   "/usr/local/sbin", NULL
};

static int in_system_lib_dir(const char *path)
{
   int i;
   for (i = 0; system_lib_dirs[i]; i++)
      if (starts_with(path, system_lib_dirs[i]))
         return 1;
   return 0;
}

static int in_list(const char *s, const char *const *list)
{
   int i;
   for (i = 0; list[i]; i++)
      if (mp_strcmp(s, list[i]) == 0)
         return 1;
   return 0;
}

/* path made absolute against nothing: "." and empty components
   dropped, ".." taking one back; always begins with '/'. */
static char *normalised(const char *path)
{
   long n = mp_strlen(path), k = 0, i = 0;
   char *out = mp_malloc("mp.owner.norm", n + 2);
   while (i < n) {
      long j = i;
      while (j < n && path[j] != '/')
         j++;
      if (j - i == 2 && path[i] == '.' && path[i + 1] == '.') {
         while (k > 0 && out[k - 1] != '/')
            k--;
         if (k > 0)
            k--;
      } else if (j - i > 0 && !(j - i == 1 && path[i] == '.')) {
         out[k++] = '/';
         mp_memcpy(out + k, path + i, j - i);
         k += j - i;
      }
      i = j + 1;
   }
   if (k == 0)
      out[k++] = '/';
   out[k] = '\0';
   return out;
}

void mp_owner_set_program(const char *path)
{
   char *dir;
   long k;
   if (tree)
      mp_free(tree);
   if (exe)
      mp_free(exe);
   exe = normalised(path);
   dir = mp_strdup("mp.owner.dir", exe);
   for (k = mp_strlen(dir); k > 0 && dir[k - 1] != '/'; k--)
      ;
   dir[k > 1 ? k - 1 : 1] = '\0';
   /* build/bin/prog beside build/lib/libcore.so */
   if (mp_strcmp(mp_object_base(dir), "bin") == 0 && !in_list(dir, system_bin_dirs)) {
      for (k = mp_strlen(dir); k > 0 && dir[k - 1] != '/'; k--)
         ;
      dir[k > 1 ? k - 1 : 1] = '\0';
   }
   k = mp_strlen(dir);
   tree = mp_malloc("mp.owner.tree", k + 2);
   mp_memcpy(tree, dir, k);
   if (k == 0 || dir[k - 1] != '/')
      tree[k++] = '/';
   tree[k] = '\0';
   mp_free(dir);
}

const char *mp_owner_tree(void) { return tree; }

const char *const *mp_owner_patterns(int *n)
{
   *n = n_patterns;
   return (const char *const *)patterns;
}

/* Whether s matches the glob pattern p ('*' any run, '?' one
   character), both ending at their terminator. */
static int glob_match(const char *p, long np, const char *s)
{
   if (np == 0)
      return *s == '\0';
   if (*p == '*') {
      for (;;) {
         if (glob_match(p + 1, np - 1, s))
            return 1;
         if (*s == '\0')
            return 0;
         s++;
      }
   }
   if (*s == '\0' || (*p != '?' && *p != *s))
      return 0;
   return glob_match(p + 1, np - 1, s + 1);
}

static int has_slash(const char *s, long n)
{
   long i;
   for (i = 0; i < n; i++)
      if (s[i] == '/')
         return 1;
   return 0;
}

/* What is wrong with the pattern s[0..n), or NULL. */
static const char *bad_pattern(const char *s, long n)
{
   if (n == 0)
      return "an empty pattern (two commas, or one at an end)";
   if (has_slash(s, n) && s[0] != '/' && s[0] != '*')
      return "a pattern with a directory must be an absolute path "
             "(or begin with '*')";
   return NULL;
}

const char *mp_owner_add_program_objects(const char *list)
{
   long i = 0, j, n = mp_strlen(list);
   const char *why;
   for (;;) {   /* all checked before any is added */
      for (j = i; j < n && list[j] != ','; j++)
         ;
      if ((why = bad_pattern(list + i, j - i)))
         return why;
      if (j == n)
         break;
      i = j + 1;
   }
   for (i = 0; i <= n; i = j + 1) {
      for (j = i; j < n && list[j] != ','; j++)
         ;
      patterns = mp_realloc("mp.owner.pats", patterns,
                            (n_patterns + 1) * sizeof *patterns);
      patterns[n_patterns] = mp_malloc("mp.owner.pat", j - i + 1);
      mp_memcpy(patterns[n_patterns], list + i, j - i);
      patterns[n_patterns++][j - i] = '\0';
   }
   return NULL;
}

void mp_owner_reset(void)
{
   int i;
   for (i = 0; i < n_patterns; i++)
      mp_free(patterns[i]);
   if (patterns)
      mp_free(patterns);
   patterns = NULL;
   n_patterns = 0;
   if (tree)
      mp_free(tree);
   if (exe)
      mp_free(exe);
   tree = exe = NULL;
}

static int named_by_pattern(const char *path)
{
   int i;
   for (i = 0; i < n_patterns; i++) {
      const char *p = patterns[i];
      long np = mp_strlen(p);
      if (glob_match(p, np, has_slash(p, np) ? path : mp_object_base(path)))
         return 1;
   }
   return 0;
}

/* Whether the object at path, a full path, is the system's by its
   place: under the system's library directories (but in a build tree
   that lies there itself: /usr/lib/postgresql/15/bin/postgres and its
   lib/), or a shared object outside the program's build tree. */
static int systems_by_place(const char *path, long stem)
{
   int in_tree;
   if (path[0] != '/')
      return 0;
   if (exe && mp_strcmp(path, exe) == 0)
      return 0;
   in_tree = tree && starts_with(path, tree);
   if (in_system_lib_dir(path))
      return !(in_tree && in_system_lib_dir(tree));
   return stem >= 0 && tree && !in_tree;
}

mp_var_class mp_class_of_object(const char *path)
{
   const char *base;
   long n;
   if (path == NULL)
      return MP_CLASS_PROGRAM;
   base = mp_object_base(path);
   n = stem_length(base);
   /* ld-linux-x86-64.so.2, ld-musl-x86_64.so.1, ld-2.31.so, ld64.so.1,
      and the loader's own cache, /etc/ld.so.cache */
   if ((n > 0 && starts_with(base, "ld-")) || starts_with(base, "ld.so")
       || starts_with(base, "ld64.so"))
      return MP_CLASS_LOADER;
   if (starts_with(base, "vgpreload_"))
      return MP_CLASS_PRELOAD;
   if (named_by_pattern(path))
      return MP_CLASS_PROGRAM;
   /* The C library's locale data and character-set converters, which
      it maps itself (locale-archive, gconv-modules.cache). */
   if (is_runtime_stem(base, n) || mp_strstr(path, "/locale/")
       || mp_strstr(path, "/gconv/"))
      return MP_CLASS_RUNTIME;
   if (systems_by_place(path, n))
      return MP_CLASS_RUNTIME;
   return MP_CLASS_PROGRAM;
}

int mp_object_installed_by_system(const char *path)
{
   const char *base = mp_object_base(path);
   char dir[256];
   long n = base - path;
   if (in_system_lib_dir(path))
      return 1;
   if (n < 2 || n > (long)sizeof dir)
      return 0;
   mp_memcpy(dir, path, n - 1);   /* without the '/' before the name */
   dir[n - 1] = '\0';
   return in_list(dir, system_bin_dirs);
}

int mp_class_by_place(const char *object)
{
   const char *base = mp_object_base(object);
   return !is_runtime_stem(base, stem_length(base)) && !mp_strstr(object, "/locale/")
          && !mp_strstr(object, "/gconv/") && mp_strcmp(base, "locale-archive") != 0
          && mp_strcmp(base, "gconv-modules.cache") != 0;
}

int mp_class_builds_for_caller(const char *fn)
{
   /* libstdc++'s two ABIs, and libc++'s */
   return fn && (starts_with(fn, "std::__cxx11::basic_string<")
                 || starts_with(fn, "std::basic_string<")
                 || starts_with(fn, "std::__1::basic_string<"));
}
