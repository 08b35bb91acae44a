// m_axi byte counting, written as the rewriter writes it: reads, writes, read-modify-writes,
// dereferences, `->`, a 2-D array port, memcpy in both directions, templates, early returns,
// recursion; values and value categories pass through the wrappers untouched.
// maxi.h before probe.h (through check.h): either order works.
#include "hlsinstr/maxi.h"

#include "check.h"

#include <cstring>

struct Pixel {
    short r, g, b;
};

// ports 1 (in) and 2 (out)
static int copy_sum(const int* in, int* out, int n) { HLSINSTR_FUNC_BEGIN(0, P, n); HLSINSTR_MAXI_PORTS(1, 2);
    int s = 0;
    for (int i = 0; i < n; i++) {
        out[HLSINSTR_MAXI_W(2, out, i)] = in[HLSINSTR_MAXI_R(1, in, i)];
        s += 2 * in[HLSINSTR_MAXI_R(1, in, i)] - in[HLSINSTR_MAXI_R(1, in, i)]; // two in one expression
    }
    if (n == 0) return HLSINSTR_RETURN(0, P, -1); // early exit: no traffic, no R/W records
    out[HLSINSTR_MAXI_RW(2, out, 0)] += 100;
    ++*HLSINSTR_MAXI_RW(2, out, out);
    return HLSINSTR_RETURN(0, P, s);
}

// port 4: dereferences and pointer arithmetic; the wrapped operand is evaluated once
static long walk(const long* p, int n) { HLSINSTR_FUNC_BEGIN(3, P, n); HLSINSTR_MAXI_PORTS(4, 1);
    long s = *HLSINSTR_MAXI_R(4, p, (p + 1));
    for (int i = 0; i < n; i++) s += *HLSINSTR_MAXI_R(4, p, p++);
    return HLSINSTR_RETURN(3, P, s);
}

// port 6: a struct element through `->` and `[].`; port 7: a 2-D array counts elements, not rows
static int fields(Pixel* px, const short m[3][4]) { HLSINSTR_FUNC_BEGIN(5, P, 0); HLSINSTR_MAXI_PORTS(6, 2);
    HLSINSTR_MAXI_W(6, px, px)->r = 7;
    px[HLSINSTR_MAXI_RW(6, px, 1)].g++;
    int s = 0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++) s += m[r][HLSINSTR_MAXI_R(7, m, c)];
    return HLSINSTR_RETURN(5, P, s);
}

// ports 9 (dst) and 10 (src): memcpy sizes count bytes; both wrappers on one size nest
static void copy(int* dst, const int* src, int n) { HLSINSTR_FUNC_BEGIN(8, P, n); HLSINSTR_MAXI_PORTS(9, 2);
    int local[8];
    std::memcpy(local, src, HLSINSTR_MAXI_RN(10, src, n * sizeof(int)));
    std::memcpy(dst + n, src, HLSINSTR_MAXI_WN(9, dst, HLSINSTR_MAXI_RN(10, src, 2 * sizeof(int))));
    memcpy(dst, local, HLSINSTR_MAXI_WN(9, dst, n * sizeof(int)));
HLSINSTR_FUNC_END(8, P, 0); }

// port 12: a template element type; the index lvalue and the element lvalue stay lvalues
template <class T>
static T& pick(T* a, int& i) { HLSINSTR_FUNC_BEGIN(11, P, 0); HLSINSTR_MAXI_PORTS(12, 1);
    int& same = HLSINSTR_MAXI_R(12, a, i); // (count, (i)) is still `i`
    ++same;
    return HLSINSTR_RETURN(11, P, a[HLSINSTR_MAXI_R(12, a, i)]);
}

// port 14: each recursive invocation reports its own bytes, before its own end
static int depth_sum(const int* a, int n) { HLSINSTR_FUNC_BEGIN(13, P, n); HLSINSTR_MAXI_PORTS(14, 1);
    if (n == 0) return HLSINSTR_RETURN(13, P, 0);
    return HLSINSTR_RETURN(13, P, a[HLSINSTR_MAXI_R(14, a, n - 1)] + depth_sum(a, n - 1));
}

int main() {
    int bad = 0;
    int in[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0};
    bad += copy_sum(in, out, 4) != 10;
    bad += out[0] != 102 || out[3] != 4;
    bad += copy_sum(in, out, 0) != -1;

    long ls[4] = {10, 20, 30, 40};
    bad += walk(ls, 3) != 20 + 10 + 20 + 30;

    Pixel px[2] = {{0, 0, 0}, {0, 5, 0}};
    short m[3][4];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++) m[r][c] = static_cast<short>(r + c);
    bad += fields(px, m) != 30;
    bad += px[0].r != 7 || px[1].g != 6;

    int dst[6] = {0, 0, 0, 0, 0, 0};
    copy(dst, in, 3);
    bad += dst[0] != 1 || dst[2] != 3 || dst[3] != 1 || dst[4] != 2;

    double d[3] = {0.5, 1.5, 2.5};
    int i = 0;
    pick(d, i) = 9.0; // the returned element is an lvalue of d
    bad += i != 1 || d[1] != 9.0;

    bad += depth_sum(in, 2) != 3;
    if (bad) std::printf("FAIL %d wrong results\n", bad);

    std::vector<LogLine> log = read_log();
    const std::string want =
        "B0 R1:48 R2:8 W2:24 E0 "  // in: 4 reads thrice; out: 4 writes, then += and ++ read and write
        "B0 E0 "                    // n == 0: nothing moved, nothing recorded
        "B3 R4:32 E3 "              // *(p + 1) and three *p++, 8 bytes each
        "B5 R6:6 W6:12 R7:24 E5 "   // ->r written (6), [1].g++ (6 + 6); 12 shorts read
        "B8 W9:20 R10:20 E8 "        // ports in id order: 8 + 12 bytes written, 12 + 8 read
        "B11 R12:16 E11 "           // two 8-byte reads
        "B13 B13 B13 E13 R14:4 E13 R14:4 E13"; // innermost first: its bytes, then its end
    expect_eq("event sequence", compact(log, 0), want);
    for (size_t k = 0; k < log.size(); ++k) {
        if ((log[k].event == 'R' || log[k].event == 'W') && (log[k].seq != "-" || log[k].ts != "-")) {
            std::printf("FAIL an R/W record carries a seq or timestamp\n");
            ++failures;
            break;
        }
    }
    if (failures == 0 && bad == 0) std::printf("ok %zu records\n", log.size());
    return failures + bad;
}
