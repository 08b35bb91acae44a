#include "hlsinstr/vitis.h" // hlsinstr
// Branch trace: else-if chains and arms without braces, switch fall-through, loops with and
// without decisions inside, break/continue/return/goto, `?:` and `&&` with and without calls.
int g(int v);
int h(int v);

int f(int a, int *p, HLSINSTR_TRACE& hlsinstr_tr) { HLSINSTR_BR_FUNC(0, 1, T);
  int s = 0;
  if (a > 3) s = 1; else {/*hlsinstr*/ HLSINSTR_BR(2, T); if (a > 1) { s = 2; } else {/*hlsinstr*/ HLSINSTR_BR(3, T); s = 3; }/*hlsinstr*/ }/*hlsinstr*/
  switch (a) { case 1: HLSINSTR_BR(4, T); s++; case 2: s += 2; break; default: HLSINSTR_BR(5, T); s--; }
  for (int i = 0; i < a; i++) { HLSINSTR_BR(6, T); if (p[i]) {/*hlsinstr*/ HLSINSTR_BR(7, T); continue; }/*hlsinstr*/ s += p[i]; }
  HLSINSTR_BR_LOOP(8); while (s > 100) {/*hlsinstr*/ HLSINSTR_BR_ITER(8); s -= 7; }/*hlsinstr*/ HLSINSTR_BR_EXIT(8, T);
  HLSINSTR_BR_LOOP(9); do { HLSINSTR_BR_ITER(9); s++; } while (s < 5); HLSINSTR_BR_EXIT(9, T);
L: HLSINSTR_BR(10, T); s = a ? HLSINSTR_BR_V(11, T, s) : HLSINSTR_BR_V(12, T, g(s));
  if (s == 4) goto L;
  int pure = a > 2 ? 1 : 0;
  if (pure && a < 9) {/*hlsinstr*/ HLSINSTR_BR(13, T); return s; }/*hlsinstr*/
  return s && HLSINSTR_BR_V(14, T, h(a));
}

void copy(int *out, const int *in, int n) {
  for (int r = 0; r < n; r++) {
#pragma HLS PIPELINE II=1
    if (in[r] < 0)
      for (int k = 0; k < 2; k++) out[r] += k;
    else
      out[r] = in[r];
  }
}
