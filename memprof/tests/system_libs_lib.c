/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shared library of system_libs, built beside the program: its
   table is the program's data. */
int own_table[64];

int own_lib_sum(int n)
{
   int i, s = 0;
   for (i = 0; i < n; i++)
      own_table[i] = i;
   for (i = 0; i < n; i++)
      s += own_table[i];
   return s;
}
