// In-FPGA watchpoints: sites in the top and in callees whose pointer is the watched buffer plus
// a constant (`data + 2`, `&data[4]`), a pointer site, a site in a condition (index only), and a
// callee whose pointer is another port (not watched in hardware: a warning).
#define N 16

static void scale(int *win, int k) {
    for (int i = 0; i < 4; ++i) {
        win[i] = win[i] * k;
    }
}

static int peek(const int *p, int i) {
    if (p[i] > 0) {
        return *(p + i);
    }
    return 0;
}

static void copy(int *dst, const int *src) {
    for (int i = 0; i < 2; ++i) {
        dst[i] = src[i];
    }
}

int top(int data[N], int other[N], int k) {
#pragma HLS INTERFACE m_axi port=other depth=16
    scale(data + 2, k);
    copy(other, other + 4);
    int s = peek(&data[4], 1);
    data[0] = s;
    return s;
}
