// Comments everywhere: between `)` and `{`, between a label and its loop, inside returns.
int between(int n) /* after the parameter list */ {
  return n;
}

int between_line(int n)  // after the parameter list
{
  return n;
}

int /* in the return type */ in_type(int /* a param */ n) /* here */ /* and here */ {
  // first line
  return /* before value */ n /* after value */;  // trailing
}

void label_comment(int *a, int n) {
rows:  // a label with a comment before its loop
  /* and a block comment */
  for (int i = 0; i < n; i++) /* before body */ {
    a[i] = 0;  // body
  }  // after body
cols: /* same line */ for (int j = 0; j < n; j++) a[j]++;
}

int comment_only_body(int n) {
  // nothing but a comment here
}

void comment_last() {
  int x = 0;
  (void)x;
  // a trailing comment after the last statement
  /* and another */
}

int return_comment(int n) {
  if (n > 0) return /* positive */ 1;
  return  // newline after return
      0;
}

void void_return_comment(int *p) {
  if (!p) return /* nothing */;
  *p = 1;
}

int loop_comments(int n) {
  int s = 0;
  for (/* init */ int i = 0; /* cond */ i < n; /* step */ i++)  // header
    // comment before an unbraced body
    s += i;
  while (/* c */ n-- > 0) /* b */ s--;
  do /* d */ {
    s++;
  } /* e */ while (s < 0) /* f */;
  return s;
}

int /**/ tight/**/(/**/int/**/n/**/)/**/{/**/return/**/n/**/;/**/}

// Not a comment but a pragma: one between a label and its loop splits the labeled statement for tree-sitter.
void labeled_pragma(int *a) {
outer:
#pragma unroll
  for (int i = 0; i < 4; i++) a[i] = 0;
}
