// hlsinstr: the one switch between C simulation and synthesis.
//
// Vitis HLS defines __SYNTHESIS__ while it synthesizes; C simulation and co-simulation
// testbenches are compiled without it. Every hlsinstr header branches on HLSINSTR_SYNTHESIS only.
#ifndef HLSINSTR_CONFIG_H
#define HLSINSTR_CONFIG_H

#if defined(__SYNTHESIS__)
#define HLSINSTR_SYNTHESIS 1
#else
#define HLSINSTR_SYNTHESIS 0
#endif

#endif
