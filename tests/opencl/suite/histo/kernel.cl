// A histogram with global atomics (Parboil/Spector histo style) and a kernel of integer bit
// tricks on vectors: popcount, clz, rotate, mul_hi, saturating and halving adds, abs_diff,
// upsample, min/max/clamp with a scalar, comparisons and select.
__kernel void histogram(__global const uint *restrict data, volatile __global int *restrict bins,
                        const uint n, const uint nbins) {
    const uint gid = get_global_id(0);
    if (gid >= n) return;
    const uint v = data[gid];
    atomic_inc(&bins[v % nbins]);
    atomic_add(&bins[nbins], (int)(v & 7u));
    atomic_max(&bins[nbins + 1], (int)v);
    atomic_min(&bins[nbins + 2], (int)v);
    atomic_or(&bins[nbins + 3], 1 << (v % 16u));
}

__kernel void bits(__global const uint4 *restrict in, __global uint4 *restrict out, __global int *restrict flags,
                   const int n) {
    for (int i = 0; i < n; i++) {
        uint4 v = in[i];
        uint4 r = popcount(v) + clz(v) + rotate(v, (uint4)(3u)) + mul_hi(v, (uint4)(0x9e3779b9u));
        r = r + add_sat(v, (uint4)(0xfffffff0u)) + hadd(v, (uint4)(7u)) + abs_diff(v, (uint4)(1000u));
        r += upsample((ushort)(i & 0xffff), (ushort)3);
        r = clamp(r, 10u, 4000000000u) ^ min(v, 77u) ^ max(v, 5u);
        out[i] = r;
        int4 gt = convert_int4(v > (uint4)(100u));
        flags[i] = (any(v > (uint4)(1000u)) ? 1 : 0) + 2 * (all(v != (uint4)(0u)) ? 1 : 0) + 4 * gt.x * gt.x;
    }
}
