// cosim test design: ap_ctrl_hs with ap_none scalar ports of arbitrary-precision types and a
// return value. Its RTL (solution/syn/verilog/axpb.v) is written by hand with Vitis HLS 2022.2's
// port names and protocols; see tests/cosim/README.md.
#include <ap_int.h>

ap_int<20> axpb(ap_int<12> a, ap_int<12> x, short b) {
#pragma HLS INTERFACE mode = ap_ctrl_hs port = return
    return a * x + b;
}
