// hlsinstr: the C-simulation record stream.
//
// One stream of records for every probe kind: module and loop begin/end, m_axi traffic (maxi.h);
// branch trace and watch records later — a new kind is a new event letter, not a new log. Each
// thread appends to its own buffer (dataflow processes may run as threads), ordered globally by
// one atomic counter, so the hot path takes no lock. A buffer holds records already encoded in
// a few bytes each (varints, deltas), not structs: the probes' memory, and the page faults that
// come with it, are what a small testbench pays most for. Full buffers and the buffers of
// finished threads go to the process-wide log; the log is written once at exit to
// $HLSINSTR_EVENTS (default `hlsinstr-events.log` in the working directory), through a temporary
// file and a rename so a reader never sees half a log. With $HLSINSTR_EVENTS_FD (Unix; what
// `hlsinstr sim` does) the binary log goes to that open descriptor instead, a pipe the reader
// drains: no file is created, renamed or journaled, which cost a small testbench more than its
// probes; a write before exit (flush_events) sends only what is new, the exit write the rest.
//
// Two file formats, chosen by $HLSINSTR_EVENTS_FORMAT:
// - `text` (default; for people), one record a line, sorted by `order`:
//     # hlsinstr events v1
//     # order probe event thread seq timestamp_ns value
//     <order> <probe id> <B|E|R|W|D> <thread> <seq|-> <timestamp|-> <value|->
// - `binary` (what `hlsinstr sim` asks for: nothing to format at exit): the 8 bytes
//   "HLSIEV2\n", then the buffers as they were filled, each as thread (u32 LE), byte length
//   (u32 LE) and the encoded records (see Encoding), and after each write an end mark (thread
//   0xffffffff, length 0): a log that does not end with one was cut short. The reader sorts by
//   order and numbers seq.
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
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>
#define HLSINSTR_EVENTS_HAVE_FD 1
#else
#define HLSINSTR_EVENTS_HAVE_FD 0
#endif

namespace hlsinstr {
namespace sim {

const char EVENT_BEGIN = 'B';
const char EVENT_END = 'E';
const char EVENT_DEADLOCK = 'D';
const char EVENT_READ = 'R';
const char EVENT_WRITE = 'W';

// A record as the text writer sees it (decoded from a buffer).
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

// The encoding of one record in a buffer:
//   byte 0: event code (B 0, E 1, R 2, W 3, D 4) | 0x08 timestamp | 0x10 seq | 0x20 value
//           | 0x40 the order is the previous one + 1 (the usual case on one thread)
//   [varint order - previous order in the buffer (the first: order itself)]   without 0x40
//   varint probe
//   [varint zigzag(timestamp - previous timestamp in the buffer)]   with 0x08
//   [varint value]                                                  with 0x20
// varint: 7 bits a byte, least significant first, high bit set on all but the last byte.
struct Encoding {
    enum { timestamp_bit = 0x08, sequence_bit = 0x10, value_bit = 0x20, next_order_bit = 0x40, event_mask = 0x07 };
    enum { max_record = 1 + 4 * 10 };

    static unsigned char code(char event) {
        switch (event) {
        case EVENT_BEGIN: return 0;
        case EVENT_END: return 1;
        case EVENT_READ: return 2;
        case EVENT_WRITE: return 3;
        default: return 4;
        }
    }
    static char letter(unsigned code) { return "BERWD???"[code & event_mask]; }

    static unsigned char* varint(unsigned char* p, std::uint64_t v) {
        while (v >= 0x80) {
            *p++ = static_cast<unsigned char>(v | 0x80);
            v >>= 7;
        }
        *p++ = static_cast<unsigned char>(v);
        return p;
    }
    static std::uint64_t zigzag(std::uint64_t delta) {
        return (delta << 1) ^ static_cast<std::uint64_t>(-static_cast<std::int64_t>(delta >> 63));
    }
    static std::uint64_t unzigzag(std::uint64_t z) { return (z >> 1) ^ (0 - (z & 1)); }

