/* 3x3 mean filter of a 2048x2048x3 float image, separable with a temporary image,
 * zero extension. C/OpenMP reference for benches/cpu/box3x3_separable/kernel.q. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define M 2048
#define N 2048
#define C 3
#define REPS 7
#define AT(a, i, j, c) a[((long)(i) * N + (j)) * C + (c)]

static void box3x3_separable(const float *x, float *t, float *y) {
#pragma omp parallel for
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N; j++)
            for (long c = 0; c < C; c++) {
                float up = i > 0 ? AT(x, i - 1, j, c) : 0.0f;
                float down = i < M - 1 ? AT(x, i + 1, j, c) : 0.0f;
                AT(t, i, j, c) = up + AT(x, i, j, c) + down;
            }
#pragma omp parallel for
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N; j++)
            for (long c = 0; c < C; c++) {
                float left = j > 0 ? AT(t, i, j - 1, c) : 0.0f;
                float right = j < N - 1 ? AT(t, i, j + 1, c) : 0.0f;
                AT(y, i, j, c) = (left + AT(t, i, j, c) + right) * (1.0f / 9.0f);
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
    box3x3_separable(x, t, y); /* warm-up */
    for (int r = 0; r < REPS; r++) {
        double t0 = omp_get_wtime();
        box3x3_separable(x, t, y);
        printf("rep: %.4f ms\n", (omp_get_wtime() - t0) * 1e3);
    }
    double s = 0;
    for (long k = 0; k < (long)M * N * C; k++) s += y[k];
    printf("checksum: %.9g\n", s);
    free(x); free(t); free(y);
    return 0;
}
