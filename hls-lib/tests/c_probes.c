/* Probes in a C file (probe_c.h), written as the rewriter writes them, built as C11 and linked
 * with the C++ runtime (c_runtime.h): every exit path records the module's end after the
 * returned value is computed, loops left by return and goto are closed. Prints "ok" or what
 * differs; the exit code is the number of failures. */
#include "hlsinstr/probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int value(int v) { HLSINSTR_FUNC_BEGIN(0, P, v);
    return HLSINSTR_RETURN(0, P, v + 1);
}

/* a return inside two loops closes both, then the module */
static int find(const int* a, int n, int key) { HLSINSTR_FUNC_BEGIN(1, P, 0);
    HLSINSTR_LOOP_BEGIN(2, P, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(2);
        HLSINSTR_LOOP_BEGIN(3, P, 0); for (int j = 0; j < 2; j++) { HLSINSTR_LOOP_ITER(3);
            if (a[i] == key) return HLSINSTR_RETURN(1, P, i);
        } HLSINSTR_LOOP_END(3, P, 0);
    } HLSINSTR_LOOP_END(2, P, 0);
    return HLSINSTR_RETURN(1, P, -1);
}

/* `return;` and falling off the end */
static void skip(int n) { HLSINSTR_FUNC_BEGIN(4, P, n);
    if (n > 100) return HLSINSTR_RETURN_VOID(4, P);
HLSINSTR_FUNC_END(4, P, 0); }

/* goto out of a loop lands on an UNWIND label */
static int jump(int n) { HLSINSTR_FUNC_BEGIN(6, P, n);
    int r = 0;
    HLSINSTR_LOOP_BEGIN(7, P, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(7);
        if (i == 2) goto done;
        ++r;
    } HLSINSTR_LOOP_END(7, P, 0);
done: HLSINSTR_UNWIND(6, 0);
    return HLSINSTR_RETURN(6, P, r);
}

/* the end is recorded after the returned expression, which calls another probed function */
static int outer(int v) { HLSINSTR_FUNC_BEGIN(8, P, v);
    return HLSINSTR_RETURN(8, P, value(v) * 2);
}

/* m_axi bytes (maxi.h's macros in C): memcpy sizes and element accesses, an element of a 2-D
 * port counted through its row (`*m`, as the rewriter writes it), recorded per port (read, then
 * written) just before the module's end, after the returned value is computed. */
static int ports(int* out, const short* in, int m[][4], int n) { HLSINSTR_FUNC_BEGIN(9, P, n);
    HLSINSTR_MAXI_PORTS(10, 3);
    short buf[8];
    int s;
    memcpy(buf, in, HLSINSTR_MAXI_RN(11, in, (size_t)n * sizeof(short)));
    s = in[HLSINSTR_MAXI_R(11, in, 0)] + in[HLSINSTR_MAXI_R(11, in, 1)] + buf[0];
    m[1][HLSINSTR_MAXI_RW(12, *m, 2)] += s;
    memcpy(out, m[1], HLSINSTR_MAXI_WN(10, out, 2 * sizeof(int)));
    if (n < 3) return HLSINSTR_RETURN(9, P, value(s));
    return HLSINSTR_RETURN(9, P, s);
}

/* The log as "B0 E2:3 ...": the event, the probe, a loop end's trips. */
static void read_log(char* out, size_t size) {
    char line[256];
    const char* path = getenv("HLSINSTR_EVENTS");
    FILE* f;
    out[0] = '\0';
    hlsinstr_c_flush_events();
    f = fopen(path ? path : "hlsinstr-events.log", "r");
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        unsigned long long order;
        unsigned probe, thread;
        char event, seq[32], ts[32], value[32], item[64];
        if (line[0] == '#') continue;
        if (sscanf(line, "%llu %u %c %u %31s %31s %31s", &order, &probe, &event, &thread, seq, ts, value) != 7) continue;
        if (strcmp(value, "-") != 0) {
            snprintf(item, sizeof item, "%s%c%u:%s", out[0] ? " " : "", event, probe, value);
        } else {
            snprintf(item, sizeof item, "%s%c%u", out[0] ? " " : "", event, probe);
        }
        strncat(out, item, size - strlen(out) - 1);
    }
    fclose(f);
}

int main(void) {
    const int a[3] = {4, 5, 6};
    int failures = 0;
    char log[4096];
    short in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int out[2] = {0, 0}, m[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    const char* want = "B0 E0 B1 B2 B3 E3:2 B3 E3:1 E2:2 E1 B4 E4 B4 E4 B6 B7 E7:3 E6 B8 B0 E0 E8"
                       " B9 W10:8 R11:12 R12:4 W12:4 E9 B9 B0 E0 W10:8 R11:8 R12:4 W12:4 E9";
    failures += value(1) != 2;
    failures += find(a, 3, 5) != 1;
    skip(1);
    skip(101);
    failures += jump(5) != 2;
    failures += outer(3) != 8;
    failures += ports(out, in, m, 4) != 4;
    failures += m[1][2] != 4 || out[0] != 0 || out[1] != 0;
    failures += ports(out, in, m, 2) != 5;
    read_log(log, sizeof log);
    if (strcmp(log, want) != 0) {
        printf("log:  %s\nwant: %s\n", log, want);
        ++failures;
    }
    if (failures == 0) printf("ok\n");
    return failures;
}
