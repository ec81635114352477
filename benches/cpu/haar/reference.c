/* One level of the forward 2-D Haar transform (unnormalised) of a 2048x2048x3 float
 * image: horizontal pass into a temporary, then vertical pass.
 * C/OpenMP reference for benches/cpu/haar/kernel.q. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define M 2048
#define N 2048
#define C 3
#define REPS 7
#define AT(a, i, j, c) a[((long)(i) * N + (j)) * C + (c)]

static void haar_level(const float *x, float *t, float *y) {
#pragma omp parallel for
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N / 2; j++)
            for (long c = 0; c < C; c++) {
                float a = AT(x, i, 2 * j, c), b = AT(x, i, 2 * j + 1, c);
                AT(t, i, j, c) = 0.5f * (a + b);
                AT(t, i, j + N / 2, c) = a - b;
            }
#pragma omp parallel for
    for (long i = 0; i < M / 2; i++)
        for (long j = 0; j < N; j++)
            for (long c = 0; c < C; c++) {
                float a = AT(t, 2 * i, j, c), b = AT(t, 2 * i + 1, j, c);
                AT(y, i, j, c) = 0.5f * (a + b);
                AT(y, i + M / 2, j, c) = a - b;
            }
}

int main(void) {
    float *x = malloc(sizeof(float) * M * N * C);
    float *t = malloc(sizeof(float) * M * N * C);
    float *y = malloc(sizeof(float) * M * N * C);
    if (!x || !t || !y) { fprintf(stderr, "out of memory\n"); return 1; }
#pragma omp parallel for
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N; j++)
            for (long c = 0; c < C; c++)
                AT(x, i, j, c) = (float)((i * 37 + j * 11 + c * 71 + i * j) % 256);
    haar_level(x, t, y); /* warm-up */
    for (int r = 0; r < REPS; r++) {
        double t0 = omp_get_wtime();
        haar_level(x, t, y);
        printf("rep: %.4f ms\n", (omp_get_wtime() - t0) * 1e3);
    }
    double s = 0, a = 0;
    for (long k = 0; k < (long)M * N * C; k++) { s += y[k]; a += fabs(y[k]); }
    printf("checksum: %.9g\n", s + 3 * a);
    free(x); free(t); free(y);
    return 0;
}
