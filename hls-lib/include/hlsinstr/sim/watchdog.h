// hlsinstr: the deadlock watchdog of the C-simulation stream model (sim/hls_stream.h).
//
// A blocking read of an empty stream, or a blocking write of a full bounded one, waits here.
// Where the vendor model prints a warning and reads a made-up value (or, thread-safe, hangs),
// the watchdog decides whether the wait can ever end and, when it cannot, reports and exits:
//
//   hlsinstr: deadlock: thread <T> blocked reading empty stream '<name>' in probe <P>
//   hlsinstr: deadlock: thread <T> blocked writing full stream '<name>' in probe <P>
//
// one line per blocked thread (sorted by T), then one summary line that does not start with
// `hlsinstr: deadlock: thread `. T is the thread's number in the event log (`-` once the thread's
// log is gone), P its innermost open probe (`-` outside every probe); control characters in a
// name print as `?`, and the name ends at the last `' in probe `. Each blocked thread with an open
// probe also gets a `D` record in the event log; the log is written, stdio flushed, and the
// process leaves through std::_Exit(86) (DEADLOCK_EXIT_CODE): no destructors, no atexit.
//
// The rule. A thread counts as live from its first stream operation (constructing a stream
// counts) until it ends; a waiter is blocked while its stream stays empty (full). Deadlock is
// declared when either
//  - every thread of the process is blocked: at least as many blocked waiters as live threads,
//    and as many as the operating system lists for the process (/proc/self/stat; elsewhere this
//    rule never fires). Nothing is left to write or read, so this is certain, and reported at
//    once: a sequential C simulation reading an empty stream ends in microseconds. A thread that
//    has not touched a stream yet, or sits in std::thread::join, keeps this rule from firing; or
//  - some thread is blocked and nothing progressed for HLSINSTR_WATCHDOG_MS milliseconds
//    (default 2000; 0 turns this rule off): no stream read or write completed and no probe record
//    was written on any thread. This catches the main thread joining deadlocked processes. A
//    process that computes longer than that without a stream transfer or a probe record while
//    another waits for it is reported too: raise HLSINSTR_WATCHDOG_MS for such designs.
// Blocked threads re-check every 20 ms; nothing is checked while no thread waits.
//
// hls::task threads (hls_task.h) are free-running processes: a task waiting on an empty input
// is idle, not stuck, so the second rule looks only at waiters that are not tasks (the
// testbench reading a result that never comes); the first still counts every thread. A task's
// wait ends when the task object is destroyed (its hls_thread_local goes at the thread's exit):
// the wait throws TaskStopped, which unwinds the task body to its thread loop, and the body's
// open probe frames are dropped first, so the interrupted invocation records no end.
//
// Records of threads that are not blocked and still running (the main thread in join) are not in
// the log written at a deadlock, as with any thread still running at exit.
#ifndef HLSINSTR_SIM_WATCHDOG_H
#define HLSINSTR_SIM_WATCHDOG_H

#include "hlsinstr/config.h"

#if !HLSINSTR_SYNTHESIS
#include "hlsinstr/event_log.h"
#include "hlsinstr/options.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace hlsinstr {
namespace sim {

// The exit status of a process stopped by the watchdog.
const int DEADLOCK_EXIT_CODE = 86;

// What the watchdog knows of one stream. The stream model owns it and changes it only while
// holding Watchdog::mutex().
struct Channel {
    std::string name;
    std::size_t count;  // elements held
    std::size_t depth;  // 0: unbounded
    unsigned waiting;   // threads waiting on `ready`
    bool overfilled;    // a sequential run wrote past the depth (noted once)
    bool task_used;     // an hls::task thread used this stream, made on another thread
    std::condition_variable ready;

    Channel() : count(0), depth(0), waiting(0), overfilled(false), task_used(false) {}

