// Testbench of packet(): two packets (3 and 5 beats, side channels set); returns the error count.
#include <cstdio>
#include <hls_stream.h>
#include <ap_axi_sdata.h>

typedef ap_axiu<32, 1, 1, 1> pkt;
void packet(hls::stream<pkt> &src, hls::stream<ap_uint<8> > &shift, hls::stream<pkt> &echo, hls::stream<int> &dst);

int main() {
    hls::stream<pkt> src, echo;
    hls::stream<ap_uint<8> > shift;
    hls::stream<int> dst;
    int errors = 0;
    const int beats[2] = {3, 5};
    for (int call = 0; call < 2; call++) {
        int expect = 0;
        for (int i = 0; i < beats[call]; i++) {
            pkt p;
            p.data = 1000 * call + 17 * i + 3;
            p.keep = 0xf;
            p.strb = i % 2 ? 0x3 : 0xc;
            p.user = i & 1;
            p.last = i == beats[call] - 1;
            p.id = call;
            p.dest = 1 - call;
            expect += p.data;
            src.write(p);
        }
        shift.write(call + 1);
        packet(src, shift, echo, dst);
        int sum = dst.read();
        int n = 0;
        while (!echo.empty()) {
            pkt q = echo.read();
            n++;
            if (q.last != (n == beats[call])) errors++;
        }
        std::printf("call %d: sum %d, %d beats echoed\n", call, sum, n);
        if (sum != expect || n != beats[call]) errors++;
    }
    return errors;
}
