#include "hlsinstr/probe.h"

int twice(int x);
int twice(int x) { HLSINSTR_FUNC_BEGIN(1, S, x); return HLSINSTR_RETURN(1, S, 2 * x); }
