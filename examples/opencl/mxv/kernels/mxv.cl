// Matrix-vector multiply y = A x (A: rows x cols, row-major): a single work-item kernel looping
// over the rows and an NDRange kernel with one work-item per row, both calling dot(). Sequence
// numbers show their two execution orders: `hlsinstr rewrite kernels --probes modules,loops,seq`.

int dot(__global const int *restrict a, __global const int *restrict x, uint cols) {
    int acc = 0;
    for (uint j = 0; j < cols; j++) {
        acc += a[j] * x[j];
    }
    return acc;
}

__attribute__((max_global_work_dim(0)))
__kernel void mxv_single(__global const int *restrict a, __global const int *restrict x,
                         __global int *restrict y, uint rows, uint cols) {
    for (uint i = 0; i < rows; i++) {
        y[i] = dot(a + i * cols, x, cols);
    }
}

__kernel void mxv_ndrange(__global const int *restrict a, __global const int *restrict x,
                          __global int *restrict y, uint cols) {
    const uint i = get_global_id(0);
    y[i] = dot(a + i * cols, x, cols);
}
