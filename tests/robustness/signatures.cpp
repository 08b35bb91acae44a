// Trailing return types, noexcept, attributes, and other decorated signatures.
#include <utility>

auto trailing(int x) -> int { return x + 1; }

auto trailing_void(int *p) -> void {
  if (!p) return;
  *p = 0;
}

auto trailing_ptr(int *p) -> int * { return p + 1; }

template <typename A, typename B>
auto add(A a, B b) -> decltype(a + b) {
  return a + b;
}

int no_throw(int x) noexcept { return x; }
void no_throw_cond(int *p) noexcept(true) { *p = 1; }

[[nodiscard]] int must_use(int x) { return x * 2; }
[[nodiscard]] [[gnu::always_inline]] inline int must_use_inline(int x) { return x; }
[[maybe_unused]] static void maybe(int *p) { p[0] = 0; }
[[noreturn]] void never_returns() {
  for (;;) {
  }
}

int attributed_params([[maybe_unused]] int x, int y) { return y; }

int *pointer_return(int *p) { return p; }
int &reference_return(int &r) { return r; }
const int *const_pointer_return(const int *p) { return p; }
int (*function_pointer_return())(int) { return &no_throw; }

static inline int static_inline(int x) { return x; }
extern int extern_def(int x);
int extern_def(int x) { return x; }

struct Methods {
  int v = 0;
  int get() const & { return v; }
  int take() && { return std::move(v); }
  virtual int virt() const { return v; }
  virtual ~Methods() = default;
  Methods() = default;
  Methods(const Methods &) = delete;
  int over() const noexcept { return v; }
};

struct Derived final : Methods {
  int virt() const override { return 1; }
};

auto deduced(int x) {
  if (x > 0) return x;
  return -x;
}

decltype(auto) forward_ref(int &x) { return (x); }

auto lambda_returning() -> int (*)(int) {
  return [](int v) { return v; };
}

// A function-try-block: the body is not a block, so the function is skipped.
int guarded_call(int x) try {
  return x;
} catch (...) {
  return 0;
}
