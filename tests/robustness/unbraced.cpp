// Unbraced if / else chains, with loops as the bodies.
int chain(int *a, int n, int mode) {
  int s = 0;
  if (mode == 0)
    for (int i = 0; i < n; i++) s += a[i];
  else if (mode == 1)
    while (n-- > 0) s++;
  else if (mode == 2)
    do s--; while (s > -5);
  else
    for (int i = 0; i < n; i++)
      for (int j = 0; j < i; j++)
        if (a[j] > a[i]) s++;
        else s--;
  return s;
}

void nested_unbraced(int *a, int n) {
  if (n > 0)
    if (n > 1)
      for (int i = 0; i < n; i++) a[i] = 0;
    else
      return;
  else
    while (n < 0) n++;
}

int returns_in_chain(int x) {
  if (x < 0) return -1;
  else if (x == 0) return 0;
  else if (x < 10)
    for (int i = 0; i < x; i++)
      if (i == 5) return i;
  return x;
}

int loop_in_switch(int k, int n) {
  int s = 0;
  switch (k) {
    case 0:
      for (int i = 0; i < n; i++) s += i;
      break;
    case 1: while (n--) s++;
      break;
    case 2: {
      do s += 2; while (s < n);
      return s;
    }
    default:
      for (;;) break;
  }
  return s;
}

int loop_as_else_of_loop_body(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    if (i & 1)
      for (int j = 0; j < i; j++) s += j;
    else
      while (s > 100) s /= 2;
  return s;
}

void labeled_unbraced(int n) {
  if (n)
  lbl:
    for (int i = 0; i < n; i++) n--;
}
