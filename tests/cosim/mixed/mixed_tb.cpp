// Testbench of mixed(): three calls with different values; returns the error count.
#include <cstdio>
#include <hls_stream.h>

int mixed(const int coef[8], int acc[4], int scale, int bias, int gain, int *peak, int &cnt,
          hls::stream<int> &in, hls::stream<int> &out);

int main() {
    int coef[8] = {1, 2, 3, 4, -5, -6, -7, -8};
    int acc[4] = {10, 20, 30, 40};
    hls::stream<int> in, out;
    int errors = 0;
    for (int call = 0; call < 3; call++) {
        for (int i = 0; i < 4; i++) in.write(call * 7 - i * 3 + 2);
        int peak = -1, cnt = -1;
        int r = mixed(coef, acc, call + 2, 100 * call, 3 - call, &peak, cnt, in, out);
        int sum = 0;
        while (!out.empty()) sum += out.read();
        std::printf("call %d: return %d peak %d cnt %d out-sum %d acc0 %d\n", call, r, peak, cnt, sum, acc[0]);
        if (r != peak + 100 * call) errors++;
    }
    return errors;
}
