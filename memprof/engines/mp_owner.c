/*--------------------------------------------------------------------*/
/*--- memprof: whose code owns a variable.              mp_owner.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The class of an object goes by its file name, whatever its
   directory: a libstdc++ built with the program's own compiler under
   /opt is the C++ runtime too, and a directory tells nothing about a
   library the program links (Debian puts libsqlite3 beside libc).  The
   names are those of the libraries that come with the C library and
   with the compilers, which a program uses but does not write: their
   layouts are not the program's to change.
*/
#include "mp_owner.h"

static const char *const class_names[MP_CLASS_N] = {
   "program", "runtime", "loader", "preload", "other"
};

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
   /* The C library's locale data and character-set converters, which
      it maps itself (locale-archive, gconv-modules.cache). */
   if (is_runtime_stem(base, n) || mp_strstr(path, "/locale/")
       || mp_strstr(path, "/gconv/"))
      return MP_CLASS_RUNTIME;
   return MP_CLASS_PROGRAM;
}

int mp_class_builds_for_caller(const char *fn)
{
   /* libstdc++'s two ABIs, and libc++'s */
   return fn && (starts_with(fn, "std::__cxx11::basic_string<")
                 || starts_with(fn, "std::basic_string<")
                 || starts_with(fn, "std::__1::basic_string<"));
}
