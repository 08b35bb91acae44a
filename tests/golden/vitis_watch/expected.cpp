#include "hlsinstr/vitis.h" // hlsinstr
// In-FPGA watchpoints: sites in the top and in callees whose pointer is the watched buffer plus
// a constant (`data + 2`, `&data[4]`), a pointer site, a site in a condition (index only), and a
// callee whose pointer is another port (not watched in hardware: a warning).
#define N 16

static void scale(int *win, int k, HLSINSTR_TRACE& hlsinstr_tr) { HLSINSTR_WATCH_SITE(0, P, 2); HLSINSTR_WATCH_SITE(1, P, 2); HLSINSTR_BR_FUNC(2, 3, P);
    HLSINSTR_BR_LOOP(4); for (int i = 0; i < 4; ++i) { HLSINSTR_BR_ITER(4);
        win[HLSINSTR_WATCH_V(0, win, i)] = win[HLSINSTR_WATCH_V(1, win, i)] * k; HLSINSTR_WATCH_POST(0, win); HLSINSTR_WATCH_POST(1, win);
    } HLSINSTR_BR_EXIT(4, P);
}

static int peek(const int *p, int i, HLSINSTR_TRACE& hlsinstr_tr) { HLSINSTR_WATCH_SITE(5, P, 4); HLSINSTR_WATCH_SITE(6, P, 4); HLSINSTR_BR_FUNC(7, 8, P);
    if (p[HLSINSTR_WATCH_R(5, p, i)] > 0) { HLSINSTR_BR(9, P);
        return *HLSINSTR_WATCH_PR(6, p, (p + i));
    }
    return 0;
}

static void copy(int *dst, const int *src, HLSINSTR_TRACE& hlsinstr_tr) { HLSINSTR_BR_FUNC(10, 11, P);
    HLSINSTR_BR_LOOP(12); for (int i = 0; i < 2; ++i) { HLSINSTR_BR_ITER(12);
        dst[i] = src[i];
    } HLSINSTR_BR_EXIT(12, P);
}

int top(int data[N], int other[N], int k, HLSINSTR_TRACE& hlsinstr_tr) { HLSINSTR_WATCH_SITE(13, P, 0); HLSINSTR_BR_FUNC(14, 15, P);
#pragma HLS INTERFACE m_axi port=other depth=16
    scale(data + 2, k, HLSINSTR_TR());
    copy(other, other + 4, HLSINSTR_TR());
    int s = peek(&data[4], 1, HLSINSTR_TR());
    data[HLSINSTR_WATCH_V(13, data, 0)] = s; HLSINSTR_WATCH_POST(13, data);
    return s;
}
