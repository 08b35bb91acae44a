// Hand-written in Vitis' style: a loop nest in the one-hot FSM, then one call of loops_spin.
`timescale 1 ns / 1 ps

module loops (
        ap_clk,
        ap_rst,
        ap_start,
        ap_done,
        ap_idle,
        ap_ready,
        n,
        ap_return
);

parameter    ap_ST_fsm_state1 = 8'd1;
parameter    ap_ST_fsm_state2 = 8'd2;
parameter    ap_ST_fsm_state3 = 8'd4;
parameter    ap_ST_fsm_state4 = 8'd8;
parameter    ap_ST_fsm_state5 = 8'd16;
parameter    ap_ST_fsm_state6 = 8'd32;
parameter    ap_ST_fsm_state7 = 8'd64;
parameter    ap_ST_fsm_state8 = 8'd128;

input   ap_clk;
input   ap_rst;
input   ap_start;
output   ap_done;
output   ap_idle;
output   ap_ready;
input  [7:0] n;
output  [15:0] ap_return;

(* fsm_encoding = "none" *) reg   [7:0] ap_CS_fsm;
reg [7:0] i_reg;
reg [7:0] j_reg;
reg [15:0] acc_reg;
reg grp_loops_spin_fu_30_ap_start_reg;
wire grp_loops_spin_fu_30_ap_done;
wire grp_loops_spin_fu_30_ap_idle;
wire grp_loops_spin_fu_30_ap_ready;

loops_loops_spin grp_loops_spin_fu_30(
    .ap_clk(ap_clk),
    .ap_rst(ap_rst),
    .ap_start(grp_loops_spin_fu_30_ap_start_reg),
    .ap_done(grp_loops_spin_fu_30_ap_done),
    .ap_idle(grp_loops_spin_fu_30_ap_idle),
    .ap_ready(grp_loops_spin_fu_30_ap_ready),
    .m(acc_reg[3:0])
);

always @ (posedge ap_clk) begin
    if (ap_rst == 1'b1) begin
        ap_CS_fsm <= ap_ST_fsm_state1;
        grp_loops_spin_fu_30_ap_start_reg <= 1'b0;
        i_reg <= 8'd0;
        j_reg <= 8'd0;
        acc_reg <= 16'd0;
    end else begin
        case (ap_CS_fsm)
            ap_ST_fsm_state1: if (ap_start) begin
                ap_CS_fsm <= ap_ST_fsm_state2;
                i_reg <= 8'd0;
                acc_reg <= 16'd0;
            end
            ap_ST_fsm_state2: if (i_reg == n) ap_CS_fsm <= ap_ST_fsm_state6;
                else begin ap_CS_fsm <= ap_ST_fsm_state3; j_reg <= 8'd0; end
            ap_ST_fsm_state3: if (j_reg > i_reg) ap_CS_fsm <= ap_ST_fsm_state5;
                else ap_CS_fsm <= ap_ST_fsm_state4;
            ap_ST_fsm_state4: begin
                acc_reg <= acc_reg + {8'd0, i_reg} + {8'd0, j_reg};
                j_reg <= j_reg + 8'd1;
                ap_CS_fsm <= ap_ST_fsm_state3;
            end
            ap_ST_fsm_state5: begin i_reg <= i_reg + 8'd1; ap_CS_fsm <= ap_ST_fsm_state2; end
            ap_ST_fsm_state6: begin grp_loops_spin_fu_30_ap_start_reg <= 1'b1; ap_CS_fsm <= ap_ST_fsm_state7; end
            ap_ST_fsm_state7: begin
                grp_loops_spin_fu_30_ap_start_reg <= 1'b0;
                if (grp_loops_spin_fu_30_ap_done) ap_CS_fsm <= ap_ST_fsm_state8;
            end
            default: ap_CS_fsm <= ap_ST_fsm_state1;
        endcase
    end
end

assign ap_done = ap_CS_fsm[7];
assign ap_ready = ap_CS_fsm[7];
assign ap_idle = ap_CS_fsm[0] && !ap_start;
assign ap_return = acc_reg;

endmodule
