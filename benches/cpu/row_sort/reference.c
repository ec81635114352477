/* Sorts each row of a 1024x1024 float matrix with qsort, rows in parallel.
 * C/OpenMP reference for benches/cpu/row_sort/kernel.q. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define M 1024
#define N 1024
#define REPS 5

static int cmp(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static void sort_rows(const float *x, float *y) {
#pragma omp parallel for
    for (long i = 0; i < M; i++) {
        memcpy(y + i * N, x + i * N, sizeof(float) * N);
        qsort(y + i * N, N, sizeof(float), cmp);
    }
}

int main(void) {
    float *x = malloc(sizeof(float) * M * N);
    float *y = malloc(sizeof(float) * M * N);
    if (!x || !y) { fprintf(stderr, "out of memory\n"); return 1; }
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N; j++)
            x[i * N + j] = (float)((i * i * 31 + j * j * 17 + i * j * 7 + i * 3 + j) % 65536) / 65536.0f;
    sort_rows(x, y); /* warm-up */
    for (int r = 0; r < REPS; r++) {
        double t0 = omp_get_wtime();
        sort_rows(x, y);
        printf("rep: %.4f ms\n", (omp_get_wtime() - t0) * 1e3);
    }
    double s = 0;
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N; j++) s += (double)y[i * N + j] * j;
    printf("checksum: %.9g\n", s);
    free(x); free(y);
    return 0;
}
