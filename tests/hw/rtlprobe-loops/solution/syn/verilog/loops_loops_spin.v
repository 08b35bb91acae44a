// Hand-written in Vitis' style (ANSI header, binary FSM): waits m cycles in a one-state loop.
`timescale 1 ns / 1 ps

module loops_loops_spin (
    input wire ap_clk,
    input wire ap_rst,
    input wire ap_start,
    output wire ap_done,
    output wire ap_idle,
    output wire ap_ready,
    input wire [3:0] m
);

parameter    ap_ST_fsm_state1 = 2'd0;
parameter    ap_ST_fsm_state2 = 2'd1;
parameter    ap_ST_fsm_state3 = 2'd2;

reg [1:0] ap_CS_fsm;
reg [3:0] count;

always @ (posedge ap_clk) begin
    if (ap_rst == 1'b1) begin
        ap_CS_fsm <= ap_ST_fsm_state1;
        count <= 4'd0;
    end else begin
        case (ap_CS_fsm)
            ap_ST_fsm_state1: if (ap_start) begin ap_CS_fsm <= ap_ST_fsm_state2; count <= m; end
            ap_ST_fsm_state2: if (count == 4'd0) ap_CS_fsm <= ap_ST_fsm_state3; else count <= count - 4'd1;
            default: ap_CS_fsm <= ap_ST_fsm_state1;
        endcase
    end
end

assign ap_done = (ap_CS_fsm == ap_ST_fsm_state3);
assign ap_ready = ap_done;
assign ap_idle = (ap_CS_fsm == ap_ST_fsm_state1) && !ap_start;

endmodule
