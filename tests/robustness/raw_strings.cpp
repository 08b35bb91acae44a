// Raw string literals holding braces, `return`, `for (`, and the rewriter's own marker text.
#include <cstring>

const char *kTemplate = R"(int f() { for (int i = 0; i < 3; i++) { return i; } })";

int count_braces() {
  const char *s = R"delim(
    void g() {
      for (;;) { return; }
    }
    } } { "quoted" )"
  )delim";
  int n = 0;
  for (const char *p = s; *p; ++p)
    if (*p == '{' || *p == '}') n++;
  return n;
}

int marker_text() {
  const char *m = R"(HLSINSTR_FUNC_BEGIN(1, P, 0); {/*hlsinstr*/ }/*hlsinstr*/ #include "hlsinstr/probe.h")";
  const char *q = "HLSINSTR_LOOP_ITER(2); return HLSINSTR_RETURN(0, P, x);";
  return static_cast<int>(std::strlen(m) + std::strlen(q));
}

// Marker text in comments is refused (see the bad-input tests); in literals it is data.
const char *in_return() { return R"x(return { for ( } )x"; }

int chars(int n) {
  char open = '{', close = '}', quote = '"';
  const char *esc = "\"{\\\"for (\" return;";
  for (int i = 0; i < n; i++) n -= (open + close + quote + esc[0]) & 1;
  return n;
}

const char *prefixed() {
  const char *a = u8R"(u8 raw { } return)";
  const char *b = R"(ends with paren ))";
  return a[0] ? a : b;
}
