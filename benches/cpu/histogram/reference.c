/* 256-bin histogram of a 2048x2048 image of 8-bit intensities stored as floats.
 * C/OpenMP reference for benches/cpu/histogram/kernel.q: one private histogram per
 * thread, merged at the end. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define M 2048
#define N 2048
#define REPS 7

static void histogram(const float *im, float *h) {
    memset(h, 0, 256 * sizeof(float));
#pragma omp parallel
    {
        unsigned mine[256] = {0};
#pragma omp for nowait
        for (long k = 0; k < (long)M * N; k++)
            mine[(int)im[k]]++;
#pragma omp critical
        for (int b = 0; b < 256; b++) h[b] += (float)mine[b];
    }
}

int main(void) {
    float *im = malloc(sizeof(float) * M * N);
    float h[256];
    if (!im) { fprintf(stderr, "out of memory\n"); return 1; }
#pragma omp parallel for
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N; j++)
            im[i * N + j] = (float)((i * i * 31 + j * j * 17 + i * j * 7 + i * 3 + j) % 256);
    histogram(im, h); /* warm-up */
    for (int r = 0; r < REPS; r++) {
        double t0 = omp_get_wtime();
        histogram(im, h);
        printf("rep: %.4f ms\n", (omp_get_wtime() - t0) * 1e3);
    }
    double s = 0;
    for (int b = 0; b < 256; b++) s += (double)h[b] * h[b];
    printf("checksum: %.9g\n", s);
    free(im);
    return 0;
}
