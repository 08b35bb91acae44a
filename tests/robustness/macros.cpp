// Macros: object-like, function-like, a macro around a loop body, a macro that defines a function.
#define N 16
#define SQUARE(x) ((x) * (x))
#define FOR_EACH(i, n) for (int i = 0; i < (n); i++)
#define BODY(stmt) { stmt; }
#define DEFINE_GETTER(name, value) \
  int get_##name() { return value; }
#define DECLARE_KERNEL(name) void name(int *out)
#define RETURN_IF_NEG(x) \
  do {                   \
    if ((x) < 0) return; \
  } while (0)

DEFINE_GETTER(answer, 42)

DECLARE_KERNEL(macro_named_kernel) {
  for (int i = 0; i < N; i++) out[i] = SQUARE(i);
}

int object_like(int *a) {
  int s = 0;
  for (int i = 0; i < N; i++) s += SQUARE(a[i]);
  return s;
}

// The loop itself is hidden in a macro: tree-sitter sees `FOR_EACH(i, n) {...}` as a nested
// function definition, so the function is skipped by design.
int macro_wrapped_loop(int n) {
  int s = 0;
  FOR_EACH(i, n) {
    s += i;
  }
  return s;
}

// A macro used as a loop body: the loop is ours, the body is opaque.
int macro_body(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) BODY(s += i)
  return s;
}

// A macro that returns from the function: the hidden return is not visible to the rewriter.
void hidden_return(int x, int *out) {
  RETURN_IF_NEG(x);
  *out = x;
}

int uses_getter() { return get_answer() + SQUARE(2); }

// A macro of specifiers only: blanked for the parser (cpp_blank), so the function is read.
#define INLINE static inline
INLINE int macro_specifier(int x) { return x; }
