#ifndef SCALE_ADD_H
#define SCALE_ADD_H

#define N 16

void scale_add(const int a[N], const short b[N], int out[N], int k);

#endif
