#include "matmul.h"

// Copies all of B on chip.
static void load_b(const mm_in_t *b, mm_in_t b_local[MM_K][MM_N]) {
load_b_row:
  for (int k = 0; k < MM_K; k++) {
  load_b_col:
    for (int j = 0; j < MM_N; j++) {
#pragma HLS PIPELINE II=1
      b_local[k][j] = b[k * MM_N + j];
    }
  }
}

// Copies rows [first, first + count) of A into the tile buffer.
static void load_a_tile(const mm_in_t *a, mm_in_t a_tile[MM_TILE][MM_K], int first, int count) {
load_a_row:
  for (int i = 0; i < count; i++) {
#pragma HLS loop_tripcount min=1 max=4 avg=4
  load_a_col:
    for (int k = 0; k < MM_K; k++) {
#pragma HLS PIPELINE II=1
      a_tile[i][k] = a[(first + i) * MM_K + k];
    }
  }
}

// c_tile = a_tile * b_local for the first `count` rows of the tile.
static void compute_tile(const mm_in_t a_tile[MM_TILE][MM_K], const mm_in_t b_local[MM_K][MM_N],
                         mm_acc_t c_tile[MM_TILE][MM_N], int count) {
row_loop:
  for (int i = 0; i < count; i++) {
#pragma HLS loop_tripcount min=1 max=4 avg=4
  col_loop:
    for (int j = 0; j < MM_N; j++) {
      mm_acc_t acc = 0;
    prod_loop:
      for (int k = 0; k < MM_K; k++) {
#pragma HLS PIPELINE II=1
        acc += static_cast<mm_acc_t>(a_tile[i][k]) * b_local[k][j];
      }
      c_tile[i][j] = acc;
    }
  }
}

// Writes the first `count` rows of the tile to rows [first, first + count) of C.
static void store_tile(mm_out_t *c, const mm_acc_t c_tile[MM_TILE][MM_N], int first, int count) {
store_loop:
  for (int x = 0; x < count * MM_N; x++) {
#pragma HLS loop_tripcount min=8 max=32 avg=32
#pragma HLS PIPELINE II=1
    int i = x / MM_N;
    int j = x % MM_N;
    c[(first + i) * MM_N + j] = static_cast<mm_out_t>(c_tile[i][j]);
  }
}

void matmul_top(const mm_in_t a[MM_M * MM_K], const mm_in_t b[MM_K * MM_N], mm_out_t c[MM_M * MM_N],
                int rows) {
#pragma HLS INTERFACE m_axi port=a offset=slave bundle=gmem0 depth=120
#pragma HLS INTERFACE m_axi port=b offset=slave bundle=gmem1 depth=80
#pragma HLS INTERFACE m_axi port=c offset=slave bundle=gmem0 depth=96
#pragma HLS INTERFACE s_axilite port=rows
#pragma HLS INTERFACE s_axilite port=return
  mm_in_t b_local[MM_K][MM_N];
#pragma HLS ARRAY_PARTITION variable=b_local dim=2 complete
  mm_in_t a_tile[MM_TILE][MM_K];
#pragma HLS ARRAY_PARTITION variable=a_tile dim=1 complete
  mm_acc_t c_tile[MM_TILE][MM_N];
#pragma HLS ARRAY_PARTITION variable=c_tile dim=2 complete

  if (rows > MM_M) rows = MM_M;
  load_b(b, b_local);

tile_loop:
  for (int first = 0; first < rows; first += MM_TILE) {
#pragma HLS loop_tripcount min=1 max=3 avg=3
    int count = rows - first < MM_TILE ? rows - first : MM_TILE;
    load_a_tile(a, a_tile, first, count);
    compute_tile(a_tile, b_local, c_tile, count);
    store_tile(c, c_tile, first, count);
  }
}
