// Namespaces: nested, C++17 nested definitions, anonymous, inline, aliases, reopened.
namespace outer {
namespace inner {
int deep(int x) { return x + 1; }
}  // namespace inner
int shallow(int x) { return inner::deep(x); }
}  // namespace outer

namespace a::b::c {
int nested17(int x) {
  for (int i = 0; i < 2; i++) x++;
  return x;
}
}  // namespace a::b::c

namespace {
int hidden(int x) { return x * 2; }
}  // namespace

inline namespace v1 {
int versioned(int x) { return x - 1; }
}  // namespace v1

namespace outer {
int reopened(int x) { return shallow(x) + hidden(x); }
int defined_outside(int x);
}  // namespace outer

namespace alias = outer::inner;

int outer::defined_outside(int x) { return alias::deep(x) + versioned(x); }

namespace outer::inner {
struct S {
  int m(int x);
};
}  // namespace outer::inner

int outer::inner::S::m(int x) {
  while (x > 10) x /= 2;
  return x;
}
