// rtlprobe_tb_axil_master: an AXI4-Lite master for testbenches. Pulse `go` with `we`, `addr`,
// `wdata`; `done` pulses when the write response or the read data arrived (`rdata`). Clocked only.
`timescale 1ns / 1ps
`default_nettype none

module rtlprobe_tb_axil_master #(
    parameter integer ADDR_WIDTH = 6
) (
    input  wire                  clk,
    input  wire                  rst_n,
    input  wire                  go,
    input  wire                  we,
    input  wire [ADDR_WIDTH-1:0] addr,
    input  wire [31:0]           wdata,
    output reg                   done,
    output reg  [31:0]           rdata,
    output reg  [ADDR_WIDTH-1:0] awaddr,
    output reg                   awvalid,
    input  wire                  awready,
    output reg  [31:0]           wdata_o,
    output wire [3:0]            wstrb,
    output reg                   wvalid,
    input  wire                  wready,
    input  wire [1:0]            bresp,
    input  wire                  bvalid,
    output reg                   bready,
    output reg  [ADDR_WIDTH-1:0] araddr,
    output reg                   arvalid,
    input  wire                  arready,
    input  wire [31:0]           rdata_i,
    input  wire [1:0]            rresp,
    input  wire                  rvalid,
    output reg                   rready
);
    assign wstrb = 4'hf;
    always @(posedge clk) begin
        if (!rst_n) begin
            awvalid <= 0; wvalid <= 0; bready <= 0; arvalid <= 0; rready <= 0; done <= 0;
        end else begin
            done <= 0;
            if (go && we) begin
                awaddr <= addr; awvalid <= 1; wdata_o <= wdata; wvalid <= 1; bready <= 1;
            end else if (go) begin
                araddr <= addr; arvalid <= 1; rready <= 1;
            end
            if (awvalid && awready) awvalid <= 0;
            if (wvalid && wready) wvalid <= 0;
            if (bvalid && bready) begin bready <= 0; done <= 1; end
            if (arvalid && arready) arvalid <= 0;
            if (rvalid && rready) begin rready <= 0; rdata <= rdata_i; done <= 1; end
        end
    end
    wire unused_ok = &{1'b0, bresp, rresp};
endmodule

`default_nettype wire
