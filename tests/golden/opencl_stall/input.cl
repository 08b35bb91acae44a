// Stall monitors around loads (seed 004, Listing 9): the load of data_a, the accumulation that
// loads data_b, and a store whose right-hand side loads (no variable to depend on: 0).
__kernel void mm(__global const int *restrict data_a, __global const int *restrict data_b,
                 __global int *restrict data_c, uint col_a, uint col_b) {
    uint i = get_global_id(0), j = get_global_id(1);
    int acc = 0;
    #pragma unroll 4
    for (uint k = 0; k < col_a; k++) {
        int a = data_a[i * col_a + k];
        acc += a * data_b[k * col_b + j]; float f = (float)data_b[0];
        (void)f;
    }
    data_c[i * col_b + j] = acc + data_a[0];
}
