// Branch trace: else-if chains and arms without braces, switch fall-through, loops with and
// without decisions inside, break/continue/return/goto, `?:` and `&&` with and without calls.
int g(int v);
int h(int v);

int f(int a, int *p) {
  int s = 0;
  if (a > 3) s = 1; else if (a > 1) { s = 2; } else s = 3;
  switch (a) { case 1: s++; case 2: s += 2; break; default: s--; }
  for (int i = 0; i < a; i++) { if (p[i]) continue; s += p[i]; }
  while (s > 100) s -= 7;
  do { s++; } while (s < 5);
L: s = a ? s : g(s);
  if (s == 4) goto L;
  int pure = a > 2 ? 1 : 0;
  if (pure && a < 9) return s;
  return s && h(a);
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
