// Unicode: identifiers in comments and strings, UTF-8 literals, emoji in comments. 🚀✨
// Größe, naïve, 日本語のコメント, Ελληνικά, עברית — all in comments only.
#include <cstring>

static const char *greeting = u8"Grüße, 世界! 🎉";
static const char *mixed = "ünïcödé { } return for ( ; 🙂";

/* Block comment with emoji 🔥 and a fake loop: for (int i = 0; i < 10; i++) { return; } */
int count_bytes(const char *s) {  // 字节数 (byte count) 📏
  int n = 0;
  for (const char *p = s; *p; ++p) {  // Schleife über Bytes 🔁
    n++;
  }
  return n;  // zurück ↩
}

int emoji_in_string() {
  const char *e = "😀😃😄 return 1; 😁";
  return count_bytes(e) + count_bytes(greeting) + count_bytes(mixed);
}

char32_t wide_char() {
  char32_t c = U'🍕';
  return c;
}

int café(int x) {  // a non-ASCII identifier (C++ allows UTF-8 identifiers since GCC 10)
  int résultat = 0;
  for (int ü = 0; ü < x; ü++) résultat += ü;
  return résultat;
}

void 日本(int *p) { *p = café(3); }
