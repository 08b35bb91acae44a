// Perfect, semi-perfect and imperfect loop nests (UG1399, "Working with Nested Loops").
#define N 4
#define M 3

// Perfect: only the innermost loop has a body, constant bounds; pragmas and comments between
// the loops are no logic.
void perfect(int a[N][M]) {
  Row: for (int i = 0; i < N; i++) {
    // one row
#pragma HLS loop_flatten
    Col: for (int j = 0; j < M; j++) {
#pragma HLS pipeline II=1
      a[i][j] += 1;
    }
  }
}

// Semi-perfect: the outermost bound is a variable; three loops, unlabeled, unbraced.
void semi(int a[N][M][2], int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < 2; k++)
        a[i][j][k] = i + j + k;
}

// Imperfect: a statement between the loops.
int imperfect(int a[N][M]) {
  int s = 0;
  Sum: for (int i = 0; i < N; i++) {
    s += i;
    Inner: for (int j = 0; j < M; j++) s += a[i][j];
  }
  return s;
}

// A break leaves the inner loop: its trip count depends on the data, no unit.
void early(int a[N][M]) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < M; j++) {
#pragma HLS loop_flatten
      if (a[i][j] < 0) break;
      a[i][j]--;
    }
  }
}

// Triangular: the inner bound depends on the outer loop, no unit.
void triangle(int a[N][M]) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < i && j < M; j++) a[i][j] = 0;
}

// The inner loop is excluded: the outer's probe lands between them (a warning).
void excluded(int a[N][M]) {
  Keep: for (int i = 0; i < N; i++) {
    Skip: for (int j = 0; j < M; j++) {
#pragma HLSINSTR off
      a[i][j] = 1;
    }
  }
}

// A perfect nest inside an imperfect one: the inner two loops are a unit.
void inner_pair(int a[N][M][2]) {
  Plane: for (int i = 0; i < N; i++) {
    a[i][0][0] = 0;
    for (int j = 0; j < M; j++) {
      for (int k = 0; k < 2; k++) { a[i][j][k] += 1; }
    }
  }
}

// Flattening switched off: the loops stay apart, each with its own probe.
void kept_apart(int a[N][M]) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < M; j++) {
#pragma HLS loop_flatten off
      a[i][j] = -a[i][j];
    }
  }
}

void k(int a[N][M], int b[N][M][2], int n, int *out) {
  perfect(a);
  semi(b, n);
  *out = imperfect(a);
  early(a);
  triangle(a);
  excluded(a);
  inner_pair(b);
  kept_apart(a);
}
