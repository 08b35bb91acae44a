// Pointer chasing with values: step s stores vals[s] into the current node of `data` and
// follows `next`. The host's chain plants an out-of-bounds write (node 9 of 8) and a negative
// value (node 4); `vals` has the element type of `data`, so its reads are watched too (they may
// alias `data`).
__kernel void walk(__global int *data, __global const uint *restrict next, __global const int *restrict vals,
                   uint steps) {
    uint p = 0;
    for (uint s = 0; s < steps; s++) {
        data[p] = vals[s];
        p = next[p];
    }
}
