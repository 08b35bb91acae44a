// Nested and local classes with methods and returns.
class Outer {
 public:
  class Inner {
   public:
    int v = 0;
    int get() const { return v; }
    void set(int x) {
      if (x < 0) return;
      v = x;
    }
    struct Deep {
      static int twice(int x) { return 2 * x; }
    };
  };
  Inner make(int x) const {
    Inner i;
    i.set(x);
    return i;
  }
  Outer() : count_(0) {}
  explicit Outer(int c) : count_(c) {
    for (int i = 0; i < c; i++) count_ += i;
  }
  ~Outer() { count_ = 0; }
  int count() const;

 private:
  int count_;
};

int Outer::count() const { return count_; }

int local_class(int n) {
  struct Acc {
    int s = 0;
    int add(int x) {
      if (x < 0) return s;
      for (int i = 0; i < x; i++) s++;
      return s;
    }
  };
  Acc a;
  for (int i = 0; i < n; i++) a.add(i);
  return a.s;
}

void local_class_last(int *out) {
  class Helper {
   public:
    static void run(int *p) {
      *p = 7;
      return;
    }
  } h;
  h.run(out);
}

struct WithUnion {
  union {
    int i;
    float f;
  } u;
  int as_int() const { return u.i; }
};

union Bits {
  unsigned word;
  unsigned char bytes[4];
  unsigned low() const { return bytes[0]; }
};

int use_classes() {
  Outer o(3);
  Bits b{0x01020304u};
  int out = 0;
  local_class_last(&out);
  return o.make(2).get() + Outer::Inner::Deep::twice(o.count()) + local_class(3) + static_cast<int>(b.low()) + out;
}

// Friends defined in their class belong to the enclosing namespace.
struct Money {
  long cents;
  friend bool operator==(const Money &a, const Money &b) { return a.cents == b.cents; }
  friend long total(const Money *m, int n) {
    long s = 0;
    for (int i = 0; i < n; i++) s += m[i].cents;
    return s;
  }
};

// Methods of an anonymous struct.
struct {
  int hits = 0;
  int bump() { return ++hits; }
} anonymous_counter;
