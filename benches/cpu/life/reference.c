/* One step of Conway's Game of Life on a 2048x2048 board of 0/1 float cells, dead
 * cells outside the board. C/OpenMP reference for benches/cpu/life/kernel.q. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define M 2048
#define N 2048
#define REPS 7

static float cell(const float *a, long i, long j) {
    return (i >= 0 && i < M && j >= 0 && j < N) ? a[i * N + j] : 0.0f;
}

static void life_step(const float *a, float *b) {
#pragma omp parallel for
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N; j++) {
            float live = cell(a, i - 1, j - 1) + cell(a, i - 1, j) + cell(a, i - 1, j + 1) +
                         cell(a, i, j - 1) + cell(a, i, j + 1) +
                         cell(a, i + 1, j - 1) + cell(a, i + 1, j) + cell(a, i + 1, j + 1);
            b[i * N + j] = (live == 3.0f || (live == 2.0f && a[i * N + j] == 1.0f)) ? 1.0f : 0.0f;
        }
}

int main(void) {
    float *a = malloc(sizeof(float) * M * N);
    float *b = malloc(sizeof(float) * M * N);
    if (!a || !b) { fprintf(stderr, "out of memory\n"); return 1; }
#pragma omp parallel for
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N; j++)
            a[i * N + j] = ((i * i * 31 + j * j * 17 + i * j * 7 + i * 3 + j) % 7) < 2 ? 1.0f : 0.0f;
    life_step(a, b); /* warm-up */
    for (int r = 0; r < REPS; r++) {
        double t0 = omp_get_wtime();
        life_step(a, b);
        printf("rep: %.4f ms\n", (omp_get_wtime() - t0) * 1e3);
    }
    double s = 0, w = 0;
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N; j++) { s += b[i * N + j]; w += b[i * N + j] * (double)i; }
    printf("checksum: %.9g\n", s + w / 2048);
    free(a); free(b);
    return 0;
}
