// The models of Vitis headers the open set lacks (hls-lib/include/hlsinstr/vendor), checked
// against UG1399's documented behaviour. Prints "ok" and exits 0, else names the failed check.
#include "ap_axi_sdata.h"
#include "ap_cint.h"
#include "ap_fixed.h"
#include "ap_utils.h" // Vivado HLS' place of etc/ap_utils.h
#include "etc/ap_utils.h"
#include "hls_burst_maxi.h"
#include "hls_directio.h"
#include "hls_fence.h"
#include "hls_math.h"
#include "hls_print.h"
#include "hls_stream.h"
#include "hls_vector.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <unistd.h>

static int failures = 0;
#define CHECK(c)                                                                                                 \
    do {                                                                                                         \
        if (!(c)) {                                                                                              \
            std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c);                                             \
            ++failures;                                                                                          \
        }                                                                                                        \
    } while (0)

static void vectors() {
    hls::vector<int, 4> a = {1, 2, 3, 4}, b(2), c;
    CHECK(b[0] == 2 && b[3] == 2);
    c = a + b;
    CHECK(c[0] == 3 && c[3] == 6);
    c = a * 3;
    CHECK(c[1] == 6);
    c = 10 - a;
    CHECK(c[0] == 9 && c[3] == 6);
    c = a << 1;
    CHECK(c[2] == 6);
    c += a;
    CHECK(c[2] == 9);
    CHECK(a.reduce_add() == 10 && a.reduce_mult() == 24 && a.reduce_max() == 4 && a.reduce_min() == 1);
    CHECK((a ^ a).reduce_or() == 0 && a.reduce_xor() == (1 ^ 2 ^ 3 ^ 4));
    hls::vector<int, 4> d = {1, 2};
    CHECK(d[2] == 0 && d[3] == 0);
    CHECK(a == a && a != b && d < a);
    CHECK((-a)[1] == -2);
    hls::vector<int, 4> e = a;
    CHECK(e++ == a && e[0] == 2);
    CHECK((hls::vector<int, 4>::size() == 4));
}

static void axi_side_channels() {
    ap_axis<32, 2, 5, 6> p;
    p.data = -5;
    p.keep = -1;
    p.last = 1;
    p.user = 3;
    p.id = 31;
    p.dest = 63;
    CHECK(p.data == -5 && p.keep == 0xF && p.user == 3 && p.id == 31 && p.dest == 63 && p.last == 1);
    ap_axiu<8, 0, 0, 0> u;
    u.data = 255;
    CHECK(u.data == 255 && u.keep.length() == 1);
    hls::stream<hls::axis<float, 0, 0, 0> > s;
    hls::axis<float, 0, 0, 0> f;
    f.data = 1.5f;
    f.last = 1;
    s.write(f);
    hls::axis<float, 0, 0, 0> g = s.read();
    CHECK(g.data == 1.5f && g.last == 1 && g.keep.length() == 4);
}

static void burst_kernel(hls::burst_maxi<int> in, hls::burst_maxi<int> out, int n) {
    in.read_request(2, n);
    out.write_request(0, n);
    for (int i = 0; i < n; i++) out.write(in.read() * 10);
    out.write_response();
}

static void bursts() {
    int in[8] = {0, 1, 2, 3, 4, 5, 6, 7}, out[8] = {0};
    burst_kernel(in, out, 4);
    CHECK(out[0] == 20 && out[3] == 50 && out[4] == 0);
    hls::burst_maxi<int> m(out);
    m.write_request(5, 1);
    m.write(0x11223344, 0x3); // the two low bytes only
    m.write_response();
    CHECK(out[5] == 0x3344);
}

