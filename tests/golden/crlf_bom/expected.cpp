#include "hlsinstr/probe.h" // hlsinstr
// BOM and CRLF are kept.
int f(int n) { HLSINSTR_FUNC_BEGIN(0, P, 0);
	int s = 0;
	HLSINSTR_LEAF_BEGIN(1, P, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(1);
		s += i;
	} HLSINSTR_LEAF_END(1, P, 0);
	return HLSINSTR_RETURN(0, P, s);
}
