#ifndef BLURROWS_KERNEL_H
#define BLURROWS_KERNEL_H

const int BR_ROWS = 8;
const int BR_COLS = 128;

// A [1 2 1]/4 horizontal blur of the first `rows` rows (clamped to 0..8), edges replicated.
// No pragmas at all: what Vitis does here is only its defaults.
void blur_rows(const short img[BR_ROWS][BR_COLS], short out[BR_ROWS][BR_COLS], int rows);

#endif