    bool can_read() const { return count > 0; }
    bool can_write() const { return depth == 0 || count < depth; }
};

// Thrown out of a blocked stream operation of a task whose hls::task object is being destroyed.
struct TaskStopped {};

namespace detail {

// Set on a task's thread (hls_task.h): its stop request, null on other threads.
inline const std::atomic<bool>*& task_stop() {
    static thread_local const std::atomic<bool>* stop = 0;
    return stop;
}

// Threads of this process as the operating system lists them; -1 when unknown.
inline long os_thread_count() {
#if defined(__linux__)
    std::FILE* f = std::fopen("/proc/self/stat", "r");
    if (!f) return -1;
    char buf[1024];
    const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[n] = '\0';
    // Field 2 is the command name in parentheses (it may hold spaces); num_threads is field 20.
    const char* p = std::strrchr(buf, ')');
    for (int field = 3; p && field <= 20; ++field) p = std::strchr(p + 1, ' ');
    return p ? std::strtol(p + 1, 0, 10) : -1;
#else
    return -1;
#endif
}

inline unsigned long watchdog_ms_from_env() {
    const unsigned long fallback = 2000;
    const char* s = std::getenv("HLSINSTR_WATCHDOG_MS");
    if (!s || !*s) return fallback;
    const unsigned long most = 1000000000; // 11 days: keeps the chrono arithmetic far from overflow
    char* end = 0;
    const unsigned long ms = std::strtoul(s, &end, 10);
    if (*end != '\0' || *s == '-' || ms > most) {
        std::fprintf(stderr, "hlsinstr: HLSINSTR_WATCHDOG_MS='%s' is not a number of milliseconds (0 to %lu); using %lu\n",
                     s, most, fallback);
        return fallback;
    }
    return ms;
}

inline bool& thread_slot_gone() {
    static thread_local bool gone = false;
    return gone;
}

} // namespace detail

class Watchdog {
  public:
    // Never destroyed: detached threads and static streams may use it during exit.
    static Watchdog& instance() {
        static Watchdog* w = new Watchdog;
        return *w;
    }

    // The one lock of every stream: the deadlock rule needs a consistent view of all of them.
    std::mutex& mutex() { return mutex_; }

    // Counts the calling thread as live until it ends. Call before taking mutex().
    static void enter_thread() {
        if (detail::thread_slot_gone()) return;
        static thread_local Slot slot;
        (void)slot;
    }

    // True when no other live thread has used a stream: processes run one after another, as in a
    // sequential C simulation (lock held).
    bool alone() const { return live_ <= 1; }

    // Wakes every waiter to look again (a task stop request); takes the lock.
    void wake_all() {
        std::lock_guard<std::mutex> lock(mutex_);
        for (std::size_t i = 0; i < waiters_.size(); ++i) waiters_[i]->channel->ready.notify_all();
    }

    // hls::task threads (hls_task.h): a task's stop flag and whether its thread has ended.
    struct TaskEntry {
        std::atomic<bool> stop;
        bool ended;
        TaskEntry() : stop(false), ended(false) {}
    };

    void add_task(TaskEntry* t) {
        std::lock_guard<std::mutex> lock(mutex_);
        tasks_.push_back(t);
    }

    // The task's thread is leaving (called on it).
    void task_ended(TaskEntry* t) {
        std::lock_guard<std::mutex> lock(mutex_);
        t->ended = true;
        tasks_changed_.notify_all();
    }

    void remove_task(TaskEntry* t) {
        std::lock_guard<std::mutex> lock(mutex_);
        tasks_.erase(std::find(tasks_.begin(), tasks_.end(), t));
    }

    // A stream a task uses goes away (the testbench's stream at the end of main, before the
    // hls_thread_local tasks): every task stops first, so none touches it afterwards. Waits for
    // their threads to end; called without the lock, never from a task thread.
    void stop_tasks() {
        std::unique_lock<std::mutex> lock(mutex_);
        for (std::size_t i = 0; i < tasks_.size(); ++i) tasks_[i]->stop.store(true);
        for (std::size_t i = 0; i < waiters_.size(); ++i) waiters_[i]->channel->ready.notify_all();
        for (;;) {
            bool all = true;
            for (std::size_t i = 0; i < tasks_.size(); ++i) all = all && tasks_[i]->ended;
            if (all) return;
            tasks_changed_.wait_for(lock, std::chrono::milliseconds(tick_ms));
        }
    }

    // Notes a stream operation of the calling thread on `ch` (lock held).
    static void touch(Channel& ch, bool made_on_task) {
        if (detail::task_stop() && !made_on_task) ch.task_used = true;
    }

    // A read or write of `ch` completed (lock held).
    void transferred(Channel& ch) {
        ++transfers_;
        if (ch.waiting) ch.ready.notify_all();
    }

