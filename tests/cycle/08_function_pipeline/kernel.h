#ifndef LEADRUN_KERNEL_H
#define LEADRUN_KERNEL_H

const int LR_N = 16;

// Sum of the leading run of v[] whose entries are <= limit (stops at the first entry above it).
// The function is pipelined (II=1); its scan loop (constant bound 16, early exit) is fully
// unrolled, so its latency does not depend on where the run ends.
int leading_run(const int v[LR_N], int limit);

#endif
