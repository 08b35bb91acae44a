// Functions we cannot read safely are left untouched; the others are still probed.
#define FOR_EACH(i, n) for (int i = 0; i < (n); i++)

int macro_loop(int n) {
  int s = 0;
  FOR_EACH(i, n) {
    s += i;
  }
  return s;
}

int conditional(int n) {
#ifdef FAST
  return n;
#else
  return n * 2;
#endif
}

int fine(int n) {
  for (int i = 0; i < n; i++) n--;
  return n;
}

// Constant-evaluated functions cannot hold a probe.
constexpr int square(int x) { return x * x; }
