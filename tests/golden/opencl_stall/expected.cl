#include "hlsinstr_probe.cl" // hlsinstr
// Stall monitors around loads (seed 004, Listing 9): the load of data_a, the accumulation that
// loads data_b, and a store whose right-hand side loads (no variable to depend on: 0).
__kernel void mm(__global const int *restrict data_a, __global const int *restrict data_b,
                 __global int *restrict data_c, uint col_a, uint col_b) { HLSINSTR_FUNC_BEGIN(8, P, 0);
    uint i = get_global_id(0), j = get_global_id(1);
    int acc = 0; HLSINSTR_LOOP_BEGIN(9, P, 0);
    #pragma unroll 4
    for (uint k = 0; k < col_a; k++) { HLSINSTR_LOOP_ITER(9);
        HLSINSTR_SNAP(0, 0); int a = data_a[i * col_a + k]; HLSINSTR_SNAP(1, a);
        HLSINSTR_SNAP(2, 0); acc += a * data_b[k * col_b + j]; HLSINSTR_SNAP(3, acc); HLSINSTR_SNAP(4, 0); float f = (float)data_b[0]; HLSINSTR_SNAP(5, f);
        (void)f;
    } HLSINSTR_LOOP_END(9, P, 0);
    HLSINSTR_SNAP(6, 0); data_c[i * col_b + j] = acc + data_a[0]; HLSINSTR_SNAP(7, 0); HLSINSTR_FUNC_END(8, P, 0);
}
