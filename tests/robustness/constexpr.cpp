// constexpr functions, also used in constant expressions (static_assert, array bounds,
// template arguments): probes are run-time calls and must not be put into them.
constexpr int square(int x) { return x * x; }

constexpr int factorial(int n) {
  int r = 1;
  for (int i = 2; i <= n; i++) r *= i;
  return r;
}

constexpr unsigned log2_ceil(unsigned n) {
  unsigned r = 0;
  while ((1u << r) < n) r++;
  return r;
}

static_assert(square(3) == 9, "square");
static_assert(factorial(5) == 120, "factorial");

struct Config {
  static constexpr int width() { return 32; }
  constexpr Config() : depth(4) {}
  int depth;
};

template <int N>
struct Bits {
  static constexpr int value = log2_ceil(N);
};

inline constexpr int kDepth = factorial(4);

int buffer_user(int i) {
  int buf[square(4)] = {};
  int more[Bits<100>::value + Config::width()] = {};
  constexpr Config c;
  buf[i & 15] = i;
  return buf[0] + more[0] + kDepth + c.depth;
}

// Not constexpr: an ordinary function with a constexpr local.
int runtime(int n) {
  constexpr int k = square(2);
  int s = 0;
  for (int i = 0; i < n; i++) s += k;
  return s;
}

// `if constexpr` in a template.
template <typename T>
int kind_of(T) {
  if constexpr (sizeof(T) > 4) {
    return 8;
  } else {
    return 4;
  }
}

int use_kind() { return kind_of(1) + kind_of(1.0); }

#if __cplusplus > 201703L
consteval int twice_at_compile_time(int x) { return 2 * x; }
#endif
