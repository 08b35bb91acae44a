#include <cstdio>
int paths_top(const int *a, int n);
static FILE *ref;
// Logs the line; the value steers the kernel the same way in every build (not from the line:
// the instrumented file's lines are not the original's).
int R(int line) {
  static int calls = 0;
  std::fprintf(ref, "%d\n", line);
  return calls++ % 7 + 1;
}
int main() {
  ref = std::fopen("ref.txt", "w");
  const int a[] = {-5, 0, 7, 60, 12, 95, 3, -1, 22, 45, 8, 2};
  int total = 0;
  for (int n = 0; n <= 12; n += 4) total += paths_top(a, n);
  std::fclose(ref);
  std::printf("%d\n", total);
  return 0;
}
