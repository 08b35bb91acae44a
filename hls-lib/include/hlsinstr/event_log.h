// hlsinstr: the C-simulation record stream.
//
// One stream of records for every probe kind: module and loop begin/end, m_axi traffic (maxi.h);
// branch trace (T, branches.h); watchpoints (code 6, watch.h) — a new kind is a new event, not a new log. Each
// thread appends to its own buffer (dataflow processes may run as threads), ordered globally
// (see Log::next_owned_order: a program that records on one thread takes no locked instruction
// at all), so the hot path takes no lock. A buffer holds records already encoded in
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
//     <order> <probe id> <B|E|R|W|D|T> <thread> <seq|-> <timestamp|-> <value|->
//   and a watch record (code 6) as <C|H|O|I> (call of the top, hit, out of bounds, invariant)
//   with an eighth field: the element's index from the watched buffer's first element.
// - `binary` (what `hlsinstr sim` asks for: nothing to format at exit): the 8 bytes
//   "HLSIEV6\n", then the buffers as they were filled, each as thread (u32 LE), byte length
//   (u32 LE) and the encoded records (see Encoding), and after each write an end mark (thread
//   0xffffffff, length 0): a log that does not end with one was cut short. The reader sorts by
//   order, numbers the records 0, 1, 2, ... in that order (the text log's `order`; the raw
//   orders of a log written on several threads are far apart) and numbers seq. Timestamps in
//   the buffers are counter ticks (timestamp.h); a clock mark (thread 0xfffffffc, 24 bytes:
//   the start's ticks, the ticks when the mark was made, the nanoseconds between, u64 LE each)
//   comes before every buffer that holds one, and the reader converts with the latest. Version 5
//   ("HLSIEV5\n") had leaf-runs records of leaf runs only (no leaf parents: LeafRuns); version 4
//   ("HLSIEV4\n") had no leaf-runs records; version
//   3 ("HLSIEV3\n") had no repeat records; version 2 ("HLSIEV2\n") had nanoseconds in the
//   records and no clock marks.
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
// Optimised even in an -O0 build, whichever header includes it first (see probe.h: the stream
// model includes this log too, and the linker keeps one copy of each inline function).
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC push_options
#pragma GCC optimize("O2")
#define HLSINSTR_EVENT_LOG_OPTIMIZED 1
#endif
#include "hlsinstr/timestamp.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#if defined(__unix__) || defined(__APPLE__)
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pthread.h>
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
const char EVENT_TRACE = 'T'; // a branch-trace site was reached (branches.h); value: a loop's trips
const char EVENT_WATCH = 'X'; // a watchpoint event (watch.h); its kind and index are in `detail`

// The probes never throw into the kernel and need nothing of the C++ runtime but what any
// program has: their containers (PodVector) and lock (SpinLock) take memory from malloc and
// say when it is out instead of throwing bad_alloc or system_error. That also keeps the
// exception machinery (an emergency pool set up at every start, ~200 KB of unwinder and
// demangler, their symbol lookups) out of a C simulation that had none.

// Functions that reach the C library's writes (fprintf, fopen, write: cancellation points, so
// not declared nothrow) are declared nothrow themselves, so that a kernel function holding a
// probe frame needs no unwinding code around its calls to them, and so no C++ runtime.
#if defined(__GNUC__)
#define HLSINSTR_NOTHROW __attribute__((nothrow))
// What a probe does rarely (a thread's first record, growing its stack, a warning, a loop or
// module end that finds more than its own frame): out of line, so the inlined common path stays
// short.
#define HLSINSTR_COLD __attribute__((noinline, cold))
// A probe's common path, inlined where the probe is even where the compiler's own budget would
// call it: then its `options` are a constant there, and the branches on them fold (a module's
// end called the record out of line, with the options read from its frame: timestamps cost
// 1.27x the probed run of a light testbench that way, 1.10x inlined).
// The small helpers of a record (the thread's log, its stack's push and pop, the order, the
// encoder) are marked so too: under the `optimize` pragma of an -O0 build (probe.h) g++ left
// them calls even inside the optimised probe entries, five calls a record.
#define HLSINSTR_INLINE __attribute__((always_inline)) inline
#else
#define HLSINSTR_NOTHROW
#define HLSINSTR_COLD
#define HLSINSTR_INLINE inline
#endif

// A growable array of plain structs in malloc'd memory. push_back is false when memory is out.
// No destructor (its owner calls release): a thread's log must be trivially destructible, or
// the C++ runtime's thread-exit machinery comes with it.
template <class T>
class PodVector {
  public:
    constexpr PodVector() : data_(0), size_(0), capacity_(0) {}

    void release() {
        std::free(data_);
        data_ = 0;
        size_ = capacity_ = 0;
    }

    std::size_t size() const { return size_; }
    T& operator[](std::size_t i) { return data_[i]; }
    const T& operator[](std::size_t i) const { return data_[i]; }
    T* begin() { return data_; }
    T* end() { return data_ + size_; }

    bool push_back(const T& v) {
        if (size_ == capacity_ && !grow()) return false;
        data_[size_++] = v;
        return true;
    }

  private:
    bool grow() {
        const std::size_t capacity = capacity_ ? 2 * capacity_ : 16;
        T* data = static_cast<T*>(std::realloc(data_, capacity * sizeof(T)));
        if (!data) return false;
        data_ = data;
        capacity_ = capacity;
        return true;
    }

    T* data_;
    std::size_t size_;
    std::size_t capacity_;
};

// A lock for what is rare (a full buffer handed over, a warning, the write at exit).
class SpinLock {
  public:
    void lock() {
        while (flag_.test_and_set(std::memory_order_acquire)) std::this_thread::yield();
    }
    void unlock() { flag_.clear(std::memory_order_release); }

  private:
    std::atomic_flag flag_ = ATOMIC_FLAG_INIT;
};

class Locked {
  public:
    explicit Locked(SpinLock& l) : l_(l) { l_.lock(); }
    ~Locked() { l_.unlock(); }

  private:
    Locked(const Locked&);
    Locked& operator=(const Locked&);
    SpinLock& l_;
};

// A record as the text writer sees it (decoded from a buffer).
struct Record {
    std::uint64_t order;
    std::uint64_t timestamp;
    std::uint64_t value;
    std::uint64_t detail; // watch records: zigzag(index) << 2 | kind (0 call, 1 hit, 2 out of bounds, 3 invariant)
    std::uint32_t probe;
    std::uint32_t thread;
    char event;
    unsigned char fields; // Record::has_* bits
    enum { has_timestamp = 1, has_sequence = 2, has_value = 4 };
};

// The encoding of one record in a buffer:
//   byte 0: event code (B 0, E 1, R 2, W 3, D 4, T 5, watch 6) | 0x08 timestamp | 0x10 seq | 0x20 value
//           | 0x40 the order is the previous one + 1 (the usual case on one thread)
//   [varint order - previous order in the buffer (the first: order itself)]   without 0x40
//   varint probe
//   [varint zigzag(timestamp - previous timestamp in the buffer)]   with 0x08
//   [varint value]                                                  with 0x20
//   varint zigzag(index) << 2 | kind                                only in a watch record (code 6)
// A repeat record (code 7, head 0x47) is that head and a count n as a varint of exactly 5 bytes
// (rewritten in place while it grows): the two records before it in its buffer, a begin and the
// end of the same probe, happen n more times, at the next 2n orders (see ThreadLog::end_leaf).
// varint: 7 bits a byte, least significant first, high bit set on all but the last byte.
struct Encoding {
    enum { timestamp_bit = 0x08, sequence_bit = 0x10, value_bit = 0x20, next_order_bit = 0x40, event_mask = 0x07 };
    enum { max_record = 1 + 5 * 10 };
    // A repeat record (code 7): its head and a count in 5 bytes, rewritten in place as it grows.
    enum { repeat_head = 7 | next_order_bit, repeat_record = 6 };
    // Stored runs (code 7 with the value and seq bits; ThreadLog::write_leaf_runs): the head,
    // [varint order delta] without 0x40, varint n, then n entries, each a varint tag and a varint
    // value: a leaf's run (tag probe << 1, value its trips: a begin and an end with the trips), a
    // leaf parent's begin (tag probe << 1 | 1, value 0: a begin) or its end (tag probe << 1 | 1,
    // value trips + 1: an end with the trips), at consecutive orders from the record's. Version
    // 5's leaf-runs record (head code 7 with the value bit only, 0x27) held runs only, each a
    // varint probe and a varint trips.
    enum { runs_head = 7 | value_bit | sequence_bit };
    static const std::uint64_t max_repeats = (std::uint64_t(1) << 35) - 1;

