#include "hlsinstr/probe.h" // hlsinstr
// Perfect, semi-perfect and imperfect loop nests (UG1399, "Working with Nested Loops").
#define N 4
#define M 3

// Perfect: only the innermost loop has a body, constant bounds; pragmas and comments between
// the loops are no logic.
void perfect(int a[N][M]) { HLSINSTR_FUNC_BEGIN(0, P, 0);
  HLSINSTR_LEAF_PARENT_BEGIN(1, P, 0); Row: for (int i = 0; i < N; i++) { HLSINSTR_LOOP_ITER(1);
    // one row
#pragma HLS loop_flatten
    HLSINSTR_LEAF_BEGIN(2, P, 0); Col: for (int j = 0; j < M; j++) { HLSINSTR_LOOP_ITER(2);
#pragma HLS pipeline II=1
      a[i][j] += 1;
    } HLSINSTR_LEAF_END(2, P, 0);
  } HLSINSTR_LEAF_PARENT_END(1, P, 0); HLSINSTR_FUNC_END(0, P, 0);
}

// Semi-perfect: the outermost bound is a variable; three loops, unlabeled, unbraced.
void semi(int a[N][M][2], int n) { HLSINSTR_FUNC_BEGIN(3, P, 0);
  HLSINSTR_LOOP_BEGIN(4, P, 0); for (int i = 0; i < n; i++)
    {/*hlsinstr*/ HLSINSTR_LOOP_ITER(4); HLSINSTR_LEAF_PARENT_BEGIN(5, P, 0); for (int j = 0; j < M; j++)
      {/*hlsinstr*/ HLSINSTR_LOOP_ITER(5); HLSINSTR_LEAF_BEGIN(6, P, 0); for (int k = 0; k < 2; k++)
        {/*hlsinstr*/ HLSINSTR_LOOP_ITER(6); a[i][j][k] = i + j + k; }/*hlsinstr*/ HLSINSTR_LEAF_END(6, P, 0); }/*hlsinstr*/ HLSINSTR_LEAF_PARENT_END(5, P, 0); }/*hlsinstr*/ HLSINSTR_LOOP_END(4, P, 0);
HLSINSTR_FUNC_END(3, P, 0); }

// Imperfect: a statement between the loops.
int imperfect(int a[N][M]) { HLSINSTR_FUNC_BEGIN(7, P, 0);
  int s = 0;
  HLSINSTR_LEAF_PARENT_BEGIN(8, P, 0); Sum: for (int i = 0; i < N; i++) { HLSINSTR_LOOP_ITER(8);
    s += i;
    HLSINSTR_LEAF_BEGIN(9, P, 0); Inner: for (int j = 0; j < M; j++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(9); s += a[i][j]; }/*hlsinstr*/ HLSINSTR_LEAF_END(9, P, 0);
  } HLSINSTR_LEAF_PARENT_END(8, P, 0);
  return HLSINSTR_RETURN(7, P, s);
}

// A break leaves the inner loop: its trip count depends on the data, no unit.
void early(int a[N][M]) { HLSINSTR_FUNC_BEGIN(10, P, 0);
  HLSINSTR_LEAF_PARENT_BEGIN(11, P, 0); for (int i = 0; i < N; i++) { HLSINSTR_LOOP_ITER(11);
    HLSINSTR_LEAF_BEGIN(12, P, 0); for (int j = 0; j < M; j++) { HLSINSTR_LOOP_ITER(12);
#pragma HLS loop_flatten
      if (a[i][j] < 0) break;
      a[i][j]--;
    } HLSINSTR_LEAF_END(12, P, 0);
  } HLSINSTR_LEAF_PARENT_END(11, P, 0); HLSINSTR_FUNC_END(10, P, 0);
}

// Triangular: the inner bound depends on the outer loop, no unit.
void triangle(int a[N][M]) { HLSINSTR_FUNC_BEGIN(13, P, 0);
  HLSINSTR_LEAF_PARENT_BEGIN(14, P, 0); for (int i = 0; i < N; i++)
    {/*hlsinstr*/ HLSINSTR_LOOP_ITER(14); HLSINSTR_LEAF_BEGIN(15, P, 0); for (int j = 0; j < i && j < M; j++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(15); a[i][j] = 0; }/*hlsinstr*/ HLSINSTR_LEAF_END(15, P, 0); }/*hlsinstr*/ HLSINSTR_LEAF_PARENT_END(14, P, 0);
HLSINSTR_FUNC_END(13, P, 0); }

// The inner loop is excluded: the outer's probe lands between them (a warning).
void excluded(int a[N][M]) { HLSINSTR_FUNC_BEGIN(16, P, 0);
  HLSINSTR_LOOP_BEGIN(17, P, 0); Keep: for (int i = 0; i < N; i++) { HLSINSTR_LOOP_ITER(17);
    Skip: for (int j = 0; j < M; j++) {
#pragma HLSINSTR off
      a[i][j] = 1;
    }
  } HLSINSTR_LOOP_END(17, P, 0); HLSINSTR_FUNC_END(16, P, 0);
}

// A perfect nest inside an imperfect one: the inner two loops are a unit.
void inner_pair(int a[N][M][2]) { HLSINSTR_FUNC_BEGIN(18, P, 0);
  HLSINSTR_LOOP_BEGIN(19, P, 0); Plane: for (int i = 0; i < N; i++) { HLSINSTR_LOOP_ITER(19);
    a[i][0][0] = 0;
    HLSINSTR_LEAF_PARENT_BEGIN(20, P, 0); for (int j = 0; j < M; j++) { HLSINSTR_LOOP_ITER(20);
      HLSINSTR_LEAF_BEGIN(21, P, 0); for (int k = 0; k < 2; k++) { HLSINSTR_LOOP_ITER(21); a[i][j][k] += 1; } HLSINSTR_LEAF_END(21, P, 0);
    } HLSINSTR_LEAF_PARENT_END(20, P, 0);
  } HLSINSTR_LOOP_END(19, P, 0); HLSINSTR_FUNC_END(18, P, 0);
}

// Flattening switched off: the loops stay apart, each with its own probe.
void kept_apart(int a[N][M]) { HLSINSTR_FUNC_BEGIN(22, P, 0);
  HLSINSTR_LEAF_PARENT_BEGIN(23, P, 0); for (int i = 0; i < N; i++) { HLSINSTR_LOOP_ITER(23);
    HLSINSTR_LEAF_BEGIN(24, P, 0); for (int j = 0; j < M; j++) { HLSINSTR_LOOP_ITER(24);
#pragma HLS loop_flatten off
      a[i][j] = -a[i][j];
    } HLSINSTR_LEAF_END(24, P, 0);
  } HLSINSTR_LEAF_PARENT_END(23, P, 0); HLSINSTR_FUNC_END(22, P, 0);
}

void k(int a[N][M], int b[N][M][2], int n, int *out) { HLSINSTR_FUNC_BEGIN(25, P, 0);
  perfect(a);
  semi(b, n);
  *out = imperfect(a);
  early(a);
  triangle(a);
  excluded(a);
  inner_pair(b);
  kept_apart(a); HLSINSTR_FUNC_END(25, P, 0);
}
