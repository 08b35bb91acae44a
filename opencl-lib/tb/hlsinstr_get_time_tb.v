/*
 * Self-checking testbench of hlsinstr_get_time, for Icarus (iverilog -g2012) and Verilator
 * (verilator --binary --timing). Prints "PASS" and finishes; any failure prints "ERROR ..." and
 * ends with $fatal, so the simulator exits non-zero.
 *
 * Three instances run side by side with RESET_VALUE 0, 2^32 - 3 and 2^64 - 3 (carry into bit
 * 32 and the wrap at 2^64). A scoreboard checks every cycle against the stall-free, latency-1
 * protocol: iready always high, ovalid equal to last cycle's ivalid (low after a reset cycle),
 * and on ovalid, time_out equal to RESET_VALUE plus the cycles since reset in the calling
 * cycle. The sequence adds idle cycles, oready low (ignored) and a reset in the middle.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

// A testbench counts errors and drives its clock with blocking assignments on purpose.
/* verilator lint_off BLKSEQ */

module hlsinstr_get_time_tb;

localparam N = 3;
localparam [64*N-1:0] RV = {64'hFFFF_FFFF_FFFF_FFFD, 64'h0000_0000_FFFF_FFFD, 64'd0};

reg clock = 1'b0;
reg resetn = 1'b0;
reg ivalid = 1'b0;
reg oready = 1'b1;
reg [63:0] dep = 64'd0;

wire [N-1:0] iready;
wire [N-1:0] ovalid;
wire [64*N-1:0] time_out;

genvar g;
generate
    for (g = 0; g < N; g = g + 1) begin : dut
        hlsinstr_get_time #(.RESET_VALUE(RV[64*g +: 64])) u (
            .clock(clock), .resetn(resetn), .ivalid(ivalid), .iready(iready[g]),
            .ovalid(ovalid[g]), .oready(oready), .dep(dep), .time_out(time_out[64*g +: 64])
        );
    end
endgenerate

always #5 clock = !clock;

// Scoreboard state: cycles since reset in the previous cycle, last cycle's ivalid and resetn.
integer errors = 0;
integer calls = 0;
reg [63:0] since_reset = 64'd0;
reg [63:0] call_cycle = 64'd0;
reg prev_ivalid = 1'b0;
reg prev_resetn = 1'b0;

integer i;
integer j;
always @(posedge clock) begin
    // Values before this edge's updates: the result of last cycle's call.
    #1;
    for (i = 0; i < N; i = i + 1) begin
        if (iready[i] !== 1'b1) begin
            $display("ERROR: instance %0d: iready low", i);
            errors = errors + 1;
        end
        if (ovalid[i] !== (prev_ivalid && prev_resetn)) begin
            $display("ERROR: instance %0d: ovalid=%b, expected %b", i, ovalid[i], prev_ivalid && prev_resetn);
            errors = errors + 1;
        end
        if (ovalid[i] === 1'b1 && time_out[64*i +: 64] !== RV[64*i +: 64] + call_cycle) begin
            $display("ERROR: instance %0d: time %h, expected %h", i, time_out[64*i +: 64], RV[64*i +: 64] + call_cycle);
            errors = errors + 1;
        end
    end
    if (ovalid[0] === 1'b1) calls = calls + 1;
end

// The reference: the count the DUT held in the cycle that just ended.
always @(posedge clock) begin
    call_cycle <= since_reset;
    since_reset <= resetn ? since_reset + 64'd1 : 64'd0;
    prev_ivalid <= ivalid;
    prev_resetn <= resetn;
end

task cycles(input integer n);
    integer k;
    for (k = 0; k < n; k = k + 1) @(negedge clock);
endtask

initial begin
    cycles(3);
    resetn = 1'b1;
    // Back-to-back calls across the carry into bit 32 (instance 1) and the wrap (instance 2).
    ivalid = 1'b1;
    for (j = 0; j < 8; j = j + 1) begin
        dep = dep + 64'd7;
        cycles(1);
    end
    // Idle cycles: no call, the time base still counts.
    ivalid = 1'b0;
    cycles(5);
    // oready low is ignored.
    oready = 1'b0;
    ivalid = 1'b1;
    cycles(3);
    oready = 1'b1;
    // A literal check of the carry: instance 1 started at 2^32 - 3 and has counted past 2^32.
    if (time_out[127:96] !== 32'd1) begin
        $display("ERROR: no carry into bit 32: %h", time_out[64 +: 64]);
        errors = errors + 1;
    end
    // Reset in the middle of a run, with calls continuing through it.
    resetn = 1'b0;
    cycles(2);
    resetn = 1'b1;
    cycles(4);
    ivalid = 1'b0;
    cycles(2);
    ivalid = 1'b1;
    cycles(1);
    ivalid = 1'b0;
    cycles(3);
    if (calls != 16) begin
        $display("ERROR: %0d calls seen, expected 16", calls);
        errors = errors + 1;
    end
    if (errors == 0) begin
        $display("PASS");
        $finish;
    end else begin
        $fatal(1, "ERROR: %0d errors", errors);
    end
end

endmodule

`resetall
