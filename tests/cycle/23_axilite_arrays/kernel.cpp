#include "kernel.h"

// Arrays passed through the s_axilite control bundle: Vitis makes each (each part of an
// ARRAY_PARTITION) a memory in the bus adapter, which the co-sim testbench fills before
// ap_start and reads back after ap_done.
void scale_add(const int a[N], const short b[N], int out[N], int k) {
#pragma HLS INTERFACE mode=s_axilite port=a
#pragma HLS INTERFACE mode=s_axilite port=b
#pragma HLS INTERFACE mode=s_axilite port=out
#pragma HLS INTERFACE mode=s_axilite port=k
#pragma HLS INTERFACE mode=s_axilite port=return
#pragma HLS ARRAY_PARTITION variable=a type=block factor=2
#pragma HLS ARRAY_PARTITION variable=out type=block factor=2
scale:
    for (int i = 0; i < N; i++) {
#pragma HLS PIPELINE II=1
        out[i] = a[i] * k + b[i];
    }
}
