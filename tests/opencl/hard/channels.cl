// Channel arrays, struct-typed channels with depth, non-blocking reads with a `&valid` flag.
#pragma OPENCL EXTENSION cl_intel_channels : enable

typedef struct {
  float x, y;
  uint tag;
} sample_t;

struct pixel {
  uchar r, g, b, a;
};

channel sample_t samples __attribute__((depth(32)));
channel struct pixel pix[4] __attribute__((depth(16)));
channel int lanes[2][3] __attribute__((depth(0)));
channel ulong done;

__kernel void source(__global const sample_t *restrict in, int n) {
  for (int i = 0; i < n; i++) {
    write_channel_intel(samples, in[i]);
  }
}

__attribute__((max_global_work_dim(0)))
__kernel void fan_out(int n) {
  for (int i = 0; i < n; i++) {
    sample_t s = read_channel_intel(samples);
    struct pixel p = { (uchar)s.x, (uchar)s.y, 0, 255 };
    #pragma unroll
    for (int k = 0; k < 4; k++) {
      write_channel_intel(pix[k], p);
    }
    write_channel_intel(lanes[i & 1][i % 3], (int)s.tag);
  }
  write_channel_intel(done, (ulong)n);
}

__attribute__((max_global_work_dim(0)))
__kernel void poll(__global uint *restrict out, int n) {
  int got = 0;
  bool valid = false;
  while (got < n) {
    struct pixel p = read_channel_nb_intel(pix[got & 3], &valid);
    if (!valid) continue;
    out[got++] = p.r | (uint)p.g << 8;
  }
  bool finished;
  ulong total = read_channel_nb_intel(done, &finished);
  if (finished && total != (ulong)n) out[0] = 0xdead;
}

__kernel void lane_sum(__global int *out) {
  int s = 0;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      s += read_channel_intel(lanes[i][j]);
  out[0] = s;
}