    // `v` (< 2^35) as a varint of exactly 5 bytes (a varint reader reads it as any other).
    HLSINSTR_INLINE static void fixed_varint(unsigned char* p, std::uint64_t v) {
        for (int i = 0; i < 4; ++i, v >>= 7) p[i] = static_cast<unsigned char>((v & 0x7f) | 0x80);
        p[4] = static_cast<unsigned char>(v & 0x7f);
    }

    HLSINSTR_INLINE static unsigned char code(char event) {
        switch (event) {
        case EVENT_BEGIN: return 0;
        case EVENT_END: return 1;
        case EVENT_READ: return 2;
        case EVENT_WRITE: return 3;
        case EVENT_TRACE: return 5;
        case EVENT_WATCH: return 6;
        default: return 4;
        }
    }
    static char letter(unsigned code) { return "BERWDTX?"[code & event_mask]; }

    // The head byte's event code and the bits every record states alike (seq, value); the
    // order and timestamp bits depend on the thread's previous record.
    HLSINSTR_INLINE static unsigned char head(char event, unsigned options, bool has_value) {
        return static_cast<unsigned char>(code(event) | ((options & HLSINSTR_OPT_S) ? sequence_bit : 0) |
                                          (has_value ? value_bit : 0));
    }

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
    bool stamped;        // holds a timestamp: a clock mark goes before it
};

// The binary log's first 8 bytes (its version).
inline const unsigned char* binary_magic() { return reinterpret_cast<const unsigned char*>("HLSIEV6\n"); }

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

// Binary unless `text` is asked for: the binary log formats nothing at exit (a text log of
// 10^8 records took longer to write than the run that made it).
inline bool env_is(const char* name, const char* value) {
    const char* v = std::getenv(name);
    return v && std::strcmp(v, value) == 0;
}

inline bool events_binary() {
    const char* f = std::getenv("HLSINSTR_EVENTS_FORMAT");
    return !(f && std::strcmp(f, "text") == 0);
}

// Set once the process-wide log is destroyed; a plain bool outlives every destructor.
HLSINSTR_INLINE bool& log_gone() {
    static bool gone = false;
    return gone;
}

class Log {
  public:
    static Log& instance();

    // Orders. A record's order must be unique and consistent with happens-before (a record
    // that happens before another gets the smaller order); concurrent records may fall either
    // way. The first thread that records (the owner) numbers its records itself, with a plain
    // load and store, while no other thread has recorded: a locked add per record cost it a
    // third of a probe. Every other thread, before its first record, marks the log shared; from
    // then on every record, the owner's too once it sees the mark, draws from one atomic
    // counter above shared_base. That keeps the rule: an owner record numbered alone cannot
    // happen after another thread's record (that thread marked the log first, so the owner
    // would see the mark), hence every owned order may stand below every shared one. Readers
    // sort by order and number the records 0, 1, 2, ... again.
    static const std::uint64_t shared_base = std::uint64_t(1) << 62;
#if defined(__GNUC__)
    // The compiler's builtins, not std::atomic's members: shared() is inlined into the kernel's
    // code (a leaf's end, a leaf parent's begin and end), and in an -O0 build the inlined
    // std::atomic load still called two unoptimised helpers of libstdc++ (std::operator& of the
    // memory order, std::__is_constant_evaluated): two calls per leaf run.
    HLSINSTR_INLINE bool shared() const { return __atomic_load_n(&shared_, __ATOMIC_RELAXED) != 0; }
    void share() { __atomic_store_n(&shared_, static_cast<unsigned char>(1), __ATOMIC_SEQ_CST); }
#else
    HLSINSTR_INLINE bool shared() const { return shared_.load(std::memory_order_relaxed) != 0; }
    void share() { shared_.store(1, std::memory_order_seq_cst); }
#endif
    // The owner's next `n` orders at once, the first returned (leaf runs: ThreadLog::write_leaf_runs).
    HLSINSTR_INLINE std::uint64_t take_owned_orders(std::uint64_t n) {
        const std::uint64_t o = owned_.load(std::memory_order_relaxed);
        owned_.store(o + n, std::memory_order_relaxed);
        return o;
    }
    // The owner's next order, not taken yet (take_owned_orders takes it and those after).
    HLSINSTR_INLINE std::uint64_t peek_owned_order() const { return owned_.load(std::memory_order_relaxed); }
    HLSINSTR_INLINE std::uint64_t next_owned_order() {
        const std::uint64_t o = owned_.load(std::memory_order_relaxed);
        owned_.store(o + 1, std::memory_order_relaxed);
        return o;
    }
    std::uint64_t next_shared_order() { return shared_base + order_.fetch_add(1, std::memory_order_relaxed); }
    std::uint32_t next_thread() { return threads_.fetch_add(1, std::memory_order_relaxed); }
    // Records issued so far on every thread; the stream watchdog counts them as progress.
    std::uint64_t issued() const {
        return owned_.load(std::memory_order_relaxed) + order_.load(std::memory_order_relaxed);
    }

    // A full buffer. With a descriptor it is written at once and freed, so the testbench holds
    // no more of its log than the buffers being filled, however long it runs (the reader merges
    // the threads' buffers); a log file is written at exit from the buffers kept here.
    void adopt(const Chunk& c) {
        bool kept;
        {
            Locked lock(mutex_);
#if HLSINSTR_EVENTS_HAVE_FD
            if (streaming()) {
                if (c.stamped) send_clock_mark();
                send_block(c.thread, c.data, c.size);
                std::free(c.data);
                return;
            }
            if (file_) { // a forked child of a process that streams its log file: the file is the parent's
                std::free(c.data);
                return;
            }
#endif
            kept = chunks_.push_back(c);
        }
        if (!kept) {
            std::free(c.data);
            warn_once(0xffffffffu, "out of memory for the event log; records are being lost");
        }
    }

    // A thread other than the first starts recording, or any thread ends: the reader of a
    // streamed log learns which threads may still send records earlier than those it holds.
    // A log file is read whole; it gets its start marks when it is written.
    void thread_mark(bool start, std::uint32_t thread) {
#if HLSINSTR_EVENTS_HAVE_FD
        Locked lock(mutex_);
        if (!streaming()) return;
        unsigned char body[4];
        put_u32(body, thread);
        send_block(start ? thread_start_mark : thread_end_mark, body, sizeof body);
#else
        (void)start;
        (void)thread;
#endif
    }

    // Probe misuse is reported once per probe, never fatal: the kernel's own output matters more.
    HLSINSTR_NOTHROW HLSINSTR_COLD void warn_once(std::uint32_t probe, const char* what) {
        if (first_warning(probe)) {
            std::fprintf(stderr, "hlsinstr: probe %u: %s (reported once)\n", static_cast<unsigned>(probe), what);
        }
    }

