#ifndef FCHAIN_KERNEL_H
#define FCHAIN_KERNEL_H

// The element type is a typedef of the header: the op chain resolves it to float.
typedef float data_t;

const int FC_MAX = 128;

// out[i] = (a[i] * b[i] + a[i]) / b[i] for i < n (a pipelined loop whose iteration is a chain
// fmul -> fadd -> fdiv), then *total = the sum of b[i] * b[i] in double (a loop with
// PIPELINE off whose iteration is dmul -> dadd). n in 1..128; b[i] never 0.
void fchain(const data_t a[FC_MAX], const data_t b[FC_MAX], data_t out[FC_MAX], double *total, int n);

#endif
