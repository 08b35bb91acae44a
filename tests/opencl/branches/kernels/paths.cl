// Control-flow shapes for the OpenCL branch trace's path-recovery test (the OpenCL C twin of
// tests/branches/paths.cpp). Every statement that does work calls R with its line, which
// appends the line to the work-item's log in global memory: the reference path. A line marked
// `cond` calls R in a condition or an operand, so not on every pass.
#define LOG_WORDS 2048
// Appends `line`; the value steers the kernel the same way in every build (not from the line:
// the instrumented file's lines are not the original's).
#define R(line) (log[1 + log[0]] = (line), log[0]++ % 7 + 1)

int classify(__global int *log, int v) {
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

int cases(__global int *log, int k) {
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

int loops(__global int *log, __global const int *a, int n) {
  int sum = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] < 0) continue;
    if (a[i] > 90) break;
    sum += R(__LINE__);
  }
  int x = n;
  while (x > 1)
    x = x & 1 ? 3 * x + 1 : x / 2;
  for (int m = 0; m < n % 5; m++)
    sum += R(__LINE__);
  int j = 0;
  while (1) {
    j += R(__LINE__);
    if (j >= 3 * R(__LINE__)) break; // cond
  }
  do {
    x += a[x % 4] > 10 ? R(__LINE__) : 1; // cond
  } while (x < 40);
  return sum + (n > 2 && R(__LINE__) > 0); // cond
}

// A single work-item kernel, called several times by the host.
__attribute__((max_global_work_dim(0)))
__kernel void paths_top(__global const int *restrict a, int n, __global int *restrict log,
                        __global int *restrict out) {
  int t = 0;
  for (int i = 0; i < n; i++) {
    t += classify(log, a[i]);
    t += cases(log, a[i]);
  }
  if (n == 0) {
    out[0] = -1;
    return;
  }
  t += loops(log, a, n);
  out[0] = t;
}

// An NDRange kernel: each work-item logs into its own LOG_WORDS words.
__kernel void paths_nd(__global const int *restrict a, __global int *restrict logs) {
  int g = get_global_id(0);
  __global int *log = logs + g * LOG_WORDS;
  int v = a[g];
  int s = 0;
  for (int k = v; k > 0; k /= 3)
    s += cases(log, k) + classify(log, k - 7);
  if (s > 10)
    return;
  s += loops(log, a, g % 5);
}
