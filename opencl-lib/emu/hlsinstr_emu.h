// hlsinstr: CPU emulation of Intel FPGA OpenCL kernels (runtime and host API).
//
// Kernels (.cl) are compiled as C++ after ocl2cpp.py (a textual pre-pass: channel
// declarations, kernel registration, vector literals) with hlsinstr_emu_prelude.h forced in
// front (address spaces, attributes, built-ins). The host program is ordinary C++ that includes
// this header and links with the kernels' object (scripts: hlsinstr-emu-build).
//
// Host API (namespace hlsinstr_emu):
//   Launch launch(name, {args...}, global = {1}, local = {})   start a kernel, return at once
//   void wait(Launch&)                                          until it has finished
//   void run(name, {args...}, global = {1}, local = {})         launch + wait
//   Arguments are passed by value exactly as the kernel declares them: a pointer for a __global
//   pointer, the same size for a scalar (a size mismatch stops with exit code 2).
//   void ibuffer_command(unit, cmd)     runs hlsinstr_host(cmd, unit, ...) (hlsinstr_ibuffer.cl)
//                                       and waits until the unit has taken the command
//   size_t channel_size(name)           elements waiting in a channel ("c" or "c[2]")
//   std::vector<Record> ibuffer_read(unit, depth)   READ: the header and the records (CONFIG_*
//                                       records first in a configured watch unit)
//   void write_dump(std::FILE*, records)   one line per record: "unit kind time addr value"
//   int write_binary_dump(path = nullptr)  READs every unit into the binary dump that
//                                       `hlsinstr decode` reads (docs/opencl-dump.md)
//
// Execution model.
//   - Autorun kernels start (one thread per compute unit) before the first host launch.
//   - A launch is one thread. Work-items start in work-group order, then local-id order
//     (dimension 0 fastest). An NDRange of more than one work-item is pipelined, as the FPGA
//     compiler builds it (seed 004, section 3.2: work-items enter the pipeline before earlier
//     ones go on to their next loop iteration): up to HLSINSTR_EMU_PIPELINE (default 64)
//     work-items are in flight, one thread each, and they take turns, one channel call each
//     (a probe's sequence number or record is a channel call), in start order; a work-item
//     that ends makes room for the next. So probes of work-items 0, 1, 2, ... at the same
//     point of the kernel come one after another, deterministically. Code between two channel
//     calls runs with no other work-item of the launch running. HLSINSTR_EMU_NDRANGE=sequential
//     runs each work-item to its end before the next starts, on one thread. barrier() is not
//     supported (exit code 3). A kernel without num_compute_units runs once.
//   - Channels are bounded FIFOs of their depth (depth 0 holds one element). Blocking
//     reads/writes wait; non-blocking ones return at once. A thread whose non-blocking calls keep
//     failing sleeps briefly, so spinning autorun kernels do not take a core.
//   - Time. Each kernel thread has a model clock (cycles); get_time(dep) returns it. It
//     advances by HLSINSTR_EMU_DELAY(n) (n cycles, a scripted latency) and through channels:
//     an element carries its writer's clock, and a reader's clock becomes at least that plus 1
//     (the channel's latency); a blocking write into a full channel of capacity C happens no
//     earlier than the pop that freed its slot (the write C places before it), whether or not
//     the thread had to wait, so times do not depend on thread scheduling. Nothing
//     else costs time. A host launch starts at the latest clock a finished launch reached;
//     autorun kernels start at 0. So a stall monitor's unit stamps a probe with the sender's clock + 1,
//     and snapshot differences are exactly the delays scripted between them.
//   - Deadlock watchdog: when every running host-launched kernel waits in a blocking channel
//     call (or for its pipeline turn behind one that does) and no channel transfer happens for
//     HLSINSTR_EMU_DEADLOCK_MS (default 1000) ms, it prints each waiting thread and the channel
//     it waits on to stderr and exits with code 4.
// Exit codes: 2 bad launch (unknown kernel, argument count or size), 3 unsupported construct,
// 4 deadlock.
//
// The kernels' objects (channels, registry, threads) are never destroyed: autorun threads
// still run when main returns.
#ifndef HLSINSTR_EMU_H
#define HLSINSTR_EMU_H

