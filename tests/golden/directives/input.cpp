// `#pragma HLSINSTR probe` opts a function (and what it calls) or a loop in; `off` opts out.
int helper(int x) { return x * 2; }

int unrelated(int x) {
  for (int i = 0; i < 3; i++) x += i;
  return x;
}

int kernel(int *a, int n) {
#pragma HLSINSTR probe
  int s = 0;
  for (int i = 0; i < n; i++) s += helper(a[i]);
  for (int i = 0; i < n; i++) {
#pragma HLSINSTR off
    s -= a[i];
  }
  return s;
}

int loop_only(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += i;
  for (int i = 0; i < n; i++) {
#pragma HLSINSTR probe
    s *= 2;
  }
  return s;
}
