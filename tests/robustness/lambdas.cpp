// Lambdas: their returns and loops belong to the lambda, never to the enclosing function.
#include <algorithm>

int with_lambda(int *a, int n) {
  auto abs_val = [](int v) { return v < 0 ? -v : v; };
  int s = 0;
  for (int i = 0; i < n; i++) s += abs_val(a[i]);
  return s;
}

int lambda_with_early_returns(int n) {
  auto classify = [&](int v) -> int {
    if (v < 0) return -1;
    if (v == 0) return 0;
    return 1;
  };
  return classify(n) + classify(-n);
}

void void_fn_with_lambda(int *a, int n) {
  auto bump = [a](int i) {
    if (i < 0) return;
    a[i]++;
  };
  for (int i = 0; i < n; i++) bump(i);
}

int generic_lambda(int x) {
  auto twice = [](auto v) { return v + v; };
  auto sum3 = [](auto a, auto b, auto c) -> decltype(a + b + c) { return a + b + c; };
  return twice(x) + sum3(1, 2, 3);
}

int lambda_with_loops(const int *a, int n) {
  auto total = [&]() {
    int s = 0;
    for (int i = 0; i < n; i++) {
      if (a[i] < 0) return -1;
      s += a[i];
    }
    int j = 0;
    while (j < n) j++;
    return s + j;
  };
  return total();
}

// The last statement is an expression holding a lambda: the function still falls off its end.
void ends_with_lambda_call(int *a, int n) {
  std::for_each(a, a + n, [](int &v) {
    for (int k = 0; k < 2; k++) v += k;
    return;
  });
}

int immediately_invoked(int n) {
  const int limit = [&] {
    if (n > 10) return 10;
    return n;
  }();
  int s = 0;
  for (int i = 0; i < limit; i++) s += [i]() { return i * i; }();
  return s;
}

// A lambda in a loop header and in a return expression.
int lambda_in_headers(int n) {
  for (int i = [] { return 0; }(); i < n; i++) n--;
  return [n] { return n * 2; }();
}

auto make_counter() {
  int c = 0;
  return [c]() mutable { return ++c; };
}

// Nested lambdas.
int nested_lambdas(int x) {
  auto outer = [](int y) {
    auto inner = [y](int z) { return y + z; };
    return inner(1);
  };
  return outer(x);
}
