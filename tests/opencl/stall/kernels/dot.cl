// A dot product whose loads get stall monitors (`--probes stall --at dot.cl:11 --at dot.cl:12`).
// `slow` stands for the memory system: the test scripts the latency of the load of a[] by
// giving it a delay in the rewritten kernel.
uint slow(uint k) { return k; }

__kernel void dot(__global const int *restrict a, __global const int *restrict b, uint n,
                  __global long *restrict out) {
    long acc = 0;
    for (uint k = 0; k < n; k++) {
        // the two monitored statements
        int x = a[slow(k)];
        acc += x * b[k];
    }
    *out = acc;
}
