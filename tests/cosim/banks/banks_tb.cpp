// Testbench of banks(): two calls with different values; returns the error count.
#include <cstdio>

void banks(const int a[8], int b[8], const int c[4], int m[2][4], int acc[4], int o[2]);

int main() {
    int errors = 0;
    int acc[4] = {1, 2, 3, 4};
    int m[2][4] = {{1, 2, 3, 4}, {10, 20, 30, 40}};
    for (int call = 0; call < 2; call++) {
        int a[8], b[8] = {0}, c[4], o[2] = {-1, -1};
        for (int i = 0; i < 8; i++) a[i] = (i + 1) * (call + 1) * 3 - 7;
        for (int i = 0; i < 4; i++) c[i] = 100 * call + i * 11 + 5;
        banks(a, b, c, m, acc, o);
        std::printf("call %d: b0 %d b4 %d m13 %d acc %d %d %d %d o %d %d\n", call, b[0], b[4], m[1][3], acc[0],
                    acc[1], acc[2], acc[3], o[0], o[1]);
        if (b[0] != a[0] + a[1] + c[0]) errors++;
    }
    return errors;
}
