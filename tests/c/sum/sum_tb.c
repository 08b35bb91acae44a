#include <stdio.h>

int sum(const int *a, int n);

int main(void) {
  int a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int s = sum(a, 8);
  printf("sum = %d\n", s);
  return s == 36 ? 0 : 1;
}
