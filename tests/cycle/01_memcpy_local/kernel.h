#ifndef VSCALE_KERNEL_H
#define VSCALE_KERNEL_H

const int VS_N = 256;

// out[i] = in[i] * gain + (in[i] >> 3), through a local copy: memcpy in, scale, memcpy out.
void vscale(const int *in, int *out, int gain);

#endif
