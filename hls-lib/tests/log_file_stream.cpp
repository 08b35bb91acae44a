// A binary log file is written as it is made (event_log.h, Log::streaming): a full buffer goes to
// `path.tmp` at once instead of staying in memory until exit; a write before exit (flush_events)
// puts the log so far at the path, and the records after it are appended there. The test harness
// (rewriter/tests/hls_lib.rs) reads the final log back.
#include "hlsinstr/probe.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>

// Two leaves called in turn: they do not fold into repeats, so each call is two records.
static int a(int x) { HLSINSTR_FUNC_BEGIN(1, P, 0); return HLSINSTR_RETURN(1, P, x + 1); }
static int b(int x) { HLSINSTR_FUNC_BEGIN(2, P, 0); return HLSINSTR_RETURN(2, P, x - 1); }

static long size_of(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 ? static_cast<long>(st.st_size) : -1;
}

static int calls(int n) {
    int s = 0;
    for (int i = 0; i < n; ++i) s += a(i) + b(i);
    return s;
}

int main() {
    const char* env = std::getenv("HLSINSTR_EVENTS");
    if (!env) return 2;
    const std::string path = env, tmp = path + ".tmp";
    int s = calls(50000); // 200 000 records, ~400 KB: several buffers
    if (size_of(tmp) < 65536 || size_of(path) != -1) {
        std::printf("FAIL: during the run: %s %ld B, %s %ld B\n", tmp.c_str(), size_of(tmp), path.c_str(), size_of(path));
        return 1;
    }
    hlsinstr::sim::flush_events();
    if (size_of(path) < 65536 || size_of(tmp) != -1) {
        std::printf("FAIL: after the flush: %s %ld B, %s %ld B\n", tmp.c_str(), size_of(tmp), path.c_str(), size_of(path));
        return 1;
    }
    s += calls(50000);
    std::printf("ok %d\n", s);
    return 0;
}
