/* 3x3 mean filter of a 2048x2048x3 float image, non-separable, zero extension.
 * C/OpenMP reference for benches/cpu/box3x3/kernel.q (same summation order). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define M 2048
#define N 2048
#define C 3
#define REPS 7

static void box3x3(const float *x, float *y) {
#pragma omp parallel for
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N; j++)
            for (long c = 0; c < C; c++) {
                float s = 0.0f;
                for (long di = -1; di <= 1; di++)
                    for (long dj = -1; dj <= 1; dj++) {
                        long ii = i + di, jj = j + dj;
                        if (ii >= 0 && ii < M && jj >= 0 && jj < N)
                            s += x[(ii * N + jj) * C + c];
                    }
                y[(i * N + j) * C + c] = s * (1.0f / 9.0f);
            }
}

int main(void) {
    float *x = malloc(sizeof(float) * M * N * C);
    float *y = malloc(sizeof(float) * M * N * C);
    if (!x || !y) { fprintf(stderr, "out of memory\n"); return 1; }
#pragma omp parallel for
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N; j++)
            for (long c = 0; c < C; c++)
                x[(i * N + j) * C + c] = (float)((i * 37 + j * 11 + c * 71 + i * j) % 256);
    box3x3(x, y); /* warm-up */
    for (int r = 0; r < REPS; r++) {
        double t0 = omp_get_wtime();
        box3x3(x, y);
        printf("rep: %.4f ms\n", (omp_get_wtime() - t0) * 1e3);
    }
    double s = 0;
    for (long k = 0; k < (long)M * N * C; k++) s += y[k];
    printf("checksum: %.9g\n", s);
    free(x); free(y);
    return 0;
}
