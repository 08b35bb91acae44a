/*
 * Self-checking testbench of hlsinstr_counter, for Icarus (iverilog -g2012) and Verilator
 * (verilator --binary --timing). Prints "PASS" and finishes; any failure prints "ERROR ..." and
 * ends with $fatal, so the simulator exits non-zero.
 *
 * Three copies run side by side with RESET_VALUE 0, 2^32 - 3 and 2^64 - 3 (carry into bit 32
 * and wrap at 2^64). A scoreboard checks every cycle: ap_ready, ap_done, ap_idle, ts_ap_vld
 * and ts against the ap_ctrl_chain protocol at latency 1, with ts equal to RESET_VALUE plus
 * the cycles since reset in the accepting cycle. The sequence adds literal checks: the carry,
 * idle cycles, ap_ce low (the time base still counts), ap_continue low (the result is held)
 * and a reset in the middle of a run.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

// A testbench counts errors and drives its clock with blocking assignments on purpose.
/* verilator lint_off BLKSEQ */

module hlsinstr_counter_tb;

localparam N = 3;
localparam [63:0] RV0 = 64'd0;
localparam [63:0] RV1 = 64'h0000_0000_FFFF_FFFD;
localparam [63:0] RV2 = 64'hFFFF_FFFF_FFFF_FFFD;

reg clk = 1'b0;
reg rst = 1'b1;
reg ce = 1'b1;
reg start = 1'b0;
reg cont = 1'b1;
reg [63:0] dep = 64'd0;

wire [N-1:0] ready;
wire [N-1:0] done;
wire [N-1:0] idle;
wire [N-1:0] vld;
wire [64*N-1:0] ts;

hlsinstr_counter #(.RESET_VALUE(RV0)) dut0 (
    .ap_clk(clk), .ap_rst(rst), .ap_ce(ce), .ap_start(start), .ap_ready(ready[0]),
    .ap_done(done[0]), .ap_idle(idle[0]), .ap_continue(cont), .dep(dep),
    .ts(ts[0*64 +: 64]), .ts_ap_vld(vld[0])
);

hlsinstr_counter #(.RESET_VALUE(RV1)) dut1 (
    .ap_clk(clk), .ap_rst(rst), .ap_ce(ce), .ap_start(start), .ap_ready(ready[1]),
    .ap_done(done[1]), .ap_idle(idle[1]), .ap_continue(cont), .dep(dep),
    .ts(ts[1*64 +: 64]), .ts_ap_vld(vld[1])
);

hlsinstr_counter #(.RESET_VALUE(RV2)) dut2 (
    .ap_clk(clk), .ap_rst(rst), .ap_ce(ce), .ap_start(start), .ap_ready(ready[2]),
    .ap_done(done[2]), .ap_idle(idle[2]), .ap_continue(cont), .dep(dep),
    .ts(ts[2*64 +: 64]), .ts_ap_vld(vld[2])
);

always #5 clk = !clk;

function [63:0] reset_value(input integer i);
    begin
        case (i)
            0: reset_value = RV0;
            1: reset_value = RV1;
            default: reset_value = RV2;
        endcase
    end
endfunction

function [63:0] ts_of(input integer i);
    begin
        ts_of = ts[i*64 +: 64];
    end
endfunction

integer errors = 0;

task fail(input [8*64-1:0] what);
    begin
        $display("ERROR at %0t: %0s", $time, what);
        errors = errors + 1;
    end
endtask

// ---- Scoreboard: the protocol at latency 1, checked on every rising edge ----

reg [63:0] edges_reg = 64'd0;   // rising edges since the last one with rst high
reg pending_reg = 1'b0;         // a result must be visible in this cycle
reg [63:0] want_edges_reg = 64'd0;
integer accepted = 0;

always @(posedge clk) begin : scoreboard
    integer i;
    reg want_ready;
    want_ready = start && ce && (!pending_reg || cont);
    if (!rst) begin
        if (ready !== {N{want_ready}}) fail("ap_ready");
        if (done !== {N{pending_reg}}) fail("ap_done");
        if (vld !== {N{pending_reg}}) fail("ts_ap_vld");
        if (idle !== {N{!start && !pending_reg}}) fail("ap_idle");
        if (pending_reg) begin
            for (i = 0; i < N; i = i + 1) begin
                if (ts_of(i) !== reset_value(i) + want_edges_reg) begin
                    $display("ERROR at %0t: copy %0d ts %h, want %h", $time, i, ts_of(i),
                             reset_value(i) + want_edges_reg);
                    errors = errors + 1;
                end
            end
        end
    end
    edges_reg <= rst ? 64'd0 : edges_reg + 64'd1;
    if (rst) begin
        pending_reg <= 1'b0;
    end else if (ce) begin
        if (want_ready) begin
            pending_reg <= 1'b1;
            want_edges_reg <= edges_reg;
            accepted = accepted + 1;
        end else if (cont) begin
            pending_reg <= 1'b0;
        end
    end
    // The dependence input changes every cycle; it must never matter.
    dep <= {dep[62:0], dep[63] ^ dep[62] ^ dep[60] ^ dep[59]} ^ 64'h9E37_79B9_7F4A_7C15;
