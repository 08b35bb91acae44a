/*
 * hlsinstr_get_time: a 64-bit free-running cycle counter behind the OpenCL function
 *     ulong get_time(ulong dep);
 * for the Intel FPGA SDK for OpenCL HDL library (hlsinstr_get_time.xml; seed 004, Listing 3).
 *
 * `dep` is a value the call site has just computed: the call cannot be scheduled before `dep`
 * exists, so the read stays where the source put it. Its value is never used.
 *
 * Time base. count_reg counts every clock cycle since the last cycle resetn was low, whatever
 * ivalid and oready do. Every call site gets its own instance; all instances in a kernel see
 * the same clock and reset and hold the same count in every cycle, so timestamps from
 * different call sites are comparable.
 *
 * Call protocol (stall-free, fixed latency 1, as the XML says): a call is a cycle with
 * ivalid high; `time` is count_reg in that cycle and appears one cycle later with ovalid.
 * A cycle with ivalid low produces ovalid low one cycle later (the compiler may feed invalid
 * inputs to a stall-free module). iready is constant high: the module never stalls, and oready
 * is ignored (IS_STALL_FREE: the compiler removes the stall logic around the module).
 * EXPECTED_LATENCY in the XML and the latency here must stay equal.
 *
 * Cost: 64 flip-flops and a 64-bit incrementer for the time base, 65 flip-flops for the result.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_get_time #
(
    // Value of the counter in the first cycle after reset. Any 64-bit value; tests use values
    // just below 2^32 and 2^64 to check the carry and the wrap. Hardware builds keep 0.
    parameter [63:0] RESET_VALUE = 64'd0
)
(
    input  wire        clock,
    // Active-low synchronous reset, as the OpenCL compiler drives it.
    input  wire        resetn,
    input  wire        ivalid,
    output wire        iready,
    output wire        ovalid,
    // Ignored: a stall-free module cannot be stalled.
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire        oready,
    // The data dependence: only its arrival time matters.
    input  wire [63:0] dep,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [63:0] time_out
);

// Initial values: a defined state after FPGA configuration, before the first reset.
reg [63:0] count_reg = RESET_VALUE;
reg [63:0] time_reg = 64'd0;
reg        valid_reg = 1'b0;

assign iready = 1'b1;
assign ovalid = valid_reg;
assign time_out = time_reg;

// The time base: every cycle, whatever the calls do.
always @(posedge clock) begin
    if (!resetn) begin
        count_reg <= RESET_VALUE;
    end else begin
        count_reg <= count_reg + 64'd1;
    end
end

// The result: one register stage (latency 1). Captured every cycle; ovalid says which ones
// were calls.
always @(posedge clock) begin
    if (!resetn) begin
        valid_reg <= 1'b0;
    end else begin
        valid_reg <= ivalid;
    end
    time_reg <= count_reg;
end

endmodule

`resetall
