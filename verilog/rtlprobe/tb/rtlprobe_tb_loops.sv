// rtlprobe_tb_loops: drives tests/hw/rtlprobe-loops (`loops`, ap_ctrl_hs) for two calls (n = 3, 4), with or
// without its probes (+define+PROBED builds `loops_rtlprobe`). Prints `Y <call> <ap_return>`, the
// observers' `EV` lines (observe.svh, written by the test) and, probed, `Q <probe> <status>
// <head_lo> <head_hi>` for every queue entry the host would read.
`timescale 1ns / 1ps
`default_nettype none

`ifdef PROBED
`define DESIGN dut.u_design
`else
`define DESIGN dut
`endif

module rtlprobe_tb_loops (
    input wire clk,
    input wire rst_n
);
    wire ap_clk = clk;
    wire ap_rst = !rst_n;
    reg  ap_start;
    wire ap_done, ap_idle, ap_ready;
    reg  [7:0] n;
    wire [15:0] ap_return;
    reg  [63:0] cycle;
    always @(posedge clk) cycle <= rst_n ? cycle + 64'd1 : 64'd0;

`ifdef PROBED
    `include "probe_host.svh"
    loops_rtlprobe dut (.*);
`else
    loops dut (.*);
`endif

    `include "observe.svh"

    reg [7:0]  pc;
    localparam [7:0] READOUT = 8'd5; // the first state of probe_readout.svh
    reg [7:0]  idle;
    reg [15:0] probe, entry, depth;
    reg [31:0] status, lo;
    reg        waiting;
    always @(posedge clk) begin
`ifdef PROBED
        p_go <= 0;
`endif
        if (!rst_n) begin
            pc <= 0; ap_start <= 0; n <= 0; idle <= 0; waiting <= 0;
        end else if (waiting) begin
`ifdef PROBED
            if (p_done) waiting <= 0;
`endif
        end else begin
            case (pc)
                // Two calls, three idle cycles apart; ap_start held until ap_ready.
                0, 2: begin n <= 8'd3 + pc / 2; ap_start <= 1; pc <= pc + 1; end
                1, 3: begin
                    if (ap_ready) ap_start <= 0;
                    if (ap_done) begin $display("Y %0d %0d", pc / 2, ap_return); idle <= 3; pc <= pc + 1; end
                end
                4: if (idle == 0) pc <= 5; else idle <= idle - 1;
`ifdef PROBED
                `include "probe_readout.svh"
`endif
                default: $finish;
            endcase
        end
    end
    // Two of these Y's come from a two-call run of the original: the probed one must match.
    wire unused_ok = &{1'b0, ap_idle};
endmodule

`default_nettype wire
