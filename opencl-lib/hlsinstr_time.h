// hlsinstr: timestamps in Intel FPGA OpenCL kernels (seed 004, section 3.1).
//
//   #include "hlsinstr_time.h"
//   ulong t0 = get_time(sum);   // sum: a value computed just before this point
//   ... event of interest ...
//   ulong t1 = get_time(acc);   // t1 - t0: cycles between the two calls
//
// get_time(dep) returns a 64-bit free-running cycle counter. `dep` only orders the call: the
// compiler cannot schedule it before `dep` exists. Pass a value computed right before the point
// you want to time; its value is ignored.
//
// Hardware: an HDL-library function (hlsinstr_get_time.v, spec hlsinstr_get_time.xml, C model
// hlsinstr_time_model.cl): stall-free, latency 1, one 64-bit counter and a 65-bit result
// register per call site; all call sites of a kernel count the same clock from the same reset.
// Build the library with the vendor's tools (`aocl library hdl-comp-pkg hlsinstr_get_time.xml`,
// then `aocl library create`) and compile kernels with `aoc -l <lib>.aoclib -L <dir>`
// (not run here: no aoc on this machine).
//
// The alternative without an HDL library is hlsinstr_timer.cl (an autorun kernel).
//
// Emulation (opencl-lib/emu/, HLSINSTR_EMU defined): get_time is the model clock of the
// calling kernel; HLSINSTR_EMU_DELAY(n) advances it by n cycles (a scripted latency). Outside
// emulation HLSINSTR_EMU_DELAY expands to nothing.
#ifndef HLSINSTR_TIME_H
#define HLSINSTR_TIME_H

#ifndef HLSINSTR_EMU
ulong get_time(ulong dep);
#define HLSINSTR_EMU_DELAY(n)
#endif

#endif
