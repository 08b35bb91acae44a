#ifndef VMIX_KERNEL_H
#define VMIX_KERNEL_H

const int VM_N = 128;  // samples
const int VM_W = 64;   // weights (a window, reused twice over the samples)

// c[i] = (a[i] * w[i % 64]) >> 4. a and c are on bundle gmem0, w on gmem1, so the copies of
// a and w run at the same time in the RTL.
void vmix(const int *a, const int *w, int *c);

#endif
