/* SPDX-License-Identifier: GPL-2.0-or-later

   opt_client: the client of the command-line option tests (opt_*.vgtest).
   It prints "client ran"; with a bad memprof option Valgrind must exit
   with status 1 before the client starts, so the tests expect an empty
   client output (their stdout.exp holds only the "exit=N" line the
   .vgtest adds) and no output file.
*/
#include <stdio.h>

int main(void)
{
   printf("client ran\n");
   return 0;
}
