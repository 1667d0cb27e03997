/* SPDX-License-Identifier: GPL-2.0-or-later */
/* names_long: names that are long or hold spaces, quotes and non-ASCII
   characters come out whole (run with --read-var-info=yes).
   - odd_file_global is declared, as far as the debug information
     says, in a file called  my file's "x" €.c  (the #line below), at
     its line 7: its where is that name and line, whole;
   - fill's local array local_name_that_is_quite_long_40_chars_x (40
     characters; Valgrind's stack blocks keep 15) is a variable of that
     whole name, written 64 times and read 64 times;
   - the 300-character global below is walked by columns as in
     advice_colwalk.c (a 4096-byte stride): its advice (loop
     interchange) names it whole in text, evidence and fix,
     in the output file and in memprof_annotate's report. */
#include <stdio.h>

#define N 512

static double matrix_alpha_bravo_charlie_delta_echo_foxtrot_golf_hotel_india_juliet_kilo_lima_mike_november_oscar_papa_quebec_romeo_sierra_tango_uniform_victor_whiskey_xray_yankee_zulu_alpha_bravo_charlie_delta_echo_foxtrot_golf_hotel_india_juliet_kilo_lima_mike_november_oscar_papa_quebec_romeo_sierra_tan_end_300[N][N];

#line 7 "my file's \"x\" \xe2\x82\xac.c"
int odd_file_global[16];
#line 23 "names_long.c"

static int fill(int k)
{
   int local_name_that_is_quite_long_40_chars_x[64];
   int i, s = 0;
   for (i = 0; i < 64; i++)
      local_name_that_is_quite_long_40_chars_x[i] = i * k;
   for (i = 0; i < 64; i++)
      s += local_name_that_is_quite_long_40_chars_x[i];
   return s;
}

int main(void)
{
   double s = 0;
   int i, j;
   for (j = 0; j < N; j++)
      for (i = 0; i < N; i++)
         s += matrix_alpha_bravo_charlie_delta_echo_foxtrot_golf_hotel_india_juliet_kilo_lima_mike_november_oscar_papa_quebec_romeo_sierra_tango_uniform_victor_whiskey_xray_yankee_zulu_alpha_bravo_charlie_delta_echo_foxtrot_golf_hotel_india_juliet_kilo_lima_mike_november_oscar_papa_quebec_romeo_sierra_tan_end_300[i][j];
   for (i = 0; i < 16; i++)
      odd_file_global[i] = fill(i);
   printf("%g %d\n", s, odd_file_global[15]);
   return 0;
}
