#include "binary_search.h"

// Copies the table from off-chip memory into the local buffer.
static void load_table(const int *table, int local[BS_TABLE_SIZE]) {
load_table_loop:
  for (int i = 0; i < BS_TABLE_SIZE; i++) {
#pragma HLS PIPELINE II=1
    local[i] = table[i];
  }
}

// Index of `key` in the ascending `local` table, or -1. Returns as soon as the key is found.
static int search_one(const int local[BS_TABLE_SIZE], int key) {
  int lo = 0;
  int hi = BS_TABLE_SIZE - 1;
search_loop:
  while (lo <= hi) {
#pragma HLS loop_tripcount min=1 max=7 avg=6
    int mid = lo + (hi - lo) / 2;
    int v = local[mid];
    if (v == key) return mid;
    if (v < key)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

int bsearch_top(const int table[BS_TABLE_SIZE], const int queries[BS_MAX_QUERIES],
                int results[BS_MAX_QUERIES], int n_queries) {
#pragma HLS INTERFACE m_axi port=table offset=slave bundle=gmem0 depth=64
#pragma HLS INTERFACE m_axi port=queries offset=slave bundle=gmem1 depth=128
#pragma HLS INTERFACE m_axi port=results offset=slave bundle=gmem1 depth=128
#pragma HLS INTERFACE s_axilite port=n_queries
#pragma HLS INTERFACE s_axilite port=return
  int local[BS_TABLE_SIZE];
#pragma HLS ARRAY_PARTITION variable=local type=cyclic factor=2
  if (n_queries > BS_MAX_QUERIES) n_queries = BS_MAX_QUERIES;

  load_table(table, local);

  int found = 0;
query_loop:
  for (int q = 0; q < n_queries; q++) {
#pragma HLS loop_tripcount min=1 max=128 avg=64
    int index = search_one(local, queries[q]);
    results[q] = index;
    if (index >= 0) found++;
  }
  return found;
}
