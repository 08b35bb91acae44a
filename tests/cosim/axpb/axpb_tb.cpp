// Testbench of axpb(): three calls, negative values included; returns the error count.
#include <cstdio>
#include <ap_int.h>

ap_int<20> axpb(ap_int<12> a, ap_int<12> x, short b);

int main() {
    const int a[3] = {3, -2047, 100}, x[3] = {5, 7, -9};
    const short b[3] = {-20, 1000, 32767};
    int errors = 0;
    for (int i = 0; i < 3; i++) {
        ap_int<20> r = axpb(a[i], x[i], b[i]);
        std::printf("axpb(%d, %d, %d) = %d\n", a[i], x[i], b[i], r.to_int());
        if (r != ap_int<20>(a[i] * x[i] + b[i])) errors++;
    }
    return errors;
}
