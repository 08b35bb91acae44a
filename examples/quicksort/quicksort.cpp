#include "quicksort.h"

// Copies batch `batch` of the off-chip input into the local buffer.
static void load(const int *in, int buf[QS_BATCH], int batch) {
load_loop:
  for (int i = 0; i < QS_BATCH; i++) {
#pragma HLS PIPELINE II=1
    buf[i] = in[batch * QS_BATCH + i];
  }
}

// Sorts the local buffer in place: iterative quicksort (Lomuto partition, last element as the
// pivot) with an explicit stack of [lo, hi] ranges instead of recursion.
static void qsort_comp(int buf[QS_BATCH]) {
  int stack_lo[QS_STACK];
  int stack_hi[QS_STACK];
  stack_lo[0] = 0;
  stack_hi[0] = QS_BATCH - 1;
  int top = 1; // entries on the stack

stack_loop:
  while (top > 0) {
#pragma HLS loop_tripcount min=1 max=1024 avg=700
    top--;
    int lo = stack_lo[top];
    int hi = stack_hi[top];
    if (hi <= lo) continue; // a single element is sorted

    int pivot = buf[hi];
    int store_at = lo;
  partition_loop:
    for (int j = lo; j < hi; j++) {
#pragma HLS loop_tripcount min=1 max=1023 avg=12
#pragma HLS PIPELINE II=2
      int v = buf[j];
      if (v < pivot) {
        buf[j] = buf[store_at];
        buf[store_at] = v;
        store_at++;
      }
    }
    buf[hi] = buf[store_at];
    buf[store_at] = pivot;

    // Push the larger side first so the smaller side is sorted next.
    int left_size = store_at - lo;
    int right_size = hi - store_at;
    if (left_size >= right_size) {
      if (left_size > 0) { stack_lo[top] = lo; stack_hi[top] = store_at - 1; top++; }
      if (right_size > 0) { stack_lo[top] = store_at + 1; stack_hi[top] = hi; top++; }
    } else {
      if (right_size > 0) { stack_lo[top] = store_at + 1; stack_hi[top] = hi; top++; }
      if (left_size > 0) { stack_lo[top] = lo; stack_hi[top] = store_at - 1; top++; }
    }
  }
}

// Copies the sorted local buffer back to batch `batch` of the off-chip output.
static void store(int *out, const int buf[QS_BATCH], int batch) {
store_loop:
  for (int i = 0; i < QS_BATCH; i++) {
#pragma HLS PIPELINE II=1
    out[batch * QS_BATCH + i] = buf[i];
  }
}

void qsort_top(const int in[QS_MAX_N], int out[QS_MAX_N], int n_batches) {
#pragma HLS INTERFACE m_axi port=in offset=slave bundle=gmem0 depth=256
#pragma HLS INTERFACE m_axi port=out offset=slave bundle=gmem1 depth=256
#pragma HLS INTERFACE s_axilite port=n_batches
#pragma HLS INTERFACE s_axilite port=return
  int buf[QS_BATCH];
  if (n_batches > QS_MAX_BATCHES) n_batches = QS_MAX_BATCHES;

batch_loop:
  for (int b = 0; b < n_batches; b++) {
#pragma HLS loop_tripcount min=1 max=8 avg=8
    load(in, buf, b);
    qsort_comp(buf);
    store(out, buf, b);
  }
}
