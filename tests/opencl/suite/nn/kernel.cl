// Nearest neighbour (Rodinia nn) and the assignment step of k-means (Rodinia kmeans): NDRange
// kernels with const scalar parameters, float2/float4 arithmetic, sqrt, dot and distance.
__kernel void nearest_neighbor(__global const float2 *locations, __global float *distances,
                               const int numRecords, const float lat, const float lng) {
    int gid = get_global_id(0);
    if (gid < numRecords) {
        float2 d = locations[gid] - (float2)(lat, lng);
        distances[gid] = sqrt(dot(d, d));
    }
}

__kernel void kmeans_assign(__global const float4 *restrict points, __global const float4 *restrict centers,
                            __global int *restrict membership, __global float *restrict best_dist,
                            const int npoints, const int nclusters) {
    const int p = get_global_id(0);
    if (p >= npoints) return;
    float best = 3.0e38f;
    int index = 0;
    for (int c = 0; c < nclusters; c++) {
        float d = distance(points[p], centers[c]);
        if (d < best) {
            best = d;
            index = c;
        }
    }
    membership[p] = index;
    best_dist[p] = fmin(best, 1000.0f) + fabs(points[p].w) * 0.0f;
}
