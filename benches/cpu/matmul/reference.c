/* Naive 512x512 single-precision matrix product, i-k-j loop order.
 * C/OpenMP reference for benches/cpu/matmul/kernel.q (exact inputs: multiples of 1/8). */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define SZ 512
#define REPS 7

static void matmul(const float *A, const float *B, float *C) {
#pragma omp parallel for
    for (long i = 0; i < SZ; i++) {
        float *c = C + i * SZ;
        for (long j = 0; j < SZ; j++) c[j] = 0.0f;
        for (long k = 0; k < SZ; k++) {
            const float a = A[i * SZ + k];
            const float *b = B + k * SZ;
            for (long j = 0; j < SZ; j++) c[j] += a * b[j];
        }
    }
}

int main(void) {
    float *A = malloc(sizeof(float) * SZ * SZ);
    float *B = malloc(sizeof(float) * SZ * SZ);
    float *C = malloc(sizeof(float) * SZ * SZ);
    if (!A || !B || !C) { fprintf(stderr, "out of memory\n"); return 1; }
    for (long i = 0; i < SZ; i++)
        for (long j = 0; j < SZ; j++) {
            A[i * SZ + j] = (float)((i * 3 + j * 5) % 17) * 0.125f - 1.0f;
            B[i * SZ + j] = (float)((i * 7 + j * 2) % 13) * 0.125f - 0.75f;
        }
    matmul(A, B, C); /* warm-up */
    for (int r = 0; r < REPS; r++) {
        double t0 = omp_get_wtime();
        matmul(A, B, C);
        printf("rep: %.4f ms\n", (omp_get_wtime() - t0) * 1e3);
    }
    double s = 0, a = 0;
    for (long k = 0; k < (long)SZ * SZ; k++) { s += C[k]; a += fabs(C[k]); }
    printf("checksum: %.9g\n", s + a);
    free(A); free(B); free(C);
    return 0;
}
