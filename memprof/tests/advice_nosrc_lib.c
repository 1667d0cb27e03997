/* SPDX-License-Identifier: GPL-2.0-or-later */
/* advice_nosrc's library part, built without debug information (-g0). */
long sweep_nodebug(int *a, int n, int times)
{
   long s = 0;
   int i, t;
   for (i = 0; i < n; i++)
      a[i] = i;
   for (t = 0; t < times; t++)
      for (i = 0; i < n; i++)
         s += a[i];
   return s;
}
