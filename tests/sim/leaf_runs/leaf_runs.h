#ifndef LEAF_RUNS_H
#define LEAF_RUNS_H

#define LR_N 25

int lr_top(int mode, int data[LR_N]);

#endif
