#include <utility>
// Module probes: begin after `{`, end on every exit path.
static int clamp(int v, int lo, int hi) {
  if (v < lo) return lo;
  if (v > hi)
    return hi;
  return v;
}

void scale(int *a, int n, int k) {
  if (n <= 0) return;
  for (int i = 0; i < n; i++) a[i] *= k;
}

void log_nothing() {}

std::pair<int, int> minmax(int a, int b) {
  return a < b ? std::make_pair(a, b) : std::make_pair(b, a);
}

void forward(int *a) { return scale(a, 1, 2); }

struct Acc {
  int sum = 0;
  Acc() { sum = 0; }
  void add(int x) { sum += clamp(x, 0, 255); }
  int get() const { return sum; }
};