#include "hlsinstr_ocl_records.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <initializer_list>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace hlsinstr_emu {

enum ExitCode { kExitBadLaunch = 2, kExitUnsupported = 3, kExitDeadlock = 4 };

// A kernel argument: the bytes of one value, checked against the parameter's size.
class Arg {
  public:
    template <class T>
    Arg(T v) : size_(sizeof(T)) { // NOLINT: implicit on purpose, for {a, b, c} lists
        static_assert(std::is_trivially_copyable<T>::value, "kernel arguments are plain values or pointers");
        static_assert(sizeof(T) <= sizeof(bytes_), "kernel argument larger than 64 bytes");
        std::memcpy(bytes_, &v, sizeof(T));
    }
    template <class T>
    T get(const char* kernel, unsigned index) const {
        if (size_ != sizeof(T)) {
            std::fprintf(stderr, "hlsinstr emulate: kernel %s argument %u: passed %zu bytes, the parameter has %zu\n",
                         kernel, index, size_, sizeof(T));
            std::_Exit(kExitBadLaunch);
        }
        typename std::remove_cv<T>::type v; // a `const int n` parameter is still a copy
        std::memcpy(static_cast<void*>(&v), bytes_, sizeof(T));
        return v;
    }
    // The argument from raw bytes (the OpenCL C API layer, clSetKernelArg); n <= 64.
    static Arg from_bytes(const void* p, size_t n) {
        Arg a;
        a.size_ = n;
        std::memcpy(a.bytes_, p, n);
        return a;
    }

  private:
    Arg() : bytes_{}, size_(0) {}
    alignas(16) unsigned char bytes_[64];
    size_t size_;
};

// Global and local sizes of a launch, up to three dimensions (unused ones are 1).
struct NDRange {
    size_t d[3];
    unsigned dims;
    NDRange() : d{1, 1, 1}, dims(0) {}
    NDRange(size_t x) : d{x, 1, 1}, dims(1) {}
    NDRange(size_t x, size_t y) : d{x, y, 1}, dims(2) {}
    NDRange(size_t x, size_t y, size_t z) : d{x, y, z}, dims(3) {}
};

namespace detail {

struct ChannelBase {
    virtual ~ChannelBase() {}
    virtual std::string describe() const = 0;
    virtual size_t size() const = 0;
};

struct ThreadInfo {
    std::string kernel;
    unsigned compute_id = 0;
    bool autorun = false;
    std::atomic<const ChannelBase*> waiting{nullptr};
    std::atomic<int> waiting_op{0}; // 1 read, 2 write, 3 its pipeline turn, 4 its work-items
    std::atomic<size_t> work_item{0}; // NDRange pipeline slots: the work-item (flat index) it runs
    std::atomic<bool> done{false};
};

// A kernel parameter as the OpenCL C API layer needs it: its size, and whether it is a pointer
// (a __global pointer takes a cl_mem, a __local one a size and no value).
struct ParamInfo {
    size_t size;
    bool pointer;
    bool local; // declared __local / local
};
template <class T>
struct IsPointer : std::is_pointer<typename std::remove_cv<T>::type> {};
template <class T>
struct IsPointer<T* __restrict> : std::true_type {}; // std::is_pointer misses restrict
template <class T>
struct IsPointer<T* const __restrict> : std::true_type {};
template <class T>
ParamInfo param(bool local) {
    return ParamInfo{sizeof(T), IsPointer<T>::value, local};
}

struct KernelDef {
    bool autorun;
    unsigned compute_units;
    unsigned params;
    void (*invoke)(const Arg*);
    std::vector<ParamInfo> param_info;
};

struct Global {
    std::mutex m;
    std::map<std::string, KernelDef> kernels;
    std::vector<ThreadInfo*> threads;
    std::map<std::string, const ChannelBase*> channels;
    std::atomic<uint64_t> progress{0};
    std::atomic<uint64_t> horizon{0}; // the latest clock a finished host launch reached
    bool started = false;
};

inline Global& global() {
    static Global* g = new Global; // never destroyed: autorun threads outlive main
    return *g;
}

struct Pipeline;

// The calling thread's work-item and model clock.
struct WorkItem {
    size_t gsize[3] = {1, 1, 1}, lsize[3] = {1, 1, 1}, gid[3] = {0, 0, 0}, lid[3] = {0, 0, 0}, grp[3] = {0, 0, 0};
    unsigned dims = 1;
    unsigned compute_id = 0;
    uint64_t now = 0;
    unsigned nb_failures = 0;
    ThreadInfo* info = nullptr;
    Pipeline* pipeline = nullptr; // set on the slots of a pipelined NDRange launch
    unsigned slot = 0;
};

inline WorkItem& wi() {
    thread_local WorkItem w;
    return w;
}

// A pipelined NDRange launch (see "Execution model"): `slots` threads take turns, one channel
// call each, in slot order; a slot that has run out of work-items leaves the ring.
struct Pipeline {
    std::mutex m;
    std::condition_variable cv;
    std::vector<bool> live;
    unsigned turn = 0;

