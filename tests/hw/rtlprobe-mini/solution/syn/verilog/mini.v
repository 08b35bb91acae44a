// Hand-written in Vitis' style: the top calls mini_sub 3 times, with n = 1, 2, 3.
`timescale 1 ns / 1 ps

module mini (
        ap_clk,
        ap_rst,
        ap_start,
        ap_done,
        ap_idle,
        ap_ready,
        x,
        y
);

parameter    ap_ST_fsm_state1 = 3'd1;
parameter    ap_ST_fsm_state2 = 3'd2;
parameter    ap_ST_fsm_state3 = 3'd4;
parameter    W = 16;

input   ap_clk;
input   ap_rst;
input   ap_start;
output   ap_done;
output   ap_idle;
output   ap_ready;
input  [W - 1:0] x;
output  [W - 1:0] y;

reg [2:0] ap_CS_fsm;
reg [1:0] i_reg;
reg [W - 1:0] acc_reg;
reg grp_mini_sub_fu_10_ap_start_reg;
wire grp_mini_sub_fu_10_ap_done;
wire grp_mini_sub_fu_10_ap_idle;
wire grp_mini_sub_fu_10_ap_ready;
wire [W - 1:0] grp_mini_sub_fu_10_ap_return;

mini_mini_sub grp_mini_sub_fu_10(
    .ap_clk(ap_clk),
    .ap_rst(ap_rst),
    .ap_start(grp_mini_sub_fu_10_ap_start_reg),
    .ap_done(grp_mini_sub_fu_10_ap_done),
    .ap_idle(grp_mini_sub_fu_10_ap_idle),
    .ap_ready(grp_mini_sub_fu_10_ap_ready),
    .n({{14'd0}, i_reg}),
    .ap_return(grp_mini_sub_fu_10_ap_return)
);

always @ (posedge ap_clk) begin
    if (ap_rst == 1'b1) begin
        ap_CS_fsm <= ap_ST_fsm_state1;
        grp_mini_sub_fu_10_ap_start_reg <= 1'b0;
        i_reg <= 2'd0;
        acc_reg <= {W{1'b0}};
    end else begin
        case (ap_CS_fsm)
            ap_ST_fsm_state1: if (ap_start) begin
                ap_CS_fsm <= ap_ST_fsm_state2;
                i_reg <= 2'd1;
                acc_reg <= x;
            end
            ap_ST_fsm_state2: begin
                grp_mini_sub_fu_10_ap_start_reg <= 1'b1;
                ap_CS_fsm <= ap_ST_fsm_state3;
            end
            default: begin
                if (grp_mini_sub_fu_10_ap_ready) grp_mini_sub_fu_10_ap_start_reg <= 1'b0;
                if (grp_mini_sub_fu_10_ap_done) begin
                    acc_reg <= acc_reg + grp_mini_sub_fu_10_ap_return;
                    i_reg <= i_reg + 2'd1;
                    ap_CS_fsm <= (i_reg == 2'd3) ? ap_ST_fsm_state1 : ap_ST_fsm_state2;
                end
            end
        endcase
    end
end

assign ap_done = (ap_CS_fsm == ap_ST_fsm_state3) && grp_mini_sub_fu_10_ap_done && i_reg == 2'd3;
assign ap_ready = ap_done;
assign ap_idle = (ap_CS_fsm == ap_ST_fsm_state1) && !ap_start;
assign y = acc_reg;

endmodule //mini
