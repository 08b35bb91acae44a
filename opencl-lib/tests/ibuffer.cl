// iBuffer state machine under emulation: unit 0 records what `produce` sends it.
#define HLSINSTR_NUM_IBUFFERS 2
#define HLSINSTR_IBUFFER_DEPTH 4
#include "hlsinstr_snapshot.cl"

__attribute__((max_global_work_dim(0)))
__kernel void produce(int first, int n) {
    for (int v = first; v < first + n; v++) {
        take_snapshot(0, v);
        HLSINSTR_EMU_DELAY(3);
    }
}
