// Odd, K&R-ish and GNU-ish formatting.
int
gnu_style (int n)
{
  int s = 0;
  for (int i = 0;
       i < n;
       i++)
    {
      s += i;
    }
  return s;
}

int kr_style(int n) {
    int s = 0;
    while (n --> 0) s+=n;
    return(s);
}

int one_line(int n){int s=0;for(int i=0;i<n;i++)s+=i;if(s>10)return 10;return s;}

void
  weird_indent
    (
      int *p
    )
      {
        *p
          =
            1
              ;
      }

int tabs(int n) {
	for	(int	i	=	0;	i	<	n;	i++)	n--;
	return	n;
}

int no_space_return(int n) {
  if(n)return-n;
  return+n;
}

int paren_return(int n) { return (n); }

int   trailing_spaces(int n)   {   
  return n;   
}   

void allman(int *a, int n)
{
    for (int i = 0; i < n; i++)
    {
        if (a[i])
        {
            a[i] = 0;
        }
        else
        {
            a[i] = 1;
        }
    }
}

int ternary_chain(int n) { return n > 0 ? 1 : n < 0 ? -1 : 0; }

int comma_return(int n) { return n++, n; }

void do_while_one_line(int n) { do n--; while (n > 0); }

int backslash_continued(int n) {
  int s = \
      n + 1;
  return s;
}
