/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_owner: the class of an object from its file name
   (each rule with names that must match it and near misses that must
   not), from its place against the program's build tree, from the
   --program-objects patterns, and the C++ string members whose blocks
   go to their caller. */
#include "mp_test.h"
#include <string.h>

#include "mp_owner.h"

static void expect(const char *path, mp_var_class want)
{
   mp_var_class got = mp_class_of_object(path);
   ck_assert_msg(got == want, "%s: %s, expected %s", path ? path : "(null)",
                 mp_class_name(got), mp_class_name(want));
}

START_TEST(test_loader)
{
   expect("/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", MP_CLASS_LOADER);
   expect("/lib64/ld-linux-x86-64.so.2", MP_CLASS_LOADER);
   expect("ld-linux-x86-64.so.2", MP_CLASS_LOADER);
   expect("/lib/ld-musl-x86_64.so.1", MP_CLASS_LOADER);
   expect("/lib/ld-2.31.so", MP_CLASS_LOADER);
   expect("/lib64/ld64.so.1", MP_CLASS_LOADER);
   expect("/etc/ld.so.cache", MP_CLASS_LOADER);
   /* near misses: names that start like the loader's */
   expect("/usr/bin/ld", MP_CLASS_PROGRAM);
   expect("/home/u/libldap-2.5.so.0", MP_CLASS_PROGRAM);
   expect("/home/u/ldpc", MP_CLASS_PROGRAM);
   expect("/home/u/ld64tool", MP_CLASS_PROGRAM);
}
END_TEST

START_TEST(test_preload)
{
   expect("/usr/libexec/valgrind/vgpreload_core-amd64-linux.so", MP_CLASS_PRELOAD);
   expect("/work/.in_place/vgpreload_memprof-amd64-linux.so", MP_CLASS_PRELOAD);
   expect("/home/u/my_vgpreload_test", MP_CLASS_PROGRAM);
}
END_TEST

START_TEST(test_runtime)
{
   static const char *const runtime[] = {
      "/usr/lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/libm.so.6",
      "libpthread.so.0", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30",
      "/lib/x86_64-linux-gnu/libgcc_s.so.1", "/usr/lib/x86_64-linux-gnu/libgfortran.so.5",
      "/usr/lib/x86_64-linux-gnu/libgomp.so.1", "/opt/gcc-13/lib64/libstdc++.so.6",
      "/usr/lib/x86_64-linux-gnu/libnss_files.so.2", "/usr/lib/llvm-14/lib/libc++.so.1",
      "/usr/lib/llvm-14/lib/libc++abi.so.1", "/usr/lib/x86_64-linux-gnu/libasan.so.8",
      "/usr/lib/clang/14/lib/linux/libclang_rt.asan-x86_64.so",
      "/lib/libc.musl-x86_64.so.1", "libc.so", "linux-vdso.so.1",
      "/usr/lib/locale/locale-archive",
      "/usr/lib/x86_64-linux-gnu/gconv/gconv-modules.cache",
      "/usr/lib/x86_64-linux-gnu/gconv/UTF-16.so",
      NULL
   };
   int i;
   for (i = 0; runtime[i]; i++)
      expect(runtime[i], MP_CLASS_RUNTIME);
}
END_TEST

START_TEST(test_program)
{
   /* no build tree known: only the system's library directories tell */
   static const char *const program[] = {
      "/tmp/run/smooth", "./a.out", "/usr/bin/python3.11", "/usr/bin/sqlite3",
      "/home/u/libcache.so", "/home/u/libmylib.so", "/home/u/libcx.so.1",
      "/home/u/libc_helpers.so", "/home/u/libmath.so", "/home/u/libc", "/home/u/data.bin",
      "libsqlite3.so.0", "/usr/library/libx.so", "/usr/libexec/x/helper",
      NULL
   };
   int i;
   for (i = 0; program[i]; i++)
      expect(program[i], MP_CLASS_PROGRAM);
   expect(NULL, MP_CLASS_PROGRAM);
   ck_assert(mp_owner_tree() == NULL);
}
END_TEST

START_TEST(test_system_libraries)
{
   static const char *const system[] = {
      "/usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6",
      "/usr/lib/x86_64-linux-gnu/openmpi/lib/libmpi.so.40.30.4",
      "/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_btl_vader.so",
      "/lib/x86_64-linux-gnu/libhwloc.so.15", "/usr/lib64/libz.so.1",
      "/usr/local/lib/libmpi.so.40", "/usr/lib/python3/dist-packages/numpy/core/_m.so",
      "/usr/lib/x86_64-linux-gnu/libhwloc/hwloc_cuda.so",
      NULL
   };
   int i;
   for (i = 0; system[i]; i++)
      expect(system[i], MP_CLASS_RUNTIME);
}
END_TEST

