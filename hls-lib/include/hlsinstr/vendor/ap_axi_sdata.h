// hlsinstr: a C-simulation model of Vitis HLS `ap_axi_sdata.h` (UG1399, "AXI4-Stream Interfaces
// with Side-Channels"). Used by `hlsinstr sim` only when the kernel headers lack it.
//
//   hls::stream<ap_axis<32, 2, 5, 6> > s;   // data, keep, strb, user, last, id, dest
//   hls::stream<hls::axis<float, 0, 0, 0> > f;
//
// What is modelled: the packet structs with the documented members and widths —
// `ap_axis<WData, WUser, WId, WDest>` (signed data), `ap_axiu<...>` (unsigned data) and
// `hls::axis<T, WUser, WId, WDest>` (data of any type T): `data`, `keep` and `strb`
// (WData/8 bits, at least 1), `user` (WUser bits), `last` (1 bit), `id` (WId), `dest` (WDest).
// A side channel of width 0 is still a member here (1 bit wide, never used by the hardware);
// in Vitis it is left out. Vitis 2022+'s `hls::axis_data`/`hls::axis_user` forms are not modelled.
#ifndef HLSINSTR_VENDOR_AP_AXI_SDATA_H
#define HLSINSTR_VENDOR_AP_AXI_SDATA_H

#ifndef __AP_AXI_SDATA_H__
#define __AP_AXI_SDATA_H__

#include "ap_int.h"

namespace hlsinstr {
namespace vendor {
// A side channel's width: at least one bit (ap_uint<0> is not a type).
template <int W>
struct side {
    enum { bits = W > 0 ? W : 1 };
};
} // namespace vendor
} // namespace hlsinstr

template <int WData, int WUser, int WId, int WDest>
struct ap_axis {
    ap_int<WData> data;
    ap_uint<hlsinstr::vendor::side<(WData + 7) / 8>::bits> keep;
    ap_uint<hlsinstr::vendor::side<(WData + 7) / 8>::bits> strb;
    ap_uint<hlsinstr::vendor::side<WUser>::bits> user;
    ap_uint<1> last;
    ap_uint<hlsinstr::vendor::side<WId>::bits> id;
    ap_uint<hlsinstr::vendor::side<WDest>::bits> dest;
};

template <int WData, int WUser, int WId, int WDest>
struct ap_axiu {
    ap_uint<WData> data;
    ap_uint<hlsinstr::vendor::side<(WData + 7) / 8>::bits> keep;
    ap_uint<hlsinstr::vendor::side<(WData + 7) / 8>::bits> strb;
    ap_uint<hlsinstr::vendor::side<WUser>::bits> user;
    ap_uint<1> last;
    ap_uint<hlsinstr::vendor::side<WId>::bits> id;
    ap_uint<hlsinstr::vendor::side<WDest>::bits> dest;
};

namespace hls {
template <typename T, int WUser, int WId, int WDest>
struct axis {
    T data;
    ap_uint<hlsinstr::vendor::side<(sizeof(T) * 8 + 7) / 8>::bits> keep;
    ap_uint<hlsinstr::vendor::side<(sizeof(T) * 8 + 7) / 8>::bits> strb;
    ap_uint<hlsinstr::vendor::side<WUser>::bits> user;
    ap_uint<1> last;
    ap_uint<hlsinstr::vendor::side<WId>::bits> id;
    ap_uint<hlsinstr::vendor::side<WDest>::bits> dest;
};
} // namespace hls

#endif // __AP_AXI_SDATA_H__
#endif
