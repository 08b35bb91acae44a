// #if / #ifdef at file level and inside function bodies.
#define USE_FAST 1

#ifdef USE_FAST
int pick(int x) {
  for (int i = 0; i < 4; i++) x += i;
  return x;
}
#else
int pick(int x) {
  return -x;
}
#endif

#if defined(USE_FAST) && USE_FAST > 0
namespace fast {
int twice(int x) { return 2 * x; }
}  // namespace fast
#elif defined(OTHER)
int other() { return 0; }
#endif

#ifndef NOT_DEFINED
static int guarded(int n) {
  int s = 0;
  while (n > 0) {
    s += n;
    n--;
  }
  return s;
}
#endif

// Conditional code inside a body: whole statements, probed around and inside.
int body_split(int n) {
  int s = 0;
#if USE_FAST
  for (int i = 0; i < n; i++) s += i;
#else
  s = n * (n - 1) / 2;
#endif
  return s;
}

// #ifdef inside a loop body.
void loop_split(int *a, int n) {
  for (int i = 0; i < n; i++) {
#ifdef DEBUG
    a[i] = 0;
#endif
    a[i] += 1;
  }
}

#if 0
int never_compiled( { this is not C++ }
#endif

int after_if0(int n) { return n + 1; }
