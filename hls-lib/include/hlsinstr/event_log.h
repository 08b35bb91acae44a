// hlsinstr: the C-simulation record stream.
//
// One stream of records for every probe kind: module and loop begin/end, m_axi traffic (maxi.h);
// branch trace and watch records later — a new kind is a new event letter, not a new log. Each thread appends to
// its own buffer (dataflow processes may run as threads), ordered globally by one atomic counter,
// so the hot path takes no lock. Buffers reach the process-wide log when their thread ends; the
// log is written once at exit to $HLSINSTR_EVENTS (default `hlsinstr-events.log` in the working
// directory), through a temporary file and a rename so a reader never sees half a log.
//
// File format (text, one record a line, sorted by `order`):
//   # hlsinstr events v1
//   # order probe event thread seq timestamp_ns value
//   <order> <probe id> <B|E|R|W|D> <thread> <seq|-> <timestamp|-> <value|->
// `seq` is the record's rank among sequence-numbered records in the global order — what the
// hardware sequencer of the in-FPGA build hands out. `value` is a loop's trip count on its end
// record, and the byte count of an R (read) or W (written) record: the bytes one module
// invocation moved over one m_axi port (probe = the port), recorded just before the module's E,
// never for zero bytes, never with a seq or timestamp (they total an invocation, they are not
// moments). `D` (deadlock) is written by the stream model's watchdog (sim/watchdog.h) for a
// thread blocked forever on a stream, with the thread's innermost open probe. Events from threads
// still running at exit, or after exit began, are not recorded.
#ifndef HLSINSTR_EVENT_LOG_H
#define HLSINSTR_EVENT_LOG_H

#include "hlsinstr/config.h"
#include "hlsinstr/options.h"

#if !HLSINSTR_SYNTHESIS
#include "hlsinstr/timestamp.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/stat.h>
#endif

namespace hlsinstr {
namespace sim {

const char EVENT_BEGIN = 'B';
const char EVENT_END = 'E';
const char EVENT_DEADLOCK = 'D';
const char EVENT_READ = 'R';
const char EVENT_WRITE = 'W';

struct Record {
    std::uint64_t order;
    std::uint64_t timestamp;
    std::uint64_t value;
    std::uint32_t probe;
    std::uint32_t thread;
    char event;
    unsigned char fields; // Record::has_* bits
    enum { has_timestamp = 1, has_sequence = 2, has_value = 4 };
};

inline const char* events_path() {
    const char* p = std::getenv("HLSINSTR_EVENTS");
    return (p && *p) ? p : "hlsinstr-events.log";
}

// Set once the process-wide log is destroyed; a plain bool outlives every destructor.
inline bool& log_gone() {
    static bool gone = false;
    return gone;
}

class Log {
  public:
    static Log& instance() {
        static Log log;
        return log;
    }

    std::uint64_t next_order() { return order_.fetch_add(1, std::memory_order_relaxed); }
    std::uint32_t next_thread() { return threads_.fetch_add(1, std::memory_order_relaxed); }
    // Records issued so far on every thread; the stream watchdog counts them as progress.
    std::uint64_t issued() const { return order_.load(std::memory_order_relaxed); }

    void adopt(std::vector<Record>& records) {
        std::lock_guard<std::mutex> lock(mutex_);
        chunks_.push_back(std::vector<Record>());
        chunks_.back().swap(records);
    }

    // Probe misuse is reported once per probe, never fatal: the kernel's own output matters more.
    void warn_once(std::uint32_t probe, const char* what) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (warned_.insert(probe).second) {
            std::fprintf(stderr, "hlsinstr: probe %u: %s (reported once)\n", static_cast<unsigned>(probe), what);
        }
    }

