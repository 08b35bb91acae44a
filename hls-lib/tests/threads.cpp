// Dataflow processes may run as threads: each thread keeps its own probe stack, records are
// ordered globally, sequence numbers are dense in that order and timestamps never go back.
#include "check.h"

#include <thread>

static long work(int n) { HLSINSTR_FUNC_BEGIN(0, TS, n);
    long s = 0;
    HLSINSTR_LOOP_BEGIN(1, TS, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(1);
        s += i;
    } HLSINSTR_LOOP_END(1, TS, 0);
    return HLSINSTR_RETURN(0, TS, s);
}

static void process(int calls) { HLSINSTR_FUNC_BEGIN(2, S, calls);
    HLSINSTR_LOOP_BEGIN(3, S, 0); for (int c = 0; c < calls; c++) { HLSINSTR_LOOP_ITER(3);
        work(c % 7);
    } HLSINSTR_LOOP_END(3, S, 0);
HLSINSTR_FUNC_END(2, S, 0); }

int main() {
    const int threads = 4, calls = 500;
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.push_back(std::thread(process, calls));
    for (size_t t = 0; t < pool.size(); ++t) pool[t].join();

    std::vector<LogLine> log = read_log();
    const size_t per_thread = 2 + 2 + calls * 4;
    if (log.size() != threads * per_thread) {
        std::printf("FAIL %zu records, want %zu\n", log.size(), threads * per_thread);
        ++failures;
    }
    std::map<unsigned, std::vector<unsigned> > stacks;
    std::map<unsigned, unsigned long long> last_ts;
    std::map<unsigned, unsigned long long> trips;
    unsigned long long seq = 0;
    for (size_t i = 0; i < log.size(); ++i) {
        const LogLine& l = log[i];
        if (i > 0 && l.order <= log[i - 1].order) { std::printf("FAIL order not increasing\n"); ++failures; break; }
        if (l.seq != std::to_string(seq++)) { std::printf("FAIL seq %s at %zu\n", l.seq.c_str(), i); ++failures; break; }
        const bool timed = l.probe <= 1;
        if (timed != (l.ts != "-")) { std::printf("FAIL timestamp presence on probe %u\n", l.probe); ++failures; break; }
        if (timed) {
            unsigned long long ts = std::stoull(l.ts);
            if (ts < last_ts[l.thread]) { std::printf("FAIL time goes back on thread %u\n", l.thread); ++failures; }
            last_ts[l.thread] = ts;
        }
        std::vector<unsigned>& st = stacks[l.thread];
        if (l.event == 'B') {
            st.push_back(l.probe);
        } else {
            if (st.empty() || st.back() != l.probe) { std::printf("FAIL unbalanced end of %u\n", l.probe); ++failures; break; }
            st.pop_back();
            if (l.probe == 1) trips[l.thread] += std::stoull(l.value);
        }
    }
    unsigned long long want_trips = 0;
    for (int c = 0; c < calls; ++c) want_trips += c % 7;
    if (stacks.size() != static_cast<size_t>(threads)) { std::printf("FAIL %zu thread ids\n", stacks.size()); ++failures; }
    for (std::map<unsigned, unsigned long long>::iterator it = trips.begin(); it != trips.end(); ++it) {
        if (it->second != want_trips) { std::printf("FAIL thread %u: %llu trips\n", it->first, it->second); ++failures; }
    }
    if (failures == 0) std::printf("ok %zu records on %zu threads\n", log.size(), stacks.size());
    return failures;
}
