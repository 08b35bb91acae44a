// rtlprobe_tb_offload: self-checking testbench of the profiling IP's DRAM offload (under Icarus
// and under Verilator with --timing). Two queues of depths 8 and 12, 40-bit timestamps, OFFLOAD 1, an AXI4
// memory model (rtlprobe_tb_axi_mem) behind m_axi, and a region that starts 128 bytes below a
// 4 KiB boundary (so drains are split there). Pseudo-random calls for 1200 cycles give each
// queue many more events than its depth; then, as the host does, wait until the offload is
// idle, read OFF_WPTR records from the memory and what is left in each queue over AXI4-Lite,
// and merge them per queue (DRAM records in address order, then the queue): every start and end
// must equal the reference, in order, none missing, and no queue may have lost an event. While
// the calls run, the host polls queue 0's STATUS: a poll must wait while a drain runs (the
// readout multiplexer then shows the drained queue) and report queue 0's calls so far.
// Prints PASS, or FAIL lines.
`timescale 1ns / 1ps
`default_nettype none

// The checks compare fields of different widths with their zero-extended reference values.
/* verilator lint_off WIDTH */
module rtlprobe_tb_offload;
    localparam integer N = 2;
    localparam [8*N-1:0] DEPTHS = {8'd12, 8'd8};
    localparam integer TS = 40;
    localparam [63:0] BASE = 64'h0F80;
    localparam integer SIZE = 400;

    reg clk = 1'b0, rst_n = 1'b0;
    reg [N-1:0] start = {N{1'b0}}, done = {N{1'b0}};
    reg  [5:0]  awaddr = 6'd0, araddr = 6'd0;
    reg         awvalid = 1'b0, wvalid = 1'b0, bready = 1'b0, arvalid = 1'b0, rready = 1'b0;
    reg  [31:0] wdata = 32'd0;
    wire        awready, wready, bvalid, arready, rvalid;
    wire [1:0]  bresp, rresp;
    wire [31:0] rdata;
    wire [63:0] m_awaddr, m_wdata;
    wire [7:0]  m_awlen, m_wstrb;
    wire [2:0]  m_awsize;
    wire [1:0]  m_awburst, m_bresp;
    wire        m_awvalid, m_awready, m_wlast, m_wvalid, m_wready, m_bvalid, m_bready;
    wire        m_bid;

    hlsinstr_rtlprobe #(.N(N), .DEPTHS(DEPTHS), .TS_WIDTH(TS), .OFFLOAD(1)) dut (
        .clk(clk), .rst_n(rst_n), .probe_start(start), .probe_done(done), .probe_continue({N{1'b1}}),
        .s_axi_awaddr(awaddr), .s_axi_awvalid(awvalid), .s_axi_awready(awready),
        .s_axi_wdata(wdata), .s_axi_wstrb(4'hf), .s_axi_wvalid(wvalid), .s_axi_wready(wready),
        .s_axi_bresp(bresp), .s_axi_bvalid(bvalid), .s_axi_bready(bready),
        .s_axi_araddr(araddr), .s_axi_arvalid(arvalid), .s_axi_arready(arready),
        .s_axi_rdata(rdata), .s_axi_rresp(rresp), .s_axi_rvalid(rvalid), .s_axi_rready(rready),
        .m_axi_awaddr(m_awaddr), .m_axi_awlen(m_awlen), .m_axi_awsize(m_awsize), .m_axi_awburst(m_awburst),
        .m_axi_awvalid(m_awvalid), .m_axi_awready(m_awready), .m_axi_wdata(m_wdata), .m_axi_wstrb(m_wstrb),
        .m_axi_wlast(m_wlast), .m_axi_wvalid(m_wvalid), .m_axi_wready(m_wready), .m_axi_bresp(m_bresp),
        .m_axi_bvalid(m_bvalid), .m_axi_bready(m_bready)
    );
    assign m_bresp = 2'b00;

    // The memory has no read traffic here: its read channel is idle.
    wire        unused_arready, unused_rvalid, unused_rlast, unused_rid;
    wire [63:0] unused_rdata;
    rtlprobe_tb_axi_mem #(.DATA_WIDTH(64), .ADDR_WIDTH(64), .BYTES(8192), .LATENCY(2)) ram (
        .clk(clk), .rst_n(rst_n),
        .awvalid(m_awvalid), .awready(m_awready), .awaddr(m_awaddr), .awid(1'b0), .awlen(m_awlen),
        .wvalid(m_wvalid), .wready(m_wready), .wdata(m_wdata), .wstrb(m_wstrb), .wlast(m_wlast),
        .bvalid(m_bvalid), .bready(m_bready), .bid(m_bid),
        .arvalid(1'b0), .arready(unused_arready), .araddr(64'd0), .arid(1'b0), .arlen(8'd0),
        .rvalid(unused_rvalid), .rready(1'b0), .rdata(unused_rdata), .rid(unused_rid), .rlast(unused_rlast)
    );

    /* verilator lint_off BLKSEQ */
    always #5 clk = ~clk;
    /* verilator lint_on BLKSEQ */

    // The reference: the counter (0 in the first cycle after reset) and every event per queue.
    reg  [63:0] now = 64'd0;
    reg  [63:0] ev [0:N-1][0:511];
    integer     nev [0:N-1];
    reg  [N-1:0] open = {N{1'b0}};
    integer i, j, k, errors = 0; // j: the reference's own loop
    always @(posedge clk) begin
        if (!rst_n) now <= 64'd0;
        else now <= now + 64'd1;
        if (rst_n) begin
            for (j = 0; j < N; j = j + 1) begin
                if (!open[j] && start[j]) begin
                    ev[j][nev[j]] <= now; nev[j] <= nev[j] + 1; open[j] <= 1'b1;
                end else if (open[j] && done[j]) begin
                    ev[j][nev[j]] <= now; nev[j] <= nev[j] + 1; open[j] <= 1'b0;
                end
            end
        end
    end

    // The polls during the run: each accepted read of STATUS must come while no drain runs, and
    // its calls field must be queue 0's starts before the cycle it was taken in.
    integer     nacc = 0, nresp = 0, stalled = 0, poll_errors = 0;
    reg  [15:0] want_calls = 16'd0;
    always @(posedge clk) begin
        if (arvalid && arready && araddr == 6'h1C) begin
            nacc <= nacc + 1;
            want_calls <= (nev[0] + 1) / 2;
            if (dut.off_busy) begin poll_errors <= poll_errors + 1; $display("FAIL a STATUS read was taken during a drain"); end
        end
        if (arvalid && !arready && dut.off_busy) stalled <= stalled + 1;
        if (rvalid && rready && polling) begin
            nresp <= nresp + 1;
            if (rdata[31:16] !== want_calls) begin
                poll_errors <= poll_errors + 1; $display("FAIL poll: %0d calls, want %0d", rdata[31:16], want_calls);
            end
        end
    end

    task automatic axi_read(input [5:0] a, output [31:0] d);
        begin
            @(negedge clk); araddr = a; arvalid = 1'b1; rready = 1'b1;
            @(posedge clk); while (!arready) @(posedge clk);
            @(negedge clk); arvalid = 1'b0;
            @(posedge clk); while (!rvalid) @(posedge clk);
            d = rdata;
            @(negedge clk); rready = 1'b0;
        end
    endtask

    task automatic axi_write(input [5:0] a, input [31:0] d);
        begin
            @(negedge clk); awaddr = a; wdata = d; awvalid = 1'b1; wvalid = 1'b1; bready = 1'b1;
            @(posedge clk); while (!(awready && wready)) @(posedge clk);
            @(negedge clk); awvalid = 1'b0; wvalid = 1'b0;
            @(posedge clk); while (!bvalid) @(posedge clk);
            @(negedge clk); bready = 1'b0;
        end
    endtask

    // What the host recovers per queue, merged: DRAM records first, then the queue.
    reg  [63:0] got [0:N-1][0:511];
    integer     ngot [0:N-1];
    reg  [63:0] record;
    reg  [15:0] lfsr = 16'hACE1;
    reg  [31:0] word, status, lo, hi, wptr;
    integer depth, b, records, poll = 0, seen_acc = 0, seen_resp = 0;
    reg     polling = 1'b0;
    initial begin
        for (i = 0; i < N; i = i + 1) begin nev[i] = 0; ngot[i] = 0; end
        repeat (4) @(negedge clk);
        rst_n = 1'b1;
        axi_write(6'h2C, BASE[31:0]);
        axi_write(6'h30, BASE[63:32]);
        axi_write(6'h34, SIZE);
        axi_read(6'h3C, word);
        if (word[2] !== 1'b1) begin errors = errors + 1; $display("FAIL OFF_STATUS does not report the offload"); end
        // Calls of about 8 cycles with gaps of about 8 (a 16-bit LFSR as in rtlprobe_tb_ip): an
        // event per 8 cycles and queue on average, in bursts the drains must absorb.
        // Meanwhile poll STATUS (SEL is 0) every 7th cycle the bus is free.
        polling = 1'b1;
        for (k = 0; k < 1200; k = k + 1) begin
            @(negedge clk);
            for (i = 0; i < N; i = i + 1) begin
                lfsr = {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};
                start[i] = lfsr[0] & lfsr[3] & lfsr[6];
                done[i] = lfsr[1] & lfsr[5] & lfsr[9];
            end
            if (poll == 0 && k % 7 == 0 && k < 1190) begin
                araddr = 6'h1C; arvalid = 1'b1; rready = 1'b1; poll = 1;
            end else if (poll == 1 && nacc != seen_acc) begin
                arvalid = 1'b0; seen_acc = nacc; poll = 2;
            end else if (poll == 2 && nresp != seen_resp) begin
                rready = 1'b0; seen_resp = nresp; poll = 0;
            end
        end
        @(negedge clk); start = {N{1'b0}}; done = {N{1'b0}};
        while (poll != 0) begin
            if (poll == 1 && nacc != seen_acc) begin arvalid = 1'b0; seen_acc = nacc; poll = 2; end
            else if (poll == 2 && nresp != seen_resp) begin rready = 1'b0; seen_resp = nresp; poll = 0; end
            @(negedge clk);
        end
        polling = 1'b0;
        errors = errors + poll_errors;
        if (nresp < 100 || stalled == 0) begin
            errors = errors + 1; $display("FAIL %0d polls, %0d cycles stalled by a drain: the polls must meet drains", nresp, stalled);
        end
        // The host: wait for the offload to be idle, then DRAM, then the queues.
        word = 32'd1;
        while (word[0]) axi_read(6'h3C, word);
        if (word[1]) begin errors = errors + 1; $display("FAIL the region overflowed"); end
        axi_read(6'h38, wptr);
        records = 0;
        for (k = 0; k < wptr; k = k + 1) begin
            for (b = 0; b < 8; b = b + 1) record[8*b +: 8] = ram.mem[(BASE + 8 * k + b) % 8192];
            if (record[63]) begin
                i = record[62:48];
                if (i >= N) begin errors = errors + 1; $display("FAIL record %0d names queue %0d", k, i); end
                else begin got[i][ngot[i]] = record[47:0]; ngot[i] = ngot[i] + 1; records = records + 1; end
            end
        end
        for (i = 0; i < N; i = i + 1) begin
            depth = DEPTHS[8*i +: 8];
            axi_write(6'h18, i);
            axi_read(6'h1C, status);
            if (status[2]) begin errors = errors + 1; $display("FAIL queue %0d lost events", i); end
            for (k = 0; k < depth; k = k + 1) begin
                axi_read(6'h1C, status);
                axi_read(6'h20, lo);
                axi_read(6'h24, hi);
                if (status[0]) begin got[i][ngot[i]] = {hi, lo}; ngot[i] = ngot[i] + 1; end
            end
            if (nev[i] <= 3 * depth) begin
                errors = errors + 1; $display("FAIL queue %0d: only %0d events, the stimulus must overflow it", i, nev[i]);
            end
            if (ngot[i] != nev[i]) begin
                errors = errors + 1; $display("FAIL queue %0d: %0d events recovered, %0d happened", i, ngot[i], nev[i]);
            end
            for (k = 0; k < nev[i] && k < ngot[i]; k = k + 1) begin
                if (got[i][k] !== ev[i][k][TS-1:0]) begin
                    errors = errors + 1; $display("FAIL queue %0d event %0d: %0d, want %0d", i, k, got[i][k], ev[i][k]);
                end
            end
        end
        $display("%0d records in DRAM (%0d with an event), events %0d and %0d; %0d polls, stalled %0d cycles", wptr, records,
                 nev[0], nev[1], nresp, stalled);
        if (errors == 0) $display("PASS");
        else $display("FAIL: %0d errors", errors);
        $finish;
    end

    wire unused_ok = &{1'b0, bresp, rresp, status[31:3], status[1], m_bid, m_awsize, m_awburst, unused_arready, unused_rvalid,
                       unused_rlast, unused_rid, unused_rdata, hi, lo, word[31:3], record[62:48]};
endmodule
/* verilator lint_on WIDTH */

`default_nettype wire
