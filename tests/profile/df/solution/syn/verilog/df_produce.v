// Hand-written in the style of Vitis HLS RTL: the `produce` process of df (one-hot FSM of 3
// states; ap_ready as it takes its argument, ap_done in state 3).
`timescale 1 ns / 1 ps
module df_produce (ap_clk, ap_rst, ap_start, ap_done, ap_idle, ap_ready, n, c_din, c_full_n, c_write);
parameter    ap_ST_fsm_state1 = 3'd1;
parameter    ap_ST_fsm_state2 = 3'd2;
parameter    ap_ST_fsm_state3 = 3'd4;
input   ap_clk;
input   ap_rst;
input   ap_start;
output   ap_done;
output   ap_idle;
output   ap_ready;
input  [31:0] n;
output  [31:0] c_din;
input   c_full_n;
output   c_write;

reg   [2:0] ap_CS_fsm = 3'd1;
reg   [31:0] n_read_reg_40;
reg   [31:0] i_fu_30;
wire    icmp_ln3_fu_50_p2 = (i_fu_30 == n_read_reg_40);

always @ (posedge ap_clk) begin
    if (ap_rst == 1'b1) begin
        ap_CS_fsm <= ap_ST_fsm_state1;
    end else begin
        case (ap_CS_fsm)
            ap_ST_fsm_state1 : if (ap_start == 1'b1) begin
                n_read_reg_40 <= n;
                i_fu_30 <= 32'd0;
                ap_CS_fsm <= ap_ST_fsm_state2;
            end
            ap_ST_fsm_state2 : if (icmp_ln3_fu_50_p2) ap_CS_fsm <= ap_ST_fsm_state3;
                else if (c_full_n) i_fu_30 <= i_fu_30 + 32'd1;
            default : ap_CS_fsm <= ap_ST_fsm_state1;
        endcase
    end
end

assign ap_done = ap_CS_fsm[2];
assign ap_ready = ap_CS_fsm[0] & ap_start;
assign ap_idle = ap_CS_fsm[0] & ~ap_start;
assign c_write = ap_CS_fsm[1] & ~icmp_ln3_fu_50_p2 & c_full_n;
assign c_din = i_fu_30 * 32'd3;

endmodule
