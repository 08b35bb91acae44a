#ifndef LUTMIX_KERNEL_H
#define LUTMIX_KERNEL_H

const int LM_MAX = 1024;
#define LM_N 64

// out[i] = in[i] * (2 * (i % 64) + 16) + 3 * coef[i % 16] + 1 for i < n (n in 1..1024).
// Three tables, all known at synthesis: `coef`, a static const array; `ramp`, filled from the
// index by init_ramp (inlined by the project's syn.directive.inline, no pragma); `scaled`, filled
// from coef's elements. Vitis makes ROMs of them: only the apply loop takes time.
void lut_mix(const int in[LM_MAX], int out[LM_MAX], int n);

#endif
