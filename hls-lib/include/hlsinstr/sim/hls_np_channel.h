// hlsinstr: a C-simulation model of Vitis HLS split and merge channels, `hls_np_channel.h`
// (UG1399, "HLS Split/Merge Library"), on the thread-safe stream model (hls_stream.h).
//
//   hls::split::round_robin<int, 4> sp;     // sp.in  -> sp.out[0..3]
//   hls::split::load_balance<int, 4> sp;
//   hls::merge::round_robin<int, 4> mg;     // mg.in[0..3] -> mg.out
//   hls::merge::load_balance<int, 4> mg;
//   template parameters: <T, N ports, DEPTH of the one side (2), N_DEPTH of each of the N (2)>
//
// What is modelled (UG1399): the channel is a process of its own between its streams (a thread,
// as an hls::task is, started with the object and stopped when it is destroyed):
//  - split::round_robin sends the k-th element written to `in` to `out[k % N]`;
//  - split::load_balance sends each element to an output with room, trying the outputs in turn
//    from the one after the last used; when all are full it waits on that one;
//  - merge::round_robin takes one element from `in[0]`, then `in[1]`, ... in turn, waiting on each;
//  - merge::load_balance takes elements from whichever input has one, in turn, so no input
//    with data is passed over twice.
// The order within one output (one input) is kept. Which worker gets which element under
// load_balance depends on the run's timing (so in hardware too): check results as a multiset.
// Not modelled: hardware timing. merge::load_balance polls its inputs (it cannot wait on N
// streams at once), so a deadlock behind it is found by the watchdog's timeout rule only.
#ifndef HLSINSTR_SIM_HLS_NP_CHANNEL_H
#define HLSINSTR_SIM_HLS_NP_CHANNEL_H

#ifndef X_HLS_NP_CHANNEL_H
#define X_HLS_NP_CHANNEL_H

#include "hls_stream.h"
#include "hls_task.h"

#include <chrono>
#include <thread>

namespace hls {
namespace detail_np {

template <typename T, int N, int DEPTH, int N_DEPTH>
struct split_rr {
    static void step(stream<T, DEPTH>& in, stream<T, N_DEPTH> (&out)[N], int& next) {
        T v = in.read();
        out[next].write(v);
        next = (next + 1) % N;
    }
};

template <typename T, int N, int DEPTH, int N_DEPTH>
struct split_lb {
    static void step(stream<T, DEPTH>& in, stream<T, N_DEPTH> (&out)[N], int& next) {
        T v = in.read();
        for (int k = 0; k < N; ++k) {
            const int i = (next + k) % N;
            if (out[i].write_nb(v)) {
                next = (i + 1) % N;
                return;
            }
        }
        out[next].write(v);
        next = (next + 1) % N;
    }
};

template <typename T, int N, int DEPTH, int N_DEPTH>
struct merge_rr {
    static void step(stream<T, N_DEPTH> (&in)[N], stream<T, DEPTH>& out, int& next) {
        out.write(in[next].read());
        next = (next + 1) % N;
    }
};

template <typename T, int N, int DEPTH, int N_DEPTH>
struct merge_lb {
    static void step(stream<T, N_DEPTH> (&in)[N], stream<T, DEPTH>& out, int& next) {
        for (;;) {
            for (int k = 0; k < N; ++k) {
                const int i = (next + k) % N;
                T v;
                if (in[i].read_nb(v)) {
                    next = (i + 1) % N;
                    out.write(v);
                    return;
                }
            }
            // Nothing anywhere: an idle poll (a stop request ends it at the next write or loop).
            if (hlsinstr::sim::detail::task_stop() && hlsinstr::sim::detail::task_stop()->load()) return;
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    }
};

// One input, N outputs.
template <typename T, int N, int DEPTH, int N_DEPTH, template <typename, int, int, int> class Policy>
class splitter {
    static_assert(N > 0, "a split channel needs at least one output");

  public:
    stream<T, DEPTH> in;
    stream<T, N_DEPTH> out[N];
    splitter() : next_(0), task_(&splitter::run, this) {}

  private:
    static void run(splitter* self) { Policy<T, N, DEPTH, N_DEPTH>::step(self->in, self->out, self->next_); }
    int next_;
    task task_; // last: starts after the streams exist, stops before they go
};

// N inputs, one output.
template <typename T, int N, int DEPTH, int N_DEPTH, template <typename, int, int, int> class Policy>
class merger {
    static_assert(N > 0, "a merge channel needs at least one input");

  public:
    stream<T, N_DEPTH> in[N];
    stream<T, DEPTH> out;
    merger() : next_(0), task_(&merger::run, this) {}

  private:
    static void run(merger* self) { Policy<T, N, DEPTH, N_DEPTH>::step(self->in, self->out, self->next_); }
    int next_;
    task task_;
};

} // namespace detail_np

namespace split {
template <typename T, int N, int DEPTH = 2, int N_DEPTH = 2>
class round_robin : public detail_np::splitter<T, N, DEPTH, N_DEPTH, detail_np::split_rr> {};
template <typename T, int N, int DEPTH = 2, int N_DEPTH = 2>
class load_balance : public detail_np::splitter<T, N, DEPTH, N_DEPTH, detail_np::split_lb> {};
} // namespace split

namespace merge {
template <typename T, int N, int DEPTH = 2, int N_DEPTH = 2>
class round_robin : public detail_np::merger<T, N, DEPTH, N_DEPTH, detail_np::merge_rr> {};
template <typename T, int N, int DEPTH = 2, int N_DEPTH = 2>
class load_balance : public detail_np::merger<T, N, DEPTH, N_DEPTH, detail_np::merge_lb> {};
} // namespace merge

} // namespace hls

#endif // X_HLS_NP_CHANNEL_H
#endif
