// Host for nn/kernel.cl: 10 records, 6 points against 3 centres; prints every result.
#include "hlsinstr_emu.h"

#include <cstdio>

int main() {
    float loc[20], dist[10];
    for (int i = 0; i < 10; i++) loc[2 * i] = 0.5f * i, loc[2 * i + 1] = 3.0f - 0.25f * i;
    const int n = 10;
    const float lat = 1.5f, lng = 2.0f;
    hlsinstr_emu::run("nearest_neighbor", {loc, dist, n, lat, lng}, hlsinstr_emu::NDRange(16));
    for (int i = 0; i < 10; i++) std::printf("nn %d %.6g\n", i, dist[i]);
    float pts[24], ctr[12], best[6];
    int member[6];
    for (int i = 0; i < 24; i++) pts[i] = (float)((i * 7) % 11) - 4.0f;
    for (int i = 0; i < 12; i++) ctr[i] = (float)((i * 5) % 7) - 2.0f;
    const int np = 6, nc = 3;
    hlsinstr_emu::run("kmeans_assign", {pts, ctr, member, best, np, nc}, hlsinstr_emu::NDRange(6));
    for (int i = 0; i < 6; i++) std::printf("km %d %d %.6g\n", i, member[i], best[i]);
    return 0;
}
