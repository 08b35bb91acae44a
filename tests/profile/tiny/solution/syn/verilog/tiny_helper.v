// Hand-written in the style of a Vitis HLS pipelined loop module: one FSM state (pp0_stage0),
// iterations tracked by ap_enable_reg_pp0_iterN; 3 iterations, II=1, depth 2.
`timescale 1 ns / 1 ps
module tiny_helper (ap_clk, ap_rst, ap_start, ap_done, ap_idle, ap_ready, x, ap_return);
parameter    ap_ST_fsm_pp0_stage0 = 1'd1;
input   ap_clk;
input   ap_rst;
input   ap_start;
output   ap_done;
output   ap_idle;
output   ap_ready;
input  [31:0] x;
output  [31:0] ap_return;

(* fsm_encoding = "none" *) reg   [0:0] ap_CS_fsm;
reg   [1:0] k;
reg   ap_enable_reg_pp0_iter1;
reg   last_reg_pp0_iter1;
reg   [1:0] k_reg_pp0_iter1;
reg   [31:0] x_acc;
wire   ap_enable_reg_pp0_iter0;
wire   icmp_ln21_fu_20_p2;

initial begin
#0 ap_CS_fsm = 1'd1;
#0 k = 2'd0;
#0 ap_enable_reg_pp0_iter1 = 1'b0;
#0 last_reg_pp0_iter1 = 1'b0;
end

assign icmp_ln21_fu_20_p2 = (k == 2'd3);
assign ap_enable_reg_pp0_iter0 = ap_start & ~icmp_ln21_fu_20_p2;

always @ (posedge ap_clk) begin
    if (ap_rst == 1'b1) begin
        ap_CS_fsm <= ap_ST_fsm_pp0_stage0;
        k <= 2'd0;
        ap_enable_reg_pp0_iter1 <= 1'b0;
        last_reg_pp0_iter1 <= 1'b0;
    end else begin
        ap_enable_reg_pp0_iter1 <= ap_enable_reg_pp0_iter0;
        last_reg_pp0_iter1 <= ap_enable_reg_pp0_iter0 & (k == 2'd2);
        k_reg_pp0_iter1 <= k;
        if (ap_done == 1'b1) begin
            k <= 2'd0;
        end else if (ap_enable_reg_pp0_iter0 == 1'b1) begin
            k <= k + 2'd1;
        end
        if (ap_enable_reg_pp0_iter0 == 1'b1 && k == 2'd0) begin
            x_acc <= x;
        end else if (ap_enable_reg_pp0_iter1 == 1'b1) begin
            x_acc <= x_acc + {30'd0, k_reg_pp0_iter1};
        end
    end
end

assign ap_done = ap_enable_reg_pp0_iter1 & last_reg_pp0_iter1;
assign ap_ready = ap_done;
assign ap_idle = ~ap_start & ~ap_enable_reg_pp0_iter1;
assign ap_return = x_acc + {30'd0, k_reg_pp0_iter1};

endmodule
