#include <cstring>

struct Pixel {
  short r, g, b;
};

const int N = 64;

// Reached from top: `in + off` makes `src` a port of gmem0.
static int read_block(const int *src, int buf[N], int n) {
  int sum = 0;
  for (int i = 0; i < n; i++) {
    buf[i] = src[i];          // read (buf is local memory: untouched)
    sum += *(src + i);        // read through a dereference
  }
  return sum + sizeof(src[0]); // unevaluated: not counted
}

// `out` receives `&dst[k]`; `acc` is a plain pointer no port reaches.
static void write_block(int *const out, const int *buf, int n, int *acc) {
  for (int i = 0; i < n; ++i) {
    out[i] = buf[i];          // write
    out[i] += 1;              // read and write
    ++*acc;
  }
  *out = 0;                   // write through a dereference
  out[0]++;                   // read and write
}

// A 2-D port and a struct port, both with their own pragmas.
int fields(Pixel *px, const short m[4][8]) {
#pragma HLS INTERFACE m_axi port=px bundle=gmem2
#pragma HLS INTERFACE m_axi port=m
  px->r = m[1][2];
  px[1].g++;
  return px[0].b;
}

// Templates and methods are reached by name, like every call.
template <class T>
static T first(const T *p) {
  return *p;
}

struct Reader {
  int get(const int *p, int i) const { return p[i]; }
};

int unknown(const int *p);

void top(const int *in, int *dst, const int *const lut, int n) {
#pragma HLS INTERFACE m_axi port=in offset=slave bundle=gmem0
#pragma HLS INTERFACE mode=m_axi port=dst bundle=gmem1
#pragma HLS INTERFACE m_axi port=lut bundle=gmem0
#pragma HLS INTERFACE s_axilite port=n
  int buf[N];
  int acc = 0;
  int total = read_block(in + 8, buf, n);
  write_block(&dst[4], buf, n, &acc);
  std::memcpy(buf, lut, 16 * sizeof(int)); // memcpy from a port: 64 bytes read
  memcpy(dst, in, n * sizeof(int));        // both ports: written and read
  const int *alias = lut;                  // uncounted: a local pointer
  total += alias[0] + unknown(in) + lut[total & 7] + first(lut) + Reader().get(in, 2);
  auto twice = [&](int i) { return 2 * in[i]; }; // uncounted: in a lambda
  dst[0] = total + twice(1);
}
