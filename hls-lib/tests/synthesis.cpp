// Under __SYNTHESIS__ every probe compiles to nothing and return expressions stay as written.
// Compiled with -D__SYNTHESIS__; it must not pull in the simulation log at all.
#include "hlsinstr/probe.h"

#ifdef HLSINSTR_EVENT_LOG_H
#error "the simulation event log is included under __SYNTHESIS__"
#endif

static const int* none(int x) { HLSINSTR_FUNC_BEGIN(0, TS, x);
    if (x) return HLSINSTR_RETURN(0, TS, 0);
    return HLSINSTR_RETURN(0, TS, nullptr);
}

static void scale(int* a, int n) { HLSINSTR_FUNC_BEGIN(1, TS, n);
    if (n < 0) return HLSINSTR_RETURN_VOID(1, TS);
    HLSINSTR_LOOP_BEGIN(2, TS, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(2);
        if (a[i] < 0) goto out;
        a[i] *= 2;
    } HLSINSTR_LOOP_END(2, TS, 0);
out: HLSINSTR_UNWIND(1, 0);
HLSINSTR_FUNC_END(1, TS, 0); }

static void fwd(int* a) { HLSINSTR_FUNC_BEGIN(3, P, 0); return HLSINSTR_RETURN_V(3, P, scale(a, 1)); }

int main() {
    int a[2] = {1, 2};
    fwd(a);
    return (none(0) == nullptr && a[0] == 2) ? 0 : 1;
}
