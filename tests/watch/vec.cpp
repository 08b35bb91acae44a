// Watchpoint example (docs/watch.md): `accumulate` writes one element past `data` when the
// testbench asks for 9, and a negative delta drives data[2] below zero.
#include "vec.h"

static void accumulate(int *acc, const int *in, int n) {
    for (int i = 0; i < n; ++i) {
        acc[i] += in[i];
    }
}

int vec_top(int data[8], const int *delta, int n) {
#pragma HLS INTERFACE m_axi port=delta depth=16
    accumulate(data, delta, n);
    int sum = 0;
    for (int i = 0; i < 8; ++i) {
        sum += data[i];
    }
    return sum;
}
