#ifndef DFLOOP_H
#define DFLOOP_H
const int DL_BLOCK = 8;
const int DL_MAX_BLOCKS = 16;
void dfloop_top(const int in[DL_BLOCK * DL_MAX_BLOCKS], int out[DL_BLOCK * DL_MAX_BLOCKS], int n_blocks);
void dfbody_top(const int in[DL_BLOCK * DL_MAX_BLOCKS], int out[DL_BLOCK * DL_MAX_BLOCKS], int n_blocks);
#endif
