// rtlprobe_tb_mini: drives tests/hw/rtlprobe-mini (`mini`, ap_ctrl_hs) for two calls, with or
// without its probes (+define+PROBED builds `mini_rtlprobe`). Prints `Y <call> <y>`, the
// observers' `EV` lines (observe.svh, written by the test) and, probed, `Q <probe> <status>
// <head_lo> <head_hi>` for every queue entry the host would read. With +define+OFFLOAD (a build
// with --offload) the host first points the DRAM offload at byte 0x100 of an AXI4 memory model
// (64 records), and at the end prints `W <records written>` and `R <k> <lo> <hi>` per record.
`timescale 1ns / 1ps
`default_nettype none

`ifdef PROBED
`define DESIGN dut.u_design
`else
`define DESIGN dut
`endif

module rtlprobe_tb_mini (
    input wire clk,
    input wire rst_n
);
    wire ap_clk = clk;
    wire ap_rst = !rst_n;
    reg  ap_start;
    wire ap_done, ap_idle, ap_ready;
    reg  [15:0] x;
    wire [15:0] y;
    reg  [63:0] cycle;
    always @(posedge clk) cycle <= rst_n ? cycle + 64'd1 : 64'd0;

`ifdef PROBED
    `include "probe_host.svh"
`ifdef OFFLOAD
    wire [63:0] m_axi_rtlprobe_awaddr, m_axi_rtlprobe_wdata;
    wire [7:0]  m_axi_rtlprobe_awlen, m_axi_rtlprobe_wstrb;
    wire [2:0]  m_axi_rtlprobe_awsize;
    wire [1:0]  m_axi_rtlprobe_awburst, m_axi_rtlprobe_bresp;
    wire        m_axi_rtlprobe_awvalid, m_axi_rtlprobe_awready, m_axi_rtlprobe_wlast, m_axi_rtlprobe_wvalid;
    wire        m_axi_rtlprobe_wready, m_axi_rtlprobe_bvalid, m_axi_rtlprobe_bready;
    wire        ram_arready, ram_rvalid, ram_rlast;
    wire [63:0] ram_rdata;
    wire [0:0]  ram_bid, ram_rid;
    assign m_axi_rtlprobe_bresp = 2'b00;
    rtlprobe_tb_axi_mem #(.DATA_WIDTH(64), .ADDR_WIDTH(64), .BYTES(4096), .LATENCY(2)) ram (
        .clk(clk), .rst_n(rst_n),
        .awvalid(m_axi_rtlprobe_awvalid), .awready(m_axi_rtlprobe_awready), .awaddr(m_axi_rtlprobe_awaddr),
        .awid(1'b0), .awlen(m_axi_rtlprobe_awlen),
        .wvalid(m_axi_rtlprobe_wvalid), .wready(m_axi_rtlprobe_wready), .wdata(m_axi_rtlprobe_wdata),
        .wstrb(m_axi_rtlprobe_wstrb), .wlast(m_axi_rtlprobe_wlast),
        .bvalid(m_axi_rtlprobe_bvalid), .bready(m_axi_rtlprobe_bready), .bid(ram_bid),
        .arvalid(1'b0), .arready(ram_arready), .araddr(64'd0), .arid(1'b0), .arlen(8'd0),
        .rvalid(ram_rvalid), .rready(1'b0), .rdata(ram_rdata), .rid(ram_rid), .rlast(ram_rlast));
    wire unused_ram = &{1'b0, m_axi_rtlprobe_awsize, m_axi_rtlprobe_awburst, ram_arready, ram_rvalid, ram_rlast,
                        ram_rdata, ram_bid, ram_rid};
    integer k;
`endif
    mini_rtlprobe dut (.*);
`else
    mini dut (.*);
`endif

    `include "observe.svh"

    reg [7:0]  pc;
    localparam [7:0] READOUT = 8'd5; // the first state of probe_readout.svh
    reg [7:0]  idle;
    reg [15:0] probe, entry, depth;
    reg [31:0] status, lo;
    reg        waiting;
    always @(posedge clk) begin
`ifdef PROBED
        p_go <= 0;
`endif
        if (!rst_n) begin
`ifdef OFFLOAD
            pc <= 20;
`else
            pc <= 0;
`endif
            ap_start <= 0; x <= 0; idle <= 0; waiting <= 0;
        end else if (waiting) begin
`ifdef PROBED
            if (p_done) waiting <= 0;
`endif
        end else begin
            case (pc)
                // Two calls, three idle cycles apart; ap_start held until ap_ready.
                0, 2: begin x <= 16'd7 + {8'd0, pc}; ap_start <= 1; pc <= pc + 1; end
                1, 3: begin
                    if (ap_ready) ap_start <= 0;
                    if (ap_done) begin $display("Y %0d %0d", pc / 2, y); idle <= 3; pc <= pc + 1; end
                end
`ifdef OFFLOAD
                4: if (idle == 0) pc <= 30; else idle <= idle - 1;
                // OFF_BASE = 0x100, OFF_SIZE = 64 records, before the calls.
                20: begin p_go <= 1; p_we <= 1; p_addr <= 6'h2C; p_wdata <= 32'h100; waiting <= 1; pc <= 21; end
                21: begin p_go <= 1; p_we <= 1; p_addr <= 6'h30; p_wdata <= 32'h0; waiting <= 1; pc <= 22; end
                22: begin p_go <= 1; p_we <= 1; p_addr <= 6'h34; p_wdata <= 32'd64; waiting <= 1; pc <= 0; end
                // Wait for OFF_STATUS to say no drain is running or due, read OFF_WPTR, then
                // the records from the memory.
                30: begin p_go <= 1; p_we <= 0; p_addr <= 6'h3C; waiting <= 1; pc <= 32; end
                32: if (p_rdata[0]) pc <= 30;
                    else begin p_go <= 1; p_we <= 0; p_addr <= 6'h38; waiting <= 1; pc <= 31; end
                31: begin
                    $display("W %0d", p_rdata);
                    for (k = 0; k < p_rdata; k = k + 1)
                        $display("R %0d %0d %0d", k,
                            {ram.mem[256 + 8*k + 3], ram.mem[256 + 8*k + 2], ram.mem[256 + 8*k + 1], ram.mem[256 + 8*k]},
                            {ram.mem[256 + 8*k + 7], ram.mem[256 + 8*k + 6], ram.mem[256 + 8*k + 5], ram.mem[256 + 8*k + 4]});
                    pc <= 5;
                end
`else
                4: if (idle == 0) pc <= 5; else idle <= idle - 1;
`endif
`ifdef PROBED
                `include "probe_readout.svh"
`endif
                default: $finish;
            endcase
        end
    end
    // Two of these Y's come from a two-call run of the original: the probed one must match.
    wire unused_ok = &{1'b0, ap_idle};
endmodule

`default_nettype wire
