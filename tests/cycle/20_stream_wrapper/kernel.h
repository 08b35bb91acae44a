#ifndef STREAMWRAP_KERNEL_H
#define STREAMWRAP_KERNEL_H

#include "hls_stream.h"

namespace lib {
// The stream class of a wrapper library (as hlslib's hlslib::Stream): an hls::stream inside,
// inlined by Vitis, so the processes that share one are joined by a FIFO.
template <typename T> class Stream {
 public:
  explicit Stream(const char *name) : s_(name) {}
  T read() { return s_.read(); }
  void write(const T &v) { s_.write(v); }

 private:
  hls::stream<T> s_;
};
}  // namespace lib

const int SC_MAX = 1024;

// 05_dataflow_streams with its FIFOs behind a wrapper class (lib::Stream) instead of hls::stream:
// read_loop (a loop process) -> smooth (a function process) -> write_loop (a loop process).
// out[i] = (x[i-2] + 2 x[i-1] + x[i]) / 4 with x[-1] = x[-2] = 0, for i < n (n in 1..1024).
void stream_chain(const int in[SC_MAX], int out[SC_MAX], int n);

#endif