START_TEST(test_build_tree)
{
   /* relative parts resolved; the tree is the executable's directory */
   mp_owner_set_program("/home/u/proj/./build/../build/smooth");
   ck_assert_str_eq(mp_owner_tree(), "/home/u/proj/build/");
   expect("/home/u/proj/build/smooth", MP_CLASS_PROGRAM);
   expect("/home/u/proj/build/libcache.so", MP_CLASS_PROGRAM);
   expect("/home/u/proj/build/sub/.libs/libx.so.1", MP_CLASS_PROGRAM);
   expect("/home/u/proj/build/data.bin", MP_CLASS_PROGRAM);
   /* a shared object outside it: installed, by the system or by hand */
   expect("/home/u/proj/libother.so", MP_CLASS_RUNTIME);
   expect("/opt/openmpi/lib/libmpi.so.40", MP_CLASS_RUNTIME);
   expect("/home/u/proj/build2/libx.so", MP_CLASS_RUNTIME);
   /* a file that is no shared object: the program's, as before */
   expect("/home/u/input.dat", MP_CLASS_PROGRAM);
   expect("/dev/shm/vader_segment.0", MP_CLASS_PROGRAM);
   /* the C library's and the loader's by their names, wherever */
   expect("/home/u/proj/build/libstdc++.so.6", MP_CLASS_RUNTIME);
   expect("/home/u/proj/build/ld-linux-x86-64.so.2", MP_CLASS_LOADER);
   /* a bare file name tells no place */
   expect("libother.so", MP_CLASS_PROGRAM);

   /* bin/ and lib/ of one build or prefix */
   mp_owner_set_program("/home/u/p/build/bin/app");
   ck_assert_str_eq(mp_owner_tree(), "/home/u/p/build/");
   expect("/home/u/p/build/lib/libcore.so.1", MP_CLASS_PROGRAM);
   expect("/home/u/p/build/bin/app", MP_CLASS_PROGRAM);

   /* a system program: its directory, not /usr */
   mp_owner_set_program("/usr/bin/sqlite3");
   ck_assert_str_eq(mp_owner_tree(), "/usr/bin/");
   expect("/usr/bin/sqlite3", MP_CLASS_PROGRAM);
   expect("/usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6", MP_CLASS_RUNTIME);
   expect("/usr/lib/x86_64-linux-gnu/libreadline.so.8", MP_CLASS_RUNTIME);

   /* a program installed under a library directory keeps its tree */
   mp_owner_set_program("/usr/lib/postgresql/15/bin/postgres");
   ck_assert_str_eq(mp_owner_tree(), "/usr/lib/postgresql/15/");
   expect("/usr/lib/postgresql/15/bin/postgres", MP_CLASS_PROGRAM);
   expect("/usr/lib/postgresql/15/lib/plpgsql.so", MP_CLASS_PROGRAM);
   expect("/usr/lib/x86_64-linux-gnu/libssl.so.3", MP_CLASS_RUNTIME);

   mp_owner_set_program("/halo");
   ck_assert_str_eq(mp_owner_tree(), "/");
}
END_TEST

START_TEST(test_program_objects)
{
   int n;
   mp_owner_set_program("/home/u/proj/smooth");
   ck_assert(mp_owner_add_program_objects("libsqlite3*,/opt/x/*") == NULL);
   ck_assert(mp_owner_add_program_objects("libc.so.?,ld-*,vgpreload_*") == NULL);
   ck_assert_int_eq((mp_owner_patterns(&n), n), 5);
   ck_assert_str_eq(mp_owner_patterns(&n)[1], "/opt/x/*");
   expect("/usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6", MP_CLASS_PROGRAM);
   expect("libsqlite3.so.0", MP_CLASS_PROGRAM);
   expect("/opt/x/lib/sub/libx.so", MP_CLASS_PROGRAM);
   expect("/opt/y/lib/libx.so", MP_CLASS_RUNTIME);
   expect("/usr/lib/x86_64-linux-gnu/libc.so.6", MP_CLASS_PROGRAM);
   expect("/usr/lib/x86_64-linux-gnu/libc.so.66", MP_CLASS_RUNTIME);
   /* never the dynamic linker's nor Valgrind's */
   expect("/lib64/ld-linux-x86-64.so.2", MP_CLASS_LOADER);
   expect("/usr/libexec/valgrind/vgpreload_core-amd64-linux.so", MP_CLASS_PRELOAD);
   /* a bad list adds nothing */
   ck_assert(mp_owner_add_program_objects("") != NULL);
   ck_assert(mp_owner_add_program_objects("a,,b") != NULL);
   ck_assert(mp_owner_add_program_objects("a,") != NULL);
   ck_assert(mp_owner_add_program_objects(",a") != NULL);
   ck_assert(mp_owner_add_program_objects("libz*,lib/libx.so") != NULL);
   ck_assert_int_eq((mp_owner_patterns(&n), n), 5);
   expect("/usr/lib/libz.so.1", MP_CLASS_RUNTIME);
   ck_assert(mp_owner_add_program_objects("*/lib/libz.so*") == NULL);
   expect("/usr/lib/libz.so.1", MP_CLASS_PROGRAM);
}
END_TEST

