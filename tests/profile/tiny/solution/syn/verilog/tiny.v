// Hand-written in the style of Vitis HLS RTL for hlsinstr's profile test: a one-hot FSM of 4
// states, a pipelined sub-module (tiny_helper) and one that this run never starts (tiny_unused).
`timescale 1 ns / 1 ps
module tiny (ap_clk, ap_rst, ap_start, ap_done, ap_idle, ap_ready, n, out_r, out_r_ap_vld);
parameter    ap_ST_fsm_state1 = 4'd1;
parameter    ap_ST_fsm_state2 = 4'd2;
parameter    ap_ST_fsm_state3 = 4'd4;
parameter    ap_ST_fsm_state4 = 4'd8;
input   ap_clk;
input   ap_rst;
input   ap_start;
output   ap_done;
output   ap_idle;
output   ap_ready;
input  [31:0] n;
output  [31:0] out_r;
output   out_r_ap_vld;

(* fsm_encoding = "none" *) reg   [3:0] ap_CS_fsm;
reg   [31:0] i;
reg   [31:0] acc;
reg   icmp_ln11_reg_50;
reg   grp_tiny_helper_fu_60_ap_start_reg;
wire   grp_tiny_helper_fu_60_ap_done;
wire  [31:0] grp_tiny_helper_fu_60_ap_return;
wire   grp_tiny_unused_fu_70_ap_start;
wire   grp_tiny_unused_fu_70_ap_done;
wire  [31:0] grp_tiny_unused_fu_70_ap_return;
wire   exitcond_fu_30_p2;
wire   tmp_odd_fu_36_p1;

initial begin
#0 ap_CS_fsm = 4'd1;
#0 grp_tiny_helper_fu_60_ap_start_reg = 1'b0;
end

tiny_helper grp_tiny_helper_fu_60(
    .ap_clk(ap_clk),
    .ap_rst(ap_rst),
    .ap_start(grp_tiny_helper_fu_60_ap_start_reg),
    .ap_done(grp_tiny_helper_fu_60_ap_done),
    .ap_idle(),
    .ap_ready(),
    .x(acc),
    .ap_return(grp_tiny_helper_fu_60_ap_return)
);

tiny_unused grp_tiny_unused_fu_70(
    .ap_clk(ap_clk),
    .ap_rst(ap_rst),
    .ap_start(grp_tiny_unused_fu_70_ap_start),
    .ap_done(grp_tiny_unused_fu_70_ap_done),
    .ap_idle(),
    .ap_ready(),
    .x(acc),
    .ap_return(grp_tiny_unused_fu_70_ap_return)
);

assign exitcond_fu_30_p2 = (i == n);
assign tmp_odd_fu_36_p1 = i[0];
assign grp_tiny_unused_fu_70_ap_start = ap_CS_fsm[2] & icmp_ln11_reg_50;

always @ (posedge ap_clk) begin
    if (ap_rst == 1'b1) begin
        ap_CS_fsm <= ap_ST_fsm_state1;
        grp_tiny_helper_fu_60_ap_start_reg <= 1'b0;
    end else begin
        case (ap_CS_fsm)
            ap_ST_fsm_state1 : begin
                if (ap_start == 1'b1) begin
                    i <= 32'd0;
                    acc <= 32'd0;
                    icmp_ln11_reg_50 <= ($signed(n) > 32'sd100);
                    ap_CS_fsm <= ap_ST_fsm_state2;
                end
            end
            ap_ST_fsm_state2 : begin
                if (exitcond_fu_30_p2 == 1'b1) begin
                    grp_tiny_helper_fu_60_ap_start_reg <= 1'b1;
                    ap_CS_fsm <= ap_ST_fsm_state3;
                end else begin
                    acc <= (tmp_odd_fu_36_p1 == 1'b1) ? (acc + 32'd3) : (acc - 32'd1);
                    i <= i + 32'd1;
                end
            end
            ap_ST_fsm_state3 : begin
                if (grp_tiny_helper_fu_60_ap_done == 1'b1) begin
                    grp_tiny_helper_fu_60_ap_start_reg <= 1'b0;
                    acc <= grp_tiny_helper_fu_60_ap_return;
                    ap_CS_fsm <= ap_ST_fsm_state4;
                end
            end
            default : begin
                ap_CS_fsm <= ap_ST_fsm_state1;
            end
        endcase
    end
end

assign ap_done = ap_CS_fsm[3];
assign ap_ready = ap_CS_fsm[3];
assign ap_idle = ap_CS_fsm[0] & ~ap_start;
assign out_r = acc;
assign out_r_ap_vld = ap_CS_fsm[3];

endmodule
