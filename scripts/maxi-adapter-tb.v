// Testbench of a Vitis m_axi adapter (<top>_<bundle>_m_axi.v, not in this repository): iverilog -g2012 scripts/maxi-adapter-tb.v adapter.v (the adapter with `always @ (*)` read as always_comb and its `default_nettype lines removed); vvp +MODE=0..5 +DLY=0. Figures: docs/cycle-model.md, "m_axi bursts on a short schedule".
`timescale 1ns/1ps
module tb;
  reg clk=0, rst=1; always #5 clk=~clk;
  // AXI side
  wire [63:0] ARADDR; wire [7:0] ARLEN; wire ARVALID; reg ARREADY=1;
  reg [31:0] RDATA=0; reg RVALID=0; reg RLAST=0; wire RREADY;
  wire [63:0] AWADDR; wire [7:0] AWLEN; wire AWVALID; reg AWREADY=1;
  wire [31:0] WDATA; wire WVALID; wire WLAST; reg WREADY=1; reg BVALID=0; wire BREADY;
  // user side
  reg [63:0] I_ARADDR=0; reg [31:0] I_ARLEN=1; reg I_ARVALID=0; wire I_ARREADY;
  wire [31:0] I_RDATA; wire I_RVALID; reg I_RREADY=0; wire [8:0] I_RFIFONUM;
  reg [63:0] I_AWADDR=0; reg [31:0] I_AWLEN=1; reg I_AWVALID=0; wire I_AWREADY;
  reg [31:0] I_WDATA=0; reg I_WVALID=0; wire I_WREADY; wire I_BVALID; reg I_BREADY=0;
  multiplier_gmem1_m_axi #(.CONSERVATIVE(1), .USER_MAXREQS(69), .C_M_AXI_ID_WIDTH(1), .C_M_AXI_ADDR_WIDTH(64),
    .C_M_AXI_DATA_WIDTH(32), .USER_RFIFONUM_WIDTH(9), .USER_DW(32), .USER_AW(64),
    .NUM_READ_OUTSTANDING(16), .NUM_WRITE_OUTSTANDING(16)) dut (
    .ACLK(clk), .ARESET(rst), .ACLK_EN(1'b1),
    .AWID(), .AWADDR(AWADDR), .AWLEN(AWLEN), .AWSIZE(), .AWBURST(), .AWLOCK(), .AWCACHE(), .AWPROT(), .AWQOS(), .AWREGION(), .AWUSER(), .AWVALID(AWVALID), .AWREADY(AWREADY),
    .WID(), .WDATA(WDATA), .WSTRB(), .WLAST(WLAST), .WUSER(), .WVALID(WVALID), .WREADY(WREADY),
    .BID(1'b0), .BRESP(2'b0), .BUSER(1'b0), .BVALID(BVALID), .BREADY(BREADY),
    .ARID(), .ARADDR(ARADDR), .ARLEN(ARLEN), .ARSIZE(), .ARBURST(), .ARLOCK(), .ARCACHE(), .ARPROT(), .ARQOS(), .ARREGION(), .ARUSER(), .ARVALID(ARVALID), .ARREADY(ARREADY),
    .RID(1'b0), .RDATA(RDATA), .RRESP(2'b0), .RLAST(RLAST), .RUSER(1'b0), .RVALID(RVALID), .RREADY(RREADY),
    .I_AWADDR(I_AWADDR), .I_AWLEN(I_AWLEN), .I_AWVALID(I_AWVALID), .I_AWREADY(I_AWREADY),
    .I_WDATA(I_WDATA), .I_WSTRB(4'hf), .I_WVALID(I_WVALID), .I_WREADY(I_WREADY),
    .I_BVALID(I_BVALID), .I_BREADY(I_BREADY),
    .I_ARADDR(I_ARADDR), .I_ARLEN(I_ARLEN), .I_ARVALID(I_ARVALID), .I_ARREADY(I_ARREADY),
    .I_RDATA(I_RDATA), .I_RVALID(I_RVALID), .I_RREADY(I_RREADY), .I_RFIFONUM(I_RFIFONUM));
  // slave: accept AR, return ARLEN+1 beats starting DLY cycles after the handshake
  integer DLY; integer pending=0; integer beats=0; integer cyc=0;
  integer q_t[0:255]; integer q_n[0:255]; integer qh=0, qt=0;
  integer bq_t[0:255]; integer bh=0, bt=0;
  always @(posedge clk) begin
    cyc <= cyc+1;
    if (ARVALID && ARREADY) begin q_t[qt] = cyc + DLY; q_n[qt] = ARLEN+1; qt = qt+1; end
    if (RVALID && RREADY) begin
      beats = beats-1; if (beats==0) begin qh = qh+1; end
    end
    if (!(RVALID && !RREADY)) begin
      if (beats==0 && qh<qt && q_t[qh] <= cyc) beats = q_n[qh];
      RVALID <= (beats>0 && qh<qt && q_t[qh] <= cyc); RLAST <= (beats==1); RDATA <= cyc;
    end
    if (WVALID && WREADY && WLAST) begin bq_t[bt] = cyc + DLY; bt = bt+1; end
    if (BVALID && BREADY) bh = bh+1;
    BVALID <= (bh<bt && bq_t[bh] <= cyc) && !(BVALID && BREADY && bh+1>=bt);
  end
  integer i, t0, n, mode;
  initial begin
    if (!$value$plusargs("DLY=%d", DLY)) DLY=0;
    if (!$value$plusargs("MODE=%d", mode)) mode=0;
    repeat(5) @(posedge clk); rst<=0; repeat(5) @(posedge clk);
    if (mode==0) begin // single read round trip
      t0=cyc; I_ARVALID<=1; I_ARLEN<=1; I_RREADY<=1; @(posedge clk); while(!I_ARREADY) @(posedge clk); I_ARVALID<=0;
      while(!I_RVALID) @(posedge clk); $display("single read: request at %0d, data at %0d: %0d cycles", t0, cyc, cyc-t0);
    end else if (mode==1) begin // 100 dependent-stall single reads: next request only when the previous data is in
      t0=cyc; I_RREADY<=1;
      for (i=0;i<100;i=i+1) begin I_ARVALID<=1; I_ARADDR<=i*128; @(posedge clk); while(!I_ARREADY) @(posedge clk); I_ARVALID<=0; while(!I_RVALID) @(posedge clk); end
      $display("100 stalled single reads: %0d cycles", cyc-t0);
    end else if (mode==2) begin // 100 single reads issued back to back, data taken when there
      t0=cyc; I_RREADY<=1; n=0;
      fork
        begin for (i=0;i<100;i=i+1) begin I_ARVALID<=1; I_ARADDR<=i*128; @(posedge clk); while(!I_ARREADY) @(posedge clk); end I_ARVALID<=0; end
        begin while (n<100) begin @(posedge clk); if (I_RVALID) n=n+1; end end
      join
      $display("100 back-to-back single reads: %0d cycles", cyc-t0);
    end else if (mode==3) begin // one burst of 50
      t0=cyc; I_RREADY<=1; n=0; I_ARVALID<=1; I_ARLEN<=50; @(posedge clk); while(!I_ARREADY) @(posedge clk); I_ARVALID<=0;
      while (n<50) begin @(posedge clk); if (I_RVALID) n=n+1; end
      $display("burst of 50: %0d cycles", cyc-t0);
    end else if (mode==5) begin // single-beat write then its response
      t0=cyc; I_BREADY<=1; I_AWVALID<=1; I_AWLEN<=1; I_WVALID<=1; @(posedge clk); while(!I_AWREADY) @(posedge clk); I_AWVALID<=0; while(!I_WREADY) @(posedge clk); I_WVALID<=0; n=cyc;
      while(!I_BVALID) @(posedge clk);
      $display("single write: request to response %0d, data accepted to response %0d", cyc-t0, cyc-n);
    end else if (mode==4) begin // write burst of 50 then wait for the response
      t0=cyc; I_BREADY<=1; I_AWVALID<=1; I_AWLEN<=50; @(posedge clk); while(!I_AWREADY) @(posedge clk); I_AWVALID<=0;
      for (i=0;i<50;i=i+1) begin I_WVALID<=1; I_WDATA<=i; @(posedge clk); while(!I_WREADY) @(posedge clk); end I_WVALID<=0; n=cyc;
      while(!I_BVALID) @(posedge clk);
      $display("write burst of 50 + response: %0d cycles, last beat accepted to response %0d", cyc-t0, cyc-n);
    end
    $finish;
  end
  initial begin #200000; $display("timeout"); $finish; end
endmodule
