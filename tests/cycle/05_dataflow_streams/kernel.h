#ifndef STREAMCHAIN_KERNEL_H
#define STREAMCHAIN_KERNEL_H

const int SC_MAX = 1024;

// A dataflow region of three processes joined by hls::stream FIFOs:
// read_loop (a loop process) -> smooth (a function process) -> write_loop (a loop process).
// out[i] = (x[i-2] + 2 x[i-1] + x[i]) / 4 with x[-1] = x[-2] = 0, for i < n (n in 1..1024).
void stream_chain(const int in[SC_MAX], int out[SC_MAX], int n);

#endif
