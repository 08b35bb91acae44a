// rtlprobe_tb_observer: prints `EV <ID> S <cycle>` at each rising edge of `start` and
// `EV <ID> E <cycle>` at each rising edge of `done`: the waveform's own account of a call,
// independent of the probe IP, for the tests to compare with what the IP recorded.
`timescale 1ns / 1ps
`default_nettype none

module rtlprobe_tb_observer #(
    parameter integer ID = 0
) (
    input wire        clk,
    input wire        rst_n,
    input wire [63:0] cycle,
    input wire        start,
    input wire        done
);
    reg start_q, done_q;
    always @(posedge clk) begin
        if (!rst_n) begin
            start_q <= 0; done_q <= 0;
        end else begin
            start_q <= start; done_q <= done;
            if (start && !start_q) $display("EV %0d S %0d", ID, cycle);
            if (done && !done_q) $display("EV %0d E %0d", ID, cycle);
        end
    end
endmodule

`default_nettype wire
