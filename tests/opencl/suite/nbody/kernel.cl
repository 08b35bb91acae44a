// One n-body step (the common OpenCL n-body kernel shape): float4 positions with the mass in
// .w, swizzles, rsqrt, fma, normalize/length/cross on float3, and a const softening parameter.
__kernel void nbody_step(__global const float4 *restrict pos, __global float4 *restrict vel,
                         __global float4 *restrict out, const int n, const float dt, const float eps2) {
    const int i = get_global_id(0);
    float4 p = pos[i];
    float3 acc = (float3)(0.0f, 0.0f, 0.0f);
    for (int j = 0; j < n; j++) {
        float4 q = pos[j];
        float3 d = q.xyz - p.xyz;
        float r2 = fma(d.x, d.x, fma(d.y, d.y, fma(d.z, d.z, eps2)));
        float inv = rsqrt(r2);
        acc += d * (q.w * inv * inv * inv);
    }
    float4 v = vel[i] + (float4)(acc * dt, 0.0f);
    vel[i] = v;
    float3 axis = normalize(cross(v.xyz, (float3)(0.0f, 0.0f, 1.0f)));
    out[i] = (float4)(p.x + v.x * dt, p.y + v.y * dt, length(acc), axis.x + axis.y);
}
