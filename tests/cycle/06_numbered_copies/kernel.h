#ifndef CORRPAIR_KERNEL_H
#define CORRPAIR_KERNEL_H

const int CP_MAX = 256;

// cross = sum x[i] y[i], lag1 = sum y[i] y[i+1], over i < n (n in 1..256). dot() is called
// twice; Vitis makes two copies of it, dot and dot_1, with different schedules.
void corr_pair(const int x[CP_MAX + 1], const int y[CP_MAX + 1], int n, int *cross, int *lag1);

#endif