    // Writes every record adopted so far; the exit path calls it once more with everything
    // (`last`).
    HLSINSTR_NOTHROW void write(bool last = false) {
        Locked lock(mutex_);
#if HLSINSTR_EVENTS_HAVE_FD
        if (streaming()) {
            write_new_chunks(fd_);
            if (file_) publish_file(last);
            return;
        }
        if (file_) return; // a forked child: see adopt
#endif
        const char* const path = events_path();
        // A regular file is replaced atomically (written beside it, then renamed); anything else
        // that exists (/dev/null, a FIFO) is written in place: renaming over it would replace it.
        const bool in_place = is_special_file(path);
        char* const tmp = static_cast<char*>(std::malloc(std::strlen(path) + 5));
        if (!tmp) return;
        std::strcpy(tmp, path);
        if (!in_place) std::strcat(tmp, ".tmp");
        write_to(path, tmp, in_place);
        std::free(tmp);
    }

  private:
    enum : std::uint32_t {
        thread_end_mark = 0xfffffffeu,
        thread_start_mark = 0xfffffffdu,
        clock_mark = 0xfffffffcu
    };

    // The clock mark's body (see the file comment).
    static void put_clock_mark(unsigned char* body, const ClockMark& m) {
        put_u64(body, m.start_ticks);
        put_u64(body + 8, m.now_ticks);
        put_u64(body + 16, m.elapsed_ns);
    }

#if HLSINSTR_EVENTS_HAVE_FD
    // The log goes to $HLSINSTR_EVENTS_FD as it is made, and so does a binary log file (asked
    // once; under the lock). Kept until exit, a file's buffers cost a page fault every 4 KiB of
    // log and as much memory as the log (the median filter's 26 MB: 7 000 faults, 0.020 s of
    // its 0.204; streamed, 0.185 s and one buffer's memory). Not in a forked child: the file
    // is its parent's (its records are dropped, as its log used to be replaced by the parent's).
    bool streaming() {
        if (!fd_known_) {
            fd_known_ = true;
            fd_ = events_fd();
            if (fd_ < 0 && events_binary()) open_file();
        }
        return fd_ >= 0 && (!file_ || static_cast<long>(::getpid()) == pid_);
    }

    // The binary log file, written as it is made: beside its path (`path.tmp`), renamed over it
    // by the write at exit, so a reader never sees half a log (a special file, /dev/null or a
    // FIFO, is written in place: renaming over it would replace it). A relative path is taken
    // from the working directory of the first buffer written, not of the exit. When it cannot
    // be opened, the log is kept in memory and the write at exit says why it fails.
    HLSINSTR_NOTHROW void open_file() {
        const char* const path = events_path();
        char cwd[4096];
        const bool relative = path[0] != '/';
        if (relative && !::getcwd(cwd, sizeof cwd)) return;
        const std::size_t n = (relative ? std::strlen(cwd) + 1 : 0) + std::strlen(path);
        char* const full = static_cast<char*>(std::malloc(2 * n + 6));
        if (!full) return;
        full[0] = 0;
        if (relative) {
            std::strcat(full, cwd);
            std::strcat(full, "/");
        }
        std::strcat(full, path);
        char* const tmp = full + n + 1;
        std::strcpy(tmp, full);
        in_place_ = is_special_file(full);
        if (!in_place_) std::strcat(tmp, ".tmp");
        const int fd = ::open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (fd < 0) {
            std::free(full);
            return;
        }
        fd_ = fd;
        file_ = true;
        pid_ = static_cast<long>(::getpid());
        file_path_ = full;
    }

    // The streamed file after a write (it ends with an end mark): at exit closed and renamed
    // over the log's path. A write before exit (flush_events) renames it too, so the log is there
    // should the testbench end through _exit or abort, and the records after it are appended to
    // the renamed file (a run stopped later leaves a log without its end mark).
    HLSINSTR_NOTHROW void publish_file(bool last) {
        const char* const path = file_path_;
        const char* const tmp = path + std::strlen(path) + 1;
        if (last) {
            if (::close(fd_) != 0 && !send_failed_) {
                send_failed_ = true;
                std::fprintf(stderr, "hlsinstr: writing the event log %s failed (disk full?)\n", tmp);
            }
            fd_ = -1;
        }
        if (in_place_ || renamed_) return;
        if (send_failed_) {
            std::remove(tmp);
            return;
        }
        renamed_ = true;
        if (std::rename(tmp, path) != 0) {
            std::remove(path); // rename does not replace on every platform
            if (std::rename(tmp, path) != 0) {
                std::fprintf(stderr, "hlsinstr: cannot move the event log to %s\n", path);
            }
        }
    }

    // One block (a buffer or a mark) to the descriptor, the magic first; under the lock.
    HLSINSTR_NOTHROW void send_block(std::uint32_t thread, const unsigned char* data, std::uint32_t size) {
        bool ok = true;
        if (!magic_sent_) {
            ok = send(fd_, binary_magic(), 8);
            magic_sent_ = true;
        }
        unsigned char head[8];
        put_u32(head, thread);
        put_u32(head + 4, size);
        ok = ok && send(fd_, head, sizeof head) && send(fd_, data, size);
        if (!ok && !send_failed_) {
            send_failed_ = true;
            std::fprintf(stderr, "hlsinstr: writing the event log to descriptor %d failed: %s\n", fd_,
                         std::strerror(errno));
        }
    }

    // The calibration now, before a buffer that holds timestamps; under the lock.
    void send_clock_mark() {
        unsigned char body[24];
        put_clock_mark(body, ClockMark::now());
        send_block(clock_mark, body, sizeof body);
    }
#endif

    bool first_warning(std::uint32_t probe) {
        Locked lock(mutex_);
        for (std::size_t i = 0; i < warned_.size(); ++i) {
            if (warned_[i] == probe) return false;
        }
        warned_.push_back(probe);
        return true;
    }

    HLSINSTR_NOTHROW void write_to(const char* path, const char* tmp, bool in_place) {
        std::FILE* f = std::fopen(tmp, "wb");
        if (!f) {
            std::fprintf(stderr, "hlsinstr: cannot write the event log %s; set HLSINSTR_EVENTS to a writable path\n",
                         tmp);
            return;
        }
        if (events_binary()) {
            FileSink sink = {f};
            put_binary(sink, 0, true);
        } else {
            write_text(f);
        }
        const bool ok = std::ferror(f) == 0;
        if (std::fclose(f) != 0 || !ok) {
            std::fprintf(stderr, "hlsinstr: writing the event log %s failed (disk full?)\n", tmp);
            if (!in_place) std::remove(tmp);
            return;
        }
        if (!in_place && std::rename(tmp, path) != 0) {
            std::remove(path); // rename does not replace on every platform
            if (std::rename(tmp, path) != 0) {
                std::fprintf(stderr, "hlsinstr: cannot move the event log to %s\n", path);
            }
        }
    }

  public:
    // Constant-initialized (LogSlot): usable before any constructor of the program has run.
    constexpr Log()
        : owned_(0), order_(0), shared_(0), threads_(0), sent_(0), magic_sent_(false), fd_(-1), fd_known_(false),
          send_failed_(false), file_(false), in_place_(false), renamed_(false), pid_(0), file_path_(0) {}
    inline ~Log();

  private:
    Log(const Log&);
    Log& operator=(const Log&);

