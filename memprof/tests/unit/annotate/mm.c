/* mm.c -- naive and blocked matrix multiply: the source of the
   mm_naive.json and mm_blocked.json fixtures (hand-made, not a run). */
#include <stdlib.h>
#include <string.h>

#define N 128
#define B 32

static void mm_naive(const double *a, const double *b, double *c)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			double sum = 0;
			for (int k = 0; k < N; k++)
				sum += a[i * N + k] * b[k * N + j];
			c[i * N + j] = sum;
		}
}

static void mm_blocked(const double *a, const double *b, double *c)
{
	double *packed = malloc(B * B * sizeof *packed);

	for (int kk = 0; kk < N; kk += B)
		for (int jj = 0; jj < N; jj += B) {
			for (int k = 0; k < B; k++)	/* a tile of b, contiguous */
				memcpy(&packed[k * B], &b[(kk + k) * N + jj], B * sizeof *b);
			for (int i = 0; i < N; i++)
				for (int k = 0; k < B; k++) {
					double aik = a[i * N + kk + k];
					for (int j = 0; j < B; j++)
						c[i * N + jj + j] += aik * packed[k * B + j];
				}
		}
	free(packed);
}

int main(int argc, char **argv)
{
	double *a = malloc(N * N * sizeof *a);
	double *b = malloc(N * N * sizeof *b);
	double *c = calloc(N * N, sizeof *c);

	for (int i = 0; i < N * N; i++) {
		a[i] = i % 7;
		b[i] = i % 5;
	}
	if (argc > 1 && strcmp(argv[1], "blocked") == 0)
		mm_blocked(a, b, c);
	else
		mm_naive(a, b, c);
	return c[N + 1] > 0 ? 0 : 1;
}
