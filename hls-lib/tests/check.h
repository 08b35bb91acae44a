// Test support: flush the event log and read it back as compact text per thread,
// e.g. "B0 B1 E1:3 E0" (begin 0, begin 1, end 1 with 3 trips, end 0).
#ifndef HLSINSTR_TEST_CHECK_H
#define HLSINSTR_TEST_CHECK_H

#include "hlsinstr/probe.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

struct LogLine {
    unsigned long long order;
    unsigned probe;
    char event;
    unsigned thread;
    std::string seq, ts, value;
};

inline std::vector<LogLine> read_log() {
    hlsinstr::sim::flush_events();
    std::ifstream in(hlsinstr::sim::events_path());
    std::vector<LogLine> out;
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        if (n++ == 0 && line != "# hlsinstr events v1") {
            std::printf("bad header: %s\n", line.c_str());
            std::exit(2);
        }
        if (line.empty() || line[0] == '#') continue;
        std::istringstream s(line);
        LogLine l;
        s >> l.order >> l.probe >> l.event >> l.thread >> l.seq >> l.ts >> l.value;
        out.push_back(l);
    }
    return out;
}

inline std::string compact(const std::vector<LogLine>& log, unsigned thread) {
    std::string s;
    for (size_t i = 0; i < log.size(); ++i) {
        if (log[i].thread != thread) continue;
        if (!s.empty()) s += ' ';
        s += log[i].event;
        s += std::to_string(log[i].probe);
        if (log[i].value != "-") s += ":" + log[i].value;
    }
    return s;
}

static int failures = 0;

inline void expect_eq(const std::string& what, const std::string& got, const std::string& want) {
    if (got != want) {
        std::printf("FAIL %s\n  got:  %s\n  want: %s\n", what.c_str(), got.c_str(), want.c_str());
        ++failures;
    }
}

#endif
