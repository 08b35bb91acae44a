`resetall
// Self-checking testbench of the shared monitor's RTL estimate: random events on N probes go
// through behavioural FIFOs into hlsinstr_monitor_shared and, at the time they are posted, into
// one reference hlsinstr_monitor_slot per probe (the per-probe-register monitor it replaces);
// once drained, every state read from the RAM must equal its reference, field for field. Two
// rounds with a reset in the middle. With EVENT_TIME 1 the posting is dense (several probes
// per cycle, bursts of every probe posting 4 cycles running, unmatched events): times are the events' own. With EVENT_TIME 0
// a probe posts at most every N+2 cycles, which the arbiter always serves in time: the monitor's
// read cycle must then equal the posting cycle, and STATUS_LATE must stay clear.
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_monitor_shared_tb #(
    parameter integer N = 3,
    parameter integer EVENT_TIME = 1,
    parameter integer LONGEST = 1,
    parameter integer SEED = 1
);
    localparam integer IW = (N > 1) ? $clog2(N) : 1;
    localparam integer SW = 450 + 64 * LONGEST;
    localparam integer FD = 64; // behavioural FIFO depth (the test checks it never fills)

    reg clk = 1'b0, rst = 1'b1, dump = 1'b0;
    reg [IW-1:0] rd_addr = {IW{1'b0}};
    wire [N-1:0] fifo_valid, fifo_read;
    wire [97*N-1:0] fifo_data;
    wire [63:0] cycle;
    wire idle, late, clearing;
    wire [SW-1:0] rd_state;
    integer errors = 0, deepest = 0, checked = 0;
    // The seed is unused under Verilator, whose $random ignores it.
    /* verilator lint_off UNUSEDSIGNAL */
    integer seed = SEED;
    /* verilator lint_on UNUSEDSIGNAL */

    hlsinstr_monitor_shared #(.N(N), .EVENT_TIME(EVENT_TIME), .LONGEST(LONGEST)) dut (
        .clk(clk), .rst(rst), .fifo_valid(fifo_valid), .fifo_data(fifo_data), .fifo_read(fifo_read),
        .cycle_reg(cycle), .idle(idle), .late_reg(late), .clearing_reg(clearing),
        .dump(dump), .rd_addr(rd_addr), .rd_state(rd_state)
    );

    always #5 clk = ~clk;

    // Posting: post_v[i] at a negative edge; the FIFO takes it at the next positive edge.
    reg  [N-1:0]  post_v = {N{1'b0}};
    reg  [N-1:0]  post_end = {N{1'b0}};
    reg  [31:0]   post_trips [0:N-1];
    reg  [63:0]   post_time;                 // what the probe's counter reads (its own time)
    // Without timestamps the front reads an event one cycle after the FIFO took it.
    wire [63:0]   ref_now = (EVENT_TIME != 0) ? post_time : cycle + 64'd1;
    reg           chk = 1'b0; // compare the state at rd_state with probe rd_addr's reference

    genvar g;
    generate
        for (g = 0; g < N; g = g + 1) begin : p
            reg [96:0] mem [0:FD-1];
            integer head = 0, count = 0;
            assign fifo_valid[g] = count > 0;
            assign fifo_data[97*g +: 97] = mem[head];
            always @(posedge clk) begin
                if (rst) begin
                    head <= 0; count <= 0;
                end else begin
                    if (post_v[g]) mem[(head + count) % FD] <= {post_end[g], post_trips[g], post_time};
                    if (fifo_read[g]) head <= (head + 1) % FD;
                    count <= count + (post_v[g] ? 1 : 0) - (fifo_read[g] ? 1 : 0);
                    if (count >= FD - 1) begin
                        $display("ERROR: FIFO %0d overflowed", g);
                        $finish;
                    end
                end
            end
            wire [63:0] calls, busy, max_busy, first_start, last_end, trips_sum, unmatched, open_start;
            wire open;
            hlsinstr_monitor_slot #(.LONGEST(LONGEST)) u_ref (
                .clk(clk), .rst(rst || clearing), .valid(post_v[g]), .is_end(post_end[g]), .trips(post_trips[g]),
                .now(ref_now), .calls_reg(calls), .busy_reg(busy), .max_busy_reg(max_busy),
                .first_start_reg(first_start), .last_end_reg(last_end), .trips_reg(trips_sum),
                .unmatched_reg(unmatched), .open_start_reg(open_start), .open_reg(open)
            );
            always @(posedge clk) if (count > deepest) deepest = count;
            always @(posedge clk) begin
                if (chk && rd_addr == g) begin
                    check({63'd0, rd_state[0]}, {63'd0, open}, g, "open");
                    check(rd_state[2 +: 64], calls, g, "calls");
                    check({63'd0, rd_state[1]}, {63'd0, calls != 64'd0}, g, "seen");
                    check(rd_state[66 +: 64], busy, g, "busy");
                    check(rd_state[130 +: 64], first_start, g, "first_start");
                    check(rd_state[194 +: 64], last_end, g, "last_end");
                    check(rd_state[258 +: 64], trips_sum, g, "trips");
                    check(rd_state[322 +: 64], unmatched, g, "unmatched");
                    if (open) check(rd_state[386 +: 64], open_start, g, "open_start");
                    if (LONGEST != 0) check(rd_state[SW-1 -: 64], max_busy, g, "max_busy");
                    checked = checked + 1;
                end
            end
        end
    endgenerate

    task check(input [63:0] got, input [63:0] want, input integer probe, input [8*12-1:0] what);
        if (got !== want) begin
            errors = errors + 1;
            $display("ERROR probe %0d %0s = %0d, want %0d", probe, what, got, want);
        end
    endtask

    // Random stimulus for `cycles` cycles: EVENT_TIME 1 dense, 0 spaced (see the header).
    integer c, q, r, gap [0:N-1];
    task stimulus(input integer cycles);
        begin
            for (q = 0; q < N; q = q + 1) gap[q] = 0;
            for (c = 0; c < cycles; c = c + 1) begin
                @(negedge clk);
                post_time = post_time + 64'd1 + (($random(seed) & 15) == 0 ? 64'h0000_0000_FFFF_FF00 : 64'd0);
                for (q = 0; q < N; q = q + 1) begin
                    r = $random(seed);
                    post_trips[q] = $random(seed);
                    if (EVENT_TIME != 0) begin
                        // About 0.6 events per cycle in all, and every 64 cycles a burst of
                        // 4 cycles in which every probe posts.
                        post_v[q] = ((r >>> 8) & 255) < 150 / N || (c % 64) < 4;
                        // Mostly alternating begin/end; 1 in 16 flips (an unmatched event).
                        post_end[q] = (((r >> 4) & 15) == 0) ? post_end[q] : ~post_end[q];
                    end else begin
                        post_v[q] = gap[q] == 0 && (r & 1) != 0;
                        if (post_v[q]) post_end[q] = ~post_end[q];
                        gap[q] = post_v[q] ? N + 1 : (gap[q] > 0 ? gap[q] - 1 : 0);
                    end
                end
            end
            @(negedge clk);
            post_v = {N{1'b0}};
        end
    endtask

    task compare;
        begin
            while (!idle || |fifo_valid) @(negedge clk);
            @(negedge clk); @(negedge clk);
            dump = 1'b1;
            for (q = 0; q < N; q = q + 1) begin
                rd_addr = q[IW-1:0];
                @(negedge clk);
                chk = 1'b1;
                @(negedge clk);
                chk = 1'b0;
            end
            dump = 1'b0;
        end
    endtask

    initial begin
        post_time = 64'd1000;
        for (q = 0; q < N; q = q + 1) post_trips[q] = 0;
        repeat (3) @(negedge clk);
        rst = 1'b0;
        while (clearing) @(negedge clk);
        stimulus(400);
        compare;
        // Reset in the middle (with events pending), then a second round.
        stimulus(7);
        rst = 1'b1; @(negedge clk); rst = 1'b0;
        while (clearing) @(negedge clk);
        stimulus(400);
        compare;
        if (checked != 2 * N) begin
            errors = errors + 1;
            $display("ERROR %0d states compared, want %0d", checked, 2 * N);
        end
        if (EVENT_TIME == 0 && late) begin
            errors = errors + 1;
            $display("ERROR STATUS_LATE set though every probe was served in time");
        end
        $display("N=%0d EVENT_TIME=%0d LONGEST=%0d: deepest FIFO %0d, late %0d", N, EVENT_TIME, LONGEST, deepest, late);
        if (errors == 0) $display("PASS");
        else $fatal(1, "%0d errors", errors);
        $finish;
    end
endmodule

`resetall
