// Batched quicksort: the top streams the input through a local buffer one batch at a time,
// sorting each batch on chip (load -> qsort_comp -> store).
#ifndef QUICKSORT_H
#define QUICKSORT_H

// Elements per batch (the size of the on-chip buffer).
const int QS_BATCH = 1024; // HLScope sorts 1024 floats per batch
// Batches in a full-size transfer; the top sorts at most this many.
const int QS_MAX_BATCHES = 8;
// Largest number of elements the top reads and writes.
const int QS_MAX_N = QS_BATCH * QS_MAX_BATCHES;
// Depth of the explicit range stack. The ranges on it are disjoint and non-empty, so a batch
// never needs more than QS_BATCH entries.
const int QS_STACK = QS_BATCH;

// Sorts each of the first `n_batches` batches of `in` (QS_BATCH elements each, ascending) into
// the same place of `out`. Batches are sorted independently of each other. `n_batches` is
// clamped to QS_MAX_BATCHES; batches of `out` past it are not written.
void qsort_top(const int in[QS_MAX_N], int out[QS_MAX_N], int n_batches);

#endif
