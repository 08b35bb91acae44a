#include "hlsinstr/probe.h" // hlsinstr
// C++ that the grammar rejects but HLS code uses: a typename functional cast, storage-class
// macros and hls_thread_local, a pragma between a brace-less loop header and its body; and
// calls the call graph must follow: a functor's operator() and an hls::task's process.
#define KEEP static

template <class A> struct Box { typedef A T; };

template <class A>
A half(A x) { HLSINSTR_FUNC_BEGIN(0, P, 0);
  return HLSINSTR_RETURN(0, P, x * typename Box<A>::T(0.5));
}

struct Acc {
  int s;
  int operator()(int x) { HLSINSTR_FUNC_BEGIN(1, P, 0); s += x; return HLSINSTR_RETURN(1, P, s); }
};

void worker(int n) { HLSINSTR_FUNC_BEGIN(2, P, 0);
  KEEP int calls = 0;
  calls += n; HLSINSTR_FUNC_END(2, P, 0);
}

int top(int *a, int n) { HLSINSTR_FUNC_BEGIN(3, P, 0);
  hls_thread_local int runs = 0;
  Acc acc;
  int r = 0;
  HLSINSTR_LOOP_BEGIN(4, P, 0); for (int i = 0; i < n; i++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(4);
#pragma HLS PIPELINE II=1
    r = acc(a[i]); }/*hlsinstr*/ HLSINSTR_LOOP_END(4, P, 0);
  hls_thread_local hls::task t1(worker, n);
  runs++;
  return HLSINSTR_RETURN(3, P, half(r));
}

void unreached(int n) { HLSINSTR_FUNC_BEGIN(5, P, 0); (void)n; HLSINSTR_FUNC_END(5, P, 0); }
