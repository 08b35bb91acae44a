// The host side of the probed design's AXI4-Lite readout, shared by the rtl-probe testbenches
// of whole designs: the `s_axi_rtlprobe_*` wires the new top's ports connect to by name (`.*`),
// and the master that drives them from `p_go`/`p_we`/`p_addr`/`p_wdata` (result in
// `p_done`/`p_rdata`). Included inside `ifdef PROBED`.
wire [5:0]  s_axi_rtlprobe_awaddr, s_axi_rtlprobe_araddr;
wire        s_axi_rtlprobe_awvalid, s_axi_rtlprobe_awready, s_axi_rtlprobe_wvalid, s_axi_rtlprobe_wready;
wire [31:0] s_axi_rtlprobe_wdata, s_axi_rtlprobe_rdata;
wire [3:0]  s_axi_rtlprobe_wstrb;
wire        s_axi_rtlprobe_arvalid, s_axi_rtlprobe_arready, s_axi_rtlprobe_rvalid, s_axi_rtlprobe_rready;
wire [1:0]  s_axi_rtlprobe_rresp, s_axi_rtlprobe_bresp;
wire        s_axi_rtlprobe_bvalid, s_axi_rtlprobe_bready;
reg         p_go, p_we;
reg  [5:0]  p_addr;
reg  [31:0] p_wdata;
wire        p_done;
wire [31:0] p_rdata;
rtlprobe_tb_axil_master #(.ADDR_WIDTH(6)) prb (
    .clk(clk), .rst_n(rst_n), .go(p_go), .we(p_we), .addr(p_addr), .wdata(p_wdata), .done(p_done),
    .rdata(p_rdata),
    .awaddr(s_axi_rtlprobe_awaddr), .awvalid(s_axi_rtlprobe_awvalid), .awready(s_axi_rtlprobe_awready),
    .wdata_o(s_axi_rtlprobe_wdata), .wstrb(s_axi_rtlprobe_wstrb), .wvalid(s_axi_rtlprobe_wvalid),
    .wready(s_axi_rtlprobe_wready), .bresp(s_axi_rtlprobe_bresp), .bvalid(s_axi_rtlprobe_bvalid),
    .bready(s_axi_rtlprobe_bready), .araddr(s_axi_rtlprobe_araddr), .arvalid(s_axi_rtlprobe_arvalid),
    .arready(s_axi_rtlprobe_arready), .rdata_i(s_axi_rtlprobe_rdata), .rresp(s_axi_rtlprobe_rresp),
    .rvalid(s_axi_rtlprobe_rvalid), .rready(s_axi_rtlprobe_rready));
