// Hand-written in Vitis' style (ANSI header): waits n cycles, then calls mini_leaf once.
`timescale 1 ns / 1 ps

module mini_mini_sub (
    input wire ap_clk,
    input wire ap_rst,
    input wire ap_start,
    output wire ap_done,
    output wire ap_idle,
    output wire ap_ready,
    input wire [15:0] n,
    output wire [15:0] ap_return
);

reg [1:0] state;
reg [15:0] count;
reg grp_mini_leaf_fu_5_ap_start_reg;
wire grp_mini_leaf_fu_5_ap_done;
wire [15:0] grp_mini_leaf_fu_5_ap_return;

mini_mini_leaf grp_mini_leaf_fu_5 (
    .ap_clk(ap_clk),
    .ap_rst(ap_rst),
    .ap_start(grp_mini_leaf_fu_5_ap_start_reg),
    .ap_done(grp_mini_leaf_fu_5_ap_done),
    .ap_idle(),
    .ap_ready(),
    .v(count),
    .ap_return(grp_mini_leaf_fu_5_ap_return)
);

always @ (posedge ap_clk) begin
    if (ap_rst == 1'b1) begin
        state <= 2'd0;
        count <= 16'd0;
        grp_mini_leaf_fu_5_ap_start_reg <= 1'b0;
    end else begin
        case (state)
            2'd0: if (ap_start) begin state <= 2'd1; count <= n; end
            2'd1: if (count == 16'd0) begin
                      state <= 2'd2;
                      grp_mini_leaf_fu_5_ap_start_reg <= 1'b1;
                  end else count <= count - 16'd1;
            2'd2: begin
                      grp_mini_leaf_fu_5_ap_start_reg <= 1'b0;
                      if (grp_mini_leaf_fu_5_ap_done) state <= 2'd3;
                  end
            default: state <= 2'd0;
        endcase
    end
end

assign ap_done = (state == 2'd3);
assign ap_ready = ap_done;
assign ap_idle = (state == 2'd0) && !ap_start;
assign ap_return = n + 16'd100;

endmodule
