/* SPDX-License-Identifier: GPL-2.0-or-later

   out_file: the output file name's %q{VAR} is replaced by the value of
   the environment variable VAR (out_file.vgtest sets MP_TEST_TAG=abc and
   --memprof-out-file=memprof.out.%q{MP_TEST_TAG}.json): the file is
   memprof.out.abc.json, and it is a complete memprof document.

   tagged (char[32], 64-byte aligned so it sits in one line): written
   once per element at line 22: writes 32, write_bytes 32, reads 0,
   size 32, lines 1.  The command recorded is the client's: ./out_file
   with its argument.
*/
#include <stdio.h>

char tagged[32] __attribute__((aligned(64)));

int main(int argc, char **argv)
{
   int i;

   for (i = 0; i < 32; i++)
      tagged[i] = 't';
   printf("%s\n", argc > 1 ? argv[1] : "");
   return 0;
}
