// Latin-1 in a comment: café
__kernel void latin1(__global int *a) { a[0] = 1; }
