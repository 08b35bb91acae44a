// Testbench of lite2(): three calls; returns the error count.
#include <cstdio>

int lite2(int x, int y, int k);

int main() {
    int errors = 0;
    for (int call = 0; call < 3; call++) {
        int r = lite2(call * 7 - 3, 1000 + call, 5 - 4 * call);
        std::printf("call %d: %d\n", call, r);
        if (r != (call * 7 - 3) * (5 - 4 * call) + 1000 + call) errors++;
    }
    return errors;
}