    // Reads a varint from [p, end); false when the buffer ends inside it.
    static bool read_varint(const unsigned char*& p, const unsigned char* end, std::uint64_t& v) {
        v = 0;
        for (unsigned shift = 0; p < end && shift < 64; shift += 7) {
            const unsigned char b = *p++;
            v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80)) return true;
        }
        return false;
    }
};

// One thread's encoded records, as handed to the process log.
struct Chunk {
    std::uint32_t thread;
    std::uint32_t size;
    unsigned char* data; // malloc'd, owned by the log once adopted
};

inline const char* events_path() {
    const char* p = std::getenv("HLSINSTR_EVENTS");
    return (p && *p) ? p : "hlsinstr-events.log";
}

// The descriptor of $HLSINSTR_EVENTS_FD, or -1 when unset (or not a number).
inline int events_fd() {
    const char* v = std::getenv("HLSINSTR_EVENTS_FD");
    if (!v || *v < '0' || *v > '9') return -1;
    char* end = 0;
    const long fd = std::strtol(v, &end, 10);
    return (*end == 0 && fd >= 0 && fd < 1 << 20) ? static_cast<int>(fd) : -1;
}

inline bool events_binary() {
    const char* f = std::getenv("HLSINSTR_EVENTS_FORMAT");
    return f && std::strcmp(f, "binary") == 0;
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

    void adopt(const Chunk& c) {
        std::lock_guard<std::mutex> lock(mutex_);
        chunks_.push_back(c);
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
#if HLSINSTR_EVENTS_HAVE_FD
        const int fd = events_fd();
        if (fd >= 0) {
            write_new_chunks(fd);
            return;
        }
#endif
        const std::string path = events_path();
        // A regular file is replaced atomically (written beside it, then renamed); anything else
        // that exists (/dev/null, a FIFO) is written in place: renaming over it would replace it.
        const std::string tmp = is_special_file(path) ? path : path + ".tmp";
        std::FILE* f = std::fopen(tmp.c_str(), "wb");
        if (!f) {
            std::fprintf(stderr, "hlsinstr: cannot write the event log %s; set HLSINSTR_EVENTS to a writable path\n",
                         tmp.c_str());
            return;
        }
        if (events_binary()) {
            write_binary(f);
        } else {
            write_text(f);
        }
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
    Log() : order_(0), threads_(0), sent_(0), magic_sent_(false) {}
    ~Log() {
        write();
        log_gone() = true;
        for (std::size_t i = 0; i < chunks_.size(); ++i) std::free(chunks_[i].data);
    }
    Log(const Log&);
    Log& operator=(const Log&);

    // The buffers as they are: the reader decodes, sorts and numbers.
    void write_binary(std::FILE* f) const {
        std::fwrite("HLSIEV2\n", 1, 8, f);
        for (std::size_t i = 0; i < chunks_.size(); ++i) {
            unsigned char head[8];
            put_u32(head, chunks_[i].thread);
            put_u32(head + 4, chunks_[i].size);
            std::fwrite(head, 1, sizeof head, f);
            std::fwrite(chunks_[i].data, 1, chunks_[i].size, f);
        }
        std::fwrite(end_mark(), 1, 8, f);
    }

    // Closes every write of the binary log (thread 0xffffffff, length 0).
    static const unsigned char* end_mark() {
        static const unsigned char mark[8] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0};
        return mark;
    }

#if HLSINSTR_EVENTS_HAVE_FD
    // The binary log to a descriptor: the magic once, then the chunks not sent before and an end
    // mark. A small log goes as one write (a system call costs more than copying it); a large
    // one chunk by chunk (copying it would touch as many new pages as it fills).
    void write_new_chunks(int fd) {
        std::size_t total = (magic_sent_ ? 0 : 8) + 8;
        for (std::size_t i = sent_; i < chunks_.size(); ++i) total += 8 + chunks_[i].size;
        unsigned char small[1 << 12];
        unsigned char* p = small;
        bool ok = true;
        if (!magic_sent_) {
            std::memcpy(p, "HLSIEV2\n", 8);
            p += 8;
        }
        for (std::size_t i = sent_; ok && i < chunks_.size(); ++i) {
            put_u32(p, chunks_[i].thread);
            put_u32(p + 4, chunks_[i].size);
            p += 8;
            if (total <= sizeof small) {
                std::memcpy(p, chunks_[i].data, chunks_[i].size);
                p += chunks_[i].size;
            } else {
                ok = send(fd, small, static_cast<std::size_t>(p - small)) && send(fd, chunks_[i].data, chunks_[i].size);
                p = small;
            }
        }
        std::memcpy(p, end_mark(), 8);
        p += 8;
        ok = ok && send(fd, small, static_cast<std::size_t>(p - small));
        magic_sent_ = true;
        sent_ = chunks_.size();
        if (!ok) {
            std::fprintf(stderr, "hlsinstr: writing the event log to descriptor %d failed: %s\n", fd,
                         std::strerror(errno));
        }
    }

    static bool send(int fd, const unsigned char* p, std::size_t n) {
        while (n > 0) {
            const ssize_t k = ::write(fd, p, n);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) return false;
            p += k;
            n -= static_cast<std::size_t>(k);
        }
        return true;
    }
