// cosim test design: structs aggregated into one wide port each, on ap_fifo streams and on
// ap_none / ap_vld scalar ports. Its RTL (solution/syn/verilog/structs.v) is written by hand
// with Vitis 2022.2's port names; see tests/cosim/README.md.
#include <hls_stream.h>
#include "structs.h"

void structs(hls::stream<Pix> &in, hls::stream<Pix> &out, Stat cfg, Stat *res) {
#pragma HLS INTERFACE mode = ap_fifo port = in
#pragma HLS INTERFACE mode = ap_fifo port = out
#pragma HLS INTERFACE mode = ap_vld port = res
    short n = 0;
    Pix p;
pixels:
    do {
        p = in.read();
        Pix q;
        q.r = p.b;
        q.g = p.g + cfg.n;
        q.b = p.r;
        q.last = p.last;
        out.write(q);
        n++;
    } while (!p.last);
    Stat s;
    s.n = n;
    s.tag[0] = cfg.tag[1];
    s.tag[1] = cfg.tag[0];
    *res = s;
}
