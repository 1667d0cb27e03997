/* SPDX-License-Identifier: GPL-2.0-or-later
 *
 * An MPI program with a known load imbalance, for memprof's per-rank
 * view (run.py): every rank sweeps the global array grid, rank 1 four
 * times as often as the others, then sums it once for the checksum.
 *
 * Per rank, grid's bytes: a sweep reads and writes each of its N
 * doubles (8N read, 8N written), the sum reads them (8N).  Rank 0, one
 * sweep: 24N bytes; rank 1, four sweeps: 4 * 16N + 8N = 72N.  Over the
 * two ranks: min 24N, mean 48N, max 72N at rank 1, max/mean 1.50.
 * Bytes, not accesses: a vectorising compiler changes the number of
 * accesses, not the bytes they move. */

#include <mpi.h>
#include <stdio.h>

#define N 4096
#define SWEEPS 1
#define HEAVY_RANK 1
#define HEAVY_FACTOR 4

double grid[N];

static void sweep(void)
{
   for (int i = 0; i < N; i++)
      grid[i] = grid[i] * 0.5 + 1.0;
}

int main(int argc, char **argv)
{
   int rank;
   double sum = 0.0, all = 0.0;

   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   int sweeps = rank == HEAVY_RANK ? SWEEPS * HEAVY_FACTOR : SWEEPS;
   for (int s = 0; s < sweeps; s++)
      sweep();
   for (int i = 0; i < N; i++)
      sum += grid[i];
   MPI_Allreduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
   if (rank == 0)
      printf("checksum %.1f\n", all);
   MPI_Finalize();
   return 0;
}