    explicit Pipeline(unsigned slots) : live(slots, true) {}

    void wait_turn(unsigned slot) {
        std::unique_lock<std::mutex> lock(m);
        if (turn == slot) return;
        ThreadInfo* t = wi().info;
        if (t) t->waiting_op = 3;
        cv.wait(lock, [&] { return turn == slot; });
        if (t) t->waiting_op = 0;
    }
    // The next live slot after `slot` gets the turn (`slot` itself when it is the only one).
    void pass(unsigned slot) {
        std::lock_guard<std::mutex> lock(m);
        const unsigned n = static_cast<unsigned>(live.size());
        for (unsigned k = 1; k <= n; ++k) {
            const unsigned next = (slot + k) % n;
            if (live[next]) {
                turn = next;
                break;
            }
        }
        cv.notify_all();
    }
    void leave(unsigned slot) {
        {
            std::lock_guard<std::mutex> lock(m);
            live[slot] = false;
        }
        pass(slot);
    }
};

// After each channel call of a pipelined work-item: let the other work-items in flight take
// their step, then go on.
inline void pipeline_step() {
    WorkItem& w = wi();
    if (!w.pipeline) return;
    w.pipeline->pass(w.slot);
    w.pipeline->wait_turn(w.slot);
}

// After many failed non-blocking calls in a row, sleep a little (spinning autorun kernels).
inline void nb_result(bool ok) {
    WorkItem& w = wi();
    if (ok) {
        w.nb_failures = 0;
    } else if (++w.nb_failures >= 256) {
        w.nb_failures = 0;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

struct Registrar {
    Registrar(const char* name, bool autorun, unsigned cu, unsigned params, void (*invoke)(const Arg*),
              std::initializer_list<ParamInfo> info = {}) {
        global().kernels[name] = KernelDef{autorun, cu ? cu : 1, params, invoke, info};
    }
};

inline uint64_t env_ms(const char* name, uint64_t dflt) {
    const char* s = std::getenv(name);
    return s && *s ? std::strtoull(s, nullptr, 10) : dflt;
}

// The deadlock watchdog (see the header comment).
inline void watchdog() {
    Global& g = global();
    const auto limit = std::chrono::milliseconds(env_ms("HLSINSTR_EMU_DEADLOCK_MS", 1000));
    uint64_t seen = g.progress.load();
    auto since = std::chrono::steady_clock::now();
    for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        bool all_blocked = false;
        {
            std::lock_guard<std::mutex> lock(g.m);
            unsigned running = 0, blocked = 0;
            for (ThreadInfo* t : g.threads) {
                if (t->autorun || t->done) continue;
                ++running;
                if (t->waiting_op.load() != 0) ++blocked;
            }
            all_blocked = running > 0 && blocked == running;
        }
        const uint64_t p = g.progress.load();
        const auto now = std::chrono::steady_clock::now();
        if (!all_blocked || p != seen) {
            seen = p;
            since = now;
            continue;
        }
        if (now - since < limit) continue;
        std::lock_guard<std::mutex> lock(g.m);
        std::fprintf(stderr, "hlsinstr emulate: deadlock: every running kernel has waited on a channel for %lld ms\n",
                     static_cast<long long>(limit.count()));
        for (ThreadInfo* t : g.threads) {
            const ChannelBase* c = t->waiting.load();
            if (!t->done && t->waiting_op.load() == 3) {
                std::fprintf(stderr, "  kernel %s work-item %zu waits for its turn in the NDRange pipeline\n",
                             t->kernel.c_str(), t->work_item.load());
            }
            if (t->done || !c) continue;
            std::fprintf(stderr, "  kernel %s%s (compute unit %u) waits to %s channel %s\n", t->kernel.c_str(),
                         t->autorun ? " [autorun]" : "", t->compute_id, t->waiting_op.load() == 1 ? "read" : "write",
                         c->describe().c_str());
        }
        std::fflush(stderr);
        std::_Exit(kExitDeadlock);
    }
}

inline ThreadInfo* new_thread_info(const std::string& kernel, unsigned cu, bool autorun) {
    ThreadInfo* t = new ThreadInfo; // never destroyed (the watchdog may still look at it)
    t->kernel = kernel;
    t->compute_id = cu;
    t->autorun = autorun;
    std::lock_guard<std::mutex> lock(global().m);
    global().threads.push_back(t);
    return t;
}

// Starts the autorun kernels and the watchdog, once.
inline void start() {
    Global& g = global();
    std::vector<std::pair<std::string, KernelDef>> autoruns;
    {
        std::lock_guard<std::mutex> lock(g.m);
        if (g.started) return;
        g.started = true;
        for (const auto& k : g.kernels)
            if (k.second.autorun) autoruns.push_back(k);
    }
    for (const auto& k : autoruns) {
        for (unsigned cu = 0; cu < k.second.compute_units; ++cu) {
            ThreadInfo* t = new_thread_info(k.first, cu, true);
            void (*invoke)(const Arg*) = k.second.invoke;
            std::thread([t, cu, invoke] {
                wi().info = t;
                wi().compute_id = cu;
                wi().dims = 1;
                invoke(nullptr);
                t->done = true;
            }).detach();
        }
    }
    std::thread(watchdog).detach();
}

} // namespace detail

// A channel: a bounded FIFO (depth 0 behaves as depth 1) carrying its writer's model clock.
template <class T>
class Channel : public detail::ChannelBase {
  public:
    Channel(const char* name, size_t depth) : name_(name), depth_(depth), cap_(depth ? depth : 1) {
        std::lock_guard<std::mutex> lock(detail::global().m);
        detail::global().channels[name_] = this;
    }

