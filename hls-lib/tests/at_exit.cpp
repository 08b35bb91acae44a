// No explicit flush: the log is written when the process exits normally, including the records
// of a thread that finished earlier. The test harness reads the file.
#include "hlsinstr/probe.h"

#include <thread>

static int one(int x) { HLSINSTR_FUNC_BEGIN(7, T, x); return HLSINSTR_RETURN(7, T, x); }

int main() {
    std::thread t(one, 1);
    t.join();
    return one(0);
}
