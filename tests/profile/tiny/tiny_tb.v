// Testbench of the hand-written tiny design (hlsinstr's profile test): reset, idle cycles, two
// calls back to back with n = 4 then n = 1 (ap_start held high across both ap_done), idle
// cycles, finish. Prints PASS when both results are right.
// The VCD goes to tiny.vcd in the working directory.
`timescale 1 ns / 1 ps
module tiny_tb;
reg ap_clk = 1'b0;
reg ap_rst = 1'b1;
reg ap_start = 1'b0;
reg [31:0] n = 32'd4;
wire ap_done, ap_idle, ap_ready, out_r_ap_vld;
wire [31:0] out_r;
integer c;
integer errors = 0;

tiny dut (.ap_clk(ap_clk), .ap_rst(ap_rst), .ap_start(ap_start), .ap_done(ap_done), .ap_idle(ap_idle),
          .ap_ready(ap_ready), .n(n), .out_r(out_r), .out_r_ap_vld(out_r_ap_vld));

always #5 ap_clk = ~ap_clk;

initial begin
    $dumpfile("tiny.vcd");
    $dumpvars(0, tiny_tb);
    for (c = 0; c < 2; c = c + 1) @(posedge ap_clk);
    #1 ap_rst = 1'b0;
    for (c = 0; c < 3; c = c + 1) @(posedge ap_clk);
    #1 ap_start = 1'b1;
    @(posedge ap_clk);
    while (ap_done !== 1'b1) @(posedge ap_clk);
    // acc: 0 -1 +3 -1 +3 = 4; helper adds 0+1+2 = 7
    if (out_r !== 32'd7) begin $display("ERROR: out_r = %0d, expected 7", out_r); errors = errors + 1; end
    // ap_start stays high: a second call follows at once, with n = 1.
    #1 n = 32'd1;
    @(posedge ap_clk);
    while (ap_done !== 1'b1) @(posedge ap_clk);
    #1 ap_start = 1'b0;
    // acc: 0 -1 = -1; helper adds 0+1+2 = 2
    if (out_r !== 32'd2) begin $display("ERROR: out_r = %0d, expected 2", out_r); errors = errors + 1; end
    if (errors == 0) $display("PASS");
    for (c = 0; c < 3; c = c + 1) @(posedge ap_clk);
    $finish;
end
endmodule
