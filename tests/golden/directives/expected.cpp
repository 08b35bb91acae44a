#include "hlsinstr/probe.h" // hlsinstr
// `#pragma HLSINSTR probe` opts a function (and what it calls) or a loop in; `off` opts out.
int helper(int x) { HLSINSTR_FUNC_BEGIN(0, P, 0); return HLSINSTR_RETURN(0, P, x * 2); }

int unrelated(int x) {
  for (int i = 0; i < 3; i++) x += i;
  return x;
}

int kernel(int *a, int n) { HLSINSTR_FUNC_BEGIN(1, P, 0);
#pragma HLSINSTR probe
  int s = 0;
  HLSINSTR_LOOP_BEGIN(2, P, 0); for (int i = 0; i < n; i++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(2); s += helper(a[i]); }/*hlsinstr*/ HLSINSTR_LOOP_END(2, P, 0);
  for (int i = 0; i < n; i++) {
#pragma HLSINSTR off
    s -= a[i];
  }
  return HLSINSTR_RETURN(1, P, s);
}

int loop_only(int n) { HLSINSTR_FUNC_BEGIN(3, P, 0);
  int s = 0;
  for (int i = 0; i < n; i++) s += i;
  HLSINSTR_LEAF_BEGIN(4, P, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(4);
#pragma HLSINSTR probe
    s *= 2;
  } HLSINSTR_LEAF_END(4, P, 0);
  return HLSINSTR_RETURN(3, P, s);
}