START_TEST(test_by_place)
{
   ck_assert(mp_class_by_place("libopen-pal.so.40.30.2"));
   ck_assert(mp_class_by_place("libsqlite3.so.0.8.6"));
   ck_assert(!mp_class_by_place("libc.so.6"));
   ck_assert(!mp_class_by_place("libstdc++.so.6.0.30"));
   ck_assert(!mp_class_by_place("locale-archive"));
}
END_TEST

START_TEST(test_base_and_names)
{
   ck_assert_str_eq(mp_object_base("/usr/lib/x86_64-linux-gnu/libc.so.6"), "libc.so.6");
   ck_assert_str_eq(mp_object_base("smooth"), "smooth");
   ck_assert_str_eq(mp_class_name(MP_CLASS_PROGRAM), "program");
   ck_assert_str_eq(mp_class_name(MP_CLASS_RUNTIME), "runtime");
   ck_assert_str_eq(mp_class_name(MP_CLASS_LOADER), "loader");
   ck_assert_str_eq(mp_class_name(MP_CLASS_PRELOAD), "preload");
   ck_assert_str_eq(mp_class_name(MP_CLASS_OTHER), "other");
   ck_assert(mp_class_is_programs(MP_CLASS_PROGRAM));
   ck_assert(!mp_class_is_programs(MP_CLASS_RUNTIME));
   ck_assert(!mp_class_is_programs(MP_CLASS_OTHER));
}
END_TEST

START_TEST(test_builds_for_caller)
{
   ck_assert(mp_class_builds_for_caller(
      "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >"
      "::_M_construct(unsigned long, char)"));
   ck_assert(mp_class_builds_for_caller(
      "std::basic_string<wchar_t, std::char_traits<wchar_t>, std::allocator<wchar_t> >"
      "::reserve(unsigned long)"));
   ck_assert(mp_class_builds_for_caller("std::__1::basic_string<char>::__grow_by(int)"));
   /* the runtime's own state: not passed on */
   ck_assert(!mp_class_builds_for_caller("std::locale::_Impl::_Impl(unsigned long)"));
   ck_assert(!mp_class_builds_for_caller(
      "std::__cxx11::basic_stringbuf<char>::overflow(int)"));
   ck_assert(!mp_class_builds_for_caller("_IO_file_doallocate"));
   ck_assert(!mp_class_builds_for_caller(NULL));
}
END_TEST

/* Where the system installs objects, whatever their class: a library
   directory or a system bin directory, not a directory beside one. */
START_TEST(test_installed_by_system)
{
   ck_assert(mp_object_installed_by_system("/usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6"));
   ck_assert(mp_object_installed_by_system("/lib/x86_64-linux-gnu/libc.so.6"));
   ck_assert(mp_object_installed_by_system("/usr/bin/sqlite3"));
   ck_assert(mp_object_installed_by_system("/usr/local/lib/libmpi.so.40"));
   ck_assert(!mp_object_installed_by_system("/home/u/build/bin/prog"));
   ck_assert(!mp_object_installed_by_system("/usr/binx/prog"));
   ck_assert(!mp_object_installed_by_system("/usr/bin/sub/prog"));
   ck_assert(!mp_object_installed_by_system("prog"));
}
END_TEST

int main(void)
{
   Suite *s = suite_create("owner");
   TCase *tc = tcase_create("core");
   tcase_add_checked_fixture(tc, mp_owner_reset, mp_owner_reset);
   tcase_add_test(tc, test_loader);
   tcase_add_test(tc, test_preload);
   tcase_add_test(tc, test_runtime);
   tcase_add_test(tc, test_program);
   tcase_add_test(tc, test_system_libraries);
   tcase_add_test(tc, test_build_tree);
   tcase_add_test(tc, test_program_objects);
   tcase_add_test(tc, test_by_place);
   tcase_add_test(tc, test_base_and_names);
   tcase_add_test(tc, test_builds_for_caller);
   tcase_add_test(tc, test_installed_by_system);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
