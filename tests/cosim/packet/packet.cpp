// cosim test design: a free-running (ap_ctrl_none) block on AXI4-Stream and ap_fifo streams.
// Its RTL (solution/syn/verilog/packet.v) is written by hand with Vivado HLS 2018.3's port
// names and protocols; see tests/cosim/README.md.
#include <ap_int.h>
#include <hls_stream.h>
#include <ap_axi_sdata.h>

typedef ap_axiu<32, 1, 1, 1> pkt;

void packet(hls::stream<pkt> &src, hls::stream<ap_uint<8> > &shift, hls::stream<pkt> &echo, hls::stream<int> &dst) {
#pragma HLS INTERFACE ap_ctrl_none port = return
#pragma HLS INTERFACE axis port = src
#pragma HLS INTERFACE axis port = echo
#pragma HLS INTERFACE ap_fifo port = shift
#pragma HLS INTERFACE ap_fifo port = dst
    ap_uint<8> s = shift.read();
    int sum = 0;
    pkt p;
beats:
    do {
        p = src.read();
        sum += p.data;
        pkt q = p;
        q.data = p.data << s;
        echo.write(q);
    } while (!p.last);
    dst.write(sum);
}
