// hlsinstr: a C-simulation model of Vitis HLS `hls_directio.h` (UG1399, "Direct I/O", 2024.1 on),
// on the thread-safe stream model (hls_stream.h).
//
//   void top(hls::ap_hs<int>& reset_value, hls::ap_none<int>& mode, ...);
//   hls::ap_none<T>, hls::ap_vld<T>, hls::ap_ack<T>, hls::ap_hs<T>   // the port protocol it maps to
//
// What is modelled (UG1399, "Using Direct I/O Streams", "Blocking/Non-Blocking API", "Mapping
// Direct I/O Streams to a Wire Interface"): in C simulation a Direct I/O object is a stream of T,
// whatever its protocol: write(v) and `<< v` append a value, read(), read(v) and `>> v` take the
// oldest one and block until there is one (a read no write will ever satisfy is reported as a
// deadlock, as for hls::stream), read_nb(v) / write_nb(v) do not block; valid() (ap_vld, ap_hs)
// says a value is there to read, ready() (ap_ack, ap_hs) that every value written has been read.
// So a testbench may queue several values before the call and read several after it, as the
// Vitis introductory examples do (`directio/ap_hs`, `using_directio_none_in_tasks`, where
// hls::task bodies read and write ap_none objects).
// Not modelled: the wire's timing. In hardware an ap_none value is a level that a new write
// replaces whether or not it was seen, and the handshakes take cycles; here no value is lost and
// no time passes.
#ifndef HLSINSTR_SIM_HLS_DIRECTIO_H
#define HLSINSTR_SIM_HLS_DIRECTIO_H

#ifndef X_HLS_DIRECTIO_H
#define X_HLS_DIRECTIO_H

#include "hls_stream.h"

#include <string>

namespace hls {
namespace hlsinstr_directio {

// The FIFO every protocol shares; the protocols add the status calls their signals give.
template <typename T>
class port : public stream<T> {
  public:
    port() {}
    port(const char* name) : stream<T>(name) {}
    port(const std::string& name) : stream<T>(name) {}
    port(const port&) = delete;
    port& operator=(const port&) = delete;

  protected:
    bool has_value() const { return !this->empty(); }
    bool all_taken() const { return this->empty(); }
};

} // namespace hlsinstr_directio

// No handshake: data only.
template <typename T>
class ap_none : public hlsinstr_directio::port<T> {
  public:
    using hlsinstr_directio::port<T>::port;
};

// A valid signal with the data: valid() is true when a value can be read.
template <typename T>
class ap_vld : public hlsinstr_directio::port<T> {
  public:
    using hlsinstr_directio::port<T>::port;
    bool valid() const { return this->has_value(); }
};

// An acknowledge signal: ready() is true once the values written have been read.
template <typename T>
class ap_ack : public hlsinstr_directio::port<T> {
  public:
    using hlsinstr_directio::port<T>::port;
    bool ready() const { return this->all_taken(); }
};

// Valid and acknowledge: both.
template <typename T>
class ap_hs : public hlsinstr_directio::port<T> {
  public:
    using hlsinstr_directio::port<T>::port;
    bool valid() const { return this->has_value(); }
    bool ready() const { return this->all_taken(); }
};

} // namespace hls

#endif // X_HLS_DIRECTIO_H
#endif