    // The binary log from chunk `first` on, the magic first if asked, an end mark last: the
    // buffers as they are (the reader decodes, sorts and numbers). False when a write failed.
    template <class Sink>
    HLSINSTR_NOTHROW bool put_binary(Sink& sink, std::size_t first, bool magic) const {
        bool ok = !magic || sink.put(binary_magic(), 8);
        // A file written whole: every thread but the first is announced before any buffer.
        const std::uint32_t threads = magic ? threads_.load() : 0;
        for (std::uint32_t t = 1; ok && t < threads; ++t) {
            unsigned char mark[12];
            put_u32(mark, thread_start_mark);
            put_u32(mark + 4, 4);
            put_u32(mark + 8, t);
            ok = sink.put(mark, sizeof mark);
        }
        // One calibration, made now, converts every buffer written now.
        bool stamped = false;
        for (std::size_t i = first; i < chunks_.size(); ++i) stamped = stamped || chunks_[i].stamped;
        if (ok && stamped) {
            unsigned char mark[8 + 24];
            put_u32(mark, clock_mark);
            put_u32(mark + 4, 24);
            put_clock_mark(mark + 8, ClockMark::now());
            ok = sink.put(mark, sizeof mark);
        }
        for (std::size_t i = first; ok && i < chunks_.size(); ++i) {
            unsigned char head[8];
            put_u32(head, chunks_[i].thread);
            put_u32(head + 4, chunks_[i].size);
            ok = sink.put(head, sizeof head) && sink.put(chunks_[i].data, chunks_[i].size);
        }
        // Closes every write (thread 0xffffffff, length 0).
        static const unsigned char end_mark[8] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0};
        return ok && sink.put(end_mark, sizeof end_mark);
    }

    // stdio buffers; errors are seen at fclose.
    struct FileSink {
        std::FILE* f;
        HLSINSTR_NOTHROW bool put(const unsigned char* p, std::size_t n) { return std::fwrite(p, 1, n, f) == n; }
    };

#if HLSINSTR_EVENTS_HAVE_FD
    // A descriptor, through a small buffer: a small log goes as one write (a system call costs
    // more than copying it), a large chunk straight from where it lies (copying it would touch
    // as many new pages as it fills).
    struct FdSink {
        int fd;
        std::size_t used;
        unsigned char buf[1 << 12];

        HLSINSTR_NOTHROW bool put(const unsigned char* p, std::size_t n) {
            if (used + n <= sizeof buf) {
                std::memcpy(buf + used, p, n);
                used += n;
                return true;
            }
            if (!flush()) return false;
            if (n > sizeof buf / 2) return send(fd, p, n);
            std::memcpy(buf, p, n);
            used = n;
            return true;
        }
        HLSINSTR_NOTHROW bool flush() {
            const bool ok = send(fd, buf, used);
            used = 0;
            return ok;
        }
    };

    // What is new since the last write to the descriptor: the magic once, the chunks not sent.
    HLSINSTR_NOTHROW void write_new_chunks(int fd) {
        FdSink sink;
        sink.fd = fd;
        sink.used = 0;
        const bool ok = put_binary(sink, sent_, !magic_sent_) && sink.flush();
        magic_sent_ = true;
        sent_ = chunks_.size();
        if (!ok && !send_failed_) {
            send_failed_ = true;
            std::fprintf(stderr, "hlsinstr: writing the event log to descriptor %d failed: %s\n", fd,
                         std::strerror(errno));
        }
    }

    HLSINSTR_NOTHROW static bool send(int fd, const unsigned char* p, std::size_t n) {
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
    static void put_u64(unsigned char* p, std::uint64_t v) {
        for (int k = 0; k < 8; ++k) p[k] = static_cast<unsigned char>(v >> (8 * k));
    }

    // Decoded, sorted and formatted; the records' array lives here, the C library's writes
    // happen in write_lines (so nothing here needs unwinding code).
    void write_text(std::FILE* f) const {
        PodVector<Record> all;
        bool ok = true;
        for (std::size_t i = 0; ok && i < chunks_.size(); ++i) ok = decode(chunks_[i], all);
        if (!std::is_sorted(all.begin(), all.end(), ByOrder())) std::sort(all.begin(), all.end(), ByOrder());
        // Ticks to nanoseconds since the start, with the calibration made now.
        const ClockMark clock = ClockMark::now();
        for (std::size_t i = 0; i < all.size(); ++i) {
            if (all[i].fields & Record::has_timestamp) all[i].timestamp = clock.to_ns(all[i].timestamp);
        }
        write_lines(f, ok, all.begin(), all.size());
        all.release();
    }

    // The text log of `n` sorted records; none when memory ran out decoding them (!decoded).
    HLSINSTR_NOTHROW static void write_lines(std::FILE* f, bool decoded, const Record* records, std::size_t n) {
        if (!decoded) {
            std::fprintf(stderr, "hlsinstr: out of memory writing the event log as text\n");
            return;
        }
        std::fputs("# hlsinstr events v1\n# order probe event thread seq timestamp_ns value\n", f);
        // Formatted by hand into one buffer: printf per field cost more than the whole run of
        // a small testbench. A record takes at most 8 fields of 20 digits and a sign.
        char buf[1 << 14];
        char* const limit = buf + sizeof buf - 8 * 22 - 1;
        char* p = buf;
        unsigned long long seq = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const Record& r = records[i];
            p = put(p, i); // the rank: owned and shared orders are far apart
            p = put(p, r.probe);
            *p++ = r.event == EVENT_WATCH ? "CHOI"[r.detail & 3] : r.event;
            *p++ = ' ';
            p = put(p, r.thread);
            p = (r.fields & Record::has_sequence) ? put(p, seq++) : dash(p);
            p = (r.fields & Record::has_timestamp) ? put(p, r.timestamp) : dash(p);
            if (r.event == EVENT_WATCH) { // value and index signed (zigzag-coded)
                p = (r.fields & Record::has_value) ? put_signed(p, r.value) : dash(p);
                p = put_signed(p, r.detail >> 2);
            } else {
                p = (r.fields & Record::has_value) ? put(p, r.value) : dash(p);
            }
            p[-1] = '\n';
            if (p > limit) {
                std::fwrite(buf, 1, static_cast<std::size_t>(p - buf), f);
                p = buf;
            }
        }
        if (p != buf) std::fwrite(buf, 1, static_cast<std::size_t>(p - buf), f);
    }

    // The inverse of ThreadLog::record; the buffers are our own, so they are well formed.
    static bool decode(const Chunk& c, PodVector<Record>& out) {
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
            r.detail = 0;
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
            if (r.event == EVENT_WATCH) Encoding::read_varint(p, end, r.detail);
            if (!out.push_back(r)) return false;
        }
        return true;
    }

    struct ByOrder {
        bool operator()(const Record& a, const Record& b) const { return a.order < b.order; }
    };

    static bool is_special_file(const char* path) {
#if defined(__unix__) || defined(__APPLE__)
        struct stat st;
        return ::stat(path, &st) == 0 && !S_ISREG(st.st_mode);
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
    // A zigzag-coded number in decimal and a space.
    static char* put_signed(char* p, std::uint64_t z) {
        if (z & 1) *p++ = '-';
        return put(p, (z >> 1) + (z & 1));
    }

    static char* dash(char* p) {
        *p++ = '-';
        *p++ = ' ';
        return p;
    }

    std::atomic<std::uint64_t> owned_; // written by the owner only
    std::atomic<std::uint64_t> order_;
    // A byte, not a bool: std::atomic<bool>'s load was a call a record in an -O0 build (and
    // with g++ and clang, no std::atomic at all: see shared()).
#if defined(__GNUC__)
    unsigned char shared_; // accessed with __atomic builtins only (shared())
#else
    std::atomic<unsigned char> shared_;
#endif
    std::atomic<std::uint32_t> threads_;
    SpinLock mutex_;
    PodVector<Chunk> chunks_;
    std::size_t sent_; // chunks already written to $HLSINSTR_EVENTS_FD
    bool magic_sent_;
    int fd_;
    bool fd_known_;
    bool send_failed_;
    // The binary log file streamed (open_file): fd_ is its `path.tmp` (or the path, in_place_),
    // already renamed over the path by a write before exit (renamed_), opened by process pid_.
    bool file_;
    bool in_place_;
    bool renamed_;
    long pid_;
    char* file_path_; // the path, then the temporary file's: one malloc'd block
    PodVector<std::uint32_t> warned_;
};

