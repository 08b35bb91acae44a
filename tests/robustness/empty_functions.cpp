// Empty functions, functions that only `return;`, and other trivial bodies.
void empty() {}
void empty_spaced() {   }
void empty_lines() {

}
void only_return() { return; }
void only_return_lines() {
  return;
}
int only_value() { return 0; }
void only_semicolon() { ; }
void only_block() { {} }
void only_comment() { /* nothing */ }
void nested_empty_loop() { for (;;) {} }
void empty_while(int n) { while (n--) {} }
void empty_while_semicolon(int n) { while (n--); }
void empty_for_semicolon(int n) { for (int i = 0; i < n; i++); }
struct S {
  S() {}
  ~S() {}
  void m() {}
  void r() { return; }
};
void throw_only() { throw 1; }
void return_then_nothing(int n) {
  if (n) return;
}
