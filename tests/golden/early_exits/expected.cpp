#include "hlsinstr/probe.h" // hlsinstr
// break, continue, return and goto leaving loops.
int find(const int *a, int n, int key) { HLSINSTR_FUNC_BEGIN(0, P, 0);
HLSINSTR_LOOP_BEGIN(1, P, 0); search:
  for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(1);
    if (a[i] < 0) continue;
    if (a[i] == key) return HLSINSTR_RETURN(0, P, i);
    if (a[i] > 1000) break;
  } HLSINSTR_LOOP_END(1, P, 0);
  return HLSINSTR_RETURN(0, P, -1);
}

void fill(int *m, int rows, int cols) { HLSINSTR_FUNC_BEGIN(2, P, 0);
  HLSINSTR_LOOP_BEGIN(3, P, 0); for (int r = 0; r < rows; r++) { HLSINSTR_LOOP_ITER(3);
    HLSINSTR_LOOP_BEGIN(4, P, 0); for (int c = 0; c < cols; c++) { HLSINSTR_LOOP_ITER(4);
      if (m[r * cols + c] < 0) goto done;
      if (c == 7) return HLSINSTR_RETURN_VOID(2, P);
      m[r * cols + c] = r + c;
    } HLSINSTR_LOOP_END(4, P, 0);
  } HLSINSTR_LOOP_END(3, P, 0);
done: HLSINSTR_UNWIND(2, 0);
  m[0] = 0; HLSINSTR_FUNC_END(2, P, 0);
}

int state_machine(int x) { HLSINSTR_FUNC_BEGIN(5, P, 0);
  int steps = 0;
  HLSINSTR_LOOP_BEGIN(6, P, 0); do { HLSINSTR_LOOP_ITER(6);
    switch (x & 3) {
    case 0: x >>= 1; break;
    case 1: HLSINSTR_LEAF_BEGIN(7, P, 0); for (int i = 0; i < 2; i++) { HLSINSTR_LOOP_ITER(7); if (i) break; x += i; } HLSINSTR_LEAF_END(7, P, 0); break;
    default: return HLSINSTR_RETURN(5, P, steps);
    }
    steps++;
  } while (x > 0); HLSINSTR_LOOP_END(6, P, 0);
  return HLSINSTR_RETURN(5, P, steps);
}
