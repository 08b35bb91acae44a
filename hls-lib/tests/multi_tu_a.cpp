// Two translation units share one log: the header's state is inline, not per file.
#include "check.h"

int twice(int x);

static int once(int x) { HLSINSTR_FUNC_BEGIN(0, S, x); return HLSINSTR_RETURN(0, S, x + 1); }

int main() {
    int r = twice(once(1));
    std::vector<LogLine> log = read_log();
    expect_eq("two files, one stream", compact(log, 0), "B0 E0 B1 E1");
    expect_eq("one sequence", log.size() == 4 ? log[3].seq : "", "3");
    if (r != 4) { std::printf("FAIL result %d\n", r); ++failures; }
    if (failures == 0) std::printf("ok\n");
    return failures;
}
