// Host for histo/kernel.cl: 64 values into 8 bins, and 5 uint4 through the bit tricks.
#include "hlsinstr_emu.h"

#include <cstdio>

int main() {
    unsigned data[64];
    for (unsigned i = 0; i < 64; i++) data[i] = (i * 2654435761u) >> 20;
    int bins[12] = {0};
    bins[10] = 0x7fffffff;
    const unsigned n = 64, nbins = 8;
    hlsinstr_emu::run("histogram", {data, bins, n, nbins}, hlsinstr_emu::NDRange(64), hlsinstr_emu::NDRange(16));
    for (int i = 0; i < 12; i++) std::printf("bin %d %d\n", i, bins[i]);
    unsigned in[20], out[20];
    int flags[5];
    for (unsigned i = 0; i < 20; i++) in[i] = i * i * 977u + (i % 3 ? 0u : 0xfffff000u);
    in[4] = 0;
    const int count = 5;
    hlsinstr_emu::run("bits", {in, out, flags, count});
    for (int i = 0; i < 20; i++) std::printf("bits %d %u\n", i, out[i]);
    for (int i = 0; i < 5; i++) std::printf("flags %d %d\n", i, flags[i]);
    return 0;
}
