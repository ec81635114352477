/* Gamma correction of a 2048x2048x3 float image (values 0..255), out of place.
 * C/OpenMP reference for benches/cpu/gamma/kernel.q: same data, same formula. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define M 2048
#define N 2048
#define C 3
#define REPS 7

static void gamma_correct(const float *x, float *y, float g) {
    const long n = (long)M * N * C;
#pragma omp parallel for
    for (long k = 0; k < n; k++)
        y[k] = 255.0f * powf(x[k] * (1.0f / 255.0f), g);
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
    const float g = 0.45f;
    gamma_correct(x, y, g); /* warm-up */
    for (int r = 0; r < REPS; r++) {
        double t0 = omp_get_wtime();
        gamma_correct(x, y, g);
        printf("rep: %.4f ms\n", (omp_get_wtime() - t0) * 1e3);
    }
    double s = 0;
    for (long k = 0; k < (long)M * N * C; k++) s += y[k];
    printf("checksum: %.9g\n", s);
    free(x); free(y);
    return 0;
}
