// Kernels for the OpenCL C API layer's test (clapi_host.cpp): a producer and a consumer that
// talk through a channel shallower than the stream (they must run at the same time), and an
// NDRange kernel with a __local argument.

channel int clapi_stream __attribute__((depth(2)));

__attribute__((max_global_work_dim(0)))
__kernel void producer(uint n) {
    for (uint i = 0; i < n; i++) {
        write_channel_intel(clapi_stream, (int)(i * 3));
    }
}

__attribute__((max_global_work_dim(0)))
__kernel void consumer(__global int *restrict out, uint n) {
    for (uint i = 0; i < n; i++) {
        out[i] = read_channel_intel(clapi_stream);
    }
}

// out[g] = in[g] * factor + local size * 1000, through a __local copy of the work-group's part.
__kernel void scale(__global const int *restrict in, __global int *restrict out, __local int *scratch,
                    int factor) {
    const size_t g = get_global_id(0), l = get_local_id(0);
    scratch[l] = in[g];
    out[g] = scratch[l] * factor + (int)get_local_size(0) * 1000;
}
