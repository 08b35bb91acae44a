// The stream model next to the vendor's C-simulation headers: with the model first on the include
// path, a later include of the vendor hls_stream.h (by its full path, as a vendor header including
// it by quotes would reach it) is a no-op. With -DVENDOR_FIRST the vendor header comes first and
// the model must refuse with a message that says what to do.
#ifdef VENDOR_FIRST
#include HLSINSTR_VENDOR_STREAM
#endif
#include "hls_stream.h"

#include "ap_int.h"
#include HLSINSTR_VENDOR_STREAM

#include <cstdio>

int main() {
    hls::stream<ap_uint<12>, 2> s("s");
    s.write(4095);
    s.write(1);
    // capacity() and a false write_nb exist only in the model.
    const bool ok = s.capacity() == 2 && !s.write_nb(2) && s.read() == 4095 && s.read() == 1;
    std::printf(ok ? "ok\n" : "FAIL\n");
    return ok ? 0 : 1;
}
