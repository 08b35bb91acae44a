#include "hlsinstr/probe.h" // hlsinstr
// Branch trace: else-if chains and arms without braces, switch fall-through, loops with and
// without decisions inside, break/continue/return/goto, `?:` and `&&` with and without calls.
int g(int v);
int h(int v);

int f(int a, int *p) { HLSINSTR_FUNC_BEGIN(15, P, 0); HLSINSTR_BR_FUNC(0, 1, P);
  int s = 0;
  if (a > 3) s = 1; else {/*hlsinstr*/ HLSINSTR_BR(2, P); if (a > 1) { s = 2; } else {/*hlsinstr*/ HLSINSTR_BR(3, P); s = 3; }/*hlsinstr*/ }/*hlsinstr*/
  switch (a) { case 1: HLSINSTR_BR(4, P); s++; case 2: s += 2; break; default: HLSINSTR_BR(5, P); s--; }
  for (int i = 0; i < a; i++) { HLSINSTR_BR(6, P); if (p[i]) {/*hlsinstr*/ HLSINSTR_BR(7, P); continue; }/*hlsinstr*/ s += p[i]; }
  HLSINSTR_BR_LOOP(8); while (s > 100) {/*hlsinstr*/ HLSINSTR_BR_ITER(8); s -= 7; }/*hlsinstr*/ HLSINSTR_BR_EXIT(8, P);
  HLSINSTR_BR_LOOP(9); do { HLSINSTR_BR_ITER(9); s++; } while (s < 5); HLSINSTR_BR_EXIT(9, P);
L: HLSINSTR_BR(10, P); s = a ? HLSINSTR_BR_V(11, P, s) : HLSINSTR_BR_V(12, P, g(s));
  if (s == 4) goto L;
  int pure = a > 2 ? 1 : 0;
  if (pure && a < 9) {/*hlsinstr*/ HLSINSTR_BR(13, P); return HLSINSTR_RETURN(15, P, s); }/*hlsinstr*/
  return HLSINSTR_RETURN(15, P, s && HLSINSTR_BR_V(14, P, h(a)));
}

void copy(int *out, const int *in, int n) { HLSINSTR_FUNC_BEGIN(20, P, 0); HLSINSTR_BR_FUNC(16, 17, P);
  for (int r = 0; r < n; r++) {
#pragma HLS PIPELINE II=1
    if (in[r] < 0)
      {/*hlsinstr*/ HLSINSTR_BR_LOOP(18); for (int k = 0; k < 2; k++) {/*hlsinstr*/ HLSINSTR_BR_ITER(18); out[r] += k; }/*hlsinstr*/ HLSINSTR_BR_EXIT(18, P); }/*hlsinstr*/
    else
      {/*hlsinstr*/ HLSINSTR_BR(19, P); out[r] = in[r]; }/*hlsinstr*/
  } HLSINSTR_FUNC_END(20, P, 0);
}
