#include <cstdio>
#include "kernel.h"

int main() {
    int errors = 0;
    for (int call = 0; call < 3; call++) {
        hls::stream<word_t> in, out;
        unsigned v[4];
        for (int i = 0; i < 4; i++) {
            word_t w;
            v[i] = 17u * (call + 1) + 3u * i;
            w.data = v[i];
            w.keep = -1;
            w.strb = -1;
            w.last = (i == 3);
            in.write(w);
        }
        mix4(in, out);
        for (int i = 0; i < 2; i++) {
            word_t w = out.read();
            if (w.data != (v[2 * i] ^ (v[2 * i + 1] << 1)) || w.last != (i == 1)) {
                errors++;
            }
        }
    }
    printf("%d errors\n", errors);
    return errors;
}
