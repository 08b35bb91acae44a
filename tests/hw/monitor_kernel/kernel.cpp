// A small design for the monitor harness (tests/hw/monitor_harness.cpp): four probes, in source
// order leaf (0), its loop work (1), other (2), top (3).
void leaf(int *x, int n) {
work:
  for (int i = 0; i < n; i++) x[i] += 1;
}

void other(int *x) { x[0] = 0; }

void top(int *x, int n) {
  leaf(x, n);
  other(x);
}
