// hlsinstr_monitor_observe: the in-FPGA monitor's accumulator, one event folded into one probe's
// state (combinational): the RTL equivalent of `hlsinstr::hw::observe` in
// hls-lib/include/hlsinstr/hw/monitor.h, written by hand to estimate what it costs. One instance
// serves every probe (hlsinstr_monitor_shared.v): its 64-bit subtract and adds are a fixed part.
//
// State layout (bit offsets; SW = 450 bits, 514 with LONGEST):
//   [0] open  [1] seen  [2 +: 64] calls  [66 +: 64] busy  [130 +: 64] first_start
//   [194 +: 64] last_end  [258 +: 64] trips  [322 +: 64] unmatched  [386 +: 64] open_start
//   [450 +: 64] max_busy (LONGEST only)
`resetall
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_monitor_observe #(
    // 1: keep the longest invocation (`--monitor-longest`); 0: no max_busy field.
    parameter integer LONGEST = 0,
    // Derived (do not set): the state's width.
    parameter integer SW = 450 + 64 * LONGEST
) (
    input  wire [SW-1:0] state,
    input  wire          valid,   // 0: next = state (no event)
    input  wire          is_end,  // 0: begin, 1: end
    input  wire [31:0]   trips,   // trip count carried by an end
    input  wire [63:0]   now,     // the event's time
    output reg  [SW-1:0] next
);

    initial begin
        if (LONGEST != 0 && LONGEST != 1) $error("LONGEST must be 0 or 1");
        if (SW != 450 + 64 * LONGEST) $error("SW is derived: do not set it");
    end

    wire        open       = state[0];
    wire        seen       = state[1];
    wire [63:0] calls      = state[2 +: 64];
    wire [63:0] busy       = state[66 +: 64];
    wire [63:0] sum_trips  = state[258 +: 64];
    wire [63:0] unmatched  = state[322 +: 64];
    wire [63:0] open_start = state[386 +: 64];
    wire [63:0] duration   = now - open_start;

    always @(*) begin
        next = state;
        if (!valid) begin
            next = state;
        end else if (!is_end) begin
            if (open) next[322 +: 64] = unmatched + 64'd1;
            next[0]        = 1'b1;
            next[386 +: 64] = now;
            next[2 +: 64]  = calls + 64'd1;
            if (!seen) next[130 +: 64] = now; // events arrive in time order
            next[1]        = 1'b1;
        end else begin
            if (open) begin
                next[66 +: 64] = busy + duration;
                if (LONGEST == 1 && duration > state[SW-1 -: 64]) next[SW-1 -: 64] = duration;
            end else begin
                next[322 +: 64] = unmatched + 64'd1;
            end
            next[0]         = 1'b0;
            next[194 +: 64] = now;
            next[258 +: 64] = sum_trips + {32'd0, trips};
        end
    end

endmodule

`resetall
