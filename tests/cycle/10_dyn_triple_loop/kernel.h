#ifndef PATH2_KERNEL_H
#define PATH2_KERNEL_H

const int P2_MAX = 12;

// Two-step path counts of a graph: out = adj * adj over the first n nodes (n clamped to 0..12).
// Three nested loops, all of n trips, none pipelined.
void path2(const int adj[P2_MAX][P2_MAX], int out[P2_MAX][P2_MAX], int n);

#endif
