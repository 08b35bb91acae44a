// cosim test design: two s_axilite bundles, the block control and `k` on `control`, `x` and `y`
// on `ctrl2`. Its RTL (solution/syn/verilog/) is written by hand with Vitis 2022.2's names:
// one `lite2_<bundle>_s_axi` adapter per bundle; see tests/cosim/README.md.
int lite2(int x, int y, int k) {
#pragma HLS INTERFACE mode = s_axilite port = x bundle = ctrl2
#pragma HLS INTERFACE mode = s_axilite port = y bundle = ctrl2
#pragma HLS INTERFACE mode = s_axilite port = k bundle = control
#pragma HLS INTERFACE mode = s_axilite port = return bundle = control
    return x * k + y;
}
