/* Plain C reference for histo/kernel.cl. */
#include <stdint.h>
#include <stdio.h>

static unsigned popc(unsigned x) { unsigned n = 0; for (; x; x &= x - 1) n++; return n; }
static unsigned clz32(unsigned x) { unsigned n = 0; for (int b = 31; b >= 0 && !((x >> b) & 1); b--) n++; return n; }
static unsigned rot(unsigned v, unsigned s) { s %= 32; return s ? (v << s) | (v >> (32 - s)) : v; }
static unsigned mulhi(unsigned a, unsigned b) { return (unsigned)(((uint64_t)a * b) >> 32); }
static unsigned addsat(unsigned a, unsigned b) { unsigned r = a + b; return r < a ? 0xffffffffu : r; }
static unsigned hadd(unsigned a, unsigned b) { return (a >> 1) + (b >> 1) + (a & b & 1); }
static unsigned absdiff(unsigned a, unsigned b) { return a > b ? a - b : b - a; }
static unsigned umin(unsigned a, unsigned b) { return b < a ? b : a; }
static unsigned umax(unsigned a, unsigned b) { return a < b ? b : a; }

int main(void) {
    unsigned data[64];
    int bins[12] = {0};
    bins[10] = 0x7fffffff;
    for (unsigned i = 0; i < 64; i++) data[i] = (i * 2654435761u) >> 20;
    for (unsigned i = 0; i < 64; i++) {
        unsigned v = data[i];
        bins[v % 8]++;
        bins[8] += (int)(v & 7u);
        if ((int)v > bins[9]) bins[9] = (int)v;
        if ((int)v < bins[10]) bins[10] = (int)v;
        bins[11] |= 1 << (v % 16u);
    }
    for (int i = 0; i < 12; i++) printf("bin %d %d\n", i, bins[i]);
    unsigned in[20], out[20];
    int flags[5];
    for (unsigned i = 0; i < 20; i++) in[i] = i * i * 977u + (i % 3 ? 0u : 0xfffff000u);
    in[4] = 0;
    for (int i = 0; i < 5; i++) {
        int any = 0, all = 1;
        for (int k = 0; k < 4; k++) {
            unsigned v = in[4 * i + k];
            unsigned r = popc(v) + clz32(v) + rot(v, 3) + mulhi(v, 0x9e3779b9u);
            r = r + addsat(v, 0xfffffff0u) + hadd(v, 7u) + absdiff(v, 1000u);
            r += ((unsigned)(i & 0xffff) << 16) | 3u;
            r = r < 10u ? 10u : r > 4000000000u ? 4000000000u : r;
            r = r ^ umin(v, 77u) ^ umax(v, 5u);
            out[4 * i + k] = r;
            if (v > 1000u) any = 1;
            if (v == 0u) all = 0;
        }
        int gt = in[4 * i] > 100u ? -1 : 0;
        flags[i] = any + 2 * all + 4 * gt * gt;
    }
    for (int i = 0; i < 20; i++) printf("bits %d %u\n", i, out[i]);
    for (int i = 0; i < 5; i++) printf("flags %d %d\n", i, flags[i]);
    return 0;
}
