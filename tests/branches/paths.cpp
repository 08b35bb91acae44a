// Control-flow shapes for the branch trace's path-recovery test. Every statement that does
// work calls R with its line: the testbench logs those lines, the reference path. A line
// marked `cond` calls R in a condition or an operand, so not on every pass.
int R(int line);

static int classify(int v) {
  if (v < 0)
    return R(__LINE__) - 100;
  else if (v == 0) {
    R(__LINE__);
    return 0;
  } else if (v > 50)
    R(__LINE__);
  else {
    if (v & 1) {
      R(__LINE__);
    } else
      R(__LINE__);
  }
  return R(__LINE__) + v % 3;
}

static int cases(int k) {
  int s = 0;
  switch (k % 5) {
  case 0:
    s += R(__LINE__);
  case 1:
    s += R(__LINE__);
    break;
  case 2:
  case 3:
    s -= R(__LINE__);
    if (k > 20) break;
    s++;
  default:
    s *= 2;
  }
  return s;
}

static int loops(const int *a, int n) {
  int sum = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] < 0) continue;
    if (a[i] > 90) break;
    sum += R(__LINE__);
  }
  int x = n;
  while (x > 1)
    x = x & 1 ? 3 * x + 1 : x / 2;
  int j = 0;
again:
  j += R(__LINE__);
  if (j < 3 * R(__LINE__)) goto again; // cond
  do {
    x += a[x % 4] > 10 ? R(__LINE__) : 1; // cond
  } while (x < 40);
  return sum + (n > 2 && R(__LINE__) > 0); // cond
}

int paths_top(const int *a, int n) {
  int t = 0;
  for (int i = 0; i < n; i++) {
    t += classify(a[i]);
    t += cases(a[i]);
  }
  if (n == 0) return -1;
  t += loops(a, n);
  return t;
}