#endif

    static void put_u32(unsigned char* p, std::uint32_t v) {
        for (int k = 0; k < 4; ++k) p[k] = static_cast<unsigned char>(v >> (8 * k));
    }

    void write_text(std::FILE* f) const {
        std::vector<Record> all;
        for (std::size_t i = 0; i < chunks_.size(); ++i) decode(chunks_[i], all);
        if (!std::is_sorted(all.begin(), all.end(), by_order)) std::sort(all.begin(), all.end(), by_order);
        std::fputs("# hlsinstr events v1\n# order probe event thread seq timestamp_ns value\n", f);
        // Formatted by hand into one buffer: printf per field cost more than the whole run of
        // a small testbench. A record takes at most 7 fields of 20 digits.
        char buf[1 << 14];
        char* const limit = buf + sizeof buf - 7 * 21 - 1;
        char* p = buf;
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
                std::fwrite(buf, 1, static_cast<std::size_t>(p - buf), f);
                p = buf;
            }
        }
        if (p != buf) std::fwrite(buf, 1, static_cast<std::size_t>(p - buf), f);
    }

    // The inverse of ThreadLog::record; the buffers are our own, so they are well formed.
    static void decode(const Chunk& c, std::vector<Record>& out) {
        const unsigned char* p = c.data;
        const unsigned char* const end = c.data + c.size;
        std::uint64_t order = 0, timestamp = 0, v = 0;
        while (p < end) {
            const unsigned head = *p++;
            Record r;
            if (head & Encoding::next_order_bit) {
                v = 1;
            } else {
                Encoding::read_varint(p, end, v);
            }
            order += v;
            r.order = order;
            Encoding::read_varint(p, end, v);
            r.probe = static_cast<std::uint32_t>(v);
            r.thread = c.thread;
            r.event = Encoding::letter(head);
            r.fields = 0;
            r.timestamp = 0;
            r.value = 0;
            if (head & Encoding::timestamp_bit) {
                Encoding::read_varint(p, end, v);
                timestamp += Encoding::unzigzag(v);
                r.timestamp = timestamp;
                r.fields |= Record::has_timestamp;
            }
            if (head & Encoding::sequence_bit) r.fields |= Record::has_sequence;
            if (head & Encoding::value_bit) {
                Encoding::read_varint(p, end, r.value);
                r.fields |= Record::has_value;
            }
            out.push_back(r);
        }
    }

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

    // Writes `v` in decimal and a space; returns the end. Two digits per division.
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
    std::vector<Chunk> chunks_;
    std::size_t sent_;  // chunks already written to $HLSINSTR_EVENTS_FD
    bool magic_sent_;
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

    // The usual record — next order on this thread, probe and value below 128, no timestamp —
    // is two or three bytes written here, inlined where the probe is; the rest goes to
    // record_any.
    void record(std::uint32_t probe, char event, unsigned options, bool has_value, std::uint64_t value) {
        const std::uint64_t order = log_.next_order();
        if (order - last_order_ == 1 && (probe | (has_value ? value : 0)) < 0x80 && !(options & HLSINSTR_OPT_T) &&
            capacity_ - size_ >= 3) {
            unsigned char* p = buffer_ + size_;
            p[0] = static_cast<unsigned char>(Encoding::code(event) | Encoding::next_order_bit |
                                              ((options & HLSINSTR_OPT_S) ? Encoding::sequence_bit : 0) |
                                              (has_value ? Encoding::value_bit : 0));
            p[1] = static_cast<unsigned char>(probe);
            p[2] = static_cast<unsigned char>(value);
            size_ += has_value ? 3 : 2;
            last_order_ = order;
            return;
        }
        record_any(order, probe, event, options, has_value, value);
    }

    // Any record, with the order already drawn.
    void record_any(std::uint64_t order, std::uint32_t probe, char event, unsigned options, bool has_value,
                    std::uint64_t value) {
        if (capacity_ - size_ < static_cast<std::size_t>(Encoding::max_record) && !new_buffer()) return;
        unsigned char* p = buffer_ + size_;
        unsigned char* const head = p++;
        unsigned char h = Encoding::code(event);
        if (order - last_order_ == 1) {
            h |= Encoding::next_order_bit;
        } else {
            p = Encoding::varint(p, order - last_order_);
        }
        last_order_ = order;
        p = Encoding::varint(p, probe);
        if (options & HLSINSTR_OPT_T) {
            const std::uint64_t t = timestamp_ns();
            p = Encoding::varint(p, Encoding::zigzag(t - last_timestamp_));
            last_timestamp_ = t;
            h |= Encoding::timestamp_bit;
        }
        if (options & HLSINSTR_OPT_S) h |= Encoding::sequence_bit;
        if (has_value) {
            p = Encoding::varint(p, value);
            h |= Encoding::value_bit;
        }
        *head = h;
        size_ = static_cast<std::size_t>(p - buffer_);
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
        if (size_ != 0 && !log_gone()) hand_over();
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
    // 64 KiB, ~10 000 records: malloc takes it from the heap, not from a fresh mapping.
    enum { buffer_bytes = 1 << 16 };

    // Taking the process log first makes it outlive this thread-local object.
    ThreadLog()
        : log_(Log::instance()), thread_(log_.next_thread()), buffer_(0), size_(0), capacity_(0), last_order_(0),
          last_timestamp_(0) {}
    ~ThreadLog() {
        top_loop().trips = 0;
        flush();
        std::free(buffer_);
        thread_log_gone() = true;
    }
    ThreadLog(const ThreadLog&);
    ThreadLog& operator=(const ThreadLog&);

    // The full buffer goes to the log, a fresh one (uninitialized: it is only ever appended to)
    // takes its place; false when memory is out, and the record is lost, said once.
    bool new_buffer() {
        if (size_ != 0 && !log_gone()) hand_over();
        if (!buffer_) buffer_ = static_cast<unsigned char*>(std::malloc(buffer_bytes));
        if (!buffer_) {
            capacity_ = 0;
            log_.warn_once(0xffffffffu, "out of memory for the event log; records are being lost");
            return false;
        }
        capacity_ = buffer_bytes;
        return true;
    }

    // Gives the filled part of the buffer to the process log; the next record starts a new
    // buffer with its deltas from zero.
    void hand_over() {
        Chunk c = {thread_, static_cast<std::uint32_t>(size_), buffer_};
        if (capacity_ - size_ > buffer_bytes / 2) {
            // A flush before exit (flush_events) leaves most of the buffer unused: hand over a copy.
            c.data = static_cast<unsigned char*>(std::malloc(size_));
            if (!c.data) return;
            std::memcpy(c.data, buffer_, size_);
        } else {
            buffer_ = 0;
            capacity_ = 0;
        }
        log_.adopt(c);
        size_ = 0;
        last_order_ = 0;
        last_timestamp_ = 0;
    }

    Log& log_;
    std::uint32_t thread_;
    unsigned char* buffer_;
    std::size_t size_;
    std::size_t capacity_;
    std::uint64_t last_order_;
    std::uint64_t last_timestamp_;
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