// The process's one Log: a class template's static member gives C++11 one definition across
// translation units, and constant initialization needs no guard (a function's static would
// take the C++ runtime's __cxa_guard on every probe's first use).
template <class Unused = void>
struct LogSlot {
    static Log log;
};
template <class Unused>
Log LogSlot<Unused>::log;

HLSINSTR_INLINE Log& Log::instance() { return LogSlot<>::log; }

// An open module or loop on a thread's probe stack (24 bytes).
struct Frame {
    std::uint32_t probe;
    unsigned char options;
    bool loop;
    std::uint64_t trips;  // the count at `count` while another frame is on top of this one
    std::uint64_t* count; // where HLSINSTR_LOOP_ITER counts while this frame is on top
};

// Where a loop's trips are counted while it is the top of the probe stack. HLSINSTR_LOOP_ITER
// runs once per trip, so it is one add, with no lookup of the log: in C++ to a member of the
// function's frame object (FunctionFrame::loop_trips, probe.h), a local of the probed function,
// so that in an -O0 build the add is one instruction on the stack (a thread-local's address took
// four more, ~0.2 ns a trip: median's 84 M trips); the C probes, and a loop that has no frame
// object, count in this thread-local instead. Every frame says where its count lives; pushing
// saves the count of the frame below into it and popping puts it back, so nested loops of one
// function share its counter, and a callee's loops never touch the caller's. 64-bit: a kernel's
// `int` stores cannot alias it, so the compiler may keep it in a register across a loop body
// without calls. A class template's static member gives C++11 one definition across translation
// units; the constant initializer needs no guard.
template <class Unused = void>
struct TopLoopSlot {
    static thread_local std::uint64_t value;
};
template <class Unused>
thread_local std::uint64_t TopLoopSlot<Unused>::value = 0;
HLSINSTR_INLINE std::uint64_t& top_loop_trips() { return TopLoopSlot<>::value; }

// A thread's open modules and loops, innermost last, above a sentinel frame at the bottom of
// its array. Pushing saves the count of the frame below and popping restores it, without asking
// whether there is a frame below or whether it is a loop (the sentinel is always there; a
// module's saved count is never read, since ITER counts only for the loop on top): those checks
// were a tenth of a probe. Indexes and size exclude the sentinel.
class ProbeStack {
  public:
    constexpr ProbeStack() : frames_(0), size_(0), capacity_(0), base_count_(0) {}

    HLSINSTR_INLINE std::size_t size() const { return size_; }
    HLSINSTR_INLINE bool empty() const { return size_ == 0; }
    HLSINSTR_INLINE Frame& back() { return frames_[size_]; }
    HLSINSTR_INLINE Frame& operator[](std::size_t i) { return frames_[i + 1]; }

    // False when memory is out (nothing is pushed). The frame counts at `count`, from 0.
    HLSINSTR_INLINE bool push(std::uint32_t probe, unsigned options, bool loop, std::uint64_t& count) {
        if (size_ + 1 >= capacity_ && !grow()) return false;
        Frame& below = frames_[size_];
        below.trips = *below.count;
        Frame& f = frames_[++size_];
        f.probe = probe;
        f.options = static_cast<unsigned char>(options);
        f.loop = loop;
        f.count = &count;
        count = 0;
        return true;
    }

    // The top frame, removed; its count (a loop's trips) in `trips`.
    HLSINSTR_INLINE Frame pop() {
        Frame f = frames_[size_];
        f.trips = *f.count;
        Frame& below = frames_[--size_];
        *below.count = below.trips;
        return f;
    }

    // Every frame, removed without a look at their counts (a stopped task's: sim/watchdog.h).
    void drop_all() { size_ = 0; }

    void release() {
        std::free(frames_);
        frames_ = 0;
        size_ = capacity_ = 0;
    }

  private:
    HLSINSTR_COLD bool grow() {
        const std::size_t capacity = capacity_ ? 2 * capacity_ : 64;
        Frame* frames = static_cast<Frame*>(std::realloc(frames_, capacity * sizeof(Frame)));
        if (!frames) return false;
        if (!frames_) { // the sentinel
            frames[0] = Frame();
            frames[0].count = &base_count_;
        }
        frames_ = frames;
        capacity_ = capacity;
        return true;
    }

    Frame* frames_; // [0] is the sentinel
    std::size_t size_;
    std::size_t capacity_;
    std::uint64_t base_count_; // the sentinel's count: nothing counts there
};

// Runs of leaf loops not written yet (probe.h, HLSINSTR_LEAF_END): loops whose bodies have no
// probe (no loop, no call, no jump out), run again and again inside their parents. Instead of a
// begin and an end each — two calls of the optimised probe entries from an -O0 kernel, ~4 ns
// each — a run's end stores its trips here, inlined where the loop is, and the next record of
// the thread (any) first writes all of them as one leaf-runs record (Encoding): the same begins
// and ends at the same consecutive orders, read back one by one. Only on the thread that numbers
// its records alone (Log::next_owned_order), while no other thread has recorded: each stored run
// happened before the owner saw the log shared, so it may stand below every shared order.
//
// A leaf parent (HLSINSTR_LEAF_PARENT_BEGIN/END: a loop whose only loops are leaves, and no call
// in its text) stores its begin and its end as entries among its leaves' runs, so one of its runs
// and all its leaves' cost no call either. Entries are stored as the record holds them (Encoding,
// runs_head): a run as tag probe << 1 and its trips, a parent's begin as tag probe << 1 | 1 and
// 0, its end as the same tag and trips + 1; the probe's shift is a constant where it is stored. The begin is stored when the parent starts, so every record after it, written after
// the stored entries, still comes after it; a record while it runs (a call the rewriter did not
// see) makes it an ordinary loop (ThreadLog::promote_parent: on the probe stack, so that a
// module's end or an exception closes it), and so does the log becoming shared. A full store is
// written and the parent goes on stored: its end may come in a later record than its begin.
struct LeafRuns {
    enum { capacity = 64 };
    std::uint32_t n;     // runs stored
    std::uint32_t limit; // capacity, or 0: the inlined path stores nothing (ThreadLog::leaf_run)
    // The leaf loop running now (its probe + 1; 0: none). The rewriter's test of a leaf is
    // syntactic: an operator, constructor or destructor the body calls without naming it may
    // still be probed. A record while a leaf runs makes it an ordinary loop from there on
    // (ThreadLog::promote_leaf): its begin is written first and it goes on the probe stack.
    std::uint32_t open;
    // Where the running leaf counts: its function's FunctionFrame::loop_trips (or LoopFrame's),
    // followed there by leaf_saved, the enclosing loop's count set aside.
    std::uint64_t* count;
    // The leaf parent running with its begin stored (its probe + 1; 0: none), and where it counts:
    // its function's FunctionFrame::loop_trips (or LoopFrame's), followed there by leaf_saved and
    // parent_saved, the enclosing loop's count set aside.
    std::uint32_t parent;
    std::uint64_t* parent_count;
    std::uint32_t tags[capacity];  // each entry's tag (its loop, and whether it is a parent's)
    std::uint64_t values[capacity]; // and its value (trips; for a parent's, 0 or trips + 1)
};