    // A sequential run writes past the depth of `ch`, as Vitis C simulation does; noted once.
    void overfill(Channel& ch) {
        if (ch.overfilled) return;
        ch.overfilled = true;
        std::fprintf(stderr,
                     "hlsinstr: stream '%s' holds more than its depth %lu: this C simulation runs its processes "
                     "one after another; in hardware the writer stalls until a concurrent reader (dataflow) "
                     "makes room, and deadlocks without one\n",
                     printable(ch.name).c_str(), static_cast<unsigned long>(ch.depth));
    }

    // Waits (lock held) until `ch` can be written (`writing`) or read. Does not return when no
    // thread can ever make that happen: reports the deadlock and ends the process.
    void wait(std::unique_lock<std::mutex>& lock, Channel& ch, bool writing) {
        typedef std::chrono::steady_clock clock;
        const std::atomic<bool>* stop = detail::task_stop();
        Waiter self = {&ch, writing, ThreadLog::current(), stop != 0};
        waiters_.push_back(&self);
        ++ch.waiting;
        std::uint64_t seen = progress();
        clock::time_point since = clock::now();
        for (;;) {
            if (!reporting_) { // once a report began, every waiter stays put until the exit
                if (self.unblocked()) break;
                if (stop && stop->load()) {
                    --ch.waiting;
                    waiters_.erase(std::find(waiters_.begin(), waiters_.end(), &self));
                    drop_open_frames();
                    throw TaskStopped();
                }
                if (everyone_blocked() && !release_sequential_writer()) report(lock, 0);
                const std::uint64_t now_seen = progress();
                const clock::time_point now = clock::now();
                if (now_seen != seen) {
                    seen = now_seen;
                    since = now;
                } else if (timeout_ms_ != 0 && now - since >= std::chrono::milliseconds(timeout_ms_) &&
                           blocked_outside_tasks()) {
                    report(lock, timeout_ms_);
                }
            }
            ch.ready.wait_for(lock, std::chrono::milliseconds(tick_ms));
        }
        --ch.waiting;
        waiters_.erase(std::find(waiters_.begin(), waiters_.end(), &self));
    }

  private:
    enum { tick_ms = 20 };

    struct Waiter {
        Channel* channel;
        bool writing;
        ThreadLog* log; // this waiter's thread log; null once exit began
        bool task;      // on an hls::task thread
        bool unblocked() const { return writing ? channel->can_write() : channel->can_read(); }
    };

    // Counts the thread live while it runs (a thread_local; see enter_thread).
    struct Slot {
        Slot() {
            Watchdog& w = instance();
            std::lock_guard<std::mutex> lock(w.mutex_);
            ++w.live_;
        }
        ~Slot() {
            Watchdog& w = instance();
            std::lock_guard<std::mutex> lock(w.mutex_);
            --w.live_;
            detail::thread_slot_gone() = true;
        }
    };

    Watchdog() : live_(0), transfers_(0), reporting_(false), timeout_ms_(detail::watchdog_ms_from_env()) {}
    Watchdog(const Watchdog&);
    Watchdog& operator=(const Watchdog&);

    std::size_t blocked() const {
        std::size_t n = 0;
        for (std::size_t i = 0; i < waiters_.size(); ++i) n += waiters_[i]->unblocked() ? 0 : 1;
        return n;
    }

    // A blocked waiter that is not an idle task: the second rule's precondition.
    bool blocked_outside_tasks() const {
        for (std::size_t i = 0; i < waiters_.size(); ++i)
            if (!waiters_[i]->task && !waiters_[i]->unblocked()) return true;
        return false;
    }

    // A stopped task's interrupted invocation: its frames go without end records (a task
    // thread has nothing below its body on the probe stack).
    static void drop_open_frames() {
        ThreadLog* t = ThreadLog::current();
        if (!t) return;
        t->stack().drop_all();
    }

    // A sequential C simulation among tasks: the one thread that is no task (the testbench
    // running a dataflow region's processes one after another) waits to write a full stream
    // while every task waits too. Its reader is a later process of that same thread, or a task
    // fed by one (Vitis' `mixed_control_and_data_driven`: read_in fills a split channel before
    // the loop that starts the workers runs), so the wait cannot end, although in hardware the
    // processes run side by side. As Vitis C simulation (whose streams are unbounded) the write
    // goes past the depth: the stream is unbounded from now on, noted once. Two or more threads
    // that are no tasks, blocked so, stay a deadlock (a FIFO too shallow between them).
    bool release_sequential_writer() {
        Waiter* writer = 0;
        for (std::size_t i = 0; i < waiters_.size(); ++i) {
            Waiter* w = waiters_[i];
            if (w->task || w->unblocked()) continue;
            if (writer || !w->writing) return false;
            writer = w;
        }
        if (!writer) return false;
        overfill(*writer->channel);
        writer->channel->depth = 0;
        writer->channel->ready.notify_all();
        return true;
    }

