#include "hlsinstr/probe.h" // hlsinstr
#include <cstring>

struct Pixel {
  short r, g, b;
};

const int N = 64;

// Reached from top: `in + off` makes `src` a port of gmem0.
static int read_block(const int *src, int buf[N], int n) { HLSINSTR_FUNC_BEGIN(0, P, 0); HLSINSTR_MAXI_PORTS(1, 1);
  int sum = 0;
  HLSINSTR_LEAF_BEGIN(2, P, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(2);
    buf[i] = src[HLSINSTR_MAXI_R(1, src, i)];          // read (buf is local memory: untouched)
    sum += *HLSINSTR_MAXI_R(1, src, (src + i));        // read through a dereference
  } HLSINSTR_LEAF_END(2, P, 0);
  return HLSINSTR_RETURN(0, P, sum + sizeof(src[0])); // unevaluated: not counted
}

// `out` receives `&dst[k]`; `acc` is a plain pointer no port reaches.
static void write_block(int *const out, const int *buf, int n, int *acc) { HLSINSTR_FUNC_BEGIN(3, P, 0); HLSINSTR_MAXI_PORTS(4, 1);
  HLSINSTR_LEAF_BEGIN(5, P, 0); for (int i = 0; i < n; ++i) { HLSINSTR_LOOP_ITER(5);
    out[HLSINSTR_MAXI_W(4, out, i)] = buf[i];          // write
    out[HLSINSTR_MAXI_RW(4, out, i)] += 1;              // read and write
    ++*acc;
  } HLSINSTR_LEAF_END(5, P, 0);
  *HLSINSTR_MAXI_W(4, out, out) = 0;                   // write through a dereference
  out[HLSINSTR_MAXI_RW(4, out, 0)]++; HLSINSTR_FUNC_END(3, P, 0);                   // read and write
}

// A 2-D port and a struct port, both with their own pragmas.
int fields(Pixel *px, const short m[4][8]) { HLSINSTR_FUNC_BEGIN(6, P, 0); HLSINSTR_MAXI_PORTS(7, 2);
#pragma HLS INTERFACE m_axi port=px bundle=gmem2
#pragma HLS INTERFACE m_axi port=m
  HLSINSTR_MAXI_W(7, px, px)->r = m[1][HLSINSTR_MAXI_R(8, m, 2)];
  px[HLSINSTR_MAXI_RW(7, px, 1)].g++;
  return HLSINSTR_RETURN(6, P, px[HLSINSTR_MAXI_R(7, px, 0)].b);
}

// Templates and methods are reached by name, like every call.
template <class T>
static T first(const T *p) { HLSINSTR_FUNC_BEGIN(9, P, 0); HLSINSTR_MAXI_PORTS(10, 1);
  return HLSINSTR_RETURN(9, P, *HLSINSTR_MAXI_R(10, p, p));
}

struct Reader {
  int get(const int *p, int i) const { HLSINSTR_FUNC_BEGIN(11, P, 0); HLSINSTR_MAXI_PORTS(12, 1); return HLSINSTR_RETURN(11, P, p[HLSINSTR_MAXI_R(12, p, i)]); }
};

int unknown(const int *p);

void top(const int *in, int *dst, const int *const lut, int n) { HLSINSTR_FUNC_BEGIN(13, P, 0); HLSINSTR_MAXI_PORTS(14, 3);
#pragma HLS INTERFACE m_axi port=in offset=slave bundle=gmem0
#pragma HLS INTERFACE mode=m_axi port=dst bundle=gmem1
#pragma HLS INTERFACE m_axi port=lut bundle=gmem0
#pragma HLS INTERFACE s_axilite port=n
  int buf[N];
  int acc = 0;
  int total = read_block(in + 8, buf, n);
  write_block(&dst[4], buf, n, &acc);
  std::memcpy(buf, lut, HLSINSTR_MAXI_RN(16, lut, 16 * sizeof(int))); // memcpy from a port: 64 bytes read
  memcpy(dst, in, HLSINSTR_MAXI_WN(15, dst, HLSINSTR_MAXI_RN(14, in, n * sizeof(int))));        // both ports: written and read
  const int *alias = lut;                  // uncounted: a local pointer
  total += alias[0] + unknown(in) + lut[HLSINSTR_MAXI_R(16, lut, total & 7)] + first(lut) + Reader().get(in, 2);
  auto twice = [&](int i) { return 2 * in[i]; }; // uncounted: in a lambda
  dst[HLSINSTR_MAXI_W(15, dst, 0)] = total + twice(1); HLSINSTR_FUNC_END(13, P, 0);
}
