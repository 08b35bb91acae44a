// Test-only: lets clang (-x cl -cl-std=CL1.2 -fsyntax-only -Wno-unknown-attributes) check
// kernels written for the Intel FPGA SDK for OpenCL. Never used to build anything.
//
// clang has no Intel channel extension, and OpenCL C 1.2 allows program-scope variables only in
// __constant. So `channel T name;` becomes `extern __constant T name;` (arrays included) and the
// built-ins become expressions of the element type. What this checks: names, types, calls and
// qualifiers. What it does not: the channel semantics (one reader and one writer per channel).
#define channel extern __constant
#define read_channel_intel(ch) (ch)
#define read_channel_nb_intel(ch, valid) (*(valid) = false, (ch))
#define write_channel_intel(ch, v) ((void)(ch), (void)(v))
#define write_channel_nb_intel(ch, v) ((void)(ch), (void)(v), true)
uint get_compute_id(uint dim);
