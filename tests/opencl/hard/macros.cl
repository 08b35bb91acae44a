// Macros that hide keywords, attributes and loops.
#define KERNEL __kernel
#define GLOBAL __global
#define SINGLE_TASK __attribute__((max_global_work_dim(0)))
#define N 16
#define FOR(i, n) for (int i = 0; i < (n); i++)
#define UNROLL _Pragma("unroll")
#define SWAP(a, b) do { int t_ = (a); (a) = (b); (b) = t_; } while (0)
#define DECLARE_FILL(name, value) \
  __kernel void name(__global int *p) { p[get_global_id(0)] = (value); }

// The keyword comes from a macro: the pre-pass does not expand macros.
KERNEL void hidden_kernel(GLOBAL int *a) {
  for (int i = 0; i < N; i++) {
    a[i] = i;
  }
}

// Only the attribute comes from a macro.
SINGLE_TASK
__kernel void hidden_attribute(__global int *a) {
  for (int i = 0; i < N; i++) {
    a[i] *= 2;
  }
}

// A function-like macro around a loop header, and a loop inside a macro argument.
__kernel void macro_loops(__global int *a, int n) {
  FOR(i, n) {
    a[i] += 1;
  }
  UNROLL
  for (int j = 0; j + 1 < n; j += 2) {
    SWAP(a[j], a[j + 1]);
  }
}

// The attribute only for the hardware build; an empty macro before a helper.
#ifdef EMULATOR
#define TASK
#else
#define TASK __attribute__((max_global_work_dim(0)))
#endif
#define INLINE

INLINE int twice(int x) {
  return 2 * x;
}

TASK __kernel void task_kernel(__global int *a) {
  a[0] = twice(a[0]);
}

// A whole kernel made by a macro: nothing to probe in this file's text.
DECLARE_FILL(fill_ones, 1)

__kernel void plain(__global int *a) {
  a[0] = N;
}
