/* An NDRange kernel: one work-item per element; vector types and address spaces. */
__constant float scale[4] = {1.0f, 2.0f, 3.0f, 4.0f};

float4 weigh(float4 v, __constant const float *w) {
  return v * (float4)(w[0], w[1], w[2], w[3]);
}

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void saxpy4(__global const float4 *x, __global float4 *y, const float a, __private int n) {
  size_t gid = get_global_id(0);
  if (gid >= (size_t)n) return;
  __local float4 tile[64];
  tile[get_local_id(0)] = weigh(x[gid], scale);
  barrier(CLK_LOCAL_MEM_FENCE);
  float4 acc = (float4)(0.0f);
  for (int k = 0; k < 4; k++)
    acc += a * tile[(get_local_id(0) + k) % 64];
  y[gid] = acc.xyzw + y[gid];
}

__kernel void image_copy(__read_only image2d_t src, __write_only image2d_t dst) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, p, read_imagef(src, p));
}
