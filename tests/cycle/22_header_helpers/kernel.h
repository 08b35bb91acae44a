#ifndef SUMSQ_KERNEL_H
#define SUMSQ_KERNEL_H

const int SQ_MAX = 1024;

// The sum of in[i]^2 over i < n (n in 1..1024). The loop is in sum_squares(), a function of
// the project header inc/acc.h (found through syn.cflags=-Iinc), not in this file.
int sum_sq(const int in[SQ_MAX], int n);

#endif
