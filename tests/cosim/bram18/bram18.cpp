// cosim test design: Vivado HLS's `bram` interface (a dual-port BRAM controller's names, byte
// addresses, byte write enables) and a partitioned array of ap_uint, whose partition comes from
// the solution's directives.tcl instead of a pragma. Its RTL (solution/syn/verilog/bram18.v) is
// written by hand with Vivado HLS 2018.3's port names; see tests/cosim/README.md.
#include <ap_int.h>

void bram18(ap_uint<16> w[8], const ap_uint<12> t[4], ap_uint<16> *sum) {
#pragma HLS INTERFACE bram port = w
    ap_uint<16> s = 0;
pairs:
    for (int i = 0; i < 4; i++) {
        ap_uint<16> lo = w[2 * i], hi = w[2 * i + 1];
        w[2 * i] = lo + hi;
        // Only the low byte of the odd element is written (byte enable 01).
        w[2 * i + 1] = (hi & 0xff00) | (t[i] & 0xff);
        s += t[i];
    }
    *sum = s;
}
