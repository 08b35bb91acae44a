#ifndef FLATTEN_H
#define FLATTEN_H

const int FL_ROWS = 8;
const int FL_COLS = 16;
const int FL_MAX = 64;

// Perfect loop nests that Vitis HLS flattens (UG1399, "pragma HLS loop_flatten"); the csynth
// report beside this file (hand-made) lists each as one loop named by joining the loop names:
// - Row_Col: constant bounds FL_ROWS x FL_COLS, pipelined II=1;
// - Tile_Row_Tile_Col: bounds from the arguments, so its trip count changes from call to call;
// - in cube(), three unlabeled loops, VITIS_LOOP_<line>_<n> joined, not pipelined.
void grid_top(const int in[FL_MAX * FL_MAX], int out[FL_MAX * FL_MAX], int rows, int cols);

#endif
