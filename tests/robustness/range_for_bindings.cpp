// Range-for and C++17 structured bindings.
#include <array>
#include <map>
#include <utility>

int range_sum(const std::array<int, 8> &a) {
  int s = 0;
  for (int v : a) s += v;
  for (const auto &v : a) {
    if (v < 0) return -1;
    s += v;
  }
  return s;
}

int bindings(const std::map<int, int> &m) {
  int s = 0;
  for (const auto &[k, v] : m) {
    s += k * v;
  }
  auto [lo, hi] = std::make_pair(1, 2);
  auto &[first, second] = *m.begin();
  return s + lo + hi + first + second;
}

struct Point {
  int x, y;
};

int bind_struct(Point p) {
  auto [x, y] = p;
  for (auto [a, b] : {Point{1, 2}, Point{3, 4}}) x += a * b;
  return x + y;
}

int init_statement(const int (&arr)[4]) {
  int s = 0;
  for (int k = 2; int v : arr) s += k * v;  // C++20 range-for init: tree-sitter reads it, g++ -std=c++17 warns
  return s;
}

int nested_ranges(const int (&grid)[3][3]) {
  int s = 0;
  for (const auto &row : grid)
    for (int v : row)
      if (v > 0) s += v;
  return s;
}

int if_init(const std::map<int, int> &m, int key) {
  if (auto it = m.find(key); it != m.end()) return it->second;
  switch (int k = key * 2; k) {
    case 0:
      return 0;
    default:
      break;
  }
  return -1;
}
