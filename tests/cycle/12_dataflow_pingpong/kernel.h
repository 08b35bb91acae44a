#ifndef FRAMEREV_KERNEL_H
#define FRAMEREV_KERNEL_H

const int FR_MAX = 128;

// A dataflow region of three function processes joined by arrays (ping-pong buffers, PIPO):
// load -> reverse_scale -> store. out[i] = 3 * in[n - 1 - i] + 1 for i < n (n in 1..128).
// reverse_scale reads its input backwards, so the channel cannot be a FIFO: each process starts
// only when the one before it has finished this invocation.
void frame_rev(const int in[FR_MAX], int out[FR_MAX], int n);

#endif
