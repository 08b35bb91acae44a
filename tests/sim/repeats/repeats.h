#ifndef REPEATS_H
#define REPEATS_H
#define RP_N 32
int rp_top(int mode, const int data[RP_N]);
#endif
