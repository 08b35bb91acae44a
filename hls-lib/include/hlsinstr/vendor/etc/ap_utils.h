// hlsinstr: a C-simulation model of Vitis HLS `etc/ap_utils.h` (UG1399, "ap_wait",
// "ap_wait_n"). Used by `hlsinstr sim` only when the kernel headers lack it.
//
// What is modelled: `ap_wait()` (a clock boundary) and `ap_wait_n(n)` (n clock cycles) order
// and delay the hardware; in C simulation time does not pass, so both do nothing, as in Vitis
// C simulation.
// Not modelled: the cycles they add in hardware.
#ifndef HLSINSTR_VENDOR_AP_UTILS_H
#define HLSINSTR_VENDOR_AP_UTILS_H

#ifndef __AESL_AP_UTILS_H__
#define __AESL_AP_UTILS_H__

inline void ap_wait() {}
inline void ap_wait_n(int n) { (void)n; }

#endif
#endif
