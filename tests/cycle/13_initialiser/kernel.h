#ifndef HISTBIAS_KERNEL_H
#define HISTBIAS_KERNEL_H

const int HB_MAX = 1024;
const int HB_BINS = 16;

// A 16-bin histogram of the low nibbles of samples[0..n) (n clamped to 1..1024), started from a
// prior (bias) given by an aggregate initialiser; the bins are written to hist_out.
void hist_bias(const unsigned char samples[HB_MAX], int hist_out[HB_BINS], int n);

#endif