    T read() {
        std::unique_lock<std::mutex> lock(m_);
        if (q_.empty()) {
            wait_([this] { return !q_.empty(); }, 1, lock);
        }
        T v = pop_();
        lock.unlock();
        detail::pipeline_step();
        return v;
    }
    T read_nb(bool* valid) {
        std::unique_lock<std::mutex> lock(m_);
        const bool ok = !q_.empty();
        *valid = ok;
        T v = ok ? pop_() : T();
        lock.unlock();
        detail::nb_result(ok);
        detail::pipeline_step();
        return v;
    }
    void write(const T& v) { write_(v, true); }
    // A blocking write whose wait costs the writer no model time (hlsinstr_emu_write_untimed).
    void write_untimed(const T& v) { write_(v, false); }
    bool write_nb(const T& v) {
        std::unique_lock<std::mutex> lock(m_);
        const bool ok = q_.size() < cap_;
        if (ok) push_(v);
        lock.unlock();
        detail::nb_result(ok);
        detail::pipeline_step();
        return ok;
    }
    std::string describe() const override {
        std::lock_guard<std::mutex> lock(m_);
        return name_ + " (" + std::to_string(q_.size()) + " of depth " + std::to_string(depth_) + " full)";
    }
    size_t size() const override {
        std::lock_guard<std::mutex> lock(m_);
        return q_.size();
    }

