#include "hlsinstr_probe.cl" // hlsinstr
// Watch sites in every kind of place: statements of a {} block report the element's value
// after the statement (and check the invariant); headers, conditions, returns and unbraced
// bodies report the index.
typedef struct { int key; int val; } pair_t;

int first(__global const int *data) { HLSINSTR_FUNC_BEGIN(1, P, 0); HLSINSTR_WATCH_CFG_BOUNDS(0, data, 2, 6, 16, LONG_MIN, LONG_MAX, 1);
    return HLSINSTR_RETURN(1, P, data[HLSINSTR_WATCH_R(0, data, 0)]);
}

__kernel void sites(__global int *restrict data, __global int *restrict alias, __global float4 *v,
                    __global pair_t *pairs, __local int *scratch, uint n, int mode) { HLSINSTR_FUNC_BEGIN(17, P, 0); HLSINSTR_WATCH_CFG_BOUNDS(2, data, 2, 6, 16, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_CFG_BOUNDS(3, data, 2, 6, 16, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_CFG_BOUNDS(4, data, 2, 6, 16, -1, LONG_MAX, 1); HLSINSTR_WATCH_DECL(4, data); HLSINSTR_WATCH_CFG_BOUNDS(5, data, 2, 6, 16, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_CFG_BOUNDS(6, data, 2, 6, 16, -1, LONG_MAX, 1); HLSINSTR_WATCH_DECL(6, data); HLSINSTR_WATCH_CFG_BOUNDS(7, data, 2, 6, 16, -1, LONG_MAX, 1); HLSINSTR_WATCH_DECL(7, data); HLSINSTR_WATCH_CFG_BOUNDS(8, data, 2, 6, 16, -1, LONG_MAX, 1); HLSINSTR_WATCH_DECL(8, data); HLSINSTR_WATCH_CFG_BOUNDS(9, data, 2, 6, 16, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_CFG_BOUNDS(10, data, 2, 6, 16, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_CFG_BOUNDS(11, data, 2, 6, 16, -1, LONG_MAX, 1); HLSINSTR_WATCH_DECL(11, data); HLSINSTR_WATCH_CFG_BOUNDS(12, data, 2, 6, 16, -1, LONG_MAX, 1); HLSINSTR_WATCH_DECL(12, data); HLSINSTR_WATCH_CFG_BOUNDS(13, data, 2, 6, 16, -1, LONG_MAX, 1); HLSINSTR_WATCH_DECL(13, data); HLSINSTR_WATCH_CFG_BOUNDS(14, data, 2, 6, 16, -1, LONG_MAX, 1); HLSINSTR_WATCH_DECL(14, data); HLSINSTR_WATCH_CFG(15, data, 2, 6, -1, LONG_MAX, 1); HLSINSTR_WATCH_DECL(15, alias); HLSINSTR_WATCH_CFG(16, data, 2, 6, LONG_MIN, LONG_MAX, 1);
    int total = 0;
    HLSINSTR_LOOP_BEGIN(18, P, 0); for (uint i = 0; i < n && data[HLSINSTR_WATCH_R(2, data, i)] >= 0; i++)
        {/*hlsinstr*/ HLSINSTR_LOOP_ITER(18); data[HLSINSTR_WATCH_RW(3, data, i)] += 1; }/*hlsinstr*/ HLSINSTR_LOOP_END(18, P, 0);
    HLSINSTR_LOOP_BEGIN(19, P, 0); for (uint i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(19);
        total += data[HLSINSTR_WATCH_V(4, data, i)] * 2; HLSINSTR_WATCH_POST(4);
        if (data[HLSINSTR_WATCH_R(5, data, i)] > total) {
            alias[HLSINSTR_WATCH_V(15, alias, i)] = data[HLSINSTR_WATCH_V(6, data, n - 1 - i)]; HLSINSTR_WATCH_POST(6); HLSINSTR_WATCH_POST(15);
        } else
            *HLSINSTR_WATCH_PW(16, alias, (alias + i)) = 0;
        scratch[i % 4] = data[HLSINSTR_WATCH_V(7, data, i)]; HLSINSTR_WATCH_POST(7);
    } HLSINSTR_LOOP_END(19, P, 0);
    switch (mode) {
    case 0:
        data[HLSINSTR_WATCH_V(8, data, 0)] = total; HLSINSTR_WATCH_POST(8);
        break;
    default:
        HLSINSTR_LOOP_BEGIN(20, P, 0); while (data[HLSINSTR_WATCH_R(9, data, 1)] != 0) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(20); data[HLSINSTR_WATCH_RW(10, data, 1)]--; }/*hlsinstr*/ HLSINSTR_LOOP_END(20, P, 0);
    }
    v[0].x = (float)data[HLSINSTR_WATCH_V(11, data, 2)]; HLSINSTR_WATCH_POST(11);
    pairs[0].val = first(data);
    int ok = mode && data[HLSINSTR_WATCH_V(12, data, 3)] > 0; HLSINSTR_WATCH_POST(12);
    data[HLSINSTR_WATCH_V(13, data, 4)] = ok ? data[HLSINSTR_WATCH_V(14, data, 5)] : -1; HLSINSTR_WATCH_POST(13); HLSINSTR_WATCH_POST(14); HLSINSTR_FUNC_END(17, P, 0);
}
