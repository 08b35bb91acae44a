/* The C testbench of paths.cpp compiled as C (`paths.c`, a copy the test makes): as
   paths_tb.cpp, in C. */
#include <stdio.h>
int paths_top(const int *a, int n);
static FILE *ref;
int R(int line) {
  static int calls = 0;
  fprintf(ref, "%d\n", line);
  return calls++ % 7 + 1;
}
int main(void) {
  ref = fopen("ref.txt", "w");
  const int a[] = {-5, 0, 7, 60, 12, 95, 3, -1, 22, 45, 8, 2};
  int total = 0;
  for (int n = 0; n <= 12; n += 4) total += paths_top(a, n);
  fclose(ref);
  printf("%d\n", total);
  return 0;
}
