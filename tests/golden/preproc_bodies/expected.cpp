#include "hlsinstr/probe.h" // hlsinstr
// Conditionals that hold whole statements are probed around and inside; one that splits braces
// or a statement leaves its function untouched, naming the directive.
#include <cstdio>

int traced(const int *a, int n) { HLSINSTR_FUNC_BEGIN(0, P, 0);
  int s = 0;
#ifndef __SYNTHESIS__
  printf("n = %d\n", n);
#endif
  HLSINSTR_LEAF_BEGIN(1, P, 0); sum: for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(1);
#ifdef CLAMP
    if (a[i] < 0) continue;
#endif
    s += a[i];
  } HLSINSTR_LEAF_END(1, P, 0);
  return HLSINSTR_RETURN(0, P, s);
}

int branches(int n) { HLSINSTR_FUNC_BEGIN(2, P, 0);
#if defined(FAST)
  return HLSINSTR_RETURN(2, P, n);
#elif SLOW > 1
  HLSINSTR_LEAF_BEGIN(3, P, 0); for (int i = 0; i < SLOW; i++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(3); n++; }/*hlsinstr*/ HLSINSTR_LEAF_END(3, P, 0);
  return HLSINSTR_RETURN(2, P, n);
#else
  int r = 0;
  HLSINSTR_LEAF_BEGIN(4, P, 0); twice: for (int i = 0; i < 2; i++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(4); r += n; }/*hlsinstr*/ HLSINSTR_LEAF_END(4, P, 0);
  return HLSINSTR_RETURN(2, P, r);
#endif
}

void tail(int *a, int n) { HLSINSTR_FUNC_BEGIN(5, P, 0);
  HLSINSTR_LEAF_BEGIN(6, P, 0); for (int i = 0; i < n; i++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(6); a[i] = i; }/*hlsinstr*/ HLSINSTR_LEAF_END(6, P, 0);
#ifdef DEBUG
  printf("done\n");
#endif
HLSINSTR_FUNC_END(5, P, 0); }

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
