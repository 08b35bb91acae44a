// Testbench of structs(): two packets of 3 and 2 pixels; returns the error count.
#include <cstdio>
#include <hls_stream.h>
#include "structs.h"

void structs(hls::stream<Pix> &in, hls::stream<Pix> &out, Stat cfg, Stat *res);

int main() {
    int errors = 0;
    hls::stream<Pix> in, out;
    for (int call = 0; call < 2; call++) {
        int len = 3 - call;
        for (int i = 0; i < len; i++) {
            Pix p;
            p.r = 3 * i + call + 1;
            p.g = 40 + 7 * i;
            p.b = 30 - i;
            p.last = i == len - 1;
            in.write(p);
        }
        Stat cfg, res;
        cfg.n = 5 + call;
        cfg.tag[0] = 'A' + call;
        cfg.tag[1] = 'z';
        structs(in, out, cfg, &res);
        int sum = 0;
        while (!out.empty()) sum += out.read().g;
        std::printf("call %d: n %d tag %c%c g-sum %d\n", call, res.n, res.tag[0], res.tag[1], sum);
        if (res.n != len) errors++;
    }
    return errors;
}
