#ifndef ROWNORM_KERNEL_H
#define ROWNORM_KERNEL_H

const int RN_ROWS = 32;
const int RN_COLS = 64;

// out[r] = L1 norm of row r over its first `cols` entries, plus 1/8 of it, for r < rows.
void row_norm(const int m[RN_ROWS][RN_COLS], int out[RN_ROWS], int rows, int cols);

#endif
