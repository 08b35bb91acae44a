#ifndef ROWS2_KERNEL_H
#define ROWS2_KERNEL_H

const int R_MAX = 256;
const int R_FIX = 64;

// A dataflow region of four processes joined through the two rows of one 2-D array that
// ARRAY_PARTITION complete dim=1 splits into two memories: load_a -> mid[0] -> store_a (n
// elements, n in 1..256) beside load_b -> mid[1] -> store_b (always R_FIX elements).
// oa[i] = 2 * (a[i] + 1) for i < n; ob[i] = 2 * (b[i] + 1) for i < R_FIX.
void rows2(const int a[R_MAX], const int b[R_MAX], int oa[R_MAX], int ob[R_MAX], int n);

#endif
