#include "hlsinstr/vitis.h" // hlsinstr
// Perfect, semi-perfect and imperfect loop nests (UG1399, "Working with Nested Loops").
#define N 4
#define M 3

// Perfect: only the innermost loop has a body, constant bounds; pragmas and comments between
// the loops are no logic.
void perfect(int a[N][M], HLSINSTR_PROBE& hlsinstr_p0, HLSINSTR_PROBE& hlsinstr_p1) { HLSINSTR_FUNC_BEGIN(0, P, 0);
  {/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(1, P, 0); Row: for (int i = 0; i < N; i++) {
    // one row
#pragma HLS loop_flatten
    Col: for (int j = 0; j < M; j++) { HLSINSTR_LOOP_ITER(1);
#pragma HLS pipeline II=1
      a[i][j] += 1;
    }
  } HLSINSTR_LOOP_END(1, P, 0); }/*hlsinstr*/ HLSINSTR_FUNC_END(0, P, 0);
}

// Semi-perfect: the outermost bound is a variable; three loops, unlabeled, unbraced.
void semi(int a[N][M][2], int n, HLSINSTR_PROBE& hlsinstr_p2, HLSINSTR_PROBE& hlsinstr_p3) { HLSINSTR_FUNC_BEGIN(2, P, 0);
  {/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(3, P, 0); for (int i = 0; i < n; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < 2; k++)
        {/*hlsinstr*/ HLSINSTR_LOOP_ITER(3); a[i][j][k] = i + j + k; }/*hlsinstr*/ HLSINSTR_LOOP_END(3, P, 0); }/*hlsinstr*/
HLSINSTR_FUNC_END(2, P, 0); }

// Imperfect: a statement between the loops.
int imperfect(int a[N][M], HLSINSTR_PROBE& hlsinstr_p4, HLSINSTR_PROBE& hlsinstr_p5, HLSINSTR_PROBE& hlsinstr_p6) { HLSINSTR_FUNC_BEGIN(4, P, 0);
  int s = 0;
  {/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(5, P, 0); Sum: for (int i = 0; i < N; i++) { HLSINSTR_LOOP_ITER(5);
    s += i;
    {/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(6, P, 0); Inner: for (int j = 0; j < M; j++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(6); s += a[i][j]; }/*hlsinstr*/ HLSINSTR_LOOP_END(6, P, 0); }/*hlsinstr*/
  } HLSINSTR_LOOP_END(5, P, 0); }/*hlsinstr*/
  return HLSINSTR_RETURN(4, P, s);
}

// A break leaves the inner loop: its trip count depends on the data, no unit.
void early(int a[N][M], HLSINSTR_PROBE& hlsinstr_p7, HLSINSTR_PROBE& hlsinstr_p8, HLSINSTR_PROBE& hlsinstr_p9) { HLSINSTR_FUNC_BEGIN(7, P, 0);
  {/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(8, P, 0); for (int i = 0; i < N; i++) { HLSINSTR_LOOP_ITER(8);
    {/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(9, P, 0); for (int j = 0; j < M; j++) { HLSINSTR_LOOP_ITER(9);
#pragma HLS loop_flatten
      if (a[i][j] < 0) break;
      a[i][j]--;
    } HLSINSTR_LOOP_END(9, P, 0); }/*hlsinstr*/
  } HLSINSTR_LOOP_END(8, P, 0); }/*hlsinstr*/ HLSINSTR_FUNC_END(7, P, 0);
}

// Triangular: the inner bound depends on the outer loop, no unit.
void triangle(int a[N][M], HLSINSTR_PROBE& hlsinstr_p10, HLSINSTR_PROBE& hlsinstr_p11, HLSINSTR_PROBE& hlsinstr_p12) { HLSINSTR_FUNC_BEGIN(10, P, 0);
  {/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(11, P, 0); for (int i = 0; i < N; i++)
    {/*hlsinstr*/ HLSINSTR_LOOP_ITER(11); {/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(12, P, 0); for (int j = 0; j < i && j < M; j++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(12); a[i][j] = 0; }/*hlsinstr*/ HLSINSTR_LOOP_END(12, P, 0); }/*hlsinstr*/ }/*hlsinstr*/ HLSINSTR_LOOP_END(11, P, 0); }/*hlsinstr*/
HLSINSTR_FUNC_END(10, P, 0); }

