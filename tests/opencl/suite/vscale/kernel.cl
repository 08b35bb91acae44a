// Vector add/scale in the style of the Intel FPGA OpenCL examples: single work-item loops over
// float4 and float8, vector * scalar and compound assignment, built-in math on vectors, vload and
// vstore, conversions with saturation and rounding, and a header beside the kernel.
#include "params.h"

__kernel void saxpy4(__global const float4 *restrict x, __global float4 *restrict y, const float a, const int n4) {
    for (int i = 0; i < n4; i++) {
        float4 t = x[i] * a;
        t *= SCALE;
        t += BIAS;
        y[i] = mad(t, (float4)(0.5f), y[i]);
    }
}

__kernel void shape(__global const float *restrict in, __global float *restrict out, __global int *restrict q,
                    const int n8) {
    for (int i = 0; i < n8; i++) {
        float8 v = vload8(i, in);
        float8 w = clamp(v * 2.0f - 1.0f, -LIMIT, LIMIT);
        w = fmax(w, 0.25f) + exp(-fabs(v)) + log(1.0f + v * v) + pow(fabs(v) + 1.0f, (float8)(1.5f));
        w = mix(w, sqrt(fabs(w)), 0.5f) + smoothstep(0.0f, 4.0f, v) + step(1.0f, v) + sign(v);
        vstore8(w, i, out);
        int4 r = convert_int4_sat_rte(w.lo * 1000.0f);
        int4 s = convert_int4(floor(w.hi));
        vstore4(r + s * (int4)(1, 10, 100, 1000), i, q);
    }
}
