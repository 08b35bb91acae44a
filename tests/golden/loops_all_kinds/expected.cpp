#include "hlsinstr/probe.h" // hlsinstr
// Every loop form, labeled and unlabeled, with and without braces.
int loops(int *a, int n) { HLSINSTR_FUNC_BEGIN(0, P, 0);
  int s = 0;
HLSINSTR_LEAF_BEGIN(1, P, 0); row: for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(1);
#pragma HLS PIPELINE II=2
    s += a[i];
  } HLSINSTR_LEAF_END(1, P, 0);
  HLSINSTR_LEAF_BEGIN(2, P, 0); for (int i = 0; i < n; i++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(2); s -= a[i]; }/*hlsinstr*/ HLSINSTR_LEAF_END(2, P, 0);
  int j = 0;
  HLSINSTR_LEAF_BEGIN(3, P, 0); while (j < n) { HLSINSTR_LOOP_ITER(3); j++; } HLSINSTR_LEAF_END(3, P, 0);
  HLSINSTR_LEAF_BEGIN(4, P, 0); do {/*hlsinstr*/ HLSINSTR_LOOP_ITER(4); s++; }/*hlsinstr*/ while (s < 10); HLSINSTR_LEAF_END(4, P, 0);
  int buf[4] = {1, 2, 3, 4};
  HLSINSTR_LEAF_BEGIN(5, P, 0); for (int v : buf) { HLSINSTR_LOOP_ITER(5);
#pragma HLS UNROLL factor=2
    s += v;
  } HLSINSTR_LEAF_END(5, P, 0);
  HLSINSTR_LEAF_PARENT_BEGIN(6, P, 0); for (int i = 0; i < 4; i++)
    {/*hlsinstr*/ HLSINSTR_LOOP_ITER(6); HLSINSTR_LEAF_BEGIN(7, P, 0); for (int k = 0; k < 4; k++)
      {/*hlsinstr*/ HLSINSTR_LOOP_ITER(7); s += i * k; }/*hlsinstr*/ HLSINSTR_LEAF_END(7, P, 0); }/*hlsinstr*/ HLSINSTR_LEAF_PARENT_END(6, P, 0);
  if (n > 2) {/*hlsinstr*/ HLSINSTR_LEAF_BEGIN(8, P, 0); while (n--) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(8); s++; }/*hlsinstr*/ HLSINSTR_LEAF_END(8, P, 0); }/*hlsinstr*/
  else {/*hlsinstr*/ HLSINSTR_LEAF_BEGIN(9, P, 0); for (;;) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(9); break; }/*hlsinstr*/ HLSINSTR_LEAF_END(9, P, 0); }/*hlsinstr*/
HLSINSTR_LEAF_PARENT_BEGIN(10, P, 0); outer:
  for (int i = 0; i < 3; i++) { HLSINSTR_LOOP_ITER(10);
  HLSINSTR_LEAF_BEGIN(11, P, 0); inner:
    for (int k = 0; k < 3; k++) { HLSINSTR_LOOP_ITER(11);
#pragma HLS loop_tripcount min=1 max=3 avg=2
      s ^= k;
    } HLSINSTR_LEAF_END(11, P, 0);
  } HLSINSTR_LEAF_PARENT_END(10, P, 0);
  return HLSINSTR_RETURN(0, P, s);
}
