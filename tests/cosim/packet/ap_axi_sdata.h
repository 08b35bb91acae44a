// Stand-in for the vendor's ap_axi_sdata.h (not among the open HLS headers): ap_axiu with the
// fields and widths of Vivado HLS 2018's, each side channel one port of the axis interface.
#ifndef AP_AXI_SDATA_H
#define AP_AXI_SDATA_H
#include <ap_int.h>

template <int D, int U, int TI, int TD>
struct ap_axiu {
    ap_uint<D> data;
    ap_uint<(D + 7) / 8> keep;
    ap_uint<(D + 7) / 8> strb;
    ap_uint<U> user;
    ap_uint<1> last;
    ap_uint<TI> id;
    ap_uint<TD> dest;
};
#endif
