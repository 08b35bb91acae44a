// Self-checking testbench of the RTL estimate of one monitor slot: the numbers of the C++
// harness's scenarios (tests/hw/monitor_harness.cpp) for one probe.
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_monitor_slot_tb;
    reg clk = 1'b0, rst = 1'b1, valid = 1'b0, is_end = 1'b0;
    reg [31:0] trips = 32'd0;
    reg [63:0] now = 64'd0;
    wire [63:0] calls, busy, max_busy, first_start, last_end, trips_sum, unmatched, open_start;
    wire open;
    integer errors = 0;

    hlsinstr_monitor_slot #(.LONGEST(1)) dut (
        .clk(clk), .rst(rst), .valid(valid), .is_end(is_end), .trips(trips), .now(now),
        .calls_reg(calls), .busy_reg(busy), .max_busy_reg(max_busy), .first_start_reg(first_start),
        .last_end_reg(last_end), .trips_reg(trips_sum), .unmatched_reg(unmatched),
        .open_start_reg(open_start), .open_reg(open)
    );

    always #5 clk = ~clk;

    task post(input e, input [31:0] t, input [63:0] at);
        begin
            @(negedge clk);
            valid = 1'b1; is_end = e; trips = t; now = at;
            @(negedge clk);
            valid = 1'b0;
        end
    endtask

    task check(input [63:0] got, input [63:0] want, input [8*16-1:0] what);
        if (got !== want) begin
            errors = errors + 1;
            $display("FAIL %0s = %0d, want %0d", what, got, want);
        end
    endtask

    initial begin
        @(negedge clk); @(negedge clk); rst = 1'b0;
        check(first_start, {64{1'b1}}, "first_start");
        // Back to back (begin 10, end 11, trips 7), then begin 12, end 13 (trips 5).
        post(1'b0, 0, 10); post(1'b1, 7, 11); post(1'b0, 0, 12); post(1'b1, 5, 13);
        check(calls, 2, "calls"); check(busy, 2, "busy"); check(max_busy, 1, "max_busy");
        check(first_start, 10, "first_start"); check(last_end, 13, "last_end");
        check(trips_sum, 12, "trips"); check(unmatched, 0, "unmatched");
        // A long one across the 32-bit boundary, an end without a begin, a begin while open.
        post(1'b0, 0, 64'h0000_0000_FFFF_FFF0); post(1'b1, 0, 64'h0000_0001_0000_0010);
        check(busy, 2 + 64'h20, "busy long"); check(max_busy, 64'h20, "max_busy long");
        post(1'b1, 0, 64'h0000_0001_0000_0020);
        check(unmatched, 1, "unmatched end");
        post(1'b0, 0, 64'h0000_0001_0000_0030); post(1'b0, 0, 64'h0000_0001_0000_0031);
        check(unmatched, 2, "unmatched begin"); check(calls, 5, "calls"); check(open, 1, "open");
        // Reset mid-run clears everything.
        @(negedge clk); rst = 1'b1; @(negedge clk); rst = 1'b0;
        check(calls, 0, "calls after reset"); check(open, 0, "open after reset");
        if (errors == 0) $display("PASS");
        else $fatal(1, "%0d errors", errors);
        $finish;
    end
endmodule