  private:
    struct Slot {
        T v;
        uint64_t stamp;
    };
    template <class Pred>
    void wait_(Pred ready, int op, std::unique_lock<std::mutex>& lock) {
        detail::ThreadInfo* t = detail::wi().info;
        if (t) {
            t->waiting = this;
            t->waiting_op = op;
        }
        cv_.wait(lock, ready);
        if (t) {
            t->waiting_op = 0;
            t->waiting = nullptr;
        }
    }
    // A blocking write. `timed`: the slot this write takes was freed by pop number
    // pushes_ - cap_, so the write cannot happen before that pop in model time, whether or not
    // the thread had to wait for it (which depends on thread scheduling, not on the model).
    void write_(const T& v, bool timed) {
        std::unique_lock<std::mutex> lock(m_);
        if (q_.size() >= cap_) {
            wait_([this] { return q_.size() < cap_; }, 2, lock);
        }
        if (timed && pushes_ >= cap_) {
            uint64_t& now = detail::wi().now;
            const uint64_t freed = pop_time_[(pushes_ - cap_) % cap_];
            if (now < freed) now = freed;
        }
        push_(v);
        lock.unlock();
        detail::pipeline_step();
    }
    T pop_() {
        Slot s = q_.front();
        q_.pop_front();
        uint64_t& now = detail::wi().now;
        if (now < s.stamp + 1) now = s.stamp + 1;
        pop_time_[pops_ % cap_] = now;
        ++pops_;
        detail::global().progress.fetch_add(1);
        cv_.notify_all();
        return s.v;
    }
    void push_(const T& v) {
        q_.push_back(Slot{v, detail::wi().now});
        ++pushes_;
        detail::global().progress.fetch_add(1);
        cv_.notify_all();
    }

    std::string name_;
    size_t depth_;
    size_t cap_;
    mutable std::mutex m_;
    std::condition_variable cv_;
    std::deque<Slot> q_;
    // Model time of the last cap_ pops (pop k at k % cap_), and the element counts.
    std::vector<uint64_t> pop_time_ = std::vector<uint64_t>(cap_, 0);
    uint64_t pushes_ = 0, pops_ = 0;
};

// An array of channels `channel T name[N]`; element i is named name[i].
template <class T, size_t N>
class ChannelArray {
  public:
    ChannelArray(const char* name, size_t depth) {
        for (size_t i = 0; i < N; ++i) {
            const std::string n = std::string(name) + "[" + std::to_string(i) + "]";
            c_[i] = new Channel<T>(strdup_(n), depth);
        }
    }
    Channel<T>& operator[](size_t i) {
        if (i >= N) {
            std::fprintf(stderr, "hlsinstr emulate: channel index %zu out of range (%zu channels)\n", i, N);
            std::_Exit(kExitUnsupported);
        }
        return *c_[i];
    }

