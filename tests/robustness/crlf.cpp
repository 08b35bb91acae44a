// CRLF line endings throughout (the file is written with \r\n bytes).
int crlf_sum(const int *a, int n) {
	int s = 0;
	for (int i = 0; i < n; i++)
		s += a[i];
	if (s < 0)
		return 0;
	return s;
}

void crlf_void(int *a, int n) {
	outer:
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++) {
			if (a[j] < 0) goto out;
			a[j] += i;
		}
	}
out:
	return;
}

int crlf_do(int n) {
	do {
		n--;
	} while (n > 0);
	return n;
}

/* A block comment
   spanning CRLF lines { } return for ( */
void crlf_empty() {}
