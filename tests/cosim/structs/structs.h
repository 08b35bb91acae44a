// The structs of structs(): Vitis aggregates each on a port, fields from the least significant
// bit in declaration order (Pix: r 4:0, g 10:5, b 15:11, last 16; Stat: n 15:0, tag 31:16).
#include <ap_int.h>
#include <hls_stream.h>

struct Pix {
    ap_uint<5> r;
    ap_uint<6> g;
    ap_uint<5> b;
    bool last;
};

typedef struct {
    short n;
    char tag[2];
} Stat;

// Not on a port: the capture must compile without a bit layout for its stream.
struct Local {
    hls::stream<int> q;
    int n;
};
