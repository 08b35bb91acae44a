// break, continue, return and goto leaving loops.
int find(const int *a, int n, int key) {
search:
  for (int i = 0; i < n; i++) {
    if (a[i] < 0) continue;
    if (a[i] == key) return i;
    if (a[i] > 1000) break;
  }
  return -1;
}

void fill(int *m, int rows, int cols) {
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < cols; c++) {
      if (m[r * cols + c] < 0) goto done;
      if (c == 7) return;
      m[r * cols + c] = r + c;
    }
  }
done:
  m[0] = 0;
}

int state_machine(int x) {
  int steps = 0;
  do {
    switch (x & 3) {
    case 0: x >>= 1; break;
    case 1: for (int i = 0; i < 2; i++) { if (i) break; x += i; } break;
    default: return steps;
    }
    steps++;
  } while (x > 0);
  return steps;
}
