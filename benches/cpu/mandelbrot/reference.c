/* Mandelbrot set on a 1024x1024 grid covering [-2, 1] x [-1.5, 1.5], at most 256
 * iterations, single precision. C/OpenMP reference for benches/cpu/mandelbrot/kernel.q
 * (complex arithmetic written out on real and imaginary parts). */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define M 1024
#define N 1024
#define MAX_IT 256
#define REPS 7

static void mandelbrot(float *im, float s, float tr, float ti) {
#pragma omp parallel for schedule(dynamic, 4)
    for (long i = 0; i < M; i++)
        for (long j = 0; j < N; j++) {
            float p0 = (float)i / (float)M - 0.5f, p1 = (float)j / (float)N - 0.5f;
            float cr = tr + s * p1, ci = ti + s * p0;
            float zr = 0.0f, zi = 0.0f;
            int n = 0;
            while (n < MAX_IT && sqrtf(zr * zr + zi * zi) <= 2.0f) {
                float re = zr * zr - zi * zi + cr;
                zi = zr * zi + zi * zr + ci;
                zr = re;
                n++;
            }
            im[i * N + j] = (float)n;
        }
}

int main(void) {
    float *im = malloc(sizeof(float) * M * N);
    if (!im) { fprintf(stderr, "out of memory\n"); return 1; }
    mandelbrot(im, 3.0f, -0.5f, 0.0f); /* warm-up */
    for (int r = 0; r < REPS; r++) {
        double t0 = omp_get_wtime();
        mandelbrot(im, 3.0f, -0.5f, 0.0f);
        printf("rep: %.4f ms\n", (omp_get_wtime() - t0) * 1e3);
    }
    double s = 0;
    for (long k = 0; k < (long)M * N; k++) s += im[k];
    printf("checksum: %.9g\n", s);
    free(im);
    return 0;
}
