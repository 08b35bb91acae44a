#ifndef FUNCCHAIN_KERNEL_H
#define FUNCCHAIN_KERNEL_H

const int FC_N = 8;

// y = x[0] * x[1] + x[2]; s = the sum of a's 16 elements. A pipelined top (no loop of its own)
// that calls a pipelined function summing a 2 x 8 array partitioned into its two rows.
void funcchain(const int a[2][FC_N], const float x[4], float *y, int *s);

#endif
