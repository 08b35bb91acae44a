// Test-only declarations that let clang (-x cl -cl-std=CL1.2 -fsyntax-only) check kernels
// written for the Intel FPGA SDK for OpenCL. Never used to build anything.
//
// clang has no Intel channel extension: `channel T name;` is not a type it knows, and the
// program-scope variables OpenCL C 1.2 allows must be in __constant. So a channel becomes
// `extern __constant T name;` (an object of the element type that clang accepts at program
// scope, arrays included), and the built-ins become expressions of the element type:
// a read yields the channel's type, a non-blocking read also stores to *valid (so `valid`
// must be a pointer to bool), and writes evaluate both operands. What this checks: every
// name, type, struct field, call and qualifier in the kernels. What it does not: that the
// written value converts to the channel's element type, and one writer/reader per channel.
// Intel attributes (autorun, depth, num_compute_units, max_global_work_dim) are unknown to
// clang: run it with -Wno-unknown-attributes.
#define channel extern __constant
#define read_channel_intel(ch) (ch)
#define read_channel_nb_intel(ch, valid) (*(valid) = false, (ch))
#define write_channel_intel(ch, v) ((void)(ch), (void)(v))
#define write_channel_nb_intel(ch, v) ((void)(ch), (void)(v), true)
#define CLK_CHANNEL_MEM_FENCE CLK_GLOBAL_MEM_FENCE
uint get_compute_id(uint dim);
