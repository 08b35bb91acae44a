// rtlprobe_tb_df: drives the hand-written dataflow region tests/profile/df (`df`, ap_ctrl_hs; its
// processes `produce` and `consume` run at once, joined by a FIFO) for three calls, n = 3, 5 and
// 1, with or without its probes (+define+PROBED builds `df_rtlprobe`). Prints `SUM <call> <sum>`,
// the observers' `EV` lines (observe.svh, written by the test) and, probed, `I <info>` and
// `Q <probe> <status> <head_lo> <head_hi>` for every queue entry the host would read.
`timescale 1ns / 1ps
`default_nettype none

`ifdef PROBED
`define DESIGN dut.u_design
`else
`define DESIGN dut
`endif

module rtlprobe_tb_df (
    input wire clk,
    input wire rst_n
);
    wire ap_clk = clk;
    wire ap_rst = !rst_n;
    reg  ap_start;
    wire ap_done, ap_idle, ap_ready, sum_ap_vld;
    reg  [31:0] n;
    wire [31:0] sum;
    reg  [63:0] cycle;
    always @(posedge clk) cycle <= rst_n ? cycle + 64'd1 : 64'd0;

`ifdef PROBED
    `include "probe_host.svh"
    df_rtlprobe dut (.*);
`else
    df dut (.*);
`endif

    `include "observe.svh"

    reg [7:0]  pc;
    localparam [7:0] READOUT = 8'd9; // the first state of probe_readout.svh
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
                // Three calls, n = 3, 5, 1, three idle cycles apart; ap_start held until ap_ready
                // (both processes have started), then ap_done awaited (both have finished).
                0, 3, 6: begin n <= pc == 0 ? 32'd3 : pc == 3 ? 32'd5 : 32'd1; ap_start <= 1; pc <= pc + 1; end
                1, 4, 7: begin
                    if (ap_ready) ap_start <= 0;
                    if (ap_done) begin $display("SUM %0d %0d", pc / 3, sum); idle <= 3; pc <= pc + 1; end
                end
                2, 5, 8: if (idle == 0) pc <= pc + 1; else idle <= idle - 1;
`ifdef PROBED
                `include "probe_readout.svh"
`endif
                default: $finish;
            endcase
        end
    end
    wire unused_ok = &{1'b0, ap_idle, sum_ap_vld};
endmodule

`default_nettype wire
