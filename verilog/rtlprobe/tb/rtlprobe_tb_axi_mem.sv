// rtlprobe_tb_axi_mem: an AXI4 slave memory for testbenches (the m_axi side of a Vitis design).
// INCR bursts, one read and one write burst at a time, LATENCY idle cycles before the first read
// beat. Clocked only (no delays), so it runs under Verilator without --timing and under Icarus.
`timescale 1ns / 1ps
`default_nettype none

module rtlprobe_tb_axi_mem #(
    parameter integer DATA_WIDTH = 512,  // bits per beat, a multiple of 8
    parameter integer ADDR_WIDTH = 64,
    parameter integer ID_WIDTH   = 1,
    parameter integer BYTES      = 4096, // memory size; addresses wrap
    parameter integer LATENCY    = 4     // cycles from AR to the first R beat
) (
    input  wire                    clk,
    input  wire                    rst_n,
    input  wire                    awvalid,
    output reg                     awready,
    input  wire [ADDR_WIDTH-1:0]   awaddr,
    input  wire [ID_WIDTH-1:0]     awid,
    input  wire [7:0]              awlen,
    input  wire                    wvalid,
    output reg                     wready,
    input  wire [DATA_WIDTH-1:0]   wdata,
    input  wire [DATA_WIDTH/8-1:0] wstrb,
    input  wire                    wlast,
    output reg                     bvalid,
    input  wire                    bready,
    output reg  [ID_WIDTH-1:0]     bid,
    input  wire                    arvalid,
    output reg                     arready,
    input  wire [ADDR_WIDTH-1:0]   araddr,
    input  wire [ID_WIDTH-1:0]     arid,
    input  wire [7:0]              arlen,
    output reg                     rvalid,
    input  wire                    rready,
    output reg  [DATA_WIDTH-1:0]   rdata,
    output reg  [ID_WIDTH-1:0]     rid,
    output reg                     rlast
);
    localparam integer NB = DATA_WIDTH / 8;
    reg [7:0] mem [0:BYTES-1];

    // Reads.
    reg [ADDR_WIDTH-1:0] raddr_reg;
    reg [8:0]            rleft_reg;
    reg [7:0]            rwait_reg;
    reg                  rbusy_reg;
    integer b;
    always @(posedge clk) begin
        if (!rst_n) begin
            arready <= 1'b0; rvalid <= 1'b0; rlast <= 1'b0; rbusy_reg <= 1'b0;
        end else begin
            arready <= !rbusy_reg && !arready;
            if (arvalid && arready) begin
                rbusy_reg <= 1'b1;
                raddr_reg <= araddr;
                rleft_reg <= {1'b0, arlen} + 9'd1;
                rwait_reg <= LATENCY[7:0];
                rid       <= arid;
                arready   <= 1'b0;
            end
            if (rbusy_reg && (!rvalid || rready)) begin
                if (rvalid && rlast) begin
                    rvalid <= 1'b0; rbusy_reg <= 1'b0; rlast <= 1'b0;
                end else if (rwait_reg != 0) begin
                    rwait_reg <= rwait_reg - 8'd1;
                    rvalid <= 1'b0;
                end else begin
                    for (b = 0; b < NB; b = b + 1) rdata[8*b +: 8] <= mem[(raddr_reg + b) % BYTES];
                    rvalid    <= 1'b1;
                    rlast     <= rleft_reg == 9'd1;
                    rleft_reg <= rleft_reg - 9'd1;
                    raddr_reg <= raddr_reg + NB;
                end
            end
        end
    end

    // Writes.
    reg [ADDR_WIDTH-1:0] waddr_reg;
    reg                  wbusy_reg;
    always @(posedge clk) begin
        if (!rst_n) begin
            awready <= 1'b0; wready <= 1'b0; bvalid <= 1'b0; wbusy_reg <= 1'b0;
        end else begin
            awready <= !wbusy_reg && !awready && !bvalid;
            if (awvalid && awready) begin
                wbusy_reg <= 1'b1;
                waddr_reg <= awaddr;
                bid       <= awid;
                awready   <= 1'b0;
                wready    <= 1'b1;
            end
            if (wvalid && wready) begin
                for (b = 0; b < NB; b = b + 1)
                    if (wstrb[b]) mem[(waddr_reg + b) % BYTES] <= wdata[8*b +: 8];
                waddr_reg <= waddr_reg + NB;
                if (wlast) begin
                    wready <= 1'b0; wbusy_reg <= 1'b0; bvalid <= 1'b1;
                end
            end
            if (bvalid && bready) bvalid <= 1'b0;
        end
    end
endmodule

`default_nettype wire
