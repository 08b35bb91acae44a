// Hand-written in the style of Vitis HLS RTL for a dataflow region: no FSM of its own; the two
// processes start together (each once per call, `ap_sync_*` registers), ap_ready when both have
// been ready (they take their arguments as they start), ap_done when both have been done. The
// channel between them is a 2-deep FIFO.
`timescale 1 ns / 1 ps
module df (ap_clk, ap_rst, ap_start, ap_done, ap_idle, ap_ready, n, sum, sum_ap_vld);
input   ap_clk;
input   ap_rst;
input   ap_start;
output   ap_done;
output   ap_idle;
output   ap_ready;
input  [31:0] n;
output  [31:0] sum;
output   sum_ap_vld;

wire    produce_U0_ap_start, produce_U0_ap_done, produce_U0_ap_idle, produce_U0_ap_ready;
wire    consume_U0_ap_start, consume_U0_ap_done, consume_U0_ap_idle, consume_U0_ap_ready;
wire   [31:0] c_din, c_dout;
wire    c_write, c_full_n, c_read, c_empty_n;
reg     ap_sync_reg_produce_U0_ap_ready = 1'b0;
reg     ap_sync_reg_consume_U0_ap_ready = 1'b0;
reg     ap_sync_reg_produce_U0_ap_done = 1'b0;
reg     ap_sync_reg_consume_U0_ap_done = 1'b0;
wire    ap_sync_produce_U0_ap_ready = produce_U0_ap_ready | ap_sync_reg_produce_U0_ap_ready;
wire    ap_sync_consume_U0_ap_ready = consume_U0_ap_ready | ap_sync_reg_consume_U0_ap_ready;
wire    ap_sync_produce_U0_ap_done = produce_U0_ap_done | ap_sync_reg_produce_U0_ap_done;
wire    ap_sync_consume_U0_ap_done = consume_U0_ap_done | ap_sync_reg_consume_U0_ap_done;

df_produce produce_U0 (.ap_clk(ap_clk), .ap_rst(ap_rst), .ap_start(produce_U0_ap_start),
    .ap_done(produce_U0_ap_done), .ap_idle(produce_U0_ap_idle), .ap_ready(produce_U0_ap_ready), .n(n),
    .c_din(c_din), .c_full_n(c_full_n), .c_write(c_write));
df_consume consume_U0 (.ap_clk(ap_clk), .ap_rst(ap_rst), .ap_start(consume_U0_ap_start),
    .ap_done(consume_U0_ap_done), .ap_idle(consume_U0_ap_idle), .ap_ready(consume_U0_ap_ready), .n(n),
    .c_dout(c_dout), .c_empty_n(c_empty_n), .c_read(c_read), .sum(sum), .sum_ap_vld(sum_ap_vld));
df_fifo_w32_d2 c_U (.clk(ap_clk), .reset(ap_rst), .if_din(c_din), .if_write(c_write), .if_full_n(c_full_n),
    .if_dout(c_dout), .if_read(c_read), .if_empty_n(c_empty_n));

always @ (posedge ap_clk) begin
    if (ap_rst == 1'b1 || ap_ready == 1'b1) begin
        ap_sync_reg_produce_U0_ap_ready <= 1'b0;
        ap_sync_reg_consume_U0_ap_ready <= 1'b0;
    end else begin
        if (produce_U0_ap_ready) ap_sync_reg_produce_U0_ap_ready <= 1'b1;
        if (consume_U0_ap_ready) ap_sync_reg_consume_U0_ap_ready <= 1'b1;
    end
    if (ap_rst == 1'b1 || ap_done == 1'b1) begin
        ap_sync_reg_produce_U0_ap_done <= 1'b0;
        ap_sync_reg_consume_U0_ap_done <= 1'b0;
    end else begin
        if (produce_U0_ap_done) ap_sync_reg_produce_U0_ap_done <= 1'b1;
        if (consume_U0_ap_done) ap_sync_reg_consume_U0_ap_done <= 1'b1;
    end
end

assign produce_U0_ap_start = ap_start & ~ap_sync_reg_produce_U0_ap_ready;
assign consume_U0_ap_start = ap_start & ~ap_sync_reg_consume_U0_ap_ready;
assign ap_ready = ap_sync_produce_U0_ap_ready & ap_sync_consume_U0_ap_ready;
assign ap_done = ap_sync_produce_U0_ap_done & ap_sync_consume_U0_ap_done;
assign ap_idle = produce_U0_ap_idle & consume_U0_ap_idle & ~ap_start;

endmodule