    // The first rule: nothing in the process can run any more.
    bool everyone_blocked() const {
        const std::size_t n = blocked();
        if (n < live_) return false; // a thread that uses streams still runs: cheap, no system call
        const long os = detail::os_thread_count();
        return os > 0 && n >= static_cast<std::size_t>(os);
    }

    std::uint64_t progress() const { return transfers_ + (log_gone() ? 0 : Log::instance().issued()); }

    static std::string printable(const std::string& s) {
        std::string out(s);
        for (std::size_t i = 0; i < out.size(); ++i) {
            const unsigned char c = static_cast<unsigned char>(out[i]);
            if (c < 0x20 || c == 0x7f) out[i] = '?';
        }
        return out;
    }

    struct Line {
        bool known;
        std::uint32_t thread;
        bool in_probe;
        std::uint32_t probe;
        bool writing;
        std::string stream;
        ThreadLog* log;
        bool operator<(const Line& o) const { return known != o.known ? known : thread < o.thread; }
    };

    // Reports every blocked waiter (stderr, `D` records, the log) and exits; waited_ms is 0 when
    // every thread is blocked, else the progress timeout that expired.
    [[noreturn]] void report(std::unique_lock<std::mutex>& lock, unsigned long waited_ms) {
        reporting_ = true;
        std::vector<Line> lines;
        for (std::size_t i = 0; i < waiters_.size(); ++i) {
            const Waiter& w = *waiters_[i];
            if (w.unblocked()) continue;
            Line l = {w.log != 0, 0, false, 0, w.writing, printable(w.channel->name), w.log};
            if (w.log) {
                l.thread = w.log->id();
                l.in_probe = !w.log->stack().empty();
                if (l.in_probe) l.probe = w.log->stack().back().probe;
            }
            lines.push_back(l);
        }
        // Waiters never leave wait() from now on, so their thread logs are ours to finish.
        lock.unlock();
        std::sort(lines.begin(), lines.end());
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const Line& l = lines[i];
            char thread[16] = "-", probe[16] = "-";
            if (l.known) std::snprintf(thread, sizeof thread, "%u", static_cast<unsigned>(l.thread));
            if (l.in_probe) std::snprintf(probe, sizeof probe, "%u", static_cast<unsigned>(l.probe));
            std::fprintf(stderr, "hlsinstr: deadlock: thread %s blocked %s stream '%s' in probe %s\n", thread,
                         l.writing ? "writing full" : "reading empty", l.stream.c_str(), probe);
        }
        if (waited_ms == 0) {
            std::fprintf(stderr, "hlsinstr: deadlock: every thread is blocked on a stream; exit %d\n",
                         DEADLOCK_EXIT_CODE);
        } else {
            std::fprintf(stderr,
                         "hlsinstr: deadlock: no stream transfer and no probe record for %lu ms while threads "
                         "are blocked (raise HLSINSTR_WATCHDOG_MS if a process computes longer); exit %d\n",
                         waited_ms, DEADLOCK_EXIT_CODE);
        }
        if (!log_gone()) {
            // The D records are written from this thread: they draw shared orders.
            Log::instance().share();
            for (std::size_t i = 0; i < lines.size(); ++i) {
                ThreadLog* t = lines[i].log;
                if (!t) continue;
                if (lines[i].in_probe) t->record(lines[i].probe, EVENT_DEADLOCK, HLSINSTR_OPT_P, false, 0);
                t->flush();
            }
            flush_events();
        }
        std::fflush(0);
        std::_Exit(DEADLOCK_EXIT_CODE);
    }

    std::mutex mutex_;
    std::size_t live_;
    std::uint64_t transfers_;
    bool reporting_;
    const unsigned long timeout_ms_;
    std::vector<Waiter*> waiters_;
    std::vector<TaskEntry*> tasks_;
    std::condition_variable tasks_changed_;
};

} // namespace sim
} // namespace hlsinstr
#endif

#endif
