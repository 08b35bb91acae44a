// rtlprobe_tb_systolic: drives the 2022.2 systolic fixture (`multiplier`: s_axilite control and
// three m_axi bundles) for one call with an 8x8 A and B, with or without its probes (+define+PROBED
// builds `multiplier_rtlprobe`). Prints `START`/`DONE <cycle>` of the top's call, `RES <i> <value>`
// for the 64 result words, the observers' `EV` lines (observe.svh, written by the test) and,
// probed, `Q <probe> <status> <head_lo> <head_hi>` for every queue entry the host would read.
`timescale 1ns / 1ps
`default_nettype none

`ifdef PROBED
`define DESIGN dut.u_design
`else
`define DESIGN dut
`endif

module rtlprobe_tb_systolic (
    input wire clk,
    input wire rst_n
);
    wire ap_clk = clk;
    wire ap_rst_n = rst_n;
    wire interrupt;
    reg [63:0] cycle;
    always @(posedge clk) cycle <= rst_n ? cycle + 64'd1 : 64'd0;

`define MAXI(B) \
    wire m_axi_``B``_AWVALID, m_axi_``B``_AWREADY, m_axi_``B``_WVALID, m_axi_``B``_WREADY, m_axi_``B``_WLAST; \
    wire [63:0] m_axi_``B``_AWADDR, m_axi_``B``_ARADDR; \
    wire [0:0] m_axi_``B``_AWID, m_axi_``B``_WID, m_axi_``B``_ARID, m_axi_``B``_RID, m_axi_``B``_BID; \
    wire [7:0] m_axi_``B``_AWLEN, m_axi_``B``_ARLEN; \
    wire [2:0] m_axi_``B``_AWSIZE, m_axi_``B``_ARSIZE, m_axi_``B``_AWPROT, m_axi_``B``_ARPROT; \
    wire [1:0] m_axi_``B``_AWBURST, m_axi_``B``_ARBURST, m_axi_``B``_AWLOCK, m_axi_``B``_ARLOCK; \
    wire [3:0] m_axi_``B``_AWCACHE, m_axi_``B``_ARCACHE, m_axi_``B``_AWQOS, m_axi_``B``_ARQOS, m_axi_``B``_AWREGION, m_axi_``B``_ARREGION; \
    wire [0:0] m_axi_``B``_AWUSER, m_axi_``B``_ARUSER, m_axi_``B``_WUSER, m_axi_``B``_RUSER, m_axi_``B``_BUSER; \
    wire [511:0] m_axi_``B``_WDATA, m_axi_``B``_RDATA; \
    wire [63:0] m_axi_``B``_WSTRB; \
    wire m_axi_``B``_ARVALID, m_axi_``B``_ARREADY, m_axi_``B``_RVALID, m_axi_``B``_RREADY, m_axi_``B``_RLAST; \
    wire [1:0] m_axi_``B``_RRESP, m_axi_``B``_BRESP; \
    wire m_axi_``B``_BVALID, m_axi_``B``_BREADY; \
    assign m_axi_``B``_RUSER = 1'b0; assign m_axi_``B``_BUSER = 1'b0; \
    assign m_axi_``B``_RRESP = 2'b00; assign m_axi_``B``_BRESP = 2'b00; \
    rtlprobe_tb_axi_mem #(.DATA_WIDTH(512), .ADDR_WIDTH(64), .ID_WIDTH(1), .BYTES(4096)) mem_``B ( \
        .clk(clk), .rst_n(rst_n), \
        .awvalid(m_axi_``B``_AWVALID), .awready(m_axi_``B``_AWREADY), .awaddr(m_axi_``B``_AWADDR), \
        .awid(m_axi_``B``_AWID), .awlen(m_axi_``B``_AWLEN), \
        .wvalid(m_axi_``B``_WVALID), .wready(m_axi_``B``_WREADY), .wdata(m_axi_``B``_WDATA), \
        .wstrb(m_axi_``B``_WSTRB), .wlast(m_axi_``B``_WLAST), \
        .bvalid(m_axi_``B``_BVALID), .bready(m_axi_``B``_BREADY), .bid(m_axi_``B``_BID), \
        .arvalid(m_axi_``B``_ARVALID), .arready(m_axi_``B``_ARREADY), .araddr(m_axi_``B``_ARADDR), \
        .arid(m_axi_``B``_ARID), .arlen(m_axi_``B``_ARLEN), \
        .rvalid(m_axi_``B``_RVALID), .rready(m_axi_``B``_RREADY), .rdata(m_axi_``B``_RDATA), \
        .rid(m_axi_``B``_RID), .rlast(m_axi_``B``_RLAST));

    `MAXI(gmem1)
    `MAXI(gmem2)
    `MAXI(gmem3)

    // s_axilite control.
    wire [5:0]  s_axi_control_AWADDR, s_axi_control_ARADDR;
    wire        s_axi_control_AWVALID, s_axi_control_AWREADY, s_axi_control_WVALID, s_axi_control_WREADY;
    wire [31:0] s_axi_control_WDATA, s_axi_control_RDATA;
    wire [3:0]  s_axi_control_WSTRB;
    wire        s_axi_control_ARVALID, s_axi_control_ARREADY, s_axi_control_RVALID, s_axi_control_RREADY;
    wire [1:0]  s_axi_control_RRESP, s_axi_control_BRESP;
    wire        s_axi_control_BVALID, s_axi_control_BREADY;
    reg         c_go, c_we;
    reg  [5:0]  c_addr;
    reg  [31:0] c_wdata;
    wire        c_done;
    wire [31:0] c_rdata;
    rtlprobe_tb_axil_master #(.ADDR_WIDTH(6)) ctl (
        .clk(clk), .rst_n(rst_n), .go(c_go), .we(c_we), .addr(c_addr), .wdata(c_wdata), .done(c_done),
        .rdata(c_rdata),
        .awaddr(s_axi_control_AWADDR), .awvalid(s_axi_control_AWVALID), .awready(s_axi_control_AWREADY),
        .wdata_o(s_axi_control_WDATA), .wstrb(s_axi_control_WSTRB), .wvalid(s_axi_control_WVALID),
        .wready(s_axi_control_WREADY), .bresp(s_axi_control_BRESP), .bvalid(s_axi_control_BVALID),
        .bready(s_axi_control_BREADY), .araddr(s_axi_control_ARADDR), .arvalid(s_axi_control_ARVALID),
        .arready(s_axi_control_ARREADY), .rdata_i(s_axi_control_RDATA), .rresp(s_axi_control_RRESP),
        .rvalid(s_axi_control_RVALID), .rready(s_axi_control_RREADY));

`ifdef PROBED
    `include "probe_host.svh"
    multiplier_rtlprobe dut (.*);
`else
    multiplier dut (.*);
