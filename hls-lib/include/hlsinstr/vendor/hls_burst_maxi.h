// hlsinstr: a C-simulation model of Vitis HLS `hls::burst_maxi<T>` (UG1399, "Using Manual
// Burst"). Used by `hlsinstr sim` only when the kernel headers lack hls_burst_maxi.h.
//
//   void k(hls::burst_maxi<int> in, hls::burst_maxi<int> out) {
//     in.read_request(0, 64);  for (...) x = in.read();
//     out.write_request(0, 64); for (...) out.write(x); out.write_response();
//   }
//   k(a, b);   // the testbench passes plain pointers
//
// What is modelled (UG1399): a burst_maxi is made from the pointer the testbench passes; a
// read_request(offset, len) queues a burst of `len` elements from element `offset`, and each
// read() returns the next element of the oldest burst not yet read; write_request(offset, len)
// queues a write burst, each write(value) stores the next element of it (write(value, strb)
// stores only the bytes whose bit is set in `strb`), and write_response() completes the oldest
// write burst. Misuse that would hang or corrupt the hardware ends the C simulation with a
// message: read() or write() with no burst requested, a write_response() before its burst got
// all its writes, a burst with len < 1.
// Not modelled: timing, outstanding-request limits, the `offset` port options.
#ifndef HLSINSTR_VENDOR_HLS_BURST_MAXI_H
#define HLSINSTR_VENDOR_HLS_BURST_MAXI_H

#ifndef X_HLS_BURST_MAXI_H
#define X_HLS_BURST_MAXI_H

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>

namespace hls {

template <typename T>
class burst_maxi {
  public:
    burst_maxi(T* p) : base_(p) {}

    void read_request(std::size_t offset, unsigned len) { reads_.push_back(burst(offset, len, "read_request() of length < 1")); }

    T read() {
        if (reads_.empty()) fail("read() without a read_request() for it");
        Burst& b = reads_.front();
        T v = base_[b.offset + b.done];
        if (++b.done == b.len) reads_.pop_front();
        return v;
    }

    void write_request(std::size_t offset, unsigned len) { writes_.push_back(burst(offset, len, "write_request() of length < 1")); }

    void write(const T& v) {
        Burst& b = next_write();
        base_[b.offset + b.done++] = v;
    }

    // Bytes whose bit is set in `strb` (bit i: byte i of the element) are written.
    template <typename S>
    void write(const T& v, const S& strb) {
        Burst& b = next_write();
        unsigned char* dst = reinterpret_cast<unsigned char*>(&base_[b.offset + b.done++]);
        const unsigned char* src = reinterpret_cast<const unsigned char*>(&v);
        for (std::size_t i = 0; i < sizeof(T); ++i)
            if ((strb >> i) & 1) dst[i] = src[i];
    }

    void write_response() {
        if (writes_.empty()) fail("write_response() without a write_request()");
        if (writes_.front().done != writes_.front().len) fail("write_response() before its burst got all its writes");
        writes_.pop_front();
    }

  private:
    struct Burst {
        std::size_t offset;
        unsigned len;
        unsigned done;
    };

    static Burst burst(std::size_t offset, unsigned len, const char* what) {
        if (len < 1) fail(what); // a burst of no element never completes
        Burst b = {offset, len, 0};
        return b;
    }

    Burst& next_write() {
        for (std::size_t i = 0; i < writes_.size(); ++i)
            if (writes_[i].done < writes_[i].len) return writes_[i];
        fail("write() without a write_request() with room for it");
        return writes_.front();
    }

    [[noreturn]] static void fail(const char* what) {
        std::fprintf(stderr, "hls::burst_maxi: %s (hlsinstr's C-simulation model; this would hang the hardware)\n", what);
        std::abort();
    }

    T* base_;
    std::deque<Burst> reads_;
    std::deque<Burst> writes_;
};

} // namespace hls

#endif // X_HLS_BURST_MAXI_H
#endif