// One thread's records and probe stack. Constant-initialized and trivially destructible, so a
// thread-local one costs no initialization check of the C++ runtime; it starts on its thread's
// first probe, and finishes (hands its records to the log) when the thread ends — through a
// POSIX thread-specific key, or for the main thread when the log is written at exit.
class ThreadLog {
  public:
    // Null once this thread's log (or the process log) is gone: exit has begun.
    HLSINSTR_INLINE static ThreadLog* current() {
        ThreadLog& t = slot();
        if (t.state_ == active && !log_gone()) return &t;
        return t.start();
    }

    // Leaf runs stored by the inlined HLSINSTR_LEAF_END, written before any other record.
    LeafRuns leaves;

    // Stored leaf runs go first, and a leaf running now becomes an ordinary loop: every way to a
    // record (and to a hand-over, a module's end, an unwind) passes here.
    HLSINSTR_INLINE void settle() {
        if ((leaves.n | leaves.open | leaves.parent) != 0) settle_leaves();
    }

    // A leaf run the inlined path did not store (the store is full or off, or the log became
    // shared): stored here when the thread numbers its records alone and the log is binary with
    // repeats on, else recorded as a begin and an end (folding as any leaf does).
    void leaf_run(std::uint32_t probe, unsigned options, std::uint64_t trips) {
        if (!stack_.empty() && stack_.back().loop && stack_.back().probe == probe) {
            settle();
            close_top_as(true, options); // promoted while it ran (promote_leaf)
            return;
        }
        if (can_store(options)) {
            // The store is full (or not started): written, without promoting a leaf parent
            // running around this leaf (its begin is in the record; its end will be stored).
            if (leaves.n != 0) write_leaf_runs();
            leaves.limit = LeafRuns::capacity;
            leaves.tags[0] = probe << 1;
            leaves.values[0] = trips;
            leaves.n = 1;
            return;
        }
        settle();
        leaves.limit = 0;
        record(probe, EVENT_BEGIN, options, false, 0);
        if (!(options & (HLSINSTR_OPT_T | HLSINSTR_OPT_S)) && pos_ == after_begin_) {
            end_leaf(probe, options, true, trips);
        } else {
            record(probe, EVENT_END, options, true, trips);
        }
    }

    // A leaf parent's begin that the inlined path did not store (the store is full or off, or
    // the log became shared): stored here as leaf_run stores a run, or opened as any loop, the
    // enclosing loop's count put back first (the inlined begin set it aside in count[2]).
    void parent_open(std::uint32_t probe, unsigned options, std::uint64_t& count) {
        if (can_store(options)) {
            if (leaves.n >= LeafRuns::capacity) write_leaf_runs();
            leaves.limit = LeafRuns::capacity;
            leaves.tags[leaves.n] = probe << 1 | 1;
            leaves.values[leaves.n++] = 0;
            leaves.parent = probe + 1;
            leaves.parent_count = &count;
            return;
        }
        count = (&count)[2];
        if (push(probe, options, true, count)) record(probe, EVENT_BEGIN, options, false, 0);
    }

    // A leaf parent's end that the inlined path did not store: stored here when its begin was
    // and only the store was full (true); else its begin is written and it goes on the probe
    // stack (settle), for the caller to close it as any loop (false).
    bool store_parent_end(std::uint32_t probe, unsigned options, std::uint64_t trips) {
        if (leaves.parent != probe + 1) return false;
        if (!can_store(options)) {
            settle();
            return false;
        }
        if (leaves.n >= LeafRuns::capacity) write_leaf_runs();
        leaves.parent = 0;
        leaves.limit = LeafRuns::capacity;
        leaves.tags[leaves.n] = probe << 1 | 1;
        leaves.values[leaves.n++] = trips + 1;
        return true;
    }

    // The usual record — next order on this thread, probe and value below 128 — is two or three
    // bytes written here (and a timestamp's few), inlined where the probe is; the rest goes to
    // record_any. `options` is a constant at every probe, so the timestamp's branch folds.
    HLSINSTR_INLINE void record(std::uint32_t probe, char event, unsigned options, bool has_value,
                                std::uint64_t value) {
        settle();
        record_with(next_order(), probe, event, options, has_value, value);
    }

    // record, with the order already drawn.
    HLSINSTR_INLINE void record_with(std::uint64_t order, std::uint32_t probe, char event, unsigned options,
                                     bool has_value, std::uint64_t value) {
        if (order - last_order_ == 1 && (probe | (has_value ? value : 0)) < 0x80 &&
            end_ - pos_ >= static_cast<std::ptrdiff_t>(Encoding::max_record)) {
            unsigned char* p = pos_;
            const unsigned char h =
                static_cast<unsigned char>(Encoding::head(event, options, has_value) | Encoding::next_order_bit);
            p[1] = static_cast<unsigned char>(probe);
            if (options & HLSINSTR_OPT_T) {
                p[0] = static_cast<unsigned char>(h | Encoding::timestamp_bit);
                p = stamp(p + 2);
            } else {
                p[0] = h;
                p += 2;
            }
            if (has_value) *p++ = static_cast<unsigned char>(value);
            if (event == EVENT_BEGIN) {
                begin_at_ = pos_;
                after_begin_ = p;
            }
            pos_ = p;
            last_order_ = order;
            return;
        }
        record_any(order, probe, event, options, has_value, value);
    }

    // The counter's ticks as a delta from this buffer's previous timestamp.
    unsigned char* stamp(unsigned char* p) {
        const std::uint64_t t = timestamp_ticks();
        p = Encoding::varint(p, Encoding::zigzag(t - last_timestamp_));
        last_timestamp_ = t;
        stamped_ = true;
        return p;
    }

    // Any record, with the order already drawn.
    void record_any(std::uint64_t order, std::uint32_t probe, char event, unsigned options, bool has_value,
                    std::uint64_t value) {
        if (end_ - pos_ < static_cast<std::ptrdiff_t>(Encoding::max_record) && !new_buffer()) return;
        unsigned char* p = pos_;
        unsigned char* const head = p++;
        unsigned char h = Encoding::head(event, options, has_value);
        if (order - last_order_ == 1) {
            h |= Encoding::next_order_bit;
        } else {
            p = Encoding::varint(p, order - last_order_);
        }
        last_order_ = order;
        p = Encoding::varint(p, probe);
        if (options & HLSINSTR_OPT_T) {
            p = stamp(p);
            h |= Encoding::timestamp_bit;
        }
        if (has_value) p = Encoding::varint(p, value);
        *head = h;
        if (event == EVENT_BEGIN) {
            begin_at_ = head;
            after_begin_ = p;
        }
        pos_ = p;
    }

    // A watchpoint event (watch.h): kind 0 call of the top, 1 hit, 2 out of bounds, 3 invariant;
    // `index` the element's from the watched buffer's first. Never timestamped or numbered.
    void record_watch(std::uint32_t probe, unsigned kind, long long index, bool has_value, std::uint64_t value) {
        settle();
        // `value` is a long long's bits: zigzag-coded like the index, so -1 takes one byte.
        const std::uint64_t order = next_order();
        record_any(order, probe, EVENT_WATCH, 0, has_value, Encoding::zigzag(value)); // a signed value
        if (pos_ == 0) return; // out of memory: record_any dropped it
        const std::uint64_t z = Encoding::zigzag(static_cast<std::uint64_t>(index));
        pos_ = Encoding::varint(pos_, z << 2 | (kind & 3));
    }

    // See Log::next_owned_order.
    HLSINSTR_INLINE std::uint64_t next_order() {
        Log& log = Log::instance();
        return (owner_ && !log.shared()) ? log.next_owned_order() : log.next_shared_order();
    }

    HLSINSTR_INLINE ProbeStack& stack() { return stack_; }
    // This thread's number in the log's `thread` column.
    std::uint32_t id() const { return thread_; }

