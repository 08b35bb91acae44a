#include "kernel.h"

// A pipelined function between two AXI streams, started through s_axilite with no argument
// register (as a Vitis 2023.2 AES design is): 4 words in, 2 out per call.
void mix4(hls::stream<word_t> &in, hls::stream<word_t> &out) {
#pragma HLS PIPELINE II=4
#pragma HLS INTERFACE mode=s_axilite port=return
#pragma HLS INTERFACE mode=axis port=in
#pragma HLS INTERFACE mode=axis port=out
    unsigned v[4];
read:
    for (int i = 0; i < 4; i++) {
        v[i] = in.read().data;
    }
write:
    for (int i = 0; i < 2; i++) {
        word_t w;
        w.data = v[2 * i] ^ (v[2 * i + 1] << 1);
        w.keep = -1;
        w.strb = -1;
        w.last = (i == 1);
        out.write(w);
    }
}
