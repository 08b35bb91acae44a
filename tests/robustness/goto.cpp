// goto: out of nested loops, backward, and into a loop body region (skipped by design).
int search2d(const int *m, int rows, int cols, int key) {
  int found = -1;
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < cols; c++) {
      if (m[r * cols + c] == key) {
        found = r * cols + c;
        goto done;
      }
    }
  }
done:
  return found;
}

// Backward goto at function level: a hand-written loop.
int backward(int n) {
  int s = 0;
again:
  s += n;
  n--;
  if (n > 0) goto again;
  return s;
}

// Backward goto from inside a loop to a label before it (leaves the loop, restarts it).
int restart(int *a, int n) {
  int tries = 0;
retry:
  tries++;
  for (int i = 0; i < n; i++) {
    if (a[i] < 0 && tries < 3) {
      a[i] = -a[i];
      goto retry;
    }
  }
  return tries;
}

// Jumping into a loop body cannot keep loop probes balanced: skipped.
int into_loop(int n) {
  int i = 0;
  if (n > 5) goto inside;
  for (i = 0; i < n; i++) {
  inside:
    n--;
  }
  return n;
}

// goto to the label of a loop: the loop would be entered behind its begin probe.
int to_loop_label(int n) {
  int k = 0;
top:
  for (int i = 0; i < n; i++) {
    k++;
    if (k == 3) goto top;
  }
  return k;
}

// goto forward inside the same loop body (continue-like).
void skip_odd(int *a, int n) {
  for (int i = 0; i < n; i++) {
    if (a[i] & 1) goto next;
    a[i] /= 2;
  next:;
  }
}

// goto out of a loop to a label in an unbraced if.
int unbraced_target(int n) {
  for (int i = 0; i < n; i++)
    if (i == 2) goto out;
  if (n > 100)
  out:
    n = 0;
  return n;
}

// Duff's device: the `switch` jumps into the middle of its do-while, like a goto into a loop.
void duff(int *to, const int *from, int count) {
  int n = (count + 7) / 8;
  switch (count % 4) {
    case 0: do { *to = *from++;
    case 3:      *to = *from++;
    case 2:      *to = *from++;
    case 1:      *to = *from++;
            } while (--n > 0);
  }
}

// A switch inside a loop, and a loop inside a case: both fine.
int switch_in_loop(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    switch (a[i] & 3) {
      case 0:
        continue;
      case 1:
        for (int k = 0; k < a[i]; k++) s++;
        break;
      default:
        s--;
    }
  }
  return s;
}