    // Writes every record adopted so far; the exit path calls it once more with everything.
    void write() {
        std::lock_guard<std::mutex> lock(mutex_);
        // The chunks become one, sorted; one chunk (a single-threaded run that never filled its
        // buffer) is written where it is.
        if (chunks_.size() != 1) {
            std::vector<Record> merged;
            for (std::size_t i = 0; i < chunks_.size(); ++i) {
                merged.insert(merged.end(), chunks_[i].begin(), chunks_[i].end());
            }
            chunks_.assign(1, std::vector<Record>());
            chunks_[0].swap(merged);
        }
        std::vector<Record>& all = chunks_[0];
        if (!std::is_sorted(all.begin(), all.end(), by_order)) std::sort(all.begin(), all.end(), by_order);
        const std::string path = events_path();
        // A regular file is replaced atomically (written beside it, then renamed); anything else
        // that exists (/dev/null, a FIFO) is written in place: renaming over it would replace it.
        const std::string tmp = is_special_file(path) ? path : path + ".tmp";
        std::FILE* f = std::fopen(tmp.c_str(), "w");
        if (!f) {
            std::fprintf(stderr, "hlsinstr: cannot write the event log %s; set HLSINSTR_EVENTS to a writable path\n",
                         tmp.c_str());
            return;
        }
        std::fputs("# hlsinstr events v1\n# order probe event thread seq timestamp_ns value\n", f);
        // Formatted by hand into one buffer: printf per field cost more than the whole run of
        // a small testbench. A record takes at most 7 fields of 20 digits.
        std::vector<char> buf(1 << 16);
        char* const begin = &buf[0];
        char* const limit = begin + buf.size() - 7 * 21 - 1;
        char* p = begin;
        unsigned long long seq = 0;
        for (std::size_t i = 0; i < all.size(); ++i) {
            const Record& r = all[i];
            p = put(p, r.order);
            p = put(p, r.probe);
            *p++ = r.event;
            *p++ = ' ';
            p = put(p, r.thread);
            p = (r.fields & Record::has_sequence) ? put(p, seq++) : dash(p);
            p = (r.fields & Record::has_timestamp) ? put(p, r.timestamp) : dash(p);
            p = (r.fields & Record::has_value) ? put(p, r.value) : dash(p);
            p[-1] = '\n';
            if (p > limit) {
                std::fwrite(begin, 1, static_cast<std::size_t>(p - begin), f);
                p = begin;
            }
        }
        if (p != begin) std::fwrite(begin, 1, static_cast<std::size_t>(p - begin), f);
        const bool ok = std::ferror(f) == 0;
        if (std::fclose(f) != 0 || !ok) {
            std::fprintf(stderr, "hlsinstr: writing the event log %s failed (disk full?)\n", tmp.c_str());
            if (tmp != path) std::remove(tmp.c_str());
            return;
        }
        if (tmp != path && std::rename(tmp.c_str(), path.c_str()) != 0) {
            std::remove(path.c_str()); // rename does not replace on every platform
            if (tmp != path && std::rename(tmp.c_str(), path.c_str()) != 0) {
                std::fprintf(stderr, "hlsinstr: cannot move the event log to %s\n", path.c_str());
            }
        }
    }

  private:
    Log() : order_(0), threads_(0) {}
    ~Log() {
        write();
        log_gone() = true;
    }
    Log(const Log&);
    Log& operator=(const Log&);

    static bool by_order(const Record& a, const Record& b) { return a.order < b.order; }

    static bool is_special_file(const std::string& path) {
#if defined(__unix__) || defined(__APPLE__)
        struct stat st;
        return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
#else
        (void)path;
        return false;
#endif
    }

    // Writes `v` in decimal and a space; returns the end. Two digits per division: the log of
    // a small testbench is written in less time than its kernel runs.
    static char* put(char* p, std::uint64_t v) {
        static const char pairs[] =
            "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
            "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
            "8081828384858687888990919293949596979899";
        char digits[20];
        int n = 20;
        while (v >= 100) {
            const unsigned k = static_cast<unsigned>(v % 100) * 2;
            v /= 100;
            digits[--n] = pairs[k + 1];
            digits[--n] = pairs[k];
        }
        if (v >= 10) {
            const unsigned k = static_cast<unsigned>(v) * 2;
            digits[--n] = pairs[k + 1];
            digits[--n] = pairs[k];
        } else {
            digits[--n] = static_cast<char>('0' + v);
        }
        while (n < 20) *p++ = digits[n++];
        *p++ = ' ';
        return p;
    }
    static char* dash(char* p) {
        *p++ = '-';
        *p++ = ' ';
        return p;
    }