`endif

    // The waveform's own account of every instance's calls.
    `include "observe.svh"

    // Inputs: A[i][j] = i*8+j+1 at 0x100, B[i][j] = (i*3+j*5)%7-3 at 0x200; result at 0x300.
    integer i;
    initial begin
        for (i = 0; i < 64; i = i + 1) begin
            {mem_gmem1.mem[256 + 4*i + 3], mem_gmem1.mem[256 + 4*i + 2], mem_gmem1.mem[256 + 4*i + 1], mem_gmem1.mem[256 + 4*i]} = i + 1;
            {mem_gmem2.mem[512 + 4*i + 3], mem_gmem2.mem[512 + 4*i + 2], mem_gmem2.mem[512 + 4*i + 1], mem_gmem2.mem[512 + 4*i]} = ((i / 8) * 3 + (i % 8) * 5) % 7 - 3;
        end
    end

    // The host: write the arguments, start, poll ap_done, read the probes, print the result.
    reg [7:0]  pc;
    reg        waiting;
    reg [15:0] probe, entry, depth;
    reg [31:0] status, lo;
    always @(posedge clk) begin
        c_go <= 0;
`ifdef PROBED
        p_go <= 0;
`endif
        if (!rst_n) begin
            pc <= 0; waiting <= 0;
        end else if (waiting) begin
            if (c_done
`ifdef PROBED
                || p_done
`endif
            ) waiting <= 0;
        end else begin
            waiting <= 1;
            pc <= pc + 1;
            case (pc)
                0:  begin c_go <= 1; c_we <= 1; c_addr <= 6'h10; c_wdata <= 32'h100; end
                1:  begin c_go <= 1; c_we <= 1; c_addr <= 6'h14; c_wdata <= 0; end
                2:  begin c_go <= 1; c_we <= 1; c_addr <= 6'h1C; c_wdata <= 32'h200; end
                3:  begin c_go <= 1; c_we <= 1; c_addr <= 6'h20; c_wdata <= 0; end
                4:  begin c_go <= 1; c_we <= 1; c_addr <= 6'h28; c_wdata <= 32'h300; end
                5:  begin c_go <= 1; c_we <= 1; c_addr <= 6'h2C; c_wdata <= 0; end
                6:  begin c_go <= 1; c_we <= 1; c_addr <= 6'h34; c_wdata <= 8; end
                7:  begin c_go <= 1; c_we <= 1; c_addr <= 6'h00; c_wdata <= 1; end
                8:  begin c_go <= 1; c_we <= 0; c_addr <= 6'h00; end
                9:  begin waiting <= 0; if (!c_rdata[1]) pc <= 8; end
`ifdef PROBED
                10: begin probe <= 0; p_go <= 1; p_we <= 0; p_addr <= 6'h04; end
                11: begin if (probe == 0) $display("I %0d", p_rdata); p_go <= 1; p_we <= 1; p_addr <= 6'h18; p_wdata <= {16'd0, probe}; entry <= 0; end
                12: begin p_go <= 1; p_we <= 0; p_addr <= 6'h1C; end
                13: begin status <= p_rdata; depth <= {8'd0, p_rdata[15:8]}; p_go <= 1; p_we <= 0; p_addr <= 6'h20; end
                14: begin lo <= p_rdata; p_go <= 1; p_we <= 0; p_addr <= 6'h24; end
                15: begin
                    waiting <= 0;
                    $display("Q %0d %0d %0d %0d", probe, status, lo, p_rdata);
                    entry <= entry + 1;
                    if (entry + 1 < depth) pc <= 12;
                    else if (probe + 1 < `NPROBES) begin probe <= probe + 1; pc <= 11; end
                end
`endif
                default: begin
                    for (i = 0; i < 64; i = i + 1)
                        $display("RES %0d %0d", i, $signed({mem_gmem3.mem[768 + 4*i + 3], mem_gmem3.mem[768 + 4*i + 2], mem_gmem3.mem[768 + 4*i + 1], mem_gmem3.mem[768 + 4*i]}));
                    $finish;
                end
            endcase
        end
    end
endmodule

`default_nettype wire
