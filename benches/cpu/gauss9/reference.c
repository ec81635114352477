/* Gaussian blur (sigma 2) of a 2048x2048 float image with a separable 9-tap filter
 * and a temporary image, zero extension. C/OpenMP reference for
 * benches/cpu/gauss9/kernel.q (same weights, same summation order). */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define M 2048
#define N 2048
#define R 4
#define REPS 7

static void blur(const float *x, const float *w, float *t, float *y) {
#pragma omp parallel for
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N; j++) {
            float s = 0.0f;
            for (long k = -R; k <= R; k++) {
                long ii = i + k;
                s += w[k + R] * (ii >= 0 && ii < M ? x[ii * N + j] : 0.0f);
            }
            t[i * N + j] = s;
        }
#pragma omp parallel for
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N; j++) {
            float s = 0.0f;
            for (long k = -R; k <= R; k++) {
                long jj = j + k;
                s += w[k + R] * (jj >= 0 && jj < N ? t[i * N + jj] : 0.0f);
            }
            y[i * N + j] = s;
        }
}

int main(void) {
    float *x = malloc(sizeof(float) * M * N);
    float *t = malloc(sizeof(float) * M * N);
    float *y = malloc(sizeof(float) * M * N);
    if (!x || !t || !y) { fprintf(stderr, "out of memory\n"); return 1; }
    float w[2 * R + 1], wsum = 0.0f;
    const float sigma = 2.0f;
    for (int k = 0; k <= 2 * R; k++) {
        w[k] = expf(-(float)((k - R) * (k - R)) / (2.0f * sigma * sigma));
        wsum += w[k];
    }
    for (int k = 0; k <= 2 * R; k++) w[k] /= wsum;
#pragma omp parallel for
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N; j++)
            x[i * N + j] = (float)((i * 37 + j * 11 + i * j) % 256);
    blur(x, w, t, y); /* warm-up */
    for (int r = 0; r < REPS; r++) {
        double t0 = omp_get_wtime();
        blur(x, w, t, y);
        printf("rep: %.4f ms\n", (omp_get_wtime() - t0) * 1e3);
    }
    double s = 0;
    for (long k = 0; k < (long)M * N; k++) s += y[k];
    printf("checksum: %.9g\n", s);
    free(x); free(t); free(y);
    return 0;
}
