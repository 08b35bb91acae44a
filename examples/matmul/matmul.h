// Row-tiled integer matrix multiply C = A * B. B stays on chip for the whole call; A is brought in
// and C written back one tile of rows at a time.
#ifndef MATMUL_H
#define MATMUL_H

typedef short mm_in_t;     // elements of A and B
typedef long long mm_acc_t; // dot-product accumulator
typedef int mm_out_t;       // elements of C (MM_K products of 16-bit values fit easily)

const int MM_M = 12;   // rows of A and C
const int MM_K = 10;   // columns of A, rows of B
const int MM_N = 8;    // columns of B and C
const int MM_TILE = 4; // rows of A and C on chip at a time

// C[0..rows) = A[0..rows) * B, all row-major. `rows` is clamped to MM_M; rows of C past it are
// not written.
void matmul_top(const mm_in_t a[MM_M * MM_K], const mm_in_t b[MM_K * MM_N], mm_out_t c[MM_M * MM_N],
                int rows);

#endif
