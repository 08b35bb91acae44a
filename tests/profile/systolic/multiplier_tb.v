// Testbench of the systolic fixture's RTL (shared/fixtures/vitis-solution/2022.2-systolic-mm), used
// only by hlsinstr's profile test: writes the arguments over s_axilite, starts the top, and answers
// its three m_axi bundles from memories that accept every request at once and return read data the
// next cycle; the write response comes B_LATENCY cycles after the last beat (66 reproduces the 264
// cycles of shared/fixtures/README.md; at once, the run takes 253). Checks result = vec_a x vec_b
// and prints the run's cycles and PASS; the VCD goes to multiplier.vcd.
`timescale 1 ns / 1 ps
`define MEM_PORTS(b) \
    .m_axi_``b``_AWVALID(b``_AWVALID), .m_axi_``b``_AWREADY(b``_AWREADY), .m_axi_``b``_AWADDR(b``_AWADDR), \
    .m_axi_``b``_AWID(), .m_axi_``b``_AWLEN(b``_AWLEN), .m_axi_``b``_AWSIZE(), .m_axi_``b``_AWBURST(), \
    .m_axi_``b``_AWLOCK(), .m_axi_``b``_AWCACHE(), .m_axi_``b``_AWPROT(), .m_axi_``b``_AWQOS(), \
    .m_axi_``b``_AWREGION(), .m_axi_``b``_AWUSER(), .m_axi_``b``_WVALID(b``_WVALID), \
    .m_axi_``b``_WREADY(b``_WREADY), .m_axi_``b``_WDATA(b``_WDATA), .m_axi_``b``_WSTRB(b``_WSTRB), \
    .m_axi_``b``_WLAST(b``_WLAST), .m_axi_``b``_WID(), .m_axi_``b``_WUSER(), \
    .m_axi_``b``_ARVALID(b``_ARVALID), .m_axi_``b``_ARREADY(b``_ARREADY), .m_axi_``b``_ARADDR(b``_ARADDR), \
    .m_axi_``b``_ARID(), .m_axi_``b``_ARLEN(b``_ARLEN), .m_axi_``b``_ARSIZE(), .m_axi_``b``_ARBURST(), \
    .m_axi_``b``_ARLOCK(), .m_axi_``b``_ARCACHE(), .m_axi_``b``_ARPROT(), .m_axi_``b``_ARQOS(), \
    .m_axi_``b``_ARREGION(), .m_axi_``b``_ARUSER(), .m_axi_``b``_RVALID(b``_RVALID), \
    .m_axi_``b``_RREADY(b``_RREADY), .m_axi_``b``_RDATA(b``_RDATA), .m_axi_``b``_RLAST(b``_RLAST), \
    .m_axi_``b``_RID(1'b0), .m_axi_``b``_RUSER(1'b0), .m_axi_``b``_RRESP(2'b00), \
    .m_axi_``b``_BVALID(b``_BVALID), .m_axi_``b``_BREADY(b``_BREADY), .m_axi_``b``_BRESP(2'b00), \
    .m_axi_``b``_BID(1'b0), .m_axi_``b``_BUSER(1'b0)
`define MEM_WIRES(b) \
    wire b``_AWVALID, b``_AWREADY, b``_WVALID, b``_WREADY, b``_WLAST, b``_ARVALID, b``_ARREADY; \
    wire b``_RVALID, b``_RREADY, b``_RLAST, b``_BVALID, b``_BREADY; \
    wire [63:0] b``_AWADDR, b``_ARADDR; wire [7:0] b``_AWLEN, b``_ARLEN; \
    wire [511:0] b``_WDATA, b``_RDATA; wire [63:0] b``_WSTRB;
`define MEM_INST(b, base) \
    tb_axi_mem #(.BASE(base)) b``_mem (.clk(ap_clk), .rst_n(ap_rst_n), \
        .AWVALID(b``_AWVALID), .AWREADY(b``_AWREADY), .AWADDR(b``_AWADDR), .AWLEN(b``_AWLEN), \
        .WVALID(b``_WVALID), .WREADY(b``_WREADY), .WDATA(b``_WDATA), .WSTRB(b``_WSTRB), .WLAST(b``_WLAST), \
        .ARVALID(b``_ARVALID), .ARREADY(b``_ARREADY), .ARADDR(b``_ARADDR), .ARLEN(b``_ARLEN), \
        .RVALID(b``_RVALID), .RREADY(b``_RREADY), .RDATA(b``_RDATA), .RLAST(b``_RLAST), \
        .BVALID(b``_BVALID), .BREADY(b``_BREADY))

