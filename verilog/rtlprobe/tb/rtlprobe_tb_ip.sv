// rtlprobe_tb_ip: self-checking testbench of the profiling IP alone (Icarus and Verilator
// --timing). Five queues of different depths (the readout multiplexer pads 5 inputs to 16) and
// 40-bit timestamps; pseudo-random ap_start/ap_done for 300 cycles; then the host's readout
// through AXI4-Lite is compared with a reference written here: a call starts when ap_start is
// high while none is open and no done is held (ap_continue low at the end and not high since),
// and ends when ap_done is high while one is, and each start and end is
// the counter's value in that cycle; a queue keeps its first DEPTH events. Then CTRL clears.
// Prints PASS, or FAIL lines and stops with an error.
`timescale 1ns / 1ps
`default_nettype none

// The checks compare fields of different widths with their zero-extended reference values.
/* verilator lint_off WIDTH */
module rtlprobe_tb_ip;
    localparam integer N = 5;
    localparam [8*N-1:0] DEPTHS = {8'd8, 8'd4, 8'd6, 8'd2, 8'd4};
    localparam integer TS = 40;
    localparam [63:0] KEY = 64'h0123_4567_89AB_CDEF;

    reg clk = 1'b0, rst_n = 1'b0;
    reg [N-1:0] start = {N{1'b0}}, done = {N{1'b0}}, cont = {N{1'b1}};
    reg  [5:0]  awaddr = 6'd0, araddr = 6'd0;
    reg         awvalid = 1'b0, wvalid = 1'b0, bready = 1'b0, arvalid = 1'b0, rready = 1'b0;
    reg  [31:0] wdata = 32'd0;
    wire        awready, wready, bvalid, arready, rvalid;
    wire [1:0]  bresp, rresp;
    wire [31:0] rdata;

    hlsinstr_rtlprobe #(.N(N), .DEPTHS(DEPTHS), .KEY(KEY), .TS_WIDTH(TS)) dut (
        .clk(clk), .rst_n(rst_n), .probe_start(start), .probe_done(done), .probe_continue(cont),
        .s_axi_awaddr(awaddr), .s_axi_awvalid(awvalid), .s_axi_awready(awready),
        .s_axi_wdata(wdata), .s_axi_wstrb(4'hf), .s_axi_wvalid(wvalid), .s_axi_wready(wready),
        .s_axi_bresp(bresp), .s_axi_bvalid(bvalid), .s_axi_bready(bready),
        .s_axi_araddr(araddr), .s_axi_arvalid(arvalid), .s_axi_arready(arready),
        .s_axi_rdata(rdata), .s_axi_rresp(rresp), .s_axi_rvalid(rvalid), .s_axi_rready(rready),
        .m_axi_awaddr(m_awaddr), .m_axi_awlen(m_awlen), .m_axi_awsize(m_awsize), .m_axi_awburst(m_awburst),
        .m_axi_awvalid(m_awvalid), .m_axi_awready(1'b0), .m_axi_wdata(m_wdata), .m_axi_wstrb(m_wstrb),
        .m_axi_wlast(m_wlast), .m_axi_wvalid(m_wvalid), .m_axi_wready(1'b0), .m_axi_bresp(2'b00),
        .m_axi_bvalid(1'b0), .m_axi_bready(m_bready)
    );
    // No offload here (OFFLOAD 0): its write master must stay idle.
    wire [63:0] m_awaddr, m_wdata;
    wire [7:0]  m_awlen, m_wstrb;
    wire [2:0]  m_awsize;
    wire [1:0]  m_awburst;
    wire        m_awvalid, m_wlast, m_wvalid, m_bready;

    /* verilator lint_off BLKSEQ */
    always #5 clk = ~clk;
    /* verilator lint_on BLKSEQ */

    // The reference: the counter (0 in the first cycle after reset) and every event per queue.
    reg  [63:0] now = 64'd0;
    reg  [63:0] ev [0:N-1][0:511];
    integer     nev [0:N-1];
    integer     starts [0:N-1];
    reg  [N-1:0] open = {N{1'b0}}, held = {N{1'b0}};
    integer i, j, k, errors = 0; // j: the reference's own loop
    always @(posedge clk) begin
        if (!rst_n) now <= 64'd0;
        else now <= now + 64'd1;
        if (rst_n) begin
            for (j = 0; j < N; j = j + 1) begin
                if (!open[j] && !held[j] && start[j]) begin
                    ev[j][nev[j]] <= now; nev[j] <= nev[j] + 1; starts[j] <= starts[j] + 1; open[j] <= 1'b1;
                end else if (open[j] && done[j]) begin
                    ev[j][nev[j]] <= now; nev[j] <= nev[j] + 1; open[j] <= 1'b0;
                end
                if (open[j] && done[j] && !cont[j]) held[j] <= 1'b1;
                else if (cont[j]) held[j] <= 1'b0;
            end
        end
    end

    // Bus handshakes are sampled at the rising edge (before the IP's registers update there) and
    // driven at the falling edge: no race between the testbench and the IP.
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

    task automatic expect_eq(input [63:0] got, input [63:0] want, input integer q, input integer what);
        begin
            if (got !== want) begin
                errors = errors + 1;
                $display("FAIL queue %0d check %0d: got %0d, want %0d", q, what, got, want);
            end
        end
    endtask

    reg [15:0] lfsr = 16'hACE1;
    reg [31:0] word, status, lo, hi;
    integer depth, kept;
    initial begin
        for (i = 0; i < N; i = i + 1) begin nev[i] = 0; starts[i] = 0; end
        repeat (4) @(negedge clk);
        rst_n = 1'b1;
        // Stimulus: each cycle, per queue, bits of a 16-bit LFSR (maximal: x^16+x^14+x^13+x^11+1).
        for (k = 0; k < 300; k = k + 1) begin
            @(negedge clk);
            for (i = 0; i < N; i = i + 1) begin
                lfsr = {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};
                start[i] = lfsr[0] & lfsr[3];
                done[i] = lfsr[1] & (lfsr[5] | lfsr[7]);
                cont[i] = lfsr[2] | lfsr[9];
            end
        end
        @(negedge clk); start = {N{1'b0}}; done = {N{1'b0}}; cont = {N{1'b1}};
        repeat (2) @(negedge clk);

        axi_read(6'h00, word); expect_eq(word, 32'h484C5250, -1, 0);
        axi_read(6'h04, word); expect_eq(word, {8'd1, 1'b0, 7'd40, 16'd5}, -1, 1);
        axi_read(6'h08, word); expect_eq(word, KEY[31:0], -1, 2);
        axi_read(6'h0C, word); expect_eq(word, KEY[63:32], -1, 3);
        for (i = 0; i < N; i = i + 1) begin
            depth = DEPTHS[8*i +: 8];
            kept = (nev[i] < depth) ? nev[i] : depth;
            if (nev[i] <= depth) begin
                errors = errors + 1; $display("FAIL queue %0d: the stimulus did not fill it", i);
            end
            axi_write(6'h18, i);
            axi_read(6'h1C, status);
            expect_eq(status[31:16], starts[i] % 65536, i, 10);
            expect_eq(status[15:8], depth, i, 11);
            expect_eq(status[3:0], {open[i], 1'b1, 1'b1, 1'b1}, i, 12); // open, lost, full, valid
            for (k = 0; k < depth + 1; k = k + 1) begin
                axi_read(6'h1C, status);
                axi_read(6'h20, lo);
                axi_read(6'h24, hi);
                expect_eq(status[0], k < kept, i, 20 + k);
                if (k < kept) expect_eq({hi, lo}, ev[i][k][TS-1:0], i, 100 + k);
            end
        end
        // CTRL: a clear empties every queue and restarts the counter.
        axi_write(6'h28, 32'd1);
        for (i = 0; i < N; i = i + 1) begin
            axi_write(6'h18, i);
            axi_read(6'h1C, status);
            expect_eq({status[31:16], status[3:0]}, 20'd0, i, 30);
        end
        axi_read(6'h10, lo);
        if (lo > 32'd100) begin errors = errors + 1; $display("FAIL NOW_LO %0d after a clear", lo); end
        if (errors == 0) $display("PASS");
        else $display("FAIL: %0d errors", errors);
        $finish;
    end

    /* verilator lint_off BLKSEQ */
    always @(posedge clk) if (m_awvalid || m_wvalid) begin errors = errors + 1; $display("FAIL m_axi active"); end
    /* verilator lint_on BLKSEQ */
    wire unused_ok = &{1'b0, bresp, rresp, status[7:4], m_awaddr, m_wdata, m_awlen, m_wstrb, m_awsize, m_awburst,
                       m_wlast, m_bready};
endmodule
/* verilator lint_on WIDTH */

`default_nettype wire