static void math() {
    typedef ap_fixed<16, 8> fx;
    CHECK(hls::sqrt(fx(2.25)) == fx(1.5));
    CHECK(hls::fabs(fx(-3.5)) == fx(3.5) && hls::abs(fx(-1)) == fx(1));
    CHECK(hls::floor(fx(-1.25)) == fx(-2) && hls::ceil(fx(1.25)) == fx(2) && hls::trunc(fx(-1.75)) == fx(-1));
    CHECK(hls::round(fx(2.5)) == fx(3));
    CHECK(hls::fmin(fx(1), fx(-2)) == fx(-2) && hls::fmax(fx(1), fx(-2)) == fx(1));
    CHECK(hls::pow(fx(2), fx(3)) == fx(8) && hls::exp2(fx(3)) == fx(8) && hls::log2(fx(8)) == fx(3));
    CHECK(hls::recip(fx(4)) == fx(0.25) && hls::rsqrt(fx(4)) == fx(0.5));
    // Rounded to the type's 8 fraction bits (AP_TRN: toward minus infinity).
    CHECK(hls::tanh(fx(0.5)) == fx(std::tanh(0.5)) && hls::log(fx(2)) == fx(std::log(2.0)));
    CHECK(hls::atan2(fx(1), fx(1)) == fx(std::atan2(1.0, 1.0)));
    CHECK(hls::sin(fx(0.5)) == fx(std::sin(0.5))); // the open header's own template still works
    ap_ufixed<8, 4> u = 2.25;
    CHECK(hls::sqrt(u) == 1.5);
    CHECK(hls::sqrt(2.0f) == std::sqrt(2.0f) && hls::sin(0.5) == std::sin(0.5) && hls::sqrtf(4.0f) == 2.0f);
    CHECK(hls::atan2(1.0, 2.0) == std::atan2(1.0, 2.0));
    // The float forms: a public 2020.2 kernel calls hls::atan2f.
    CHECK(hls::atan2f(1.0f, 2.0f) == std::atan2(1.0f, 2.0f) && hls::tanhf(0.5f) == std::tanh(0.5f));
    CHECK(hls::fminf(1.0f, -2.0f) == -2.0f && hls::floorf(-1.5f) == -2.0f && hls::rsqrtf(4.0f) == 0.5f);
}

// Vivado HLS' C arbitrary-precision types, in C++: ap_int / ap_uint of the named width.
static void c_integers() {
    uint7 a = 127;
    a++;
    CHECK(a == 0); // wraps at 7 bits
    int5 b = 15;
    b++;
    CHECK(b == -16);
    uint1024 w = 1;
    w <<= 1000;
    CHECK(w[1000] == 1 && uint1024::width == 1024);
}

// hls::print is printf in C simulation: captured from stdout (file descriptor 1) into a file.
static void prints() {
    std::fflush(stdout);
    FILE* capture = std::tmpfile();
    int saved = dup(1);
    bool captured = capture != nullptr && saved >= 0 && dup2(fileno(capture), 1) >= 0;
    CHECK(captured);
    if (!captured) return;
    hls::print("start 100%%\n");
    hls::print("i=%d\n", -3);
    hls::print("u=%u\n", 7u);
    hls::print("c=%d\n", static_cast<unsigned char>(200)); // promoted to int, as printf's arguments are
    hls::print("f=%.2f\n", 1.5f);
    hls::print("d=%g\n", 0.25);
    hls::print("l=%ld\n", 1L << 40); // a wider integer keeps its type
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    char text[256] = {0};
    std::rewind(capture);
    size_t n = std::fread(text, 1, sizeof text - 1, capture);
    std::fclose(capture);
    text[n] = '\0';
    CHECK(std::strcmp(text, "start 100%\ni=-3\nu=7\nc=200\nf=1.50\nd=0.25\nl=1099511627776\n") == 0);
}

// Direct I/O objects are streams in C simulation: values queue, valid()/ready() report them.
static void directio() {
    hls::ap_hs<int> hs;
    CHECK(!hs.valid() && hs.ready());
    hs.write(1);
    hs << 2;
    CHECK(hs.valid() && !hs.ready());
    int v = 0;
    hs >> v;
    CHECK(v == 1 && hs.read() == 2 && !hs.valid() && hs.ready());
    hls::ap_vld<unsigned> vld("vld");
    unsigned u = 9;
    CHECK(!vld.read_nb(u) && u == 9); // nothing there: u untouched
    CHECK(vld.write_nb(7u) && vld.valid() && vld.read() == 7u);
    hls::ap_ack<short> ack;
    ack.write(3);
    CHECK(!ack.ready() && ack.read() == 3 && ack.ready());
    hls::ap_none<int> none;
    none.write(4);
    none.write(5);
    CHECK(none.read() == 4 && none.read() == 5); // queued in C simulation, none lost
}

int main() {
    prints();
    directio();
    vectors();
    c_integers();
    axi_side_channels();
    bursts();
    math();
    hls::stream<int> s1, s2;
    hls::fence(s1, s2); // a no-op in C simulation
    ap_wait();
    ap_wait_n(4);
    if (failures) return 1;
    std::printf("ok\n");
    return 0;
}
