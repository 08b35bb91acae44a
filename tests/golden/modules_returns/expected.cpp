#include "hlsinstr/probe.h" // hlsinstr
#include <utility>
// Module probes: begin after `{`, end on every exit path.
static int clamp(int v, int lo, int hi) { HLSINSTR_FUNC_BEGIN(0, P, 0);
  if (v < lo) return HLSINSTR_RETURN(0, P, lo);
  if (v > hi)
    return HLSINSTR_RETURN(0, P, hi);
  return HLSINSTR_RETURN(0, P, v);
}

void scale(int *a, int n, int k) { HLSINSTR_FUNC_BEGIN(1, P, 0);
  if (n <= 0) return HLSINSTR_RETURN_VOID(1, P);
  for (int i = 0; i < n; i++) a[i] *= k;
HLSINSTR_FUNC_END(1, P, 0); }

void log_nothing() {HLSINSTR_FUNC_BEGIN(2, P, 0); HLSINSTR_FUNC_END(2, P, 0); }

std::pair<int, int> minmax(int a, int b) { HLSINSTR_FUNC_BEGIN(3, P, 0);
  return HLSINSTR_RETURN(3, P, a < b ? std::make_pair(a, b) : std::make_pair(b, a));
}

void forward(int *a) { HLSINSTR_FUNC_BEGIN(4, P, 0); return HLSINSTR_RETURN_V(4, P, scale(a, 1, 2)); }

struct Acc {
  int sum = 0;
  Acc() { HLSINSTR_FUNC_BEGIN(5, P, 0); sum = 0; HLSINSTR_FUNC_END(5, P, 0); }
  void add(int x) { HLSINSTR_FUNC_BEGIN(6, P, 0); sum += clamp(x, 0, 255); HLSINSTR_FUNC_END(6, P, 0); }
  int get() const { HLSINSTR_FUNC_BEGIN(7, P, 0); return HLSINSTR_RETURN(7, P, sum); }
};
