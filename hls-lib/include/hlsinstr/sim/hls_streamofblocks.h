// hlsinstr: a C-simulation model of Vitis HLS `hls::stream_of_blocks<B, DEPTH>` (UG1399,
// "Specifying Stream-of-Blocks"), on the thread-safe stream model (hls_stream.h).
//
//   hls::stream_of_blocks<int[64], 3> s;       // 3 blocks of int[64]
//   { hls::write_lock<int[64]> b(s); b[i] = ...; }   // producer fills a free block
//   { hls::read_lock<int[64]> b(s);  ... = b[i]; }   // consumer reads the oldest full block
//
// What is modelled (UG1399): DEPTH blocks (default 2) circulate between producer and consumer;
// a write_lock takes a free block and, when it goes out of scope, hands it to the consumer in
// order; a read_lock takes the oldest full block and, when it goes out of scope, frees it. A
// lock waits while no block is free (full) or none is full (empty); a wait nothing can end is
// reported by the deadlock watchdog with the channel's name (`<name>.free` / `<name>.full`).
// `empty()` and `full()` say whether a read_lock / write_lock would wait. The block's contents
// are not cleared between uses, as in hardware (a ping-pong buffer is not reset).
// A sequential C simulation (no other thread uses streams: a dataflow region whose processes run
// one after another, as Vitis runs them) cannot wait for a consumer that runs later: there a
// write_lock with no free block takes a new one, as a bounded hls::stream is written past its
// depth, and the channel says so once on stderr. Vitis' own C simulation does not stall there
// either (its example `using_stream_of_blocks` fills 10 blocks of a 2-block channel before the
// consumer runs).
// Not modelled: the hardware's timing (acquire/release handshakes).
#ifndef HLSINSTR_SIM_HLS_STREAMOFBLOCKS_H
#define HLSINSTR_SIM_HLS_STREAMOFBLOCKS_H

#ifndef X_HLS_STREAMOFBLOCKS_H
#define X_HLS_STREAMOFBLOCKS_H

#include "hls_stream.h"

#include <cstddef>
#include <cstdio>
#include <memory>
#include <vector>
#include <string>
#include <utility>

namespace hls {

template <typename B, int DEPTH = 2>
class stream_of_blocks {
    static_assert(DEPTH > 0, "hls::stream_of_blocks<B, DEPTH> needs DEPTH > 0");

  public:
    stream_of_blocks() { init("hls::stream_of_blocks"); }
    stream_of_blocks(const char* name) { init(name); }
    // Free blocks are not leftover data: only full ones draw the stream's warning.
    ~stream_of_blocks() {
        B* b;
        while (free_.read_nb(b)) {
        }
    }
    stream_of_blocks(const stream_of_blocks&) = delete;
    stream_of_blocks& operator=(const stream_of_blocks&) = delete;

    // A read_lock would wait: no block is full.
    bool empty() const { return full_.empty(); }
    // A write_lock would wait: no block is free.
    bool full() const { return free_.empty(); }

    // For the locks: a free block (waits for one; a new one in a sequential run), a full block
    // handed on, and back.
    B* acquire_write() {
        B* b = nullptr;
        if (free_.read_nb(b)) return b;
        if (!sequential()) return free_.read();
        if (extra_.empty()) {
            std::fprintf(stderr,
                         "hlsinstr: stream_of_blocks '%s' holds more than its %d blocks: this C simulation runs its "
                         "processes one after another; in hardware the producer stalls until a concurrent consumer "
                         "(dataflow) frees a block, and deadlocks without one\n",
                         name_.c_str(), DEPTH);
        }
        extra_.push_back(std::unique_ptr<Block>(new Block()));
        return &extra_.back()->data;
    }
    void release_write(B* b) { full_.write(b); }
    B* acquire_read() { return full_.read(); }
    void release_read(B* b) { free_.write(b); }

  private:
    // One more block of a sequential run (an array type cannot be a vector's element itself).
    struct Block {
        B data;
    };

    // No other thread uses streams (see the header comment).
    static bool sequential() {
        hlsinstr::sim::Watchdog::enter_thread();
        hlsinstr::sim::Watchdog& w = hlsinstr::sim::Watchdog::instance();
        std::lock_guard<std::mutex> lock(w.mutex());
        return w.alone();
    }

    void init(const std::string& name) {
        name_ = name;
        free_.set_name((name + ".free").c_str());
        full_.set_name((name + ".full").c_str());
        for (int i = 0; i < DEPTH; ++i) free_.write(&blocks_[i]);
    }

    B blocks_[DEPTH];
    std::vector<std::unique_ptr<Block>> extra_;
    std::string name_;
    // Unbounded: the blocks in circulation bound them (DEPTH, more in a sequential run).
    stream<B*> free_;
    stream<B*> full_;
};

// The producer's view of one block, from construction to the end of its scope.
template <typename B>
class write_lock {
  public:
    template <int DEPTH>
    write_lock(stream_of_blocks<B, DEPTH>& s)
        : block_(s.acquire_write()), release_(&release<DEPTH>), owner_(&s) {}
    ~write_lock() { release_(owner_, block_); }
    write_lock(const write_lock&) = delete;
    write_lock& operator=(const write_lock&) = delete;
    operator B&() { return *block_; }
    template <typename I>
    auto operator[](I i) -> decltype((*static_cast<B*>(0))[i]) { return (*block_)[i]; }

  private:
    template <int DEPTH>
    static void release(void* s, B* b) { static_cast<stream_of_blocks<B, DEPTH>*>(s)->release_write(b); }
    B* block_;
    void (*release_)(void*, B*);
    void* owner_;
};

// The consumer's view of one block, from construction to the end of its scope.
template <typename B>
class read_lock {
  public:
    template <int DEPTH>
    read_lock(stream_of_blocks<B, DEPTH>& s) : block_(s.acquire_read()), release_(&release<DEPTH>), owner_(&s) {}
    ~read_lock() { release_(owner_, block_); }
    read_lock(const read_lock&) = delete;
    read_lock& operator=(const read_lock&) = delete;
    operator B&() { return *block_; }
    template <typename I>
    auto operator[](I i) -> decltype((*static_cast<B*>(0))[i]) { return (*block_)[i]; }

  private:
    template <int DEPTH>
    static void release(void* s, B* b) { static_cast<stream_of_blocks<B, DEPTH>*>(s)->release_read(b); }
    B* block_;
    void (*release_)(void*, B*);
    void* owner_;
};

} // namespace hls

#endif // X_HLS_STREAMOFBLOCKS_H
#endif
