// hlsinstr: a C-simulation model of Vivado HLS' `ap_utils.h` (the same header as Vitis'
// `etc/ap_utils.h`, at the top of Vivado HLS' include directory, where its projects include it:
// `#include "ap_utils.h"`). Used by `hlsinstr sim` only when the kernel headers lack it.
#ifndef HLSINSTR_VENDOR_TOP_AP_UTILS_H
#define HLSINSTR_VENDOR_TOP_AP_UTILS_H

#include "etc/ap_utils.h"

#endif
