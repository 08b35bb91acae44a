// Matrix multiply C = A x B (A: rows x inner, B: inner x cols, row-major), single work-item,
// the kernel of seed 004's stall-monitor case study (section 5.1, Listing 9). The loads of the
// inner loop are what a stall monitor watches:
//   hlsinstr rewrite kernels --probes stall --at mm.cl:15 --at mm.cl:16 --out build/sm
__attribute__((max_global_work_dim(0)))
__kernel void mm(__global const float *restrict data_a, __global const float *restrict data_b,
                 __global float *restrict data_c, uint rows, uint inner, uint cols) {
    for (uint i = 0; i < rows; i++) {
        for (uint j = 0; j < cols; j++) {
            float sum = 0.0f;
            // B is read down a column: consecutive iterations are `cols` floats apart, so on
            // hardware these loads burst poorly and stall the pipeline more than A's.
            #pragma ivdep
            for (uint k = 0; k < inner; k++) {
                float b = data_b[k * cols + j];
                float a = data_a[i * inner + k];
                sum += a * b;
            }
            data_c[i * cols + j] = sum;
        }
    }
}