end

// ---- The sequence: inputs change on falling edges ----

task cycles(input integer n);
    integer k;
    begin
        for (k = 0; k < n; k = k + 1) @(negedge clk);
    end
endtask

// Checks, between edges, that every copy shows a result equal to its literal.
task expect_ts(input [63:0] w0, input [63:0] w1, input [63:0] w2);
    begin
        if (done !== {N{1'b1}}) fail("expected a result");
        if (ts_of(0) !== w0 || ts_of(1) !== w1 || ts_of(2) !== w2) begin
            $display("ERROR at %0t: ts %h %h %h, want %h %h %h", $time, ts_of(0), ts_of(1),
                     ts_of(2), w0, w1, w2);
            errors = errors + 1;
        end
    end
endtask

// One call: start for one cycle; returns the three results (valid until the next call).
reg [64*N-1:0] got;
task call;
    begin
        start = 1'b1;
        @(negedge clk);
        start = 1'b0;
        if (done !== {N{1'b1}}) fail("call: no result one cycle after start");
        got = ts;
    end
endtask

reg [64*N-1:0] first;

// Checks that every copy counted exactly n cycles between the results `first` and `got`.
task expect_gap(input [63:0] n);
    integer i;
    begin
        for (i = 0; i < N; i = i + 1) begin
            if (got[i*64 +: 64] - first[i*64 +: 64] !== n) begin
                $display("ERROR at %0t: copy %0d counted %0d cycles, want %0d", $time, i,
                         got[i*64 +: 64] - first[i*64 +: 64], n);
                errors = errors + 1;
            end
        end
    end
endtask

initial begin : watchdog
    #100000;
    $display("ERROR: timeout");
    $fatal(1, "timeout");
end

initial begin : sequence_
    // Reset, then calls back to back from the first cycle: carry into bit 32, wrap at 2^64.
    cycles(3);
    rst = 1'b0;
    start = 1'b1;
    @(negedge clk);
    expect_ts(64'd0, 64'h0000_0000_FFFF_FFFD, 64'hFFFF_FFFF_FFFF_FFFD);
    @(negedge clk);
    expect_ts(64'd1, 64'h0000_0000_FFFF_FFFE, 64'hFFFF_FFFF_FFFF_FFFE);
    @(negedge clk);
    expect_ts(64'd2, 64'h0000_0000_FFFF_FFFF, 64'hFFFF_FFFF_FFFF_FFFF);
    @(negedge clk);
    expect_ts(64'd3, 64'h0000_0001_0000_0000, 64'd0);
    @(negedge clk);
    expect_ts(64'd4, 64'h0000_0001_0000_0001, 64'd1);
    start = 1'b0;

    // Idle cycles with ap_start low: ap_idle high, no result, the time base runs on.
    @(negedge clk);
    if (done !== 0 || idle !== {N{1'b1}}) fail("idle after the burst");
    cycles(9);
    call;
    expect_ts(64'd15, 64'h0000_0001_0000_000C, 64'd12);
    first = got;
    cycles(20);
    call;
    expect_gap(64'd21);

    // ap_ce low: no call is taken, but the counter keeps counting.
    first = got;
    ce = 1'b0;
    cycles(4);
    start = 1'b1;
    cycles(3);
    if (ready !== 0) fail("ap_ready with ap_ce low");
    ce = 1'b1;
    @(negedge clk);
    start = 1'b0;
    got = ts;
    expect_gap(64'd8);

    // ap_continue low: the result stays, no new call until it is taken.
    first = got;
    call;
    expect_gap(64'd1);
    cont = 1'b0;
    first = got;
    start = 1'b1;
    cycles(4);
    if (done !== {N{1'b1}} || ts !== first) fail("result not held while ap_continue is low");
    if (ready !== 0) fail("a call taken while the result is still held");
    cont = 1'b1;
    @(negedge clk);
    start = 1'b0;
    got = ts;
    expect_gap(64'd5);

    // Reset in the middle of a run (calls in flight): back to RESET_VALUE.
    start = 1'b1;
    cycles(3);
    rst = 1'b1;
    cycles(2);
    if (done !== 0) fail("ap_done through reset");
    rst = 1'b0;
    @(negedge clk);
    expect_ts(64'd0, 64'h0000_0000_FFFF_FFFD, 64'hFFFF_FFFF_FFFF_FFFD);
    start = 1'b0;
    cycles(5);
    call;
    expect_ts(64'd6, 64'h0000_0001_0000_0003, 64'd3);

    cycles(3);
    if (accepted != 15) begin
        $display("ERROR: %0d calls accepted, want 15", accepted);
        errors = errors + 1;
    end
    if (errors != 0) begin
        $fatal(1, "%0d errors", errors);
    end
    $display("PASS");
    $finish;
end

endmodule

`resetall
