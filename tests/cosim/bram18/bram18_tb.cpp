// Testbench of bram18(): two calls; returns the error count.
#include <cstdio>
#include <ap_int.h>

void bram18(ap_uint<16> w[8], const ap_uint<12> t[4], ap_uint<16> *sum);

int main() {
    int errors = 0;
    ap_uint<16> w[8];
    for (int i = 0; i < 8; i++) w[i] = 0x1234 * (i + 1);
    for (int call = 0; call < 2; call++) {
        ap_uint<12> t[4];
        for (int i = 0; i < 4; i++) t[i] = 0x9a7 * (i + 1) + call * 0x55;
        ap_uint<16> sum = 0;
        bram18(w, t, &sum);
        std::printf("call %d: w0 %x w1 %x w7 %x sum %x\n", call, (unsigned)w[0], (unsigned)w[1], (unsigned)w[7],
                    (unsigned)sum);
        if ((w[1] & 0xff) != (t[0] & 0xff)) errors++;
    }
    return errors;
}
