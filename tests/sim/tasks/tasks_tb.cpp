#include "hls_stream.h"
#include <cstdio>
#include <cstring>

void task_top(hls::stream<int> &in, hls::stream<int> &out);

int main(int argc, char **argv) {
  hls::stream<int> in, out;
  int errors = 0;
  for (int batch = 0; batch < 3; batch++) {
    for (int i = 0; i < 4; i++) in.write(i + batch);
    task_top(in, out);
    for (int i = 0; i < 4; i++) errors += out.read() != 3 * (i + batch) + 1;
  }
  if (argc > 1 && !std::strcmp(argv[1], "one-more")) out.read(); // nothing will come
  std::printf("errors %d\n", errors);
  return errors;
}
