// Hand-written stand-in for a kernel: its schedule reports (solution/.autopilot/db) tie these lines to the
void tiny(int n, int *out) { // states of the hand-written RTL (solution/syn/verilog); docs/profile.md works the run out.
  int acc = 0;
  for (int i = 0; i < n; i++) {
    bool odd = i & 1;
    if (odd)
      acc += 3;
    else
      acc -= 1;
  }
  bool big = n > 100;
  acc = helper(acc);
  *out = acc;
}

int unused(int x) { // called only when big: never, in the test
  return x * 2;
}

int helper(int x) { // a pipelined loop of 3 iterations, 2 stages
  for (int k = 0; k < 3; k++) {
    x += k;
  }
  return x;
}
