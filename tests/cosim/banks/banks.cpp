// cosim test design: partitioned array arguments (cyclic, block, complete, one dimension of
// two), a completely partitioned output array and a dual-port RAM written on both ports. Its
// RTL (solution/syn/verilog/banks.v) is written by hand with Vitis 2022.2's port names; see
// tests/cosim/README.md.
void banks(const int a[8], int b[8], const int c[4], int m[2][4], int acc[4], int o[2]) {
#pragma HLS ARRAY_PARTITION variable = a type = cyclic factor = 2
#pragma HLS ARRAY_PARTITION variable = b type = block factor = 2
#pragma HLS ARRAY_PARTITION variable = c type = complete
#pragma HLS ARRAY_PARTITION variable = m type = complete dim = 1
#pragma HLS ARRAY_PARTITION variable = o type = complete
#pragma HLS INTERFACE mode = ap_memory port = acc storage_type = ram_t2p
    int sum = 0;
rows:
    for (int i = 0; i < 4; i++) {
        b[i] = a[2 * i] + a[2 * i + 1] + c[i];
        b[i + 4] = a[2 * i] - a[2 * i + 1];
        m[1][i] = m[1][i] + m[0][i];
        sum += a[2 * i] + a[2 * i + 1];
    }
pairs:
    for (int j = 0; j < 4; j += 2) {
        acc[j] = acc[j] * 2;
        acc[j + 1] = acc[j + 1] + 1;
    }
    o[0] = sum;
    o[1] = c[0] ^ c[3];
}
