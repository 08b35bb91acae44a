// hlsinstr cosim: Verilator back end. Usage: harness PLAN RESULTS [--vcd FILE | --fst FILE]
// The glue (generated per design from its port table) copies ports to and from the model.
#include <chrono>
#include "hlsinstr_harness.h"
#include "hlsinstr_glue.h"
#if HLSINSTR_TRACE == 1
#include "verilated_vcd_c.h"
#elif HLSINSTR_TRACE == 2
#include "verilated_fst_c.h"
#endif

int main(int argc, char** argv) {
    if (argc < 3) hlsinstr::fail("usage: harness PLAN RESULTS [--vcd FILE | --fst FILE]");
    std::string wave;
    for (int i = 3; i + 1 < argc; i++)
        if (std::string(argv[i]) == "--wave") wave = argv[i + 1];
    VerilatedContext ctx;
    Vhlsinstr_wrap top(&ctx);
    hlsinstr::Harness h(argv[1]);
    hlsinstr_glue::add_ports(h.pins);
    h.setup();
#if HLSINSTR_TRACE == 1
    ctx.traceEverOn(true);
    VerilatedVcdC tf;
#elif HLSINSTR_TRACE == 2
    ctx.traceEverOn(true);
    VerilatedFstC tf;
#endif
#if HLSINSTR_TRACE
    if (wave.empty()) hlsinstr::fail("this harness was built to trace: give --wave FILE");
    top.trace(&tf, 99);
    tf.set_time_unit("1ns");
    tf.set_time_resolution("1ns");
    tf.open(wave.c_str());
#endif
    hlsinstr_glue::set_clock(top, 0);
    hlsinstr_glue::from_pins(top, h.pins);
    top.eval();
    auto t0 = std::chrono::steady_clock::now();
    for (;;) {
        hlsinstr_glue::to_pins(top, h.pins);
        if (!h.step()) break;
        hlsinstr_glue::set_clock(top, 1);
        top.eval();
#if HLSINSTR_TRACE
        tf.dump(10 * h.now);
#endif
        hlsinstr_glue::from_pins(top, h.pins);
        hlsinstr_glue::set_clock(top, 0);
        top.eval();
#if HLSINSTR_TRACE
        tf.dump(10 * h.now + 5);
#endif
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
#if HLSINSTR_TRACE
    tf.close();
#endif
    top.final();
    h.write_results(argv[2]);
    std::printf("simulated %llu cycles in %.6f s\n", (unsigned long long)h.now, secs);
    return 0;
}
