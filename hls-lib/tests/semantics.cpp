// Probe semantics on one thread, written as the rewriter writes them: every exit path, loops
// left by break/continue/return/goto, recursion, and return values passed through untouched.
#include "check.h"

static int calls_of_value = 0;

static int value(int v) { HLSINSTR_FUNC_BEGIN(0, P, v);
    ++calls_of_value;
    return HLSINSTR_RETURN(0, P, v + 1);
}

// returns inside two loops: both loops and the module end
static int find(const int* a, int n, int key) { HLSINSTR_FUNC_BEGIN(1, P, 0);
    HLSINSTR_LOOP_BEGIN(2, P, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(2);
        HLSINSTR_LOOP_BEGIN(3, P, 0); for (int j = 0; j < 2; j++) { HLSINSTR_LOOP_ITER(3);
            if (a[i] == key) return HLSINSTR_RETURN(1, P, i);
        } HLSINSTR_LOOP_END(3, P, 0);
    } HLSINSTR_LOOP_END(2, P, 0);
    return HLSINSTR_RETURN(1, P, -1);
}

// break and continue count the iteration they happen in
static void skip(int n) { HLSINSTR_FUNC_BEGIN(4, P, n);
    HLSINSTR_LOOP_BEGIN(5, P, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(5);
        if (i == 1) continue;
        if (i == 3) break;
    } HLSINSTR_LOOP_END(5, P, 0);
    if (n > 100) return HLSINSTR_RETURN_VOID(4, P);
HLSINSTR_FUNC_END(4, P, 0); }

// goto out of two loops lands on an UNWIND label at depth 0
static int jump(int n) { HLSINSTR_FUNC_BEGIN(6, P, n);
    int r = 0;
    HLSINSTR_LOOP_BEGIN(7, P, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(7);
        HLSINSTR_LOOP_BEGIN(8, P, 0); for (int j = 0; j < n; j++) { HLSINSTR_LOOP_ITER(8);
            if (i == 1 && j == 2) goto done;
            ++r;
        } HLSINSTR_LOOP_END(8, P, 0);
    } HLSINSTR_LOOP_END(7, P, 0);
done: HLSINSTR_UNWIND(6, 0);
    return HLSINSTR_RETURN(6, P, r);
}

// goto out of the inner loop only, to a label inside the outer loop (depth 1)
static int retry(int n) { HLSINSTR_FUNC_BEGIN(9, P, n);
    int r = 0;
    HLSINSTR_LOOP_BEGIN(10, P, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(10);
        HLSINSTR_LOOP_BEGIN(11, P, 0); while (true) { HLSINSTR_LOOP_ITER(11);
            if (++r % 2 == 0) goto next;
        } HLSINSTR_LOOP_END(11, P, 0);
    next: HLSINSTR_UNWIND(9, 1);
        r += 10;
    } HLSINSTR_LOOP_END(10, P, 0);
    return HLSINSTR_RETURN(9, P, r);
}

static unsigned fact(unsigned n) { HLSINSTR_FUNC_BEGIN(12, P, n);
    if (n <= 1) return HLSINSTR_RETURN(12, P, 1u);
    return HLSINSTR_RETURN(12, P, n * fact(n - 1));
}

// values, references, null pointers and void expressions pass through RETURN unchanged
static int cell = 5;
static int& ref() { HLSINSTR_FUNC_BEGIN(13, P, 0); return HLSINSTR_RETURN(13, P, cell); }
static const int* none() { HLSINSTR_FUNC_BEGIN(14, P, 0); return HLSINSTR_RETURN(14, P, 0); }
static void forward(int n) { HLSINSTR_FUNC_BEGIN(15, P, n); return HLSINSTR_RETURN_V(15, P, skip(n)); }

// a do-while counts every body run; a loop whose condition fails at once has 0 trips
static int loops(int n) { HLSINSTR_FUNC_BEGIN(16, P, n);
    int k = 0;
    HLSINSTR_LOOP_BEGIN(17, P, 0); do { HLSINSTR_LOOP_ITER(17); ++k; } while (k < n); HLSINSTR_LOOP_END(17, P, 0);
    HLSINSTR_LOOP_BEGIN(18, P, 0); while (k < 0) { HLSINSTR_LOOP_ITER(18); --k; } HLSINSTR_LOOP_END(18, P, 0);
    return HLSINSTR_RETURN(16, P, k);
}

int main() {
    int a[3] = {7, 8, 9};
    int bad = 0;
    bad += value(1) != 2;
    bad += find(a, 3, 8) != 1;
    bad += find(a, 3, 4) != -1;
    skip(5);
    bad += jump(3) != 5;
    bad += retry(2) != 24;
    bad += fact(3) != 6;
    ref() = 6;
    bad += cell != 6;
    bad += none() != 0;
    forward(2);
    bad += loops(3) != 3;
    bad += calls_of_value != 1;
    if (bad) std::printf("FAIL %d wrong results\n", bad);

    std::vector<LogLine> log = read_log();
    const std::string want =
        "B0 E0 "
        "B1 B2 B3 E3:2 B3 E3:1 E2:2 E1 "                  // found at i=1: loops closed by return
        "B1 B2 B3 E3:2 B3 E3:2 B3 E3:2 E2:3 E1 "        // not found
        "B4 B5 E5:4 E4 "                                      // continue at 1, break at 3
        "B6 B7 B8 E8:3 B8 E8:3 E7:2 E6 "                      // goto out of both loops
        "B9 B10 B11 E11:2 B11 E11:2 E10:2 E9 "                // goto to the outer loop's body
        "B12 B12 B12 E12 E12 E12 "                            // recursion
        "B13 E13 B14 E14 "
        "B15 B4 B5 E5:2 E4 E15 "
        "B16 B17 E17:3 B18 E18:0 E16";
    expect_eq("event sequence", compact(log, 0), want);
    for (size_t i = 0; i < log.size(); ++i) {
        if (log[i].seq != "-" || log[i].ts != "-") {
            std::printf("FAIL plain probes recorded a seq or timestamp\n");
            ++failures;
            break;
        }
    }
    if (failures == 0 && bad == 0) std::printf("ok %zu records\n", log.size());
    return failures + bad;
}
