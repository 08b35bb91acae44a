#ifndef VEC_H
#define VEC_H
int vec_top(int data[8], const int *delta, int n);
#endif