module tb_axi_mem #(parameter [63:0] BASE = 64'h0, parameter [7:0] B_LATENCY = 8'd66) (
    input clk, input rst_n,
    input AWVALID, output AWREADY, input [63:0] AWADDR, input [7:0] AWLEN,
    input WVALID, output WREADY, input [511:0] WDATA, input [63:0] WSTRB, input WLAST,
    input ARVALID, output ARREADY, input [63:0] ARADDR, input [7:0] ARLEN,
    output RVALID, input RREADY, output [511:0] RDATA, output RLAST,
    output BVALID, input BREADY);
    reg [511:0] mem [0:7];
    reg rbusy = 1'b0, wbusy = 1'b0, bpend = 1'b0;
    reg [7:0] rleft = 8'd0;
    reg [2:0] ridx = 3'd0, widx = 3'd0;
    integer b;
    assign ARREADY = !rbusy;
    assign RVALID = rbusy;
    assign RDATA = mem[ridx];
    assign RLAST = rbusy && rleft == 8'd0;
    assign AWREADY = !wbusy && !bpend;
    assign WREADY = wbusy;
    reg [7:0] bdelay = 8'd0;
    assign BVALID = bpend && bdelay == 8'd0;
    always @(posedge clk) begin
        if (!rst_n) begin
            rbusy <= 1'b0; wbusy <= 1'b0; bpend <= 1'b0;
        end else begin
            if (ARVALID && ARREADY) begin
                rbusy <= 1'b1; rleft <= ARLEN; ridx <= 3'((ARADDR - BASE) >> 6);
            end else if (rbusy && RREADY) begin
                if (rleft == 8'd0) rbusy <= 1'b0;
                else begin rleft <= rleft - 8'd1; ridx <= ridx + 3'd1; end
            end
            if (AWVALID && AWREADY) begin
                wbusy <= 1'b1; widx <= 3'((AWADDR - BASE) >> 6);
            end else if (WVALID && WREADY) begin
                for (b = 0; b < 64; b = b + 1)
                    if (WSTRB[b]) mem[widx][8*b +: 8] <= WDATA[8*b +: 8];
                widx <= widx + 3'd1;
                if (WLAST) begin wbusy <= 1'b0; bpend <= 1'b1; bdelay <= B_LATENCY; end
            end
            if (bpend && bdelay != 8'd0) bdelay <= bdelay - 8'd1;
            if (BVALID && BREADY) bpend <= 1'b0;
        end
    end
endmodule

module multiplier_tb;
    reg ap_clk = 1'b0;
    reg ap_rst_n = 1'b0;
    reg AWVALID = 1'b0, WVALID = 1'b0, ARVALID = 1'b0, RREADY = 1'b0, BREADY = 1'b0;
    reg [5:0] AWADDR = 6'd0, ARADDR = 6'd0;
    reg [31:0] WDATA = 32'd0;
    wire AWREADY, WREADY, ARREADY, RVALID, BVALID, interrupt;
    wire [31:0] RDATA;
    wire [1:0] RRESP, BRESP;
    `MEM_WIRES(gmem1)
    `MEM_WIRES(gmem2)
    `MEM_WIRES(gmem3)
    integer i, j, k, errors, cycles;
    reg signed [31:0] a [0:63];
    reg signed [31:0] bm [0:63];
    reg signed [31:0] want, got;

    multiplier dut (.ap_clk(ap_clk), .ap_rst_n(ap_rst_n),
        `MEM_PORTS(gmem1), `MEM_PORTS(gmem2), `MEM_PORTS(gmem3),
        .s_axi_control_AWVALID(AWVALID), .s_axi_control_AWREADY(AWREADY), .s_axi_control_AWADDR(AWADDR),
        .s_axi_control_WVALID(WVALID), .s_axi_control_WREADY(WREADY), .s_axi_control_WDATA(WDATA),
        .s_axi_control_WSTRB(4'hf), .s_axi_control_ARVALID(ARVALID), .s_axi_control_ARREADY(ARREADY),
        .s_axi_control_ARADDR(ARADDR), .s_axi_control_RVALID(RVALID), .s_axi_control_RREADY(RREADY),
        .s_axi_control_RDATA(RDATA), .s_axi_control_RRESP(RRESP), .s_axi_control_BVALID(BVALID),
        .s_axi_control_BREADY(BREADY), .s_axi_control_BRESP(BRESP), .interrupt(interrupt));
    `MEM_INST(gmem1, 64'h10000);
    `MEM_INST(gmem2, 64'h20000);
    `MEM_INST(gmem3, 64'h30000);

    always #5 ap_clk = ~ap_clk;

    // The run as the profile counts it, measured here independently: from the first rising edge
    // that sees ap_start high to the one that sees ap_done high, both included.
    integer run_cycles = 0;
    reg counting = 1'b0;
    always @(posedge ap_clk) begin
        if (dut.ap_start === 1'b1 || counting) begin
            run_cycles = run_cycles + 1;
            counting = dut.ap_done !== 1'b1;
        end
    end

    task axil_write(input [5:0] addr, input [31:0] data);
        reg aw_done, w_done;
        begin
            @(negedge ap_clk);
            AWADDR = addr; AWVALID = 1'b1; WDATA = data; WVALID = 1'b1;
            aw_done = 1'b0; w_done = 1'b0;
            while (!(aw_done && w_done)) begin
                @(posedge ap_clk);
                if (AWVALID && AWREADY) aw_done = 1'b1;
                if (WVALID && WREADY) w_done = 1'b1;
                @(negedge ap_clk);
                if (aw_done) AWVALID = 1'b0;
                if (w_done) WVALID = 1'b0;
            end
            BREADY = 1'b1;
            @(posedge ap_clk);
            while (!BVALID) @(posedge ap_clk);
            @(negedge ap_clk);
            BREADY = 1'b0;
        end
    endtask

    initial begin
        $dumpfile("multiplier.vcd");
        $dumpvars(0, multiplier_tb);
        for (k = 0; k < 64; k = k + 1) begin
            a[k] = k + 1;
            bm[k] = (k % 7) - 3;
        end
        for (k = 0; k < 64; k = k + 1) begin
            gmem1_mem.mem[k / 16][32 * (k % 16) +: 32] = a[k];
            gmem2_mem.mem[k / 16][32 * (k % 16) +: 32] = bm[k];
            gmem3_mem.mem[k / 16][32 * (k % 16) +: 32] = 32'd0;
        end
        for (k = 4; k < 8; k = k + 1) begin
            gmem1_mem.mem[k] = 512'd0; gmem2_mem.mem[k] = 512'd0; gmem3_mem.mem[k] = 512'd0;
        end
        repeat (4) @(posedge ap_clk);
        @(negedge ap_clk) ap_rst_n = 1'b1;
        repeat (2) @(posedge ap_clk);
        axil_write(6'h10, 32'h0001_0000); axil_write(6'h14, 32'd0);
        axil_write(6'h1c, 32'h0002_0000); axil_write(6'h20, 32'd0);
        axil_write(6'h28, 32'h0003_0000); axil_write(6'h2c, 32'd0);
        axil_write(6'h34, 32'd8);
        axil_write(6'h00, 32'd1);
        cycles = 0;
        while (dut.ap_done !== 1'b1 && cycles < 100000) begin
            @(posedge ap_clk);
            cycles = cycles + 1;
        end
        repeat (5) @(posedge ap_clk);
        errors = 0;
        for (i = 0; i < 8; i = i + 1)
            for (j = 0; j < 8; j = j + 1) begin
                want = 0;
                for (k = 0; k < 8; k = k + 1) want = want + a[i * 8 + k] * bm[k * 8 + j];
                got = gmem3_mem.mem[(i * 8 + j) / 16][32 * ((i * 8 + j) % 16) +: 32];
                if (got !== want) errors = errors + 1;
            end
        $display("CYCLES %0d", run_cycles);
        if (errors == 0 && cycles < 100000) $display("PASS");
        else $display("ERROR: %0d wrong results (%0d cycles waited)", errors, cycles);
        $finish;
    end
endmodule
