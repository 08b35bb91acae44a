#ifndef BLEND_KERNEL_H
#define BLEND_KERNEL_H

const int BL_ROWS = 16;
const int BL_COLS = 32;

// out = (a * alpha + b * (256 - alpha)) >> 8 over the first `rows` rows (clamped to 1..16).
// Row/Col is a perfect nest (variable outer bound, constant inner bound): Vitis flattens it
// into one pipelined loop Row_Col of rows * 32 trips.
void blend(const int a[BL_ROWS][BL_COLS], const int b[BL_ROWS][BL_COLS], int out[BL_ROWS][BL_COLS],
           int rows, int alpha);

#endif
