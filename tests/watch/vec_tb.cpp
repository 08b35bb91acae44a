// Two calls of the top; the second asks for 9 elements of an 8-element buffer. mem[8] is slack
// the kernel's bug reaches in the original build (never printed).
#include "vec.h"
#include <cstdio>

int main() {
    int mem[9] = {5, 1, 0, 3, 4, 2, 6, 7, 0};
    const int delta[16] = {1, 1, -3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    int a = vec_top(mem, delta, 4);
    int b = vec_top(mem, delta, 9);
    for (int i = 0; i < 8; ++i) std::printf("%d ", mem[i]);
    std::printf("\nsums %d %d\n", a, b);
    return 0;
}
