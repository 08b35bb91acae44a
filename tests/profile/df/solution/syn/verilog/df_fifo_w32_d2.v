// Hand-written: a 2-deep FIFO channel in the style of Vitis' `*_fifo_w32_d2_S` (not scheduled).
`timescale 1 ns / 1 ps
module df_fifo_w32_d2 (clk, reset, if_din, if_write, if_full_n, if_dout, if_read, if_empty_n);
input   clk;
input   reset;
input  [31:0] if_din;
input   if_write;
output   if_full_n;
output  [31:0] if_dout;
input   if_read;
output   if_empty_n;
reg [31:0] mem0, mem1;
reg [1:0] count = 2'd0;
wire push = if_write & if_full_n;
wire pop = if_read & if_empty_n;
assign if_full_n = count != 2'd2;
assign if_empty_n = count != 2'd0;
assign if_dout = mem0;
always @ (posedge clk) begin
    if (reset) count <= 2'd0;
    else case ({push, pop})
        2'b10: begin
            if (count == 2'd0) mem0 <= if_din; else mem1 <= if_din;
            count <= count + 2'd1;
        end
        2'b01: begin
            mem0 <= mem1;
            count <= count - 2'd1;
        end
        2'b11: mem0 <= if_din;  // count is 1: the one element leaves, the new one takes its place
        default: ;
    endcase
end
endmodule
