/* particles.c: the source of the loops*.json fixtures (memprof runs of
   gcc -O0 -g builds, trimmed): a structure to split, a loop of 18 streams.
   -DOPT (loops_opt.json): the structure split and the loop split in two. */
#include <stdio.h>

#define N 2048
#define A 18

static double grid[A][N];
#ifndef OPT
struct particle { double x, y, vx, vy; };
static struct particle parts[N];
#define X(i) parts[i].x
#define Y(i) parts[i].y
#define VX(i) parts[i].vx
#define VY(i) parts[i].vy
#else
struct pos { double x, y; } pos[N];
struct vel { double vx, vy; } vel[N];
#define X(i) pos[i].x
#define Y(i) pos[i].y
#define VX(i) vel[i].vx
#define VY(i) vel[i].vy
#endif

int main(void)
{
   double e = 0, c = 0, s = 0;
   int i, r;
   for (r = 0; r < 8; r++)
      for (i = 0; i < N; i++)
         c += X(i) * Y(i);                      /* positions */
   for (r = 0; r < 2; r++)
      for (i = 0; i < N; i++)
         e += VX(i) * VX(i) + VY(i) * VY(i);    /* velocities */
   for (r = 0; r < 3; r++) {
#ifndef OPT
      for (i = 0; i < N; i++)
         s += grid[0][i] + grid[1][i] + grid[2][i] + grid[3][i] + grid[4][i]
            + grid[5][i] + grid[6][i] + grid[7][i] + grid[8][i] + grid[9][i]
            + grid[10][i] + grid[11][i] + grid[12][i] + grid[13][i]
            + grid[14][i] + grid[15][i] + grid[16][i] + grid[17][i];
#else
      for (i = 0; i < N; i++)
         s += grid[0][i] + grid[1][i] + grid[2][i] + grid[3][i] + grid[4][i]
            + grid[5][i] + grid[6][i] + grid[7][i] + grid[8][i];
      for (i = 0; i < N; i++)
         s += grid[9][i] + grid[10][i] + grid[11][i] + grid[12][i] + grid[13][i]
            + grid[14][i] + grid[15][i] + grid[16][i] + grid[17][i];
#endif
   }
   printf("%g %g %g\n", c, e, s);
   return 0;
}
