#ifndef MIX4_H
#define MIX4_H

#include "ap_axi_sdata.h"
#include "hls_stream.h"

typedef ap_axiu<32, 0, 0, 0> word_t;

void mix4(hls::stream<word_t> &in, hls::stream<word_t> &out);

#endif
