// Testbench of the hand-written dataflow design (hlsinstr's profile test): reset, two calls (n = 3,
// then n = 5), each with ap_start held until ap_ready and then waited on to ap_done, idle cycles
// between. Prints PASS when both sums are right. The VCD goes to df.vcd in the working directory.
`timescale 1 ns / 1 ps
module df_tb;
reg ap_clk = 1'b0;
reg ap_rst = 1'b1;
reg ap_start = 1'b0;
reg [31:0] n = 32'd3;
wire ap_done, ap_idle, ap_ready, sum_ap_vld;
wire [31:0] sum;
integer c, k;
integer errors = 0;

df dut (.ap_clk(ap_clk), .ap_rst(ap_rst), .ap_start(ap_start), .ap_done(ap_done), .ap_idle(ap_idle),
        .ap_ready(ap_ready), .n(n), .sum(sum), .sum_ap_vld(sum_ap_vld));

always #5 ap_clk = ~ap_clk;

initial begin
    $dumpfile("df.vcd");
    $dumpvars(0, df_tb);
    for (c = 0; c < 2; c = c + 1) @(posedge ap_clk);
    #1 ap_rst = 1'b0;
    for (k = 0; k < 2; k = k + 1) begin
        for (c = 0; c < 3; c = c + 1) @(posedge ap_clk);
        #1 ap_start = 1'b1;
        @(posedge ap_clk);
        while (ap_ready !== 1'b1) @(posedge ap_clk);
        #1 ap_start = 1'b0;
        while (ap_done !== 1'b1) @(posedge ap_clk);
        // 0 + 3 + 6 = 9; 0 + 3 + 6 + 9 + 12 = 30
        if (sum !== (k == 0 ? 32'd9 : 32'd30)) begin $display("ERROR: sum = %0d", sum); errors = errors + 1; end
        #1 n = 32'd5;
    end
    if (errors == 0) $display("PASS");
    for (c = 0; c < 3; c = c + 1) @(posedge ap_clk);
    $finish;
end
endmodule
