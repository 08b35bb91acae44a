// Hand-written in the style of Vitis HLS RTL: a binary-encoded FSM of 3 states; the test's run
// never starts it, so its state 1 must count for nothing.
`timescale 1 ns / 1 ps
module tiny_unused (ap_clk, ap_rst, ap_start, ap_done, ap_idle, ap_ready, x, ap_return);
parameter    ap_ST_fsm_state1 = 2'd0;
parameter    ap_ST_fsm_state2 = 2'd1;
parameter    ap_ST_fsm_state3 = 2'd2;
input   ap_clk;
input   ap_rst;
input   ap_start;
output   ap_done;
output   ap_idle;
output   ap_ready;
input  [31:0] x;
output  [31:0] ap_return;

reg   [1:0] ap_CS_fsm;
reg   [31:0] x_read_reg_20;

initial begin
#0 ap_CS_fsm = 2'd0;
end

always @ (posedge ap_clk) begin
    if (ap_rst == 1'b1) begin
        ap_CS_fsm <= ap_ST_fsm_state1;
    end else begin
        case (ap_CS_fsm)
            ap_ST_fsm_state1 : if (ap_start == 1'b1) begin
                x_read_reg_20 <= x;
                ap_CS_fsm <= ap_ST_fsm_state2;
            end
            ap_ST_fsm_state2 : ap_CS_fsm <= ap_ST_fsm_state3;
            default : ap_CS_fsm <= ap_ST_fsm_state1;
        endcase
    end
end

assign ap_done = (ap_CS_fsm == ap_ST_fsm_state3);
assign ap_ready = ap_done;
assign ap_idle = (ap_CS_fsm == ap_ST_fsm_state1) & ~ap_start;
assign ap_return = x_read_reg_20 << 1;

endmodule
