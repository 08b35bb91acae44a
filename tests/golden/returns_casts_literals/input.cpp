// `return` glued to its value, conversion operators, and marker text inside string literals.
int glued(int n) {
  if (n > 0) return(n);
  if (n < 0) return-n;
  return'0';
}

const char *banner() { return"HLSINSTR_FUNC_BEGIN(1, P, 0); {/*hlsinstr*/"; }

struct Fixed {
  int raw;
  explicit operator bool() const { return raw != 0; }
  operator int() const {
    if (raw < 0) return 0;
    return raw >> 8;
  }
  operator long() const;
  template <typename T>
  explicit operator T *() const {
    return nullptr;
  }
};

Fixed::operator long() const { return raw; }

int log_line(char *out) {
  const char *fmt = R"(HLSINSTR_LOOP_END(%d); }/*hlsinstr*/)";
  int n = 0;
  while (fmt[n]) out[n] = fmt[n], n++;
  return n;
}
