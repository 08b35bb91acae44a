// C++ clock for the rtl-probe testbenches under Verilator without --timing (Vitis RTL has `#0`
// delays Verilator's --timing refuses): 10 cycles of reset, then up to +cycles=N cycles.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include "verilated.h"
#include TB_HEADER

int main(int argc, char** argv) {
    VerilatedContext ctx;
    ctx.commandArgs(argc, argv);
    TB_CLASS tb{&ctx};
    uint64_t max_cycles = 200000;
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "+cycles=", 8) == 0) max_cycles = std::strtoull(argv[i] + 8, nullptr, 10);
    tb.clk = 0;
    tb.rst_n = 0;
    tb.eval();
    for (uint64_t c = 0; c < max_cycles && !ctx.gotFinish(); ++c) {
        if (c == 10) tb.rst_n = 1;
        tb.clk = 1;
        tb.eval();
        tb.clk = 0;
        tb.eval();
    }
    tb.final();
    return ctx.gotFinish() ? 0 : 3;
}
