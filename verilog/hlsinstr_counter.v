/*
 * hlsinstr_counter: a 64-bit free-running cycle counter, read through a Vitis HLS RTL blackbox.
 *
 * The C side (hls-lib/include/hlsinstr/hw/counter.h) calls
 *     void hlsinstr_counter(ap_uint<64> dep, ap_uint<64>& ts);
 * and Vitis replaces the call with an instance of this module (hlsinstr_counter.json). `dep` is
 * a value the probe site has just computed: the call cannot be scheduled before `dep` exists,
 * so the read stays where the source put it (a read with no data dependence may be moved by the
 * scheduler).
 *
 * Time base. count_reg counts every clock cycle since the last cycle ap_rst was high,
 * regardless of ap_ce, ap_start and ap_continue: it is the time base, not part of the call.
 * Every call site gets its own copy of this module; all copies in a kernel see the same ap_clk
 * and ap_rst, leave reset in the same cycle and therefore hold the same count in every cycle,
 * so timestamps taken at different call sites are comparable. (Copies in different kernels
 * only agree if those kernels leave reset together.)
 *
 * Call protocol (ap_ctrl_chain, latency 1, II 1):
 *   - a call is accepted in a cycle with ap_start && ap_ready (ap_ready requires ap_ce, and
 *     that the previous result is gone or being taken with ap_continue this cycle);
 *   - ts is count_reg in the accepting cycle; it appears one cycle later with ap_done and
 *     ts_ap_vld, and stays until a cycle with ap_continue && ap_ce;
 *   - back-to-back calls (ap_start held, ap_continue high) are accepted every cycle;
 *   - ap_ce low freezes the call (no accept, result held) but never the time base.
 * The latency here and "latency" in hlsinstr_counter.json must stay equal: a reader of the
 * trace subtracts nothing, ts is the cycle of the call itself.
 *
 * Cost: 64 flip-flops and a 64-bit incrementer for the time base, 65 for the result (see
 * scripts/verilog-resources.sh and docs/verilog.md for measured figures).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_counter #
(
    // Value of the counter in the first cycle after reset. Any 64-bit value; tests use values
    // just below 2^32 and 2^64 to check the carry and the wrap. Hardware builds keep 0, so
    // a timestamp is the number of cycles since reset.
    parameter [63:0] RESET_VALUE = 64'd0
)
(
    input  wire        ap_clk,
    // Active-high synchronous reset, as Vitis generates it for blackboxes.
    input  wire        ap_rst,
    input  wire        ap_ce,
    input  wire        ap_start,
    output wire        ap_ready,
    output wire        ap_done,
    output wire        ap_idle,
    input  wire        ap_continue,

    // The data dependence: only its arrival time matters, its value is never used.
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [63:0] dep,
    /* verilator lint_on UNUSEDSIGNAL */

    output wire [63:0] ts,
    output wire        ts_ap_vld
);

// Latency 1 is stated in hlsinstr_counter.json (rtl_performance). The testbench checks it
// cycle by cycle; rewriter/tests/verilog.rs checks that the JSON says the same.

// No elaboration check is needed: RESET_VALUE is the only parameter and every 64-bit value is
// valid; widths are fixed at 64 by the C signature.

// Initial values: a defined state after FPGA configuration, before the first reset.
reg [63:0] count_reg = RESET_VALUE;
reg [63:0] ts_reg = 64'd0;
reg        done_reg = 1'b0;

// Accept when the result slot is empty or is emptied in this cycle.
wire accept = ap_start && ap_ce && (!done_reg || ap_continue);

assign ap_ready = accept;
assign ap_done = done_reg;
assign ap_idle = !ap_start && !done_reg;
assign ts = ts_reg;
assign ts_ap_vld = done_reg;

// The time base: every cycle, whatever the call does.
always @(posedge ap_clk) begin
    if (ap_rst) begin
        count_reg <= RESET_VALUE;
    end else begin
        count_reg <= count_reg + 64'd1;
    end
end

// One call in flight at most: ts_reg holds its result while done_reg is high.
always @(posedge ap_clk) begin
    if (ap_rst) begin
        done_reg <= 1'b0;
    end else if (ap_ce) begin
        if (accept) begin
            done_reg <= 1'b1;
        end else if (ap_continue) begin
            done_reg <= 1'b0;
        end
    end
end

always @(posedge ap_clk) begin
    if (accept) begin
        ts_reg <= count_reg;
    end
end

endmodule

`resetall