    // Hands this thread's records to the process log and frees its memory (its thread ends).
    void finish() {
        if (state_ != active) return;
        flush();
        leaves.limit = 0; // a leaf run after this is dropped as any record is (current() is null)
        if (!log_gone()) log_->thread_mark(false, thread_);
        std::free(buffer_);
        buffer_ = pos_ = end_ = 0;
        stack_.release();
        state_ = finished;
    }

    // This thread's log, started or not.
    static ThreadLog& slot();

    constexpr ThreadLog()
        : leaves(), state_(fresh), owner_(false), stamped_(false), repeats_on_(false), log_(0), thread_(0), buffer_(0), pos_(0),
          end_(0), last_order_(0), last_timestamp_(0), begin_at_(0), after_begin_(0), pair_end_(0), count_at_(0),
          pair_value_(0), repeats_(0), pair_probe_(0) {
    }

    // Moves this thread's records to the process log (before an explicit write).
    void flush() {
        settle();
        if (pos_ != buffer_ && !log_gone()) hand_over();
    }

    void warn_once(std::uint32_t probe, const char* what) { log_->warn_once(probe, what); }

    // Pops the top frame and records its end; a loop's end carries its trip count.
    void close_top() {
        if (stack_.back().loop) {
            close_top_as(true);
        } else {
            close_top_as(false);
        }
    }

    // close_top where the caller knows what the top is: with `loop` a constant, record's fast
    // path folds (230 K of quicksort's 2 M probe instructions against the branch in one body).
    void close_top_as(bool loop) { close_top_as(loop, stack_.back().options); }

    // The same where the probe knows its frame's options (the begin's, a constant at its site).
    // A leaf (its begin the record just before) may repeat the leaf before it: see end_leaf.
    HLSINSTR_INLINE void close_top_as(bool loop, unsigned options) {
        settle();
        const Frame f = stack_.pop();
        const std::uint64_t value = loop ? f.trips : 0;
        if (!(options & (HLSINSTR_OPT_T | HLSINSTR_OPT_S)) && pos_ == after_begin_) {
            end_leaf(f.probe, options, loop, value);
            return;
        }
        record(f.probe, EVENT_END, options, loop, value);
    }

    // The end of a leaf: a module or loop invocation with no record between its begin and its
    // end (a small function called in a loop, an innermost loop). When it is the same probe
    // with the same value (trips) as the leaf just before it, with nothing between the two and
    // consecutive orders, its begin is taken back and a repeat record after the first leaf
    // counts it instead: `B E B E B E ...` becomes `B E R(n)`. A kernel's innermost loops and
    // small calls are most of a heavy run's records; this way the testbench writes, and the
    // analysis reads, one record per run of identical leaves (`hlsinstr sim` takes a run as a
    // whole where the model allows it). Never with timestamps or seq (each record is a moment)
    // nor in the text log (a person reads each line); HLSINSTR_EVENTS_REPEATS=0 turns it off.
    HLSINSTR_INLINE void end_leaf(std::uint32_t probe, unsigned options, bool has_value, std::uint64_t value) {
        const std::uint64_t order = next_order();
        after_begin_ = 0; // the begin is used: a record later written where it ended is no begin
        if (pair_end_ != 0 && begin_at_ == pair_end_ && probe == pair_probe_ && value == pair_value_ &&
            order - last_order_ == 1 && (*begin_at_ & Encoding::next_order_bit) && repeats_ < Encoding::max_repeats) {
            if (count_at_ != 0) {
                pos_ = begin_at_;
            } else if (end_ - begin_at_ >= static_cast<std::ptrdiff_t>(Encoding::repeat_record)) {
                begin_at_[0] = Encoding::repeat_head;
                count_at_ = begin_at_ + 1;
                repeats_ = 0;
                pos_ = pair_end_ = begin_at_ + Encoding::repeat_record;
            } else {
                count_at_ = 0; // no room for the repeat record: written as it is, below
                goto plain;
            }
            last_order_ = order;
            Encoding::fixed_varint(count_at_, ++repeats_);
            return;
        }
    plain:
        unsigned char* const begin = begin_at_;
        record_with(order, probe, EVENT_END, options, has_value, value);
        if (repeats_on_ && begin != 0 && begin_at_ == begin) { // the begin is in this buffer
            pair_end_ = pos_;
            pair_probe_ = probe;
            pair_value_ = value;
            count_at_ = 0;
            repeats_ = 0;
        }
    }

    // A module's or loop's frame on top, counting at `count` from 0 (see top_loop_trips). False
    // when memory is out: the frame is not open, and its end will say so.
    HLSINSTR_INLINE bool push(std::uint32_t probe, unsigned options, bool loop, std::uint64_t& count) {
        settle(); // a running leaf goes on the stack below this frame (promote_leaf)
        if (stack_.push(probe, options, loop, count)) return true;
        warn_once(probe, "out of memory for the probe stack; this probe is not recorded");
        return false;
    }

  private:
    // Runs (and leaf parents' begins and ends) are stored only on the thread that numbers its
    // records alone, in a binary log with repeats on, without timestamps or seq.
    bool can_store(unsigned options) const {
        return owner_ && repeats_on_ && !(options & (HLSINSTR_OPT_T | HLSINSTR_OPT_S)) && !log_->shared();
    }

    HLSINSTR_COLD void settle_leaves() {
        if (leaves.n != 0) write_leaf_runs();
        if (leaves.parent != 0) promote_parent();
        if (leaves.open != 0) promote_leaf();
    }

    // Something records while a leaf parent runs with its begin stored (just written, above):
    // from here on it is an ordinary loop on the probe stack, counting where it counts now
    // (LeafRuns::parent_count), so that its end, a module's end or an unwind closes it. The frame
    // below, when it counts at the same local, gets back the count the parent set aside
    // (parent_saved, two members after loop_trips). A leaf running in it is promoted next, above
    // it (promote_leaf takes the parent's count from leaf_saved).
    HLSINSTR_COLD void promote_parent() {
        const std::uint32_t probe = leaves.parent - 1;
        leaves.parent = 0;
        std::uint64_t* const count = leaves.parent_count;
        const std::uint64_t now = *count;
        if (!stack_.push(probe, HLSINSTR_OPT_P, true, *count)) {
            warn_once(probe, "out of memory for the probe stack; this probe is not recorded");
            return;
        }
        Frame& below = stack_.size() >= 2 ? stack_[stack_.size() - 2] : stack_.back();
        if (stack_.size() >= 2 && below.count == count) below.trips = count[2];
        *count = now;
    }

    // Something records while a leaf loop runs (see LeafRuns::open): its begin goes first and its
    // frame on the stack, counting where it counts now (LeafRuns::count). When the frame below
    // counts at the same local (the leaf's enclosing loop, or its function), the count that frame
    // gets back when the leaf ends is the one the leaf set aside (leaf_saved, the member after
    // loop_trips in FunctionFrame and LoopFrame). Its end then closes it as any loop (leaf_run).
    // The rewriter writes leaf probes with options P only.
    HLSINSTR_COLD void promote_leaf() {
        const std::uint32_t probe = leaves.open - 1;
        leaves.open = 0;
        leaves.limit = 0; // its end must come out of line, to close the frame
        std::uint64_t* const count = leaves.count;
        const std::uint64_t so_far = *count;
        if (!push(probe, HLSINSTR_OPT_P, true, *count)) return;
        Frame& below = stack_.size() >= 2 ? stack_[stack_.size() - 2] : stack_.back();
        if (stack_.size() >= 2 && below.count == count) below.trips = count[1];
        *count = so_far;
        record_with(next_order(), probe, EVENT_BEGIN, HLSINSTR_OPT_P, false, 0);
    }

