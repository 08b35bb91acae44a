#include "hlsinstr/probe.h" // hlsinstr
// Functions we cannot read safely are left untouched; the others are still probed.
#define FOR_EACH(i, n) for (int i = 0; i < (n); i++)

int macro_loop(int n) {
  int s = 0;
  FOR_EACH(i, n) {
    s += i;
  }
  return s;
}

int conditional(int n) { HLSINSTR_FUNC_BEGIN(0, P, 0);
#ifdef FAST
  return HLSINSTR_RETURN(0, P, n);
#else
  return HLSINSTR_RETURN(0, P, n * 2);
#endif
}

int fine(int n) { HLSINSTR_FUNC_BEGIN(1, P, 0);
  HLSINSTR_LEAF_BEGIN(2, P, 0); for (int i = 0; i < n; i++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(2); n--; }/*hlsinstr*/ HLSINSTR_LEAF_END(2, P, 0);
  return HLSINSTR_RETURN(1, P, n);
}

// Constant-evaluated functions cannot hold a probe.
constexpr int square(int x) { return x * x; }
