#include "hlsinstr/probe.h" // hlsinstr
// `return` glued to its value, conversion operators, and marker text inside string literals.
int glued(int n) { HLSINSTR_FUNC_BEGIN(0, P, 0);
  if (n > 0) return HLSINSTR_RETURN(0, P,(n));
  if (n < 0) return HLSINSTR_RETURN(0, P,-n);
  return HLSINSTR_RETURN(0, P,'0');
}

const char *banner() { HLSINSTR_FUNC_BEGIN(1, P, 0); return HLSINSTR_RETURN(1, P,"HLSINSTR_FUNC_BEGIN(1, P, 0); {/*hlsinstr*/"); }

struct Fixed {
  int raw;
  explicit operator bool() const { HLSINSTR_FUNC_BEGIN(2, P, 0); return HLSINSTR_RETURN(2, P, raw != 0); }
  operator int() const { HLSINSTR_FUNC_BEGIN(3, P, 0);
    if (raw < 0) return HLSINSTR_RETURN(3, P, 0);
    return HLSINSTR_RETURN(3, P, raw >> 8);
  }
  operator long() const;
  template <typename T>
  explicit operator T *() const { HLSINSTR_FUNC_BEGIN(4, P, 0);
    return HLSINSTR_RETURN(4, P, nullptr);
  }
};

Fixed::operator long() const { HLSINSTR_FUNC_BEGIN(5, P, 0); return HLSINSTR_RETURN(5, P, raw); }

int log_line(char *out) { HLSINSTR_FUNC_BEGIN(6, P, 0);
  const char *fmt = R"(HLSINSTR_LOOP_END(%d); }/*hlsinstr*/)";
  int n = 0;
  HLSINSTR_LEAF_BEGIN(7, P, 0); while (fmt[n]) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(7); out[n] = fmt[n], n++; }/*hlsinstr*/ HLSINSTR_LEAF_END(7, P, 0);
  return HLSINSTR_RETURN(6, P, n);
}
