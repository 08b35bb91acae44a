// Vector types and literals, swizzles, .hi/.lo, half precision through vload_half/vstore_half.
__kernel void vec_ops(__global float4 *restrict out, __global const float4 *restrict in,
                      __global half *restrict h, __global float2 *restrict pairs) {
  size_t i = get_global_id(0);
  float4 one = (float4)(1.0f);
  float4 mix = (float4)(1.0f, 2.0f, (float2)(3.0f, 4.0f));
  float4 v = in[i] * one + mix;
  float4 r = v.s0123;
  r.xy = v.zw;
  r.hi = v.lo;
  float2 p = pairs[i];
  p = p.yx + (float2)(0.5f);
  int4 mask = isgreater(v, one);
  out[i] = select(r, v, mask);
  float f = vload_half(i, h);
  vstore_half(f * 2.0f + p.x + v.s3, i, h);
}

float dot4(float4 a, float4 b) {
  float4 m = a * b;
  return m.x + m.y + m.z + m.w;
}

__kernel void dots(__global float *out, __global const float8 *m, uint n) {
  for (uint k = 0; k < n; k++) {
    float8 row = m[k];
    out[k] = dot4(row.lo, row.hi) + (float)convert_int(row.s7);
  }
}
