/* A kernel in a comment: __kernel void not_a_kernel(__global int *p) { for (;;) {} } */
// __kernel void also_not(__global int *p) {
#define GREETING "__kernel void in_a_string() { return; }"

__kernel void talk(__global int *out, int n) {
  printf("__kernel %s: n = %d, a brace { and a quote \" \n", GREETING, n);
  char c = '{';
  char q = '\'';
  // return; in a comment, and UTF-8: größe in µs, ≤ 4 — 漢字
  for (int i = 0; i < n; i++) { /* } */
    out[i] = c + q + i;
  }
  printf("done\n");
}

// Line continuations in a macro and in the middle of a statement.
#define SUM3(a, b, c) \
  ((a) + \
   (b) + (c))

__kernel void cont(__global int *out) {
  int total = SUM3(out[0], \
out[1], out[2]);
  out[3] = tot\
al;
}
