// Under __SYNTHESIS__ every probe compiles to nothing and return expressions stay as written.
// Compiled with -D__SYNTHESIS__; it must not pull in the simulation log at all.
#include "hlsinstr/probe.h"

#include <cstring>

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

// m_axi wrappers are the bare expression, PORTS is nothing
static int ports(const int* in, int* out, int n) { HLSINSTR_FUNC_BEGIN(4, P, n); HLSINSTR_MAXI_PORTS(5, 2);
    int s = 0;
    for (int i = 0; i < n; i++) {
        out[HLSINSTR_MAXI_W(6, out, i)] = in[HLSINSTR_MAXI_R(5, in, i)];
        s += *HLSINSTR_MAXI_R(5, in, (in + i));
    }
    std::memcpy(out, in, HLSINSTR_MAXI_WN(6, out, HLSINSTR_MAXI_RN(5, in, sizeof(int))));
    out[HLSINSTR_MAXI_RW(6, out, 0)] += 1;
    return HLSINSTR_RETURN(4, P, s);
}

static void fwd(int* a) { HLSINSTR_FUNC_BEGIN(3, P, 0); return HLSINSTR_RETURN_V(3, P, scale(a, 1)); }

int main() {
    int a[2] = {1, 2};
    fwd(a);
    int in[2] = {3, 4}, out[2] = {0, 0};
    const bool ported = ports(in, out, 2) == 7 && out[0] == 4 && out[1] == 4;
    return (none(0) == nullptr && a[0] == 2 && ported) ? 0 : 1;
}
