// Every loop form, labeled and unlabeled, with and without braces.
int loops(int *a, int n) {
  int s = 0;
row: for (int i = 0; i < n; i++) {
#pragma HLS PIPELINE II=2
    s += a[i];
  }
  for (int i = 0; i < n; i++) s -= a[i];
  int j = 0;
  while (j < n) { j++; }
  do s++; while (s < 10);
  int buf[4] = {1, 2, 3, 4};
  for (int v : buf) {
#pragma HLS UNROLL factor=2
    s += v;
  }
  for (int i = 0; i < 4; i++)
    for (int k = 0; k < 4; k++)
      s += i * k;
  if (n > 2) while (n--) s++;
  else for (;;) break;
outer:
  for (int i = 0; i < 3; i++) {
  inner:
    for (int k = 0; k < 3; k++) {
#pragma HLS loop_tripcount min=1 max=3 avg=2
      s ^= k;
    }
  }
  return s;
}
