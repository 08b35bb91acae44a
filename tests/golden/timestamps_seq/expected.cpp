#include "hlsinstr/probe.h" // hlsinstr
#include <utility>
// Module probes: begin after `{`, end on every exit path.
static int clamp(int v, int lo, int hi) { HLSINSTR_FUNC_BEGIN(0, TS, v);
  if (v < lo) return HLSINSTR_RETURN(0, TS, lo);
  if (v > hi)
    return HLSINSTR_RETURN(0, TS, hi);
  return HLSINSTR_RETURN(0, TS, v);
}

void scale(int *a, int n, int k) { HLSINSTR_FUNC_BEGIN(1, TS, n);
  if (n <= 0) return HLSINSTR_RETURN_VOID(1, TS);
  HLSINSTR_LOOP_BEGIN(2, TS, 0); for (int i = 0; i < n; i++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(2); a[i] *= k; }/*hlsinstr*/ HLSINSTR_LOOP_END(2, TS, 0);
HLSINSTR_FUNC_END(1, TS, 0); }

void log_nothing() {HLSINSTR_FUNC_BEGIN(3, TS, 0); HLSINSTR_FUNC_END(3, TS, 0); }

std::pair<int, int> minmax(int a, int b) { HLSINSTR_FUNC_BEGIN(4, TS, a);
  return HLSINSTR_RETURN(4, TS, a < b ? std::make_pair(a, b) : std::make_pair(b, a));
}

void forward(int *a) { HLSINSTR_FUNC_BEGIN(5, TS, 0); return HLSINSTR_RETURN_V(5, TS, scale(a, 1, 2)); }

struct Acc {
  int sum = 0;
  Acc() { HLSINSTR_FUNC_BEGIN(6, TS, 0); sum = 0; HLSINSTR_FUNC_END(6, TS, 0); }
  void add(int x) { HLSINSTR_FUNC_BEGIN(7, TS, x); sum += clamp(x, 0, 255); HLSINSTR_FUNC_END(7, TS, 0); }
  int get() const { HLSINSTR_FUNC_BEGIN(8, TS, 0); return HLSINSTR_RETURN(8, TS, sum); }
};
