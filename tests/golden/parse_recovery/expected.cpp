#include "hlsinstr/probe.h" // hlsinstr
// Exits hidden in macros, and code tree-sitter reads only with errors.
#ifdef __cplusplus
extern "C" {
#endif

#define CHECK(x) \
  do {           \
    if (!(x)) return -1; \
  } while (0)
#define BAIL goto fail

int checked(int *a, int n) {
  CHECK(a != 0);
  for (int i = 0; i < n; i++) a[i] = i;
  return 0;
}

int bails(int *a, int n) {
  for (int i = 0; i < n; i++)
    if (a[i] < 0) BAIL;
  return 0;
fail:
  return -1;
}

int clean(int *a, int n) { HLSINSTR_FUNC_BEGIN(0, P, 0);
  int s = 0;
  HLSINSTR_LEAF_BEGIN(1, P, 0); for (int i = 0; i < n; i++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(1); s += a[i]; }/*hlsinstr*/ HLSINSTR_LEAF_END(1, P, 0);
  return HLSINSTR_RETURN(0, P, s);
}

#ifdef __cplusplus
}
#endif

#if 0
this text is not C++ { int f( ; }
#endif

int after_garbage(int n) { HLSINSTR_FUNC_BEGIN(2, P, 0); return HLSINSTR_RETURN(2, P, n); }

void only_block() { {} }

void tail(int *a, int n) { HLSINSTR_FUNC_BEGIN(3, P, 0);
  if (n > 0)
    a[0] = n;
  else
    a[0] = 0;
HLSINSTR_FUNC_END(3, P, 0); }
