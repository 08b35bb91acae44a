#ifndef MEMCHAIN_KERNEL_H
#define MEMCHAIN_KERNEL_H

const int MC_MAX = 128;

// best = the largest v[idx[i]] over i < n with w[i] > 0 (0 if none), in a loop with PIPELINE
// off whose iteration is a chain of dependent reads and compares behind a short-circuit `&&`;
// dot = the sum of w[i] * w[idx[i]] (PIPELINE off: a read through an index, then a 32-bit
// multiply). n in 1..128; every idx[i] < MC_MAX.
void memchain(const int idx[MC_MAX], const float v[MC_MAX], const int w[MC_MAX], float *best, int *dot, int n);

#endif