    std::atomic<std::uint64_t> order_;
    std::atomic<std::uint32_t> threads_;
    std::mutex mutex_;
    std::vector<std::vector<Record> > chunks_;
    std::set<std::uint32_t> warned_;
};

// An open module or loop on a thread's probe stack.
struct Frame {
    std::uint32_t probe;
    unsigned options;
    bool loop;
    std::uint64_t trips;
};

// The trip count of this thread's innermost open loop while it is the top of the probe stack.
// HLSINSTR_LOOP_ITER runs once per trip, so it is one thread-local add, with no lookup of the
// log. The count lives here, not in the loop's frame, and is 64-bit: a kernel's `int` stores
// cannot alias it, so the compiler may keep it in a register across a loop body without calls. The frame gets the count back whenever the
// loop stops being the top (ThreadLog::save_top). A class template's static member gives C++11
// one definition across translation units; the constant initializer needs no guard.
struct TopLoop {
    std::uint64_t trips;
};
template <class Unused = void>
struct TopLoopSlot {
    static thread_local TopLoop value;
};
template <class Unused>
thread_local TopLoop TopLoopSlot<Unused>::value = {0};
inline TopLoop& top_loop() { return TopLoopSlot<>::value; }

inline bool& thread_log_gone() {
    static thread_local bool gone = false;
    return gone;
}

// One thread's records and probe stack.
class ThreadLog {
  public:
    // Null once this thread's log (or the process log) is gone: exit has begun.
    static ThreadLog* current() {
        if (thread_log_gone() || log_gone()) return 0;
        static thread_local ThreadLog log;
        return &log;
    }

    void record(std::uint32_t probe, char event, unsigned options, bool has_value, std::uint64_t value) {
        Record r;
        r.order = log_.next_order();
        r.timestamp = (options & HLSINSTR_OPT_T) ? timestamp_ns() : 0;
        r.value = value;
        r.probe = probe;
        r.thread = thread_;
        r.event = event;
        r.fields = static_cast<unsigned char>(((options & HLSINSTR_OPT_T) ? Record::has_timestamp : 0) |
                                              ((options & HLSINSTR_OPT_S) ? Record::has_sequence : 0) |
                                              (has_value ? Record::has_value : 0));
        // Room for a whole chunk at once: growing by doubling copied every record ~twice
        // (untouched pages of the reservation cost nothing).
        if (records_.capacity() == 0) records_.reserve(flush_every);
        records_.push_back(r);
        if (records_.size() >= flush_every) log_.adopt(records_);
    }

    std::vector<Frame>& stack() { return stack_; }
    // This thread's number in the log's `thread` column.
    std::uint32_t id() const { return thread_; }

    void push(const Frame& f) {
        save_top();
        stack_.push_back(f);
        load_top();
    }

    // Moves this thread's records to the process log (before an explicit write).
    void flush() {
        if (!records_.empty() && !log_gone()) log_.adopt(records_);
    }

    void warn_once(std::uint32_t probe, const char* what) { log_.warn_once(probe, what); }

    // Pops the top frame and records its end; a loop's end carries its trip count.
    void close_top() {
        save_top();
        const Frame f = stack_.back();
        stack_.pop_back();
        load_top();
        record(f.probe, EVENT_END, f.options, f.loop, f.trips);
    }

    // The top loop's count back into its frame (before the top changes or the frame is read).
    void save_top() {
        if (!stack_.empty() && stack_.back().loop) stack_.back().trips = top_loop().trips;
    }

    // The top frame into top_loop() when it is a loop (after every push and pop).
    void load_top() {
        TopLoop& t = top_loop();
        t.trips = (!stack_.empty() && stack_.back().loop) ? stack_.back().trips : 0;
    }

  private:
    enum { flush_every = 1 << 16 };

    // Taking the process log first makes it outlive this thread-local object.
    ThreadLog() : log_(Log::instance()), thread_(log_.next_thread()) {}
    ~ThreadLog() {
        top_loop().trips = 0;
        flush();
        thread_log_gone() = true;
    }
    ThreadLog(const ThreadLog&);
    ThreadLog& operator=(const ThreadLog&);

    Log& log_;
    std::uint32_t thread_;
    std::vector<Record> records_;
    std::vector<Frame> stack_;
};

// Writes the event log now with everything recorded so far by finished threads and this one;
// for testbenches that leave through _exit or abort. The normal exit path writes it anyway.
inline void flush_events() {
    if (ThreadLog* t = ThreadLog::current()) t->flush();
    if (!log_gone()) Log::instance().write();
}

} // namespace sim
} // namespace hlsinstr
#endif

#endif
