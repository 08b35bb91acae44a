#ifndef ANALYTIC_H
#define ANALYTIC_H

const int AN_MAX_N = 1024;

// A single pipelined loop: its csynth report (csynth.xml beside this file) gives II and IL, so
// the estimate must be exactly (N - 1) * II + IL per call.
void pipe_top(const int in[AN_MAX_N], int out[AN_MAX_N], int n);

// An imperfect nest whose inner trip count depends on the outer index, and a search loop whose
// trip count depends on the data.
int nest_top(int a[AN_MAX_N], int n, int limit);

#endif
