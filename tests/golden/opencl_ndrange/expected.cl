#include "hlsinstr_probe.cl" // hlsinstr
/* An NDRange kernel: one work-item per element; vector types and address spaces. */
__constant float scale[4] = {1.0f, 2.0f, 3.0f, 4.0f};

float4 weigh(float4 v, __constant const float *w) { HLSINSTR_FUNC_BEGIN(0, T, v);
  return HLSINSTR_RETURN(0, T, v * (float4)(w[0], w[1], w[2], w[3]));
}

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void saxpy4(__global const float4 *x, __global float4 *y, const float a, __private int n) { HLSINSTR_FUNC_BEGIN(1, T, a);
  size_t gid = get_global_id(0);
  if (gid >= (size_t)n) return HLSINSTR_RETURN_VOID(1, T);
  __local float4 tile[64];
  tile[get_local_id(0)] = weigh(x[gid], scale);
  barrier(CLK_LOCAL_MEM_FENCE);
  float4 acc = (float4)(0.0f);
  HLSINSTR_LOOP_BEGIN(2, T, 0); for (int k = 0; k < 4; k++)
    {/*hlsinstr*/ HLSINSTR_LOOP_ITER(2); acc += a * tile[(get_local_id(0) + k) % 64]; }/*hlsinstr*/ HLSINSTR_LOOP_END(2, T, 0);
  y[gid] = acc.xyzw + y[gid]; HLSINSTR_FUNC_END(1, T, 0);
}

__kernel void image_copy(__read_only image2d_t src, __write_only image2d_t dst) { HLSINSTR_FUNC_BEGIN(3, T, src);
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, p, read_imagef(src, p)); HLSINSTR_FUNC_END(3, T, 0);
}
