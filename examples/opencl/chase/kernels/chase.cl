// Pointer chasing: walk a linked list kept as an index array (`next[p]` is the node after p,
// -1 ends the list) from `head`, write each node's position in the list into `rank[p]` and sum
// the nodes' weights. A list of n nodes gives every rank a value below n, and every p is in
// [0, n): smart watchpoints check both while the kernel runs:
//   hlsinstr rewrite kernels --probes watch --watch 'rank[0]' --bounds rank:10 \
//       --invariant 'rank[i] < 10' --out build/wp
// The host plants two bugs in the list: a link that leaves the array (an out-of-bounds write
// to rank) and a cycle (ranks grow past n until max_steps stops the walk).
__attribute__((max_global_work_dim(0)))
__kernel void chase(__global const int *restrict next, __global const float *restrict weight,
                    __global int *restrict rank, __global float *restrict total, int head,
                    uint max_steps) {
    int p = head;
    float sum = 0.0f;
    uint steps = 0;
    while (p >= 0 && steps < max_steps) {
        rank[p] = (int)steps;
        sum += weight[p];
        p = next[p];
        steps++;
    }
    *total = sum;
}
