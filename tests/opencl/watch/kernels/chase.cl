// Pointer chasing: each step writes its number into the current node of `data` and follows
// `next`. The host's chain plants an out-of-bounds write (node 8 of 8) and passes `out`
// pointing at data[0]: the last write goes through an alias of `data`.
__kernel void chase(__global int *data, __global const int *restrict next, __global int *out, uint steps) {
    uint p = 0;
    for (uint s = 0; s < steps; s++) {
        data[p] = (int)s;
        p = (uint)next[p];
    }
    *out = data[0] + 10;
}
