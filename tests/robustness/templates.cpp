// Templates: function and class templates, specializations, SFINAE, variadic.
#include <cstddef>
#include <type_traits>

template <typename T>
T sum(const T *a, int n) {
  T s = T();
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}

template <>
int sum<int>(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s ^= a[i];
  return s;
}

template <typename T, int W = 8>
class Buffer {
 public:
  T data[W];
  void fill(T v) {
    for (int i = 0; i < W; i++) data[i] = v;
  }
  T first() const { return data[0]; }
  template <typename U>
  U cast_first() const {
    return static_cast<U>(data[0]);
  }
};

template <typename T, int W>
struct Buffer<T *, W> {
  T *data[W];
  int count() const {
    int c = 0;
    for (int i = 0; i < W; i++)
      if (data[i]) c++;
    return c;
  }
};

template <typename T>
typename std::enable_if<std::is_integral<T>::value, T>::type clamp_int(T v) {
  if (v < 0) return 0;
  return v;
}

template <typename T, typename = std::enable_if_t<std::is_floating_point<T>::value>>
T half(T v) {
  return v / 2;
}

template <typename... Ts>
int count_args(Ts... args) {
  return static_cast<int>(sizeof...(args));
}

template <typename T>
T add_all(T v) {
  return v;
}

template <typename T, typename... Rest>
T add_all(T first, Rest... rest) {
  return first + add_all(rest...);
}

template <int N>
struct Unroll {
  static int run(int x) { return Unroll<N - 1>::run(x) + N; }
};

template <>
struct Unroll<0> {
  static int run(int x) { return x; }
};

template <typename T, std::size_t N>
constexpr std::size_t length(T (&)[N]) {
  return N;
}

int use_templates() {
  int a[4] = {1, 2, 3, 4};
  Buffer<int> b;
  b.fill(3);
  return sum(a, 4) + b.first() + b.cast_first<int>() + clamp_int(-3) + static_cast<int>(half(3.0)) +
         count_args(1, 2, 3) + add_all(1, 2, 3) + Unroll<3>::run(0) + static_cast<int>(length(a));
}

// Out-of-class members of a class template, and returns with template commas.
template <typename T>
struct Box {
  Box();
  ~Box();
  int size() const;
  T value;
};

template <typename T>
Box<T>::Box() : value() {}

template <typename T>
Box<T>::~Box() {}

template <typename T>
int Box<T>::size() const {
  return static_cast<int>(sizeof(T));
}

template <typename K, typename V>
struct Pair {
  K k;
  V v;
};

Pair<int, long> make_pair_of(int a) { return Pair<int, long>{a, 2L * a}; }
