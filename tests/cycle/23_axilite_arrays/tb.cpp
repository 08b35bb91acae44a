#include <cstdio>
#include "kernel.h"

int main() {
    int a[N], out[N];
    short b[N];
    int errors = 0;
    for (int call = 0; call < 3; call++) {
        int k = call + 2;
        for (int i = 0; i < N; i++) {
            a[i] = i * (call + 1);
            b[i] = (short)(100 - i);
        }
        scale_add(a, b, out, k);
        for (int i = 0; i < N; i++) {
            if (out[i] != a[i] * k + b[i]) {
                errors++;
            }
        }
    }
    printf("%d errors\n", errors);
    return errors;
}
