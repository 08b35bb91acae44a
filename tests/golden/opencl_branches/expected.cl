#include "hlsinstr_probe.cl" // hlsinstr
// The branch trace on OpenCL C: no destructors, so every `return` and the body's end record
// the return site; each function records into a unit of its own.
int pick(int a, __global int *out) { HLSINSTR_FUNC_BEGIN(1, P, 0); HLSINSTR_BR_UNIT(0, 0, P);
  if (a > 3) {/*hlsinstr*/ HLSINSTR_BR_END(1, P); return HLSINSTR_RETURN(1, P, 1); }/*hlsinstr*/ else if (a > 1) { out[0] = 2; } else {/*hlsinstr*/ HLSINSTR_BR(2, P); out[0] = 3; }/*hlsinstr*/
  switch (a) { case 1: HLSINSTR_BR(3, P); out[1]++; case 2: out[1] += 2; break; default: HLSINSTR_BR(4, P); out[1]--; }
  for (int i = 0; i < a; i++)
    {/*hlsinstr*/ HLSINSTR_BR(5, P); if (out[i] < 0) {/*hlsinstr*/ HLSINSTR_BR(6, P); break; }/*hlsinstr*/ }/*hlsinstr*/
  int k = a;
  HLSINSTR_BR_LOOP(7); while (k > 100) {/*hlsinstr*/ HLSINSTR_BR_ITER(7); k -= 7; }/*hlsinstr*/ HLSINSTR_BR_EXIT(7, P);
  HLSINSTR_BR_LOOP(8); do { HLSINSTR_BR_ITER(8); k++; } while (k < 3); HLSINSTR_BR_EXIT(8, P);
  HLSINSTR_BR_END(1, P); return HLSINSTR_RETURN(1, P, a > 0 && HLSINSTR_BR_V(9, P, out[0]++) ? k : 0);
}

__attribute__((max_global_work_dim(0)))
__kernel void top(__global int *restrict out, int n) { HLSINSTR_FUNC_BEGIN(3, P, 0); HLSINSTR_BR_UNIT(2, 0, P);
  if (n < 0)
    {/*hlsinstr*/ HLSINSTR_BR_END(1, P); return HLSINSTR_RETURN_VOID(3, P); }/*hlsinstr*/ HLSINSTR_BR_LOOP(2);
  #pragma unroll 2
  for (int i = 0; i < n; i++) { HLSINSTR_BR_ITER(2); HLSINSTR_BR(3, P);
    if (i == 5) {/*hlsinstr*/ HLSINSTR_BR(4, P); continue; }/*hlsinstr*/
    out[i] = pick(i, out);
  } HLSINSTR_BR_EXIT(2, P);
  if (n == 0) {
  } else { HLSINSTR_BR(5, P);
    goto done;
  }
  out[0] = 0;
done:
  out[1] = 1; HLSINSTR_FUNC_END(3, P, 0); HLSINSTR_BR_END(1, P);
}

void empty(void) {HLSINSTR_FUNC_BEGIN(5, P, 0); HLSINSTR_FUNC_END(5, P, 0); HLSINSTR_BR_UNIT(4, 0, P); HLSINSTR_BR_END(1, P); }
