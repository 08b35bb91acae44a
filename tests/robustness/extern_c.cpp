// extern "C" blocks and declarations.
#ifdef __cplusplus
extern "C" {
#endif

int c_add(int a, int b) { return a + b; }

void c_fill(int *a, int n) {
  for (int i = 0; i < n; i++) a[i] = i;
}

#ifdef __cplusplus
}
#endif

extern "C" int c_single(int x) {
  if (x > 0) return x;
  return -x;
}

extern "C" {
static int c_static(int x) { return x + 1; }
int c_nested_block(int x) { return c_static(x); }
}

extern "C++" {
int cpp_again(int x) { return x * 3; }
}
