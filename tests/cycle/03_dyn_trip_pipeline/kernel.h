#ifndef PREFIX_KERNEL_H
#define PREFIX_KERNEL_H

const int PS_MAX = 1024;

// out[i] = in[0] + ... + in[i] for i < n (n clamped to 1..1024); returns the total.
int prefix_sum(const int in[PS_MAX], int out[PS_MAX], int n);

#endif
