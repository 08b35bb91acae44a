// hlsinstr_monitor_front: one probe's front stage of the in-FPGA monitor (`hlsinstr::hw::front`
// in hls-lib/include/hlsinstr/hw/monitor.h), written by hand to estimate what a probe costs. It
// holds at most one event for the shared accumulator, stamped when read from the probe's FIFO.
// The FIFO is read (never waited on) when the holder is free or is being emptied this cycle.
//
// Per probe: the 97-bit holder (flip-flops with a clock enable) and three LUTs of control; the
// holder's share of the event multiplexer is counted in hlsinstr_monitor_shared.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_monitor_front #(
    // 1: an event's time is its own timestamp (`timestamps` probes); 0: the monitor's cycle.
    parameter integer EVENT_TIME = 0
) (
    input  wire        clk,
    input  wire        rst,         // synchronous, active high
    input  wire        fifo_valid,  // the probe's FIFO is not empty
    input  wire [96:0] fifo_data,   // {is_end, trips[31:0], time[63:0]}
    output wire        fifo_read,   // take fifo_data this cycle
    input  wire        granted,     // the accumulator takes the held event this cycle
    input  wire [63:0] cycle,       // the monitor's cycle counter
    output reg         held_valid_reg,
    output reg  [96:0] held_reg,    // {is_end, trips, time}, time already stamped
    output wire        urgent,      // holding, with another event waiting behind
    output wire        late         // an event waits in the FIFO while another probe is served
);

    initial begin
        if (EVENT_TIME != 0 && EVENT_TIME != 1) $error("EVENT_TIME must be 0 or 1");
    end

    assign fifo_read = fifo_valid && (!held_valid_reg || granted);
    assign urgent    = held_valid_reg && fifo_valid;
    assign late      = urgent && !granted;

    wire [63:0] stamp;
    generate
        if (EVENT_TIME == 1) begin : own
            assign stamp = fifo_data[63:0];
            wire unused_cycle = &{1'b0, cycle};
        end else begin : read_cycle
            assign stamp = cycle;
            wire unused_time = &{1'b0, fifo_data[63:0]};
        end
    endgenerate

    always @(posedge clk) begin
        if (rst)                              held_valid_reg <= 1'b0;
        else if (!held_valid_reg || granted)  held_valid_reg <= fifo_valid;
    end

    always @(posedge clk) begin
        if (fifo_read) held_reg <= {fifo_data[96:64], stamp};
    end

endmodule

`resetall
