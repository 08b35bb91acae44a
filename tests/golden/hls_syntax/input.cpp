// C++ that the grammar rejects but HLS code uses: a typename functional cast, storage-class
// macros and hls_thread_local, a pragma between a brace-less loop header and its body; and
// calls the call graph must follow: a functor's operator() and an hls::task's process.
#define KEEP static

template <class A> struct Box { typedef A T; };

template <class A>
A half(A x) {
  return x * typename Box<A>::T(0.5);
}

struct Acc {
  int s;
  int operator()(int x) { s += x; return s; }
};

void worker(int n) {
  KEEP int calls = 0;
  calls += n;
}

int top(int *a, int n) {
  hls_thread_local int runs = 0;
  Acc acc;
  int r = 0;
  for (int i = 0; i < n; i++)
#pragma HLS PIPELINE II=1
    r = acc(a[i]);
  hls_thread_local hls::task t1(worker, n);
  runs++;
  return half(r);
}

void unreached(int n) { (void)n; }
