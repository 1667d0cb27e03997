/* SPDX-License-Identifier: GPL-2.0-or-later

   client_exit: memprof leaves the client's stdout and exit status alone.
   The program prints three lines and exits with status 7 through exit();
   client_exit.vgtest prints "exit=$?" after the run (its args line is
   shell text), so stdout.exp is the three lines then "exit=7".
   The output file is still written: exit_code_seen (int) is written at
   line 21 and read at line 22 (the argument of exit): writes 1, reads 1,
   4 bytes each, size 4.
*/
#include <stdio.h>
#include <stdlib.h>

int exit_code_seen;

int main(void)
{
   printf("first line\n");
   printf("second line\n");
   printf("third line\n");
   exit_code_seen = 7;
   exit(exit_code_seen);
}