// The inner loop is excluded: the outer's probe lands between them (a warning).
void excluded(int a[N][M], HLSINSTR_PROBE& hlsinstr_p13, HLSINSTR_PROBE& hlsinstr_p14) { HLSINSTR_FUNC_BEGIN(13, P, 0);
  {/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(14, P, 0); Keep: for (int i = 0; i < N; i++) { HLSINSTR_LOOP_ITER(14);
    Skip: for (int j = 0; j < M; j++) {
#pragma HLSINSTR off
      a[i][j] = 1;
    }
  } HLSINSTR_LOOP_END(14, P, 0); }/*hlsinstr*/ HLSINSTR_FUNC_END(13, P, 0);
}

// A perfect nest inside an imperfect one: the inner two loops are a unit.
void inner_pair(int a[N][M][2], HLSINSTR_PROBE& hlsinstr_p15, HLSINSTR_PROBE& hlsinstr_p16, HLSINSTR_PROBE& hlsinstr_p17) { HLSINSTR_FUNC_BEGIN(15, P, 0);
  {/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(16, P, 0); Plane: for (int i = 0; i < N; i++) { HLSINSTR_LOOP_ITER(16);
    a[i][0][0] = 0;
    {/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(17, P, 0); for (int j = 0; j < M; j++) {
      for (int k = 0; k < 2; k++) { HLSINSTR_LOOP_ITER(17); a[i][j][k] += 1; }
    } HLSINSTR_LOOP_END(17, P, 0); }/*hlsinstr*/
  } HLSINSTR_LOOP_END(16, P, 0); }/*hlsinstr*/ HLSINSTR_FUNC_END(15, P, 0);
}

// Flattening switched off: the loops stay apart, each with its own probe.
void kept_apart(int a[N][M], HLSINSTR_PROBE& hlsinstr_p18, HLSINSTR_PROBE& hlsinstr_p19, HLSINSTR_PROBE& hlsinstr_p20) { HLSINSTR_FUNC_BEGIN(18, P, 0);
  {/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(19, P, 0); for (int i = 0; i < N; i++) { HLSINSTR_LOOP_ITER(19);
    {/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(20, P, 0); for (int j = 0; j < M; j++) { HLSINSTR_LOOP_ITER(20);
#pragma HLS loop_flatten off
      a[i][j] = -a[i][j];
    } HLSINSTR_LOOP_END(20, P, 0); }/*hlsinstr*/
  } HLSINSTR_LOOP_END(19, P, 0); }/*hlsinstr*/ HLSINSTR_FUNC_END(18, P, 0);
}

void k(int a[N][M], int b[N][M][2], int n, int *out, HLSINSTR_PROBE& hlsinstr_p0, HLSINSTR_PROBE& hlsinstr_p1, HLSINSTR_PROBE& hlsinstr_p2, HLSINSTR_PROBE& hlsinstr_p3, HLSINSTR_PROBE& hlsinstr_p4, HLSINSTR_PROBE& hlsinstr_p5, HLSINSTR_PROBE& hlsinstr_p6, HLSINSTR_PROBE& hlsinstr_p7, HLSINSTR_PROBE& hlsinstr_p8, HLSINSTR_PROBE& hlsinstr_p9, HLSINSTR_PROBE& hlsinstr_p10, HLSINSTR_PROBE& hlsinstr_p11, HLSINSTR_PROBE& hlsinstr_p12, HLSINSTR_PROBE& hlsinstr_p13, HLSINSTR_PROBE& hlsinstr_p14, HLSINSTR_PROBE& hlsinstr_p15, HLSINSTR_PROBE& hlsinstr_p16, HLSINSTR_PROBE& hlsinstr_p17, HLSINSTR_PROBE& hlsinstr_p18, HLSINSTR_PROBE& hlsinstr_p19, HLSINSTR_PROBE& hlsinstr_p20) {
  perfect(a, HLSINSTR_P(0), HLSINSTR_P(1));
  semi(b, n, HLSINSTR_P(2), HLSINSTR_P(3));
  *out = imperfect(a, HLSINSTR_P(4), HLSINSTR_P(5), HLSINSTR_P(6));
  early(a, HLSINSTR_P(7), HLSINSTR_P(8), HLSINSTR_P(9));
  triangle(a, HLSINSTR_P(10), HLSINSTR_P(11), HLSINSTR_P(12));
  excluded(a, HLSINSTR_P(13), HLSINSTR_P(14));
  inner_pair(b, HLSINSTR_P(15), HLSINSTR_P(16), HLSINSTR_P(17));
  kept_apart(a, HLSINSTR_P(18), HLSINSTR_P(19), HLSINSTR_P(20));
}
