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

int clean(int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}

#ifdef __cplusplus
}
#endif

#if 0
this text is not C++ { int f( ; }
#endif

int after_garbage(int n) { return n; }

void only_block() { {} }

void tail(int *a, int n) {
  if (n > 0)
    a[0] = n;
  else
    a[0] = 0;
}
