// Conditionals that hold whole statements are probed around and inside; one that splits braces
// or a statement leaves its function untouched, naming the directive.
#include <cstdio>

int traced(const int *a, int n) {
  int s = 0;
#ifndef __SYNTHESIS__
  printf("n = %d\n", n);
#endif
  sum: for (int i = 0; i < n; i++) {
#ifdef CLAMP
    if (a[i] < 0) continue;
#endif
    s += a[i];
  }
  return s;
}

int branches(int n) {
#if defined(FAST)
  return n;
#elif SLOW > 1
  for (int i = 0; i < SLOW; i++) n++;
  return n;
#else
  int r = 0;
  twice: for (int i = 0; i < 2; i++) r += n;
  return r;
#endif
}

void tail(int *a, int n) {
  for (int i = 0; i < n; i++) a[i] = i;
#ifdef DEBUG
  printf("done\n");
#endif
}

int split_statement(int a, int b) {
  int s = a
#ifdef ADD_B
    + b
#endif
    ;
  return s;
}

int split_initializer(int n) {
  int table[] = {
#ifdef WIDE
    1, 2,
#endif
    3};
  return table[0] + n;
}

// Last: the parser reads on past a function whose braces a conditional splits.
int split_braces(int x) {
  int s = 0;
#ifdef INVERT
  if (!x) {
#else
  if (x) {
#endif
    s = 1;
  }
  return s;
}
