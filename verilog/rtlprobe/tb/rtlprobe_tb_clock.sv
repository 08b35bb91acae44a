// rtlprobe_tb_clock: the clock for a testbench under Icarus (Verilator uses rtlprobe_tb_main.cpp):
// 10 cycles of reset, then at most MAX_CYCLES cycles (an error if the testbench never ends).
`timescale 1ns / 1ps
`default_nettype none

module rtlprobe_tb_clock;
    reg clk = 0, rst_n = 0;
    integer c;
    `TB_TOP tb (.clk(clk), .rst_n(rst_n));
    initial begin
        for (c = 0; c < `MAX_CYCLES; c = c + 1) begin
            if (c == 10) rst_n = 1;
            #5 clk = 1;
            #5 clk = 0;
        end
        $display("ERROR: no $finish after %0d cycles", `MAX_CYCLES);
        $finish;
    end
endmodule

`default_nettype wire
