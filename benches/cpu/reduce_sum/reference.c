/* Sum of 2^24 floats with an OpenMP reduction (single-precision accumulators).
 * C/OpenMP reference for benches/cpu/reduce_sum/kernel.q. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define LEN (1L << 24)
#define REPS 7

static float sum(const float *x) {
    float s = 0.0f;
#pragma omp parallel for simd reduction(+ : s)
    for (long k = 0; k < LEN; k++) s += x[k];
    return s;
}

int main(void) {
    float *x = malloc(sizeof(float) * LEN);
    if (!x) { fprintf(stderr, "out of memory\n"); return 1; }
#pragma omp parallel for
    for (long k = 0; k < LEN; k++) x[k] = (float)((k * 7) % 1000) / 1000.0f;
    volatile float total = sum(x); /* warm-up */
    for (int r = 0; r < REPS; r++) {
        double t0 = omp_get_wtime();
        total = sum(x);
        printf("rep: %.4f ms\n", (omp_get_wtime() - t0) * 1e3);
    }
    printf("checksum: %.9g\n", (double)total);
    free(x);
    return 0;
}
