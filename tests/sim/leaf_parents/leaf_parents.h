#ifndef LEAF_PARENTS_H
#define LEAF_PARENTS_H

#define LP_N 25

int lp_top(int mode, int data[LP_N]);

#endif
