// C model of the hlsinstr_counter RTL blackbox (hlsinstr_counter.json, c_files): what Vitis
// compiles for C simulation in place of hlsinstr_counter.v. Semantics and the model-time
// controls are documented in hls-lib/include/hlsinstr/hw/counter.h; compile with
// -I hls-lib/include and the HLS headers.
//
// The hardware counts cycles; C simulation has none, so by default a read returns the previous
// read + 1 (monotone: it orders events). A cycle-stepping harness pins the time with
// set_cycle(). One mutex guards the state: dataflow processes run as threads in C simulation,
// and a read is rare enough that the lock costs nothing that matters.
#include "hlsinstr/hw/counter.h"

#include <mutex>

namespace {

struct ModelTime {
    std::mutex lock;
    bool fixed = false;      // set_cycle() is in force
    std::uint64_t last = 0;  // the value the last read returned (or the fixed cycle)
    bool any = false;        // a read or set_cycle() happened: `last` is meaningful
};

ModelTime& model_time() {
    static ModelTime t;  // initialized on first use: safe from other static initializers
    return t;
}

} // namespace

void hlsinstr_counter(ap_uint<64> dep, ap_uint<64>& ts) {
    (void)dep;  // only its availability matters, in hardware
    ModelTime& t = model_time();
    std::lock_guard<std::mutex> guard(t.lock);
    if (!t.fixed) {
        t.last = t.any ? t.last + 1 : 0;
        t.any = true;
    }
    ts = ap_uint<64>(static_cast<unsigned long long>(t.last));
}

namespace hlsinstr {
namespace hw {
namespace model {

void set_cycle(std::uint64_t cycle) {
    ModelTime& t = model_time();
    std::lock_guard<std::mutex> guard(t.lock);
    t.fixed = true;
    t.any = true;
    t.last = cycle;
}

void release() {
    ModelTime& t = model_time();
    std::lock_guard<std::mutex> guard(t.lock);
    t.fixed = false;
}

} // namespace model
} // namespace hw
} // namespace hlsinstr
