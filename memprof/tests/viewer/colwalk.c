/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The program of real_colwalk.json: gcc -g -O1, run with the defaults
   (L1 32 KiB 8-way, L2 1 MiB 8-way, L3 32 MiB 16-way, 64 B lines). */
#include <stdio.h>
#include <stdlib.h>
#define N 512
double a[N][N], b[N][N];
int main(void) {
    double *colsum = malloc(N * sizeof(double));
    for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) { a[i][j] = i + j; b[i][j] = i - j; }
    for (int rep = 0; rep < 2; rep++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int i = 0; i < N; i++) s += a[i][j] * b[i][j];   /* column walk: 4 KiB stride */
            colsum[j] = s;
        }
    double t = 0;
    for (int j = 0; j < N; j++) t += colsum[j];
    printf("%g\n", t);
    return 0;
}
