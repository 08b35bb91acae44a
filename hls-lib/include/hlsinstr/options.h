// hlsinstr: what each probe site records besides the event itself.
//
// The rewriter writes P, T, S or TS as the second argument of every probe macro; the macros
// paste it onto HLSINSTR_OPT_ so a user macro named T or S cannot capture it.
#ifndef HLSINSTR_OPTIONS_H
#define HLSINSTR_OPTIONS_H

#define HLSINSTR_OPT_P 0u  // the event only
#define HLSINSTR_OPT_T 1u  // plus a timestamp
#define HLSINSTR_OPT_S 2u  // plus a sequence number
#define HLSINSTR_OPT_TS 3u // plus both

// C files include this too (probe_c.h): the named constants are C++ only.
#ifdef __cplusplus
namespace hlsinstr {
namespace opt {
const unsigned timestamp = HLSINSTR_OPT_T;
const unsigned sequence = HLSINSTR_OPT_S;
} // namespace opt
} // namespace hlsinstr
#endif

#endif
