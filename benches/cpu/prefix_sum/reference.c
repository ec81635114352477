/* Inclusive prefix sum of 2^24 floats, two-pass parallel scan: each thread sums its
 * chunk, the chunk sums are scanned serially, then each thread scans its chunk from
 * its offset. C/OpenMP reference for benches/cpu/prefix_sum/kernel.q. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define LEN (1L << 24)
#define REPS 7

/* sums: one slot more than the number of threads. */
static void prefix_sum(const float *x, float *y, float *sums) {
#pragma omp parallel
    {
        int nt = omp_get_num_threads(), t = omp_get_thread_num();
        long lo = LEN * t / nt, hi = LEN * (t + 1) / nt;
        float s = 0.0f;
        for (long k = lo; k < hi; k++) s += x[k];
        sums[t + 1] = s;
#pragma omp barrier
#pragma omp single
        {
            sums[0] = 0.0f;
            for (int i = 1; i <= nt; i++) sums[i] += sums[i - 1];
        }
        float run = sums[t];
        for (long k = lo; k < hi; k++) {
            run += x[k];
            y[k] = run;
        }
    }
}

int main(void) {
    float *x = malloc(sizeof(float) * LEN);
    float *y = malloc(sizeof(float) * LEN);
    float *sums = malloc(sizeof(float) * (omp_get_max_threads() + 1));
    if (!x || !y || !sums) { fprintf(stderr, "out of memory\n"); return 1; }
#pragma omp parallel for
    for (long k = 0; k < LEN; k++) x[k] = (float)((k * 7) % 3) * 0.5f;
    prefix_sum(x, y, sums); /* warm-up */
    for (int r = 0; r < REPS; r++) {
        double t0 = omp_get_wtime();
        prefix_sum(x, y, sums);
        printf("rep: %.4f ms\n", (omp_get_wtime() - t0) * 1e3);
    }
    double s = 0;
    for (long k = 0; k < LEN; k++) s += y[k];
    printf("checksum: %.9g\n", s);
    free(x); free(y); free(sums);
    return 0;
}
