// cosim test design: one top with every port-level interface Vitis HLS generates for arguments
// that are not on a bus. Its RTL (solution/syn/verilog/mixed.v) is written by hand with Vitis
// 2022.2's port names and protocols; see tests/cosim/README.md.
#include <hls_stream.h>

int mixed(const int coef[8], int acc[4], int scale, int bias, int gain, int *peak, int &cnt,
          hls::stream<int> &in, hls::stream<int> &out) {
#pragma HLS INTERFACE mode = ap_ctrl_chain port = return
#pragma HLS INTERFACE mode = ap_memory port = coef storage_type = rom_2p
#pragma HLS INTERFACE mode = ap_memory port = acc
#pragma HLS INTERFACE mode = ap_ack port = scale
#pragma HLS INTERFACE mode = ap_vld port = bias
#pragma HLS INTERFACE mode = ap_hs port = gain
#pragma HLS INTERFACE mode = ap_vld port = peak
#pragma HLS INTERFACE mode = ap_hs port = cnt
#pragma HLS INTERFACE mode = ap_fifo port = in
#pragma HLS INTERFACE mode = ap_fifo port = out
    int m = 0, n = 0;
loop:
    for (int i = 0; i < 4; i++) {
        int x = in.read();
        int y = x * scale + coef[i] + coef[i + 4];
        acc[i] = acc[i] + y * gain;
        out.write(y + bias);
        if (y > m) m = y;
        if (y > 0) n++;
    }
    *peak = m;
    cnt = n;
    return m + bias;
}
