// A file starting with a UTF-8 byte order mark.
int bom_first(int n) {
  for (int i = 0; i < n; i++) n -= i;
  return n;
}

void bom_second(int *p) { *p = 1; }
