// hlsinstr: a C-simulation model of Vitis HLS `hls::task` (UG1399, "Tasks and Channels" /
// "Free-running kernels and hls::task"), on the thread-safe stream model (hls_stream.h).
//
//   hls_thread_local hls::stream<int> s1, s2;
//   hls_thread_local hls::task t(body, in, s1);   // body(in, s1) runs again and again
//
// What is modelled (UG1399):
//  - a task is a free-running process: constructing `hls::task t(f, args...)` starts a thread that
//    calls `f(args...)` again and again, from the construction until the object is destroyed.
//    Arguments that are lvalues (streams, stream_of_blocks, split/merge channels) are passed by
//    reference, temporaries by value. A default-constructed task (an array `hls::task t[NP];`)
//    starts at its first `t[i](f, args...)`; later ones (the top's next calls) are no-ops;
//  - `hls_thread_local` (defined here as C++ `thread_local`) keeps the tasks and streams of a
//    function alive across its calls, as Vitis requires for tasks declared in the top;
//  - a task reading an empty stream waits (it is idle); the deadlock watchdog (watchdog.h) does
//    not count an idle task as stuck, only a testbench or dataflow thread that waits forever;
//  - destroying the task (at the thread's exit for hls_thread_local) stops it: the call in
//    progress ends at its next blocking stream operation (its probe records are dropped), a
//    call that computes runs to its end, and the destructor joins the thread. A testbench's
//    stream that a task used stops every task when it is destroyed (main's streams go before
//    the hls_thread_local tasks that read them), so no task touches a stream that is gone.
// Not modelled: anything about hardware (a task has no ap_ctrl handshake; its latency is its
// body's); a task body that never touches a stream and never returns keeps its stop waiting.
//
// Cost in C simulation: one thread per task. Synthesis never sees this file.
#ifndef HLSINSTR_SIM_HLS_TASK_H
#define HLSINSTR_SIM_HLS_TASK_H

#ifndef X_HLS_TASK_H
#define X_HLS_TASK_H

#include "hls_stream.h"

#include <atomic>
#include <functional>
#include <thread>
#include <type_traits>
#include <utility>

#ifndef hls_thread_local
#define hls_thread_local thread_local
#endif

namespace hlsinstr {
namespace sim {
namespace detail {
// A task's argument as its thread keeps it: an lvalue (a stream) by reference, a temporary by value.
template <typename A>
struct TaskArg {
    typedef typename std::decay<A>::type type;
    static type keep(A& a) { return a; }
};
template <typename A>
struct TaskArg<A&> {
    typedef std::reference_wrapper<A> type;
    static type keep(A& a) { return std::ref(a); }
};
} // namespace detail
} // namespace sim
} // namespace hlsinstr

namespace hls {

class task {
    typedef hlsinstr::sim::Watchdog Watchdog;

  public:
    // A task that runs nothing (Vitis allows a default-constructed task).
    task() : entry_(0) {}

    template <typename F, typename... Args>
    explicit task(F&& body, Args&&... args) : entry_(0) {
        start(std::forward<F>(body), std::forward<Args>(args)...);
    }

    // A default-constructed task started later (UG1399: `hls_thread_local hls::task t[NP];` then
    // `t[i](worker, in[i], out[i]);` in the body of the top). The top runs that statement on
    // each of its calls; a task runs from its first start on, so a later call is a no-op, as
    // the task object already stands for the running process.
    template <typename F, typename... Args>
    void operator()(F&& body, Args&&... args) {
        if (entry_) return;
        start(std::forward<F>(body), std::forward<Args>(args)...);
    }

    task(const task&) = delete;
    task& operator=(const task&) = delete;

    ~task() {
        if (!entry_) return;
        entry_->stop.store(true);
        Watchdog::instance().wake_all();
        thread_.join();
        Watchdog::instance().remove_task(entry_);
        delete entry_;
    }

  private:
    template <typename F, typename... Args>
    void start(F&& body, Args&&... args) {
        std::function<void()> call =
            std::bind(std::forward<F>(body), hlsinstr::sim::detail::TaskArg<Args>::keep(args)...);
        Watchdog::TaskEntry* entry = new Watchdog::TaskEntry;
        entry_ = entry;
        Watchdog::instance().add_task(entry);
        thread_ = std::thread([call, entry]() {
            hlsinstr::sim::detail::task_stop() = &entry->stop;
            try {
                while (!entry->stop.load()) call();
            } catch (const hlsinstr::sim::TaskStopped&) {
            }
            Watchdog::instance().task_ended(entry);
        });
    }

    Watchdog::TaskEntry* entry_;
    std::thread thread_;
};

} // namespace hls

#endif // X_HLS_TASK_H
#endif
