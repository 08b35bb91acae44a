// hlsinstr: a C-simulation model of Vitis HLS `hls::stream<T, DEPTH>` that reports deadlocks.
//
// `hlsinstr sim` puts this directory first on the include path (`-I hls-lib/include/hlsinstr/sim
// -I hls-lib/include`), so the testbench's and the kernel's `#include "hls_stream.h"` find this
// file instead of the vendor's. It defines the vendor guards X_HLS_STREAM_SIM_H (hls4ml, Vivado
// HLS) and X_HLS_STREAM_H (Vitis), so a vendor header included later is a no-op; a vendor header
// included earlier is a compile error that says so (force-include this one with `-include`).
//
// The API is the vendor's C-simulation one:
//   stream(), stream(const char*), stream(const std::string&)   unnamed: "hls::stream<T>.N"
//   T read(); void read(T&); void operator>>(T&)                blocking
//   void write(const T&); void operator<<(const T&)             blocking on a full bounded stream
//   bool read_nb(T&); bool write_nb(const T&)                   false: nothing moved, T& untouched
//   bool empty(); bool full(); size_t size(); size_t capacity(); void set_name(const char*)
// Not copyable. A stream destroyed while holding data prints the vendor's leftover warning on
// stdout. `hls::stream<T, DEPTH>` derives from `hls::stream<T>`, so it binds to the
// `hls::stream<T>&` parameters of the processes it connects.
//
// Differences from the vendor model, all deliberate:
//  - Every operation is thread-safe (dataflow processes and hls::task may run as threads).
//  - A blocking read of an empty stream waits for a writer instead of returning a made-up value;
//    when no thread can ever write, the watchdog (watchdog.h) reports the deadlock and exits 86.
//  - DEPTH > 0 bounds the FIFO: full() and write_nb see the bound, capacity() returns DEPTH, and
//    a blocking write on a full stream waits for a reader while another thread that uses streams
//    is live. A sequential C simulation (no such thread) writes past the depth, as Vitis C
//    simulation always does, and the stream says so once on stderr; so does the one thread that
//    is no hls::task when every task waits too (watchdog.h). DEPTH 0 (a depth set by
//    pragma) is unbounded; capacity() returns the largest size_t, as in Vitis C simulation.
//
// Cost: one process-wide mutex per operation (uncontended in a sequential run); the watchdog
// costs nothing until a thread has to wait. Synthesis never sees this file.
#ifndef HLSINSTR_SIM_HLS_STREAM_H
#define HLSINSTR_SIM_HLS_STREAM_H

#if defined(X_HLS_STREAM_SIM_H) || defined(X_HLS_STREAM_H)
#error "a vendor hls_stream.h was included before hlsinstr's stream model: put -I hls-lib/include/hlsinstr/sim first, or add -include hls_stream.h"
#else // the rest of this file
#define X_HLS_STREAM_SIM_H
#define X_HLS_STREAM_H

#include "hlsinstr/config.h"

#if HLSINSTR_SYNTHESIS
#error "hlsinstr/sim/hls_stream.h is the C-simulation model; synthesis uses the vendor hls_stream.h"
#endif

// Optimised even in an -O0 build, as the probes' runtime is (event_log.h): at -O0 every read and
// write called a chain of unoptimised helpers (the watchdog's bookkeeping, std::unique_lock,
// std::mutex, std::deque), ~9 ns an operation, more than half of what `sim` added to a streaming
// testbench (conv2d: 0.19 s of 0.36). The pragma reaches the watchdog (watchdog.h: conv2d
// 2.29 -> 2.24 s) but not the stream's own members nor the std templates they use: g++ gives a
// class template's members the options in force where they are instantiated, the -O0 code that
// reads the stream. The kernel's and testbench's own functions stay as built.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC push_options
#pragma GCC optimize("O2")
#define HLSINSTR_STREAM_MODEL_OPTIMIZED 1
#endif

#include "hlsinstr/sim/watchdog.h"

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <deque>
#include <iostream> // testbenches rely on the vendor header bringing in iostream
#include <limits>
#include <mutex>
#include <sstream>
#include <string>
#include <typeinfo>
#include <utility>
#if defined(__GNUG__)
#include <cxxabi.h>
#endif

namespace hlsinstr {
namespace sim {
namespace detail {

template <typename T>
std::string type_name() {
#if defined(__GXX_RTTI) || defined(_CPPRTTI) || defined(__cpp_rtti)
    const char* raw = typeid(T).name();
#if defined(__GNUG__)
    int status = 0;
    char* readable = abi::__cxa_demangle(raw, 0, 0, &status);
    if (readable) {
        const std::string s(readable);
        std::free(readable);
        return s;
    }
#endif
    return raw;
#else
    return "T";
#endif
}

// "hls::stream<int>.3": the third unnamed stream of int in the process.
template <typename T>
std::string unnamed_stream() {
    static std::atomic<unsigned> made(0);
    std::ostringstream s;
    s << "hls::stream<" << type_name<T>() << ">." << made.fetch_add(1) + 1;
    return s.str();
}

} // namespace detail
} // namespace sim
} // namespace hlsinstr

namespace hls {

template <typename T, int DEPTH = 0>
class stream;

// The unbounded stream, and the base of every bounded one.
template <typename T>
class stream<T, 0> {
    typedef hlsinstr::sim::Watchdog Watchdog;

  public:
    // The constructing thread counts as live (watchdog.h): it owns the stream and may use it.
    stream() : default_name_(true) { init(hlsinstr::sim::detail::unnamed_stream<T>()); }
    stream(const char* name) : default_name_(false) { init(name); }
    stream(const std::string& name) : default_name_(false) { init(name); }
    stream(const stream&) = delete;
    stream& operator=(const stream&) = delete;