    // The stored entries as one record (Encoding: code 7 with the value and seq bits), at the
    // owner's next orders (two a run, one a parent's begin or end); a record too big for the
    // buffer's room starts a new buffer.
    HLSINSTR_COLD void write_leaf_runs() {
        const std::uint32_t n = leaves.n;
        leaves.n = 0;
        const std::size_t need = 1 + 2 * 10 + 15 * static_cast<std::size_t>(n);
        if (end_ - pos_ < static_cast<std::ptrdiff_t>(need) && !new_buffer()) return;
        const std::uint64_t order = log_->peek_owned_order();
        unsigned char* p = pos_;
        unsigned char* const head = p++;
        unsigned char h = Encoding::runs_head;
        if (order - last_order_ == 1) {
            h |= Encoding::next_order_bit;
        } else {
            p = Encoding::varint(p, order - last_order_);
        }
        *head = h;
        p = Encoding::varint(p, n);
        std::uint64_t orders = 2 * std::uint64_t(n); // one fewer for each parent's begin or end
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t tag = leaves.tags[i];
            const std::uint64_t value = leaves.values[i];
            orders -= tag & 1;
            if ((tag | value) < 0x80) { // the usual entry: a byte each, no call
                p[0] = static_cast<unsigned char>(tag);
                p[1] = static_cast<unsigned char>(value);
                p += 2;
            } else {
                p = Encoding::varint(p, tag);
                p = Encoding::varint(p, value);
            }
        }
        log_->take_owned_orders(orders);
        last_order_ = order + orders - 1;
        pos_ = p;
        forget_leaves(); // a leaf after these runs repeats none of them
    }

    // 64 KiB, ~10 000 records: malloc takes it from the heap, not from a fresh mapping.
    enum { buffer_bytes = 1 << 16 };

    enum State { fresh, active, finished };

    // The first probe on this thread: number it and arrange for its end.
    HLSINSTR_COLD ThreadLog* start() {
        if (state_ != fresh || log_gone()) return 0;
        log_ = &Log::instance();
        start_clock();
        thread_ = log_->next_thread();
        owner_ = thread_ == 0;
        repeats_on_ = events_binary() && !env_is("HLSINSTR_EVENTS_REPEATS", "0");
        if (!owner_) {
            log_->share(); // before this thread's first record: see Log::next_owned_order
            log_->thread_mark(true, thread_);
        }
        state_ = active;
        finish_at_thread_exit(this);
        return this;
    }

    static void finish_at_thread_exit(ThreadLog* t);

    // The full buffer goes to the log, a fresh one (uninitialized: it is only ever appended to)
    // takes its place; false when memory is out, and the record is lost, said once.
    bool new_buffer() {
        if (pos_ != buffer_ && !log_gone()) hand_over();
        forget_leaves();
        if (!buffer_) buffer_ = static_cast<unsigned char*>(std::malloc(buffer_bytes));
        if (!buffer_) {
            pos_ = end_ = 0;
            log_->warn_once(0xffffffffu, "out of memory for the event log; records are being lost");
            return false;
        }
        pos_ = buffer_;
        end_ = buffer_ + buffer_bytes;
        return true;
    }

    // Gives the filled part of the buffer to the process log; the next record starts a new
    // buffer with its deltas from zero.
    void hand_over() {
        const std::size_t size = static_cast<std::size_t>(pos_ - buffer_);
        Chunk c = {thread_, static_cast<std::uint32_t>(size), buffer_, stamped_};
        if (static_cast<std::size_t>(end_ - pos_) > buffer_bytes / 2) {
            // A flush before exit (flush_events) leaves most of the buffer unused: hand over a copy.
            c.data = static_cast<unsigned char*>(std::malloc(size));
            if (!c.data) return;
            std::memcpy(c.data, buffer_, size);
            pos_ = buffer_;
        } else {
            buffer_ = pos_ = end_ = 0;
        }
        log_->adopt(c);
        last_order_ = 0;
        last_timestamp_ = 0;
        stamped_ = false;
        forget_leaves();
    }

    // The buffer changes: a leaf and its repeat never span two (their pointers would be stale).
    void forget_leaves() { begin_at_ = after_begin_ = pair_end_ = count_at_ = 0; }

    State state_;
    bool owner_;   // the first thread that recorded (Log::next_owned_order)
    bool stamped_; // the buffer holds a timestamp
    bool repeats_on_; // see end_leaf
    Log* log_;
    std::uint32_t thread_;
    unsigned char* buffer_; // the records since the last hand-over are [buffer_, pos_)
    unsigned char* pos_;
    unsigned char* end_;
    std::uint64_t last_order_;
    std::uint64_t last_timestamp_;
    // Repeated leaves (end_leaf), all in the current buffer (0: none): where the last begin
    // record starts and ends, where the last leaf (or its repeat record) ends, its repeat
    // record's count, the leaf's value and probe and how often it repeated.
    unsigned char* begin_at_;
    unsigned char* after_begin_;
    unsigned char* pair_end_;
    unsigned char* count_at_;
    std::uint64_t pair_value_;
    std::uint64_t repeats_;
    std::uint32_t pair_probe_;
    ProbeStack stack_;
};

template <class Unused = void>
struct ThreadLogSlot {
    static thread_local ThreadLog value;
};
template <class Unused>
thread_local ThreadLog ThreadLogSlot<Unused>::value;

HLSINSTR_INLINE ThreadLog& ThreadLog::slot() { return ThreadLogSlot<>::value; }

#if HLSINSTR_EVENTS_HAVE_FD
// One POSIX key whose destructor finishes each thread's log when the thread ends (the main
// thread's when the log is written at exit: exit() runs no key destructors).
template <class Unused = void>
struct ThreadExitKey {
    static SpinLock lock;
    static bool made;
    static pthread_key_t key;
    static void finish(void* t) { static_cast<ThreadLog*>(t)->finish(); }
};
template <class Unused>
SpinLock ThreadExitKey<Unused>::lock;
template <class Unused>
bool ThreadExitKey<Unused>::made = false;
template <class Unused>
pthread_key_t ThreadExitKey<Unused>::key;

inline void ThreadLog::finish_at_thread_exit(ThreadLog* t) {
    typedef ThreadExitKey<> K;
    {
        Locked lock(K::lock);
        if (!K::made) K::made = pthread_key_create(&K::key, &K::finish) == 0;
    }
    if (K::made) pthread_setspecific(K::key, t);
}
#else
// Elsewhere a thread-local object's destructor does it (and brings the C++ runtime's
// thread-exit support).
struct ThreadExitGuard {
    ThreadLog* log;
    ~ThreadExitGuard() {
        if (log) log->finish();
    }
};

inline void ThreadLog::finish_at_thread_exit(ThreadLog* t) {
    static thread_local ThreadExitGuard guard = {0};
    guard.log = t;
}
#endif

// At exit: the exiting thread's records join the others, then everything is written once —
// if any probe ever ran: a program that only includes the headers writes no log.
inline Log::~Log() {
    ThreadLog::slot().finish();
    if (threads_.load() != 0) write(true);
    log_gone() = true;
#if HLSINSTR_EVENTS_HAVE_FD
    std::free(file_path_);
#endif
    for (std::size_t i = 0; i < chunks_.size(); ++i) std::free(chunks_[i].data);
    chunks_.release();
    warned_.release();
}

// Writes the event log now with everything recorded so far by finished threads and this one;
// for testbenches that leave through _exit or abort. The normal exit path writes it anyway.
inline void flush_events() {
    if (ThreadLog* t = ThreadLog::current()) t->flush();
    if (!log_gone()) Log::instance().write();
}

} // namespace sim
} // namespace hlsinstr

#ifdef HLSINSTR_EVENT_LOG_OPTIMIZED
#pragma GCC pop_options
#endif
#endif

#endif
