// Watch sites in every kind of place: statements of a {} block report the element's value
// after the statement (and check the invariant); headers, conditions, returns and unbraced
// bodies report the index.
typedef struct { int key; int val; } pair_t;

int first(__global const int *data) {
    return data[0];
}

__kernel void sites(__global int *restrict data, __global int *restrict alias, __global float4 *v,
                    __global pair_t *pairs, __local int *scratch, uint n, int mode) {
    int total = 0;
    for (uint i = 0; i < n && data[i] >= 0; i++)
        data[i] += 1;
    for (uint i = 0; i < n; i++) {
        total += data[i] * 2;
        if (data[i] > total) {
            alias[i] = data[n - 1 - i];
        } else
            *(alias + i) = 0;
        scratch[i % 4] = data[i];
    }
    switch (mode) {
    case 0:
        data[0] = total;
        break;
    default:
        while (data[1] != 0) data[1]--;
    }
    v[0].x = (float)data[2];
    pairs[0].val = first(data);
    int ok = mode && data[3] > 0;
    data[4] = ok ? data[5] : -1;
}