  private:
    static const char* strdup_(const std::string& s) {
        char* p = new char[s.size() + 1];
        std::memcpy(p, s.c_str(), s.size() + 1);
        return p;
    }
    Channel<T>* c_[N];
};

namespace detail {

// The flat index and ids of every work-item of a launch, in the order work-items start:
// work-group order, then local-id order (dimension 0 fastest).
struct ItemIds {
    size_t gid[3], lid[3], grp[3];
};
inline std::vector<ItemIds> work_items(const NDRange& global, const NDRange& local) {
    std::vector<ItemIds> items;
    const size_t groups[3] = {global.d[0] / local.d[0], global.d[1] / local.d[1], global.d[2] / local.d[2]};
    for (size_t g2 = 0; g2 < groups[2]; ++g2)
        for (size_t g1 = 0; g1 < groups[1]; ++g1)
            for (size_t g0 = 0; g0 < groups[0]; ++g0)
                for (size_t l2 = 0; l2 < local.d[2]; ++l2)
                    for (size_t l1 = 0; l1 < local.d[1]; ++l1)
                        for (size_t l0 = 0; l0 < local.d[0]; ++l0) {
                            const size_t g[3] = {g0, g1, g2}, l[3] = {l0, l1, l2};
                            ItemIds ids;
                            for (unsigned d = 0; d < 3; ++d) {
                                ids.grp[d] = g[d];
                                ids.lid[d] = l[d];
                                ids.gid[d] = g[d] * local.d[d] + l[d];
                            }
                            items.push_back(ids);
                        }
    return items;
}

inline void set_ids(WorkItem& w, const ItemIds& ids) {
    for (unsigned d = 0; d < 3; ++d) {
        w.grp[d] = ids.grp[d];
        w.lid[d] = ids.lid[d];
        w.gid[d] = ids.gid[d];
    }
}

inline void raise_horizon(uint64_t now) {
    uint64_t h = global().horizon.load();
    while (h < now && !global().horizon.compare_exchange_weak(h, now)) {
    }
}

// Sequential (HLSINSTR_EMU_NDRANGE=sequential): one work-item after another on this thread.
// Pipelined (the default for more than one work-item): up to HLSINSTR_EMU_PIPELINE (default
// 64) work-items in flight on as many threads taking turns at every channel call.
inline void run_work_items(ThreadInfo* t, const KernelDef& k, const std::vector<Arg>& a, unsigned dims,
                           const NDRange& global, const NDRange& local, const std::string& name) {
    const std::vector<ItemIds> items = work_items(global, local);
    const char* mode = std::getenv("HLSINSTR_EMU_NDRANGE");
    const bool sequential = mode && std::string(mode) == "sequential";
    if (mode && *mode && !sequential && std::string(mode) != "pipelined") {
        std::fprintf(stderr, "hlsinstr emulate: HLSINSTR_EMU_NDRANGE=%s: expected pipelined or sequential\n", mode);
        std::_Exit(kExitBadLaunch);
    }
    const uint64_t start = detail::global().horizon.load();
    auto setup = [&](WorkItem& w) {
        w.dims = dims;
        w.now = start;
        for (unsigned d = 0; d < 3; ++d) {
            w.gsize[d] = global.d[d];
            w.lsize[d] = local.d[d];
        }
    };
    if (sequential || items.size() <= 1) {
        WorkItem& w = wi();
        w.info = t;
        setup(w);
        for (const ItemIds& ids : items) {
            set_ids(w, ids);
            k.invoke(a.data());
        }
        raise_horizon(w.now);
        return;
    }
    const unsigned slots =
        static_cast<unsigned>(std::min<uint64_t>(items.size(), std::max<uint64_t>(1, env_ms("HLSINSTR_EMU_PIPELINE", 64))));
    Pipeline pipe(slots);
    std::vector<std::thread> threads;
    for (unsigned s = 0; s < slots; ++s) {
        ThreadInfo* info = new_thread_info(name, 0, false);
        threads.emplace_back([&, s, info] {
            WorkItem& w = wi();
            w.info = info;
            w.pipeline = &pipe;
            w.slot = s;
            setup(w);
            info->work_item = s;
            pipe.wait_turn(s);
            for (size_t i = s; i < items.size(); i += slots) {
                info->work_item = i;
                set_ids(w, items[i]);
                k.invoke(a.data());
            }
            pipe.leave(s);
            raise_horizon(w.now);
            info->done = true;
        });
    }
    t->waiting_op = 4; // the watchdog judges the slots, not this thread
    for (std::thread& th : threads) th.join();
    t->waiting_op = 0;
}

} // namespace detail

// A running host launch.
struct Launch {
    std::thread* thread = nullptr;
};

inline Launch launch(const char* name, const std::vector<Arg>& args, NDRange global = NDRange(1),
                     NDRange local = NDRange()) {
    detail::start();
    detail::KernelDef k;
    {
        std::lock_guard<std::mutex> lock(detail::global().m);
        auto it = detail::global().kernels.find(name);
        if (it == detail::global().kernels.end() || it->second.autorun) {
            std::fprintf(stderr, "hlsinstr emulate: no host-launchable kernel named %s\n", name);
            std::_Exit(kExitBadLaunch);
        }
        k = it->second;
    }
    if (args.size() != k.params) {
        std::fprintf(stderr, "hlsinstr emulate: kernel %s takes %u arguments, %zu passed\n", name, k.params,
                     args.size());
        std::_Exit(kExitBadLaunch);
    }
    std::vector<Arg> a(args);
    const unsigned dims = global.dims ? global.dims : 1;
    for (unsigned d = 0; d < 3; ++d) {
        if (local.dims == 0) local.d[d] = global.d[d];
        if (local.d[d] == 0 || global.d[d] % local.d[d] != 0) {
            std::fprintf(stderr, "hlsinstr emulate: kernel %s: global size %zu is not a multiple of local size %zu\n",
                         name, global.d[d], local.d[d]);
            std::_Exit(kExitBadLaunch);
        }
    }
    detail::ThreadInfo* t = detail::new_thread_info(name, 0, false);
    Launch l;
    const std::string kernel(name);
    l.thread = new std::thread([t, k, a, dims, global, local, kernel] {
        detail::run_work_items(t, k, a, dims, global, local, kernel);
        t->done = true;
    });
    return l;
}

inline Launch launch(const char* name, std::initializer_list<Arg> args, NDRange global = NDRange(1),
                     NDRange local = NDRange()) {
    return launch(name, std::vector<Arg>(args), global, local);
}

inline void wait(Launch& l) {
    if (l.thread) {
        l.thread->join();
        delete l.thread;
        l.thread = nullptr;
    }
}

inline void run(const char* name, std::initializer_list<Arg> args, NDRange global = NDRange(1),
                NDRange local = NDRange()) {
    Launch l = launch(name, args, global, local);
    wait(l);
}

// The host's view of hlsinstr_record and the iBuffer commands: one definition with the profiler.
using hlsinstr_ocl::Record;
using hlsinstr_ocl::kCmdResetLinear;
using hlsinstr_ocl::kCmdResetCyclic;
using hlsinstr_ocl::kCmdSample;
using hlsinstr_ocl::kCmdStop;
using hlsinstr_ocl::kCmdRead;
using hlsinstr_ocl::kRecSnapshot;
using hlsinstr_ocl::kRecHit;
using hlsinstr_ocl::kRecOutOfBounds;
using hlsinstr_ocl::kRecInvariant;
using hlsinstr_ocl::kRecConfigBounds;
using hlsinstr_ocl::kRecConfigWatch;
using hlsinstr_ocl::kRecHeader;

// Elements waiting in the channel named `name` ("c", or "c[2]" in an array); exit code 2 if
// no such channel exists.
inline size_t channel_size(const std::string& name) {
    const detail::ChannelBase* c = nullptr;
    {
        std::lock_guard<std::mutex> lock(detail::global().m);
        auto it = detail::global().channels.find(name);
        if (it != detail::global().channels.end()) c = it->second;
    }
    if (!c) {
        std::fprintf(stderr, "hlsinstr emulate: no channel named %s\n", name.c_str());
        std::_Exit(kExitBadLaunch);
    }
    return c->size();
}

namespace detail {
inline void drain(const std::string& name) {
    while (channel_size(name) != 0) std::this_thread::sleep_for(std::chrono::microseconds(100));
}

// Like drain, for a channel that may not exist (a unit id past the last unit names none).
inline void drain_if_any(const std::string& name) {
    bool exists = false;
    {
        std::lock_guard<std::mutex> lock(global().m);
        exists = global().channels.count(name) != 0;
    }
    if (exists) drain(name);
}
} // namespace detail

// What ibuffer_command does around its launch of hlsinstr_host(cmd, unit, out), for the OpenCL
// C API layer (hlsinstr_emu_cl.cpp), whose clEnqueueTask of hlsinstr_host must behave the same:
// before, wait until the unit has taken the probes already sent; after, until it has taken the
// command.
inline void ibuffer_host_before(unsigned unit) {
    detail::drain_if_any("hlsinstr_ib_data[" + std::to_string(unit) + "]");
}
inline void ibuffer_host_after(unsigned unit) { detail::drain_if_any("hlsinstr_ib_cmd[" + std::to_string(unit) + "]"); }

// Sends a command to iBuffer unit `unit` through the host interface kernel. First waits until
// the unit has taken every probe already sent (in hardware they arrive within cycles; the
// emulated unit is a slower thread), and returns once the unit has taken the command, so
// probes sent afterwards see it. A command sent during a read-out waits for its end.
inline void ibuffer_command(unsigned unit, uint32_t cmd) {
    detail::drain("hlsinstr_ib_data[" + std::to_string(unit) + "]");
    Record scratch[1];
    run("hlsinstr_host", {cmd, static_cast<uint32_t>(unit), &scratch[0]});
    detail::drain("hlsinstr_ib_cmd[" + std::to_string(unit) + "]");
}

// READ: returns the header followed by the unit's records (depth: HLSINSTR_IBUFFER_DEPTH), the
// CONFIG_WATCH and CONFIG_BOUNDS records of a configured unit first.
// Like ibuffer_command, it first waits for the probes already sent.
inline std::vector<Record> ibuffer_read(unsigned unit, size_t depth) {
    detail::drain("hlsinstr_ib_data[" + std::to_string(unit) + "]");
    std::vector<Record> out(depth + 3);
    run("hlsinstr_host", {kCmdRead, static_cast<uint32_t>(unit), out.data()});
    out.resize(1 + static_cast<size_t>(out[0].value));
    return out;
}

// One line per record: "unit kind time addr value" (decimal).
inline void write_dump(std::FILE* f, const std::vector<Record>& records) {
    for (const Record& r : records)
        std::fprintf(f, "%u %u %llu %llu %lld\n", r.unit, r.kind, static_cast<unsigned long long>(r.time),
                     static_cast<unsigned long long>(r.addr), static_cast<long long>(r.value));
}

// The binary dump (docs/opencl-dump.md): "HLSIOCL1", version, unit count, the manifest's key,
// then every unit's read-out. READs units 0 .. units-1 (each is left stopped, its records kept)
// and writes the file atomically (a temporary file beside it, then a rename), so a decoder
// never sees half a dump. Returns 0, or 1 after saying why on stderr.
inline int write_binary_dump(const char* path, uint64_t key, unsigned units, size_t depth) {
    std::vector<Record> all;
    for (unsigned u = 0; u < units; ++u) {
        std::vector<Record> r = ibuffer_read(u, depth);
        all.insert(all.end(), r.begin(), r.end());
    }
    unsigned char head[32] = {'H', 'L', 'S', 'I', 'O', 'C', 'L', '1'};
    const uint32_t version = 1, n = units;
    const uint64_t reserved = 0;
    std::memcpy(head + 8, &version, 4); // the host is little-endian, as the format (x86, ARM)
    std::memcpy(head + 12, &n, 4);
    std::memcpy(head + 16, &key, 8);
    std::memcpy(head + 24, &reserved, 8);
    const std::string tmp = std::string(path) + ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    bool ok = f != nullptr;
    if (ok) ok = std::fwrite(head, 1, sizeof head, f) == sizeof head;
    if (ok && !all.empty()) ok = std::fwrite(all.data(), sizeof(Record), all.size(), f) == all.size();
    if (f && std::fclose(f) != 0) ok = false;
    if (ok) ok = std::rename(tmp.c_str(), path) == 0;
    if (!ok) {
        std::fprintf(stderr, "hlsinstr emulate: cannot write the dump %s: %s\n", path, std::strerror(errno));
        std::remove(tmp.c_str());
        return 1;
    }
    return 0;
}

#if defined(HLSINSTR_NUM_IBUFFERS) && defined(HLSINSTR_MANIFEST_KEY)
// The same for the build `hlsinstr emulate` made (it defines the three macros): the path is
// `path`, else $HLSINSTR_DUMP, else hlsinstr-ocl.bin in the working directory.
inline int write_binary_dump(const char* path = nullptr) {
#ifdef HLSINSTR_IBUFFER_DEPTH
    const size_t depth = HLSINSTR_IBUFFER_DEPTH;
#else
    const size_t depth = 1024; // hlsinstr_ibuffer.cl's default
#endif
    const char* env = std::getenv("HLSINSTR_DUMP");
    if (!path) path = env && *env ? env : "hlsinstr-ocl.bin";
    return write_binary_dump(path, HLSINSTR_MANIFEST_KEY, HLSINSTR_NUM_IBUFFERS, depth);
}
#endif

// Advances the calling kernel's model clock by n cycles (HLSINSTR_EMU_DELAY).
inline void delay(uint64_t n) { detail::wi().now += n; }

} // namespace hlsinstr_emu

#endif