    ~stream() {
        bool task_used;
        {
            std::lock_guard<std::mutex> lock(Watchdog::instance().mutex());
            task_used = chan_.task_used;
        }
        // A task still bound to this stream must stop before it goes (hls_task.h).
        if (task_used && !hlsinstr::sim::detail::task_stop()) Watchdog::instance().stop_tasks();
        std::unique_lock<std::mutex> lock(Watchdog::instance().mutex());
        if (data_.empty()) return;
        const std::string name = chan_.name;
        lock.unlock(); // never print while holding every stream's lock
        std::cout << "WARNING: Hls::stream '" << name
                  << "' contains leftover data, which may result in RTL simulation hanging." << std::endl;
    }

    // Blocking read: waits for data; a read no thread can ever satisfy ends the process (exit 86).
    T read() {
        Watchdog::enter_thread();
        Watchdog& w = Watchdog::instance();
        std::unique_lock<std::mutex> lock(w.mutex());
        if (data_.empty()) w.wait(lock, chan_, false);
        T head(std::move(data_.front()));
        data_.pop_front();
        moved(w);
        return head;
    }

    void read(T& head) { head = read(); }
    void operator>>(T& head) { read(head); }

    // Blocking write: waits while a bounded stream is full (see the header comment).
    void write(const T& tail) {
        Watchdog::enter_thread();
        Watchdog& w = Watchdog::instance();
        std::unique_lock<std::mutex> lock(w.mutex());
        if (!chan_.can_write()) {
            if (w.alone()) {
                w.overfill(chan_);
            } else {
                w.wait(lock, chan_, true);
            }
        }
        data_.push_back(tail);
        moved(w);
    }

    void operator<<(const T& tail) { write(tail); }

    // Non-blocking read: false, and `head` untouched, when the stream is empty.
    bool read_nb(T& head) {
        Watchdog::enter_thread();
        Watchdog& w = Watchdog::instance();
        std::lock_guard<std::mutex> lock(w.mutex());
        if (data_.empty()) return false;
        head = std::move(data_.front());
        data_.pop_front();
        moved(w);
        return true;
    }

    // Non-blocking write: false, and nothing written, when a bounded stream is full.
    bool write_nb(const T& tail) {
        Watchdog::enter_thread();
        Watchdog& w = Watchdog::instance();
        std::lock_guard<std::mutex> lock(w.mutex());
        if (!chan_.can_write()) return false;
        data_.push_back(tail);
        moved(w);
        return true;
    }

    bool empty() const {
        Watchdog::enter_thread();
        std::lock_guard<std::mutex> lock(Watchdog::instance().mutex());
        return data_.empty();
    }

    bool full() const {
        Watchdog::enter_thread();
        std::lock_guard<std::mutex> lock(Watchdog::instance().mutex());
        return !chan_.can_write();
    }

    std::size_t size() const {
        Watchdog::enter_thread();
        std::lock_guard<std::mutex> lock(Watchdog::instance().mutex());
        return data_.size();
    }

    // DEPTH for a bounded stream; the largest size_t (no limit) otherwise, as in Vitis C simulation.
    std::size_t capacity() const {
        std::lock_guard<std::mutex> lock(Watchdog::instance().mutex());
        return chan_.depth ? chan_.depth : std::numeric_limits<std::size_t>::max();
    }

    void set_name(const char* name) {
        std::lock_guard<std::mutex> lock(Watchdog::instance().mutex());
        chan_.name = name;
        default_name_.store(false);
    }

    // hlsinstr's rewrite (HLSINSTR_STREAM_NAME): the variable's name, unless one was given.
    // Runs at every call of the function declaring the stream: named once, then one load.
    void hlsinstr_name_default(const char* name) {
        if (!default_name_.load(std::memory_order_acquire)) return;
        std::lock_guard<std::mutex> lock(Watchdog::instance().mutex());
        if (!default_name_.load(std::memory_order_relaxed)) return;
        chan_.name = name;
        default_name_.store(false, std::memory_order_release);
    }

  protected:
    void bound(std::size_t depth) {
        std::lock_guard<std::mutex> lock(Watchdog::instance().mutex());
        chan_.depth = depth;
    }

  private:
    void init(const std::string& name) {
        Watchdog::enter_thread();
        chan_.name = name;
        made_on_task_ = hlsinstr::sim::detail::task_stop() != 0;
    }

    void moved(Watchdog& w) {
        Watchdog::touch(chan_, made_on_task_);
        chan_.count = data_.size();
        w.transferred(chan_);
    }

    hlsinstr::sim::Channel chan_;
    std::atomic<bool> default_name_;
    bool made_on_task_;
    std::deque<T> data_;
};

// A FIFO of DEPTH elements (see the header comment for what the bound does in C simulation).
template <typename T, int DEPTH>
class stream : public stream<T, 0> {
    static_assert(DEPTH > 0, "hls::stream<T, DEPTH> needs DEPTH > 0");

  public:
    stream() { this->bound(DEPTH); }
    stream(const char* name) : stream<T, 0>(name) { this->bound(DEPTH); }
    stream(const std::string& name) : stream<T, 0>(name) { this->bound(DEPTH); }
};

} // namespace hls

#ifdef HLSINSTR_STREAM_MODEL_OPTIMIZED
#pragma GCC pop_options
#endif

#endif // a vendor hls_stream.h came first
#endif
