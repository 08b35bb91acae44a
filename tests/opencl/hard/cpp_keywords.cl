// OpenCL C is C: words that C++ reserves are ordinary identifiers here. tree-sitter-cpp misreads
// this file; tree-sitter-c reads it without an error.
typedef struct {
  int class;
  float template;
} node;

int delete(int this, int new) {
  int operator = this - new;
  if (operator < 0) return -operator;
  return operator;
}

__kernel void rename(__global node *restrict nodes, __global int *restrict typename, int namespace) {
  int virtual = 0;
  for (int public = 0; public < namespace; public++) {
    node friend = nodes[public];
    virtual += delete(friend.class, (int)friend.template);
  }
  int try = virtual, catch = 1, throw = 2, mutable = 3, explicit = 4, using = 5;
  typename[0] = try + catch + throw + mutable + explicit + using;
}
