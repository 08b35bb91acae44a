// rtlprobe_tb_fsm_observer: the waveform's own account of a loop of an FSM, independent of the
// probe IP: `EV <ID> S <cycle>` in the first cycle `active` (the FSM in one of the loop's states)
// is high, `EV <ID> E <cycle>` in the first cycle it is low again, and `HV <ID> <cycle>` at each
// entry into the loop's header state.
`timescale 1ns / 1ps
`default_nettype none

module rtlprobe_tb_fsm_observer #(
    parameter integer ID = 0
) (
    input wire        clk,
    input wire        rst_n,
    input wire [63:0] cycle,
    input wire        active,
    input wire        header
);
    reg active_q, header_q;
    always @(posedge clk) begin
        if (!rst_n) begin
            active_q <= 0; header_q <= 0;
        end else begin
            active_q <= active; header_q <= header;
            if (active && !active_q) $display("EV %0d S %0d", ID, cycle);
            if (!active && active_q) $display("EV %0d E %0d", ID, cycle);
            if (header && !header_q) $display("HV %0d %0d", ID, cycle);
        end
    end
endmodule

`default_nettype wire
