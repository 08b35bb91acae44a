// Kernel parameters shared by the kernels of vscale/kernel.cl (Intel examples keep such a
// header beside the kernels). SCALE comes from the build: aoc -DSCALE=3 (emulate -D SCALE=3).
#ifndef SCALE
#error "build with -DSCALE=<n>"
#endif
#define BIAS 0.5f
#define LIMIT 40.0f
