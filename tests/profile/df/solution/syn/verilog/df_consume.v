// Hand-written in the style of Vitis HLS RTL: the `consume` process of df (one-hot FSM of 3
// states; ap_ready as it takes its argument, the sum and ap_done in state 3).
`timescale 1 ns / 1 ps
module df_consume (ap_clk, ap_rst, ap_start, ap_done, ap_idle, ap_ready, n, c_dout, c_empty_n, c_read, sum,
                   sum_ap_vld);
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
input  [31:0] c_dout;
input   c_empty_n;
output   c_read;
output  [31:0] sum;
output   sum_ap_vld;

reg   [2:0] ap_CS_fsm = 3'd1;
reg   [31:0] n_read_reg_44;
reg   [31:0] i_fu_34;
reg   [31:0] s_fu_38;
wire    icmp_ln8_fu_60_p2 = (i_fu_34 == n_read_reg_44);

always @ (posedge ap_clk) begin
    if (ap_rst == 1'b1) begin
        ap_CS_fsm <= ap_ST_fsm_state1;
    end else begin
        case (ap_CS_fsm)
            ap_ST_fsm_state1 : if (ap_start == 1'b1) begin
                n_read_reg_44 <= n;
                i_fu_34 <= 32'd0;
                s_fu_38 <= 32'd0;
                ap_CS_fsm <= ap_ST_fsm_state2;
            end
            ap_ST_fsm_state2 : if (icmp_ln8_fu_60_p2) ap_CS_fsm <= ap_ST_fsm_state3;
                else if (c_empty_n) begin
                    i_fu_34 <= i_fu_34 + 32'd1;
                    s_fu_38 <= s_fu_38 + c_dout;
                end
            default : ap_CS_fsm <= ap_ST_fsm_state1;
        endcase
    end
end

assign ap_done = ap_CS_fsm[2];
assign ap_ready = ap_CS_fsm[0] & ap_start;
assign ap_idle = ap_CS_fsm[0] & ~ap_start;
assign c_read = ap_CS_fsm[1] & ~icmp_ln8_fu_60_p2 & c_empty_n;
assign sum = s_fu_38;
assign sum_ap_vld = ap_CS_fsm[2];

endmodule
