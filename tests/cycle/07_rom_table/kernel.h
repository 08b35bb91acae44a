#ifndef LUTAPPLY_KERNEL_H
#define LUTAPPLY_KERNEL_H

const int LA_MAX = 512;
const int LA_TAB = 64;

// out[i] = in[i] * gamma[in[i] & 63] >> 6 for i < n (n in 1..512). The gamma table is filled by
// a loop in an inlined init function every call in C; Vitis folds it into a ROM.
void lut_apply(const int in[LA_MAX], int out[LA_MAX], int n);

#endif
