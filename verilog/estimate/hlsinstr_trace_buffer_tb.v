// Self-checking testbench of hlsinstr_trace_buffer: a producer posts N records (one per cycle in
// bursts, with idle gaps) into a FIFO of FIFO_DEPTH in front of the buffer; an AXI4 memory
// accepts addresses, beats and answers with random stalls. Checks: the DRAM ring after the
// run holds exactly the records the ring semantics keep (wrap: the newest REGION, linear: the
// first REGION), the header words, that every burst is at most DEPTH/2 beats, stays inside the
// ring and a 4 KiB page, that bursts are written before the run ends (flush when half full), a
// reset in the middle of a run, and that with a memory that never stalls the producer never
// waits. Prints "PASS" or the failures.
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_trace_buffer_tb;
    parameter integer DEPTH = 8;
    parameter integer REGION = 20;
    parameter integer WRAP = 1;
    parameter integer N = 53;
    parameter integer STALLS = 1;  // 1: random AXI stalls; 0: a memory that is always ready
    localparam integer FIFO_DEPTH = 16;
    localparam integer HDR = 10;
    localparam [63:0] KEY = 64'h0123456789abcdef;
    localparam [63:0] LAYOUT = 64'h0000000800061000;

    reg clk = 1'b0, rst = 1'b1;
    always #5 clk = ~clk;

    // The FIFO in front of the buffer (first word fall through).
    reg [21:0] fifo [0:FIFO_DEPTH-1];
    integer fifo_n = 0, fifo_rd = 0, fifo_wr = 0;
    wire in_valid = fifo_n != 0;
    wire [21:0] in_data = fifo[fifo_rd];
    wire in_ready;
    reg done = 1'b0;
    wire finished;

    wire awvalid, wvalid, wlast, bready;
    wire [63:0] awaddr, wdata;
    wire [7:0] awlen;
    reg awready, wready, bvalid = 1'b0;

    hlsinstr_trace_buffer #(
        .DEPTH(DEPTH), .REC_BITS(22), .DELTA_BITS(0), .REGION(REGION), .WRAP(WRAP), .KEY(KEY), .LAYOUT(LAYOUT)
    ) dut (
        .clk(clk), .rst(rst), .in_valid(in_valid), .in_data(in_data), .in_time(64'd0), .in_ready(in_ready),
        .done(done), .finished_reg(finished), .base_addr(64'h10000), .awvalid_reg(awvalid), .awready(awready),
        .awaddr_reg(awaddr), .awlen_reg(awlen), .wvalid(wvalid), .wready(wready), .wdata(wdata), .wlast(wlast),
        .bvalid(bvalid), .bready(bready)
    );

    // The AXI memory: takes up to 4 addresses ahead of their beats (W only once its address is
    // in), answers each burst with one response.
    reg [63:0] mem [0:HDR+REGION-1];
    integer errors = 0, seed = 7, beat = 0, bursts_before_done = 0, i, k, q_n = 0, b_owed = 0;
    reg [63:0] q_addr [0:3];
    reg [7:0] q_len [0:3];
    reg aw_rand = 1'b0, w_rand = 1'b0, b_rand = 1'b0;
    integer r;
    always @(posedge clk) begin
        r = $random(seed);
        aw_rand <= STALLS ? (r & 3) != 0 : 1'b1;
        w_rand  <= STALLS ? (r & 12) != 0 : 1'b1;
        b_rand  <= STALLS ? (r & 16) != 0 : 1'b1;
    end
    always @* begin
        awready = aw_rand && q_n < 4;
        wready = w_rand && q_n != 0;
    end
    always @(posedge clk) begin
        if (wvalid && wready) begin
            mem[(q_addr[0] - 64'h10000) / 8 + beat] <= wdata;
            if (wlast != (beat == q_len[0])) begin
                errors = errors + 1; $display("FAIL wlast at beat %0d of %0d", beat, q_len[0] + 1);
            end
            beat = beat + 1;
            if (wlast) begin
                beat = 0;
                q_addr[0] = q_addr[1]; q_addr[1] = q_addr[2]; q_addr[2] = q_addr[3];
                q_len[0] = q_len[1]; q_len[1] = q_len[2]; q_len[2] = q_len[3];
                q_n = q_n - 1;
                b_owed = b_owed + 1;
            end
        end
        if (awvalid && awready) begin
            q_addr[q_n] = awaddr;
            q_len[q_n] = awlen;
            q_n = q_n + 1;
            if (awlen + 1 > (awaddr == 64'h10000 ? HDR : DEPTH / 2)) begin
                errors = errors + 1; $display("FAIL burst of %0d beats", awlen + 1);
            end
            if ((awaddr >> 12) != ((awaddr + 8 * awlen) >> 12)) begin
                errors = errors + 1; $display("FAIL burst crosses 4 KiB at %h", awaddr);
            end
            if ((awaddr - 64'h10000) / 8 + awlen + 1 > HDR + REGION) begin
                errors = errors + 1; $display("FAIL burst past the ring at %h", awaddr);
            end
            if (!done && awaddr != 64'h10000) bursts_before_done = bursts_before_done + 1;
        end
        if (bvalid && bready) begin bvalid <= 1'b0; b_owed = b_owed - 1; end
        else if (b_owed != 0 && b_rand) bvalid <= 1'b1;
    end

    // The producer: record j = {value j, id j % 50 + 1}; waits when the FIFO is full. It works
    // at the falling edge: the buffer samples the FIFO at the rising one. `took` is the read the
    // buffer made at the last rising edge.
    integer posted = 0, waits = 0, cycle = 0;
    reg took = 1'b0;
    always @(posedge clk) took <= in_valid && in_ready;
    always @(negedge clk) begin
        cycle <= cycle + 1;
        if (!rst) begin
            if (took) begin fifo_rd = (fifo_rd + 1) % FIFO_DEPTH; fifo_n = fifo_n - 1; end
            if (posted < N && (cycle % 37) < 30) begin
                if (fifo_n < FIFO_DEPTH) begin
                    fifo[fifo_wr] = {posted[15:0], posted[5:0] % 6'd50 + 6'd1};
                    fifo_wr = (fifo_wr + 1) % FIFO_DEPTH; fifo_n = fifo_n + 1; posted = posted + 1;
                end else waits = waits + 1;
            end
            if (posted == N) done <= 1'b1;
        end
    end

    function [63:0] rec(input integer j);
        rec = {42'd0, j[15:0], j[5:0] % 6'd50 + 6'd1};
    endfunction

    initial begin
        // A reset in the middle of a run first: records posted before it must not show.
        repeat (3) @(posedge clk);
        rst = 1'b0;
        repeat (7) @(posedge clk);
        rst = 1'b1;
        @(negedge clk);
        for (i = 0; i < HDR + REGION; i = i + 1) mem[i] = 64'd0;
        fifo_n = 0; fifo_rd = 0; fifo_wr = 0; posted = 0; waits = 0; done = 1'b0; bursts_before_done = 0;
        q_n = 0; b_owed = 0; beat = 0;
        repeat (2) @(posedge clk);
        rst = 1'b0;
        for (k = 0; k < 20000 && !finished; k = k + 1) @(posedge clk);
        repeat (4) @(posedge clk);
        if (!finished) begin errors = errors + 1; $display("FAIL not finished"); end
        if (mem[0] != 64'h3143525449534c48 || mem[1] != 1 || mem[2] != KEY || mem[3] != REGION || mem[9] != LAYOUT) begin
            errors = errors + 1; $display("FAIL header %h %h %h %h %h", mem[0], mem[1], mem[2], mem[3], mem[9]);
        end
        if (mem[6] != N) begin errors = errors + 1; $display("FAIL seen %0d", mem[6]); end
        if (WRAP) begin
            // The ring wraps lazily: a full ring's next index is REGION until the next write.
            if (mem[4] != (N > REGION ? (N % REGION == 0 ? REGION : N % REGION) : N) || mem[7] != 0 || mem[5] != (N > REGION ? 3 : 1)) begin
                errors = errors + 1; $display("FAIL wrap header next %0d lost %0d flags %0d", mem[4], mem[7], mem[5]);
            end
            for (i = 0; i < REGION && i < N; i = i + 1)
                if (mem[HDR + ((N > REGION ? N % REGION : 0) + i) % REGION] != rec(N > REGION ? N - REGION + i : i)) begin
                    errors = errors + 1; $display("FAIL kept record %0d", i);
                end
        end else begin
            if (mem[4] != (N > REGION ? REGION : N) || mem[7] != (N > REGION ? N - REGION : 0)
                || mem[5] != (N > REGION ? 5 : 1)) begin
                errors = errors + 1; $display("FAIL linear header next %0d lost %0d flags %0d", mem[4], mem[7], mem[5]);
            end
            for (i = 0; i < REGION && i < N; i = i + 1)
                if (mem[HDR + i] != rec(i)) begin errors = errors + 1; $display("FAIL record %0d", i); end
        end
        if (N >= 2 * DEPTH && bursts_before_done == 0) begin
            errors = errors + 1; $display("FAIL no flush during the run");
        end
        if (!STALLS && waits != 0) begin errors = errors + 1; $display("FAIL the producer waited %0d cycles", waits); end
        if (errors == 0) $display("PASS DEPTH=%0d REGION=%0d WRAP=%0d N=%0d STALLS=%0d", DEPTH, REGION, WRAP, N, STALLS);
        else $display("FAILED: %0d errors", errors);
        $finish;
    end
endmodule

`resetall
