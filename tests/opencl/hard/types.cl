// struct, union, typedef, enum, __constant tables, restrict and const pointers.
typedef enum { MODE_ADD = 0, MODE_MUL = 1, MODE_MAX } mode_t;

typedef union {
  float f;
  uint u;
} bits_t;

struct acc {
  long sum;
  int count;
  mode_t mode;
};

__constant float coeffs[4] = { 0.25f, 0.5f, 0.125f, 0.125f };
__constant int lut[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };

static uint as_bits(float f) {
  bits_t b;
  b.f = f;
  return b.u;
}

void accumulate(struct acc *a, int v) {
  switch (a->mode) {
  case MODE_ADD:
    a->sum += v;
    break;
  case MODE_MUL:
    a->sum *= v;
    break;
  default:
    return;
  }
  a->count++;
}

// Address spaces without underscores, a local array in the body, a `constant` parameter.
kernel void plain_words(global int *restrict out, constant int *restrict table, local int *scratch) {
  local int tile[8];
  private int mine = table[get_local_id(0) & 7];
  tile[get_local_id(0) & 7] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  scratch[0] = tile[0];
  out[get_global_id(0)] = scratch[0] + tile[7];
}

__kernel void fir(__global const float *restrict x, __global float *restrict y,
                  __global uint *restrict raw, __local float *restrict tile, int n) {
  int i = get_global_id(0);
  int l = get_local_id(0);
  tile[l] = x[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  float s = 0.0f;
  for (int k = 0; k < 4; k++) {
    s += coeffs[k] * tile[(l + k) % 64];
  }
  y[i] = s + (float)lut[i & 1][i % 3];
  raw[i] = as_bits(s);
  struct acc a = { 0, 0, MODE_ADD };
  accumulate(&a, n);
  if (a.count == 0) return;
}
