// hlsinstr: the C model of get_time for the vendor's emulator (aoc -march=emulator), named by
// hlsinstr_get_time.xml. The hardware is hlsinstr_get_time.v.
//
// OpenCL C 1.2 has no writable program-scope variables, so a model cannot keep a counter
// between calls: it returns dep + 1, which keeps the dependence and is never a real time.
// Timestamps under the vendor emulator are therefore meaningless; hlsinstr's own emulator
// (opencl-lib/emu/) defines get_time as a model clock instead and never uses this file.
ulong get_time(ulong dep) { return dep + 1; }
