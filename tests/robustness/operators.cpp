// Operator overloads: operator(), operator<<, conversion operators, comparisons, subscripts.
#include <ostream>

struct Vec2 {
  int x, y;
  Vec2 operator+(const Vec2 &o) const { return Vec2{x + o.x, y + o.y}; }
  Vec2 &operator+=(const Vec2 &o) {
    x += o.x;
    y += o.y;
    return *this;
  }
  bool operator==(const Vec2 &o) const { return x == o.x && y == o.y; }
  int operator[](int i) const {
    if (i == 0) return x;
    return y;
  }
  explicit operator bool() const { return x != 0 || y != 0; }
  operator int() const { return x * y; }
  Vec2 operator-() const { return {-x, -y}; }
  Vec2 &operator++() {
    ++x;
    return *this;
  }
  Vec2 operator++(int) {
    Vec2 old = *this;
    ++x;
    return old;
  }
};

struct Scale {
  int k;
  int operator()(int v) const { return v * k; }
  void operator()(int *a, int n) const {
    for (int i = 0; i < n; i++) a[i] *= k;
  }
};

std::ostream &operator<<(std::ostream &os, const Vec2 &v) { return os << v.x << ',' << v.y; }

Vec2 operator*(int k, const Vec2 &v) {
  Vec2 r = v;
  for (int i = 1; i < k; i++) r += v;
  return r;
}

template <typename T>
struct Wrapper {
  T value;
  operator T() const { return value; }
  template <typename U>
  explicit operator U *() const {
    return nullptr;
  }
};

int use_operators() {
  Vec2 a{1, 2};
  Vec2 b = 2 * a;
  Scale s{3};
  int arr[2] = {1, 2};
  s(arr, 2);
  Wrapper<int> w{5};
  int as_int = a;
  return s(b[1]) + (a == b) + (bool(a) ? 1 : 0) + int(w) + as_int + (-a).x + (a++).x + (++a).x;
}

// User-defined literals.
unsigned long long operator""_kib(unsigned long long v) { return v * 1024; }
constexpr long double operator""_deg(long double d) { return d * 3.14159265358979L / 180; }
