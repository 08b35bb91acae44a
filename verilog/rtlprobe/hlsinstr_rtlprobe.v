// hlsinstr_rtlprobe: the profiling IP of `hlsinstr rtl-probe`. A free-running 64-bit cycle
// counter, one hlsinstr_rtlprobe_queue per probed instance, and an AXI4-Lite slave the host
// reads them through (register map in docs/rtl-probe.md). It only reads the design's handshake
// signals: the probed design's logic and timing are the original's.
//
// The counter is 0 in the first cycle after reset (or after a write of 1 to CTRL) and counts
// every clock; a timestamp is the counter's value in the cycle of the event.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_rtlprobe #(
    // Probed instances (queues); 1 to 65535.
    parameter integer N = 1,
    // Depth of queue i in bits [8*i +: 8]; each 2 to 255.
    parameter [8*N-1:0] DEPTHS = {N{8'd4}},
    // Identifies the manifest the wrapper was generated with (readable at KEY_LO/KEY_HI).
    parameter [63:0] KEY = 64'd0,
    // Width of each queue's call counter (STATUS shows its low 16 bits); 0: none (STATUS
    // shows 0 calls; the host counts the starts it reads; about 20 LUT less per queue).
    parameter integer CALLS_WIDTH = 16,
    // AXI4-Lite address width; the map needs 6 bits.
    parameter integer ADDR_WIDTH = 6,
    // Bits of each stored timestamp, 32 to 64: the low bits of the 64-bit counter. Below 64 a
    // timestamp is exact while the counter is below 2^TS_WIDTH (48 bits: 6.5 days at 500 MHz);
    // INFO bit 23 says when it went past. Each bit less saves DEPTH flip-flops per queue and a
    // slice of the readout multiplexer.
    parameter integer TS_WIDTH = 48,
    // 1: a queue at its high-water mark is drained to DRAM through m_axi_* (registers OFF_*,
    // hlsinstr_rtlprobe_offload; TS_WIDTH at most 48); 0: no offload, m_axi_* idle.
    parameter integer OFFLOAD = 0
) (
    input  wire                  clk,
    input  wire                  rst_n,
    input  wire [N-1:0]          probe_start,
    input  wire [N-1:0]          probe_done,
    input  wire [N-1:0]          probe_continue, // ap_continue; high for an instance without one
    // AXI4-Lite slave (32-bit data).
    input  wire [ADDR_WIDTH-1:0] s_axi_awaddr,
    input  wire                  s_axi_awvalid,
    output wire                  s_axi_awready,
    input  wire [31:0]           s_axi_wdata,
    input  wire [3:0]            s_axi_wstrb,
    input  wire                  s_axi_wvalid,
    output wire                  s_axi_wready,
    output wire [1:0]            s_axi_bresp,
    output reg                   s_axi_bvalid,
    input  wire                  s_axi_bready,
    input  wire [ADDR_WIDTH-1:0] s_axi_araddr,
    input  wire                  s_axi_arvalid,
    output wire                  s_axi_arready,
    output reg  [31:0]           s_axi_rdata,
    output wire [1:0]            s_axi_rresp,
    output reg                   s_axi_rvalid,
    input  wire                  s_axi_rready,
    // AXI4 write master of the DRAM offload (64-bit; OFFLOAD 0: never valid).
    output wire [63:0]           m_axi_awaddr,
    output wire [7:0]            m_axi_awlen,
    output wire [2:0]            m_axi_awsize,
    output wire [1:0]            m_axi_awburst,
    output wire                  m_axi_awvalid,
    input  wire                  m_axi_awready,
    output wire [63:0]           m_axi_wdata,
    output wire [7:0]            m_axi_wstrb,
    output wire                  m_axi_wlast,
    output wire                  m_axi_wvalid,
    input  wire                  m_axi_wready,
    input  wire [1:0]            m_axi_bresp,
    input  wire                  m_axi_bvalid,
    output wire                  m_axi_bready
);

    localparam [31:0] MAGIC = 32'h484C5250; // "HLRP"
    localparam [7:0]  VERSION = 8'd1;
    localparam integer SEL_WIDTH = (N > 1) ? $clog2(N) : 1;
    localparam integer CW = (CALLS_WIDTH > 0) ? CALLS_WIDTH : 1;

    localparam [5:0] A_MAGIC = 6'h00, A_INFO = 6'h04, A_KEY_LO = 6'h08, A_KEY_HI = 6'h0C,
                     A_NOW_LO = 6'h10, A_NOW_HI = 6'h14, A_SEL = 6'h18, A_STATUS = 6'h1C,
                     A_HEAD_LO = 6'h20, A_HEAD_HI = 6'h24, A_CTRL = 6'h28,
                     A_OFF_BASE_LO = 6'h2C, A_OFF_BASE_HI = 6'h30, A_OFF_SIZE = 6'h34,
                     A_OFF_WPTR = 6'h38, A_OFF_STATUS = 6'h3C;

    initial begin
        if (N < 1 || N > 65535) $error("N must be 1 to 65535");
        if (ADDR_WIDTH < 6) $error("ADDR_WIDTH must be at least 6");
        if (TS_WIDTH < 32 || TS_WIDTH > 64) $error("TS_WIDTH must be 32 to 64");
        if (OFFLOAD != 0 && OFFLOAD != 1) $error("OFFLOAD must be 0 or 1");
        if (OFFLOAD == 1 && (TS_WIDTH > 48 || N > 32767)) $error("OFFLOAD needs TS_WIDTH <= 48 and N <= 32767");
    end

    // ---- clear and the global counter
    reg         clear_reg;
    wire        rst = !rst_n || clear_reg;
    reg  [63:0] now_reg;
    always @(posedge clk) begin
        if (rst) now_reg <= 64'd0;
        else     now_reg <= now_reg + 64'd1;
    end

    // ---- the queues
    reg  [SEL_WIDTH-1:0] sel_reg;
    wire                 pop_sel;
    wire [TS_WIDTH*N-1:0] heads;
    wire [N-1:0]         valids, fulls, highs, losts, opens;
    wire [8*N-1:0]       counts;
    wire                 off_pop;
    wire                 off_busy;
    wire [SEL_WIDTH-1:0] off_queue;
    wire [16*N-1:0]      calls;

    genvar g;
    generate
        for (g = 0; g < N; g = g + 1) begin : q
            wire [CW-1:0] calls_g;
            hlsinstr_rtlprobe_queue #(
                .DEPTH({24'd0, DEPTHS[8*g +: 8]}),
                .TS_WIDTH(TS_WIDTH),
                .CALLS_WIDTH(CALLS_WIDTH)
            ) u_queue (
                .clk(clk),
                .rst(rst),
                .now(now_reg[TS_WIDTH-1:0]),
                .ap_start(probe_start[g]),
                .ap_done(probe_done[g]),
                .ap_continue(probe_continue[g]),
                // The host pops only while no drain runs, the offload only while one does (a
                // decoder of each select: one of the multiplexer's select synthesized larger).
                .pop((pop_sel && sel_reg == g) || (off_pop && off_queue == g)),
                .head(heads[TS_WIDTH*g +: TS_WIDTH]),
                .head_valid(valids[g]),
                .full(fulls[g]),
                .high(highs[g]),
                .count(counts[8*g +: 8]),
                .lost_reg(losts[g]),
                .calls_reg(calls_g),
                .open_reg(opens[g])
            );
            if (CALLS_WIDTH >= 16) begin : wide
                assign calls[16*g +: 16] = calls_g[15:0];
                wire unused_calls_hi = &{1'b0, calls_g};
            end else if (CALLS_WIDTH > 0) begin : narrow
                assign calls[16*g +: 16] = {{(16-CALLS_WIDTH){1'b0}}, calls_g};
            end else begin : none
                assign calls[16*g +: 16] = 16'd0;
                wire unused_calls = &{1'b0, calls_g};
            end
        end
    endgenerate

    // ---- AXI4-Lite writes: one at a time, address and data together.
    wire do_write = s_axi_awvalid && s_axi_wvalid && !s_axi_bvalid;
    assign s_axi_awready = do_write;
    assign s_axi_wready  = do_write;
    assign s_axi_bresp   = 2'b00;
    wire [5:0] waddr = s_axi_awaddr[5:0];
    reg  [63:0] off_base_reg;
    reg  [31:0] off_size_reg;
    always @(posedge clk) begin
        if (!rst_n) begin
            s_axi_bvalid <= 1'b0;
            sel_reg      <= {SEL_WIDTH{1'b0}};
            clear_reg    <= 1'b0;
            off_base_reg <= 64'd0;
            off_size_reg <= 32'd0;
        end else begin
            clear_reg <= 1'b0;
            if (do_write) begin
                s_axi_bvalid <= 1'b1;
                if (waddr == A_SEL && s_axi_wstrb[0]) sel_reg <= s_axi_wdata[SEL_WIDTH-1:0];
                if (waddr == A_CTRL && s_axi_wstrb[0]) clear_reg <= s_axi_wdata[0];
                if (OFFLOAD == 1 && waddr == A_OFF_BASE_LO) off_base_reg[31:0] <= s_axi_wdata;
                if (OFFLOAD == 1 && waddr == A_OFF_BASE_HI) off_base_reg[63:32] <= s_axi_wdata;
                if (OFFLOAD == 1 && waddr == A_OFF_SIZE) off_size_reg <= s_axi_wdata;
            end else if (s_axi_bready) begin
                s_axi_bvalid <= 1'b0;
            end
        end
    end

    // The queue the readout multiplexer shows: the host's SEL, or while a drain runs the queue it
    // drains (the host's reads of STATUS and HEAD wait for the drain to end meanwhile). A
    // register, off_busy ? off_queue : sel_reg set from their next values: as logic, yosys merged
    // the choice into the multiplexer's stages (N 16 with the offload: 240 LUT more).
    wire                 off_busy_next;
    wire [SEL_WIDTH-1:0] off_queue_next;
    wire [SEL_WIDTH-1:0] sel_next = !rst_n ? {SEL_WIDTH{1'b0}}
                                  : (do_write && waddr == A_SEL && s_axi_wstrb[0]) ? s_axi_wdata[SEL_WIDTH-1:0] : sel_reg;
    reg  [SEL_WIDTH-1:0] mux_sel_reg;
    always @(posedge clk) mux_sel_reg <= off_busy_next ? off_queue_next : sel_next;
    wire [SEL_WIDTH-1:0] mux_sel = (OFFLOAD == 1) ? mux_sel_reg : sel_reg;

    // ---- AXI4-Lite reads: data registered in the address cycle; HEAD_HI pops afterwards. A read
    // of a queue (STATUS, HEAD_LO, HEAD_HI) waits while a drain runs (the multiplexer shows the
    // drained queue then) or begins: drains go first (a poll must not make a queue overflow), and
    // a read and its pop never meet the drain's choice of a queue and its length.
    wire [5:0]  raddr = s_axi_araddr[5:0];
    wire read_queue = raddr == A_STATUS || raddr == A_HEAD_LO || raddr == A_HEAD_HI;
    wire off_starting;
    wire do_read = s_axi_arvalid && !s_axi_rvalid && !(read_queue && (off_busy || off_starting));
    assign s_axi_arready = do_read;
    assign s_axi_rresp   = 2'b00;
    // One multiplexer for everything per queue the host reads: flags, calls, head.
    localparam integer WORD = 20 + TS_WIDTH;
    wire [WORD*N-1:0] words;
    wire [WORD-1:0]   word_sel;
    generate
        for (g = 0; g < N; g = g + 1) begin : w
            assign words[WORD*g +: WORD] = {calls[16*g +: 16], opens[g], losts[g], fulls[g], valids[g],
                                            heads[TS_WIDTH*g +: TS_WIDTH]};
        end
    endgenerate
    hlsinstr_rtlprobe_mux #(.N(N), .W(WORD), .SEL_WIDTH(SEL_WIDTH)) u_mux (
        .in(words), .sel(mux_sel), .out(word_sel)
    );
    wire [15:0] calls_sel = word_sel[TS_WIDTH+4 +: 16];
    wire [3:0]  flags_sel = word_sel[TS_WIDTH +: 4];
    wire [7:0]  depth_sel = DEPTHS[8*sel_reg +: 8];
    reg  [63:0] head;
    always @(*) begin
        head = 64'd0;
        head[TS_WIDTH-1:0] = word_sel[TS_WIDTH-1:0];
    end
    // The counter went past what a stored timestamp holds (never at TS_WIDTH 64).
    wire wrapped;
    generate
        if (TS_WIDTH < 64) begin : narrow_ts
            assign wrapped = |now_reg[63:TS_WIDTH];
        end else begin : full_ts
            assign wrapped = 1'b0;
        end
    endgenerate
    reg  [31:0] now_hi_reg;
    // OFF_STATUS bit 0: a drain runs or a queue waits for one (unless the region is full): the
    // host waits for it to clear after the run before it reads OFF_WPTR and the queues.
    wire off_pending = off_busy || (|highs && !off_overflow && OFFLOAD == 1);
    assign pop_sel = do_read && raddr == A_HEAD_HI;
    always @(posedge clk) begin
        if (!rst_n) begin
            s_axi_rvalid <= 1'b0;
            s_axi_rdata  <= 32'd0;
            now_hi_reg   <= 32'd0;
        end else if (do_read) begin
            s_axi_rvalid <= 1'b1;
            case (raddr)
                A_MAGIC:   s_axi_rdata <= MAGIC;
                A_INFO:    s_axi_rdata <= {VERSION, wrapped, TS_WIDTH[6:0], N[15:0]};
                A_KEY_LO:  s_axi_rdata <= KEY[31:0];
                A_KEY_HI:  s_axi_rdata <= KEY[63:32];
                A_NOW_LO:  begin s_axi_rdata <= now_reg[31:0]; now_hi_reg <= now_reg[63:32]; end
                A_NOW_HI:  s_axi_rdata <= now_hi_reg;
                A_SEL:     s_axi_rdata <= {{(32-SEL_WIDTH){1'b0}}, sel_reg};
                A_STATUS:  s_axi_rdata <= {calls_sel, depth_sel, 4'd0, flags_sel};
                A_HEAD_LO: s_axi_rdata <= head[31:0];
                A_HEAD_HI: s_axi_rdata <= head[63:32];
                A_OFF_BASE_LO: s_axi_rdata <= off_base_reg[31:0];
                A_OFF_BASE_HI: s_axi_rdata <= off_base_reg[63:32];
                A_OFF_SIZE:    s_axi_rdata <= off_size_reg;
                A_OFF_WPTR:    s_axi_rdata <= off_wptr;
                A_OFF_STATUS:  s_axi_rdata <= {29'd0, OFFLOAD == 1, off_overflow, off_pending};
                default:   s_axi_rdata <= 32'd0;
            endcase
        end else if (s_axi_rready) begin
            s_axi_rvalid <= 1'b0;
        end
    end

    // ---- the DRAM offload
    wire [31:0] off_wptr;
    wire        off_overflow;
    generate
        if (OFFLOAD == 1) begin : offload
            localparam integer OTS = (TS_WIDTH <= 48) ? TS_WIDTH : 48; // elaboration checks <= 48
            hlsinstr_rtlprobe_offload #(.N(N), .DEPTHS(DEPTHS), .TS_WIDTH(OTS)) u_offload (
                .clk(clk), .rst(rst), .base(off_base_reg), .size(off_size_reg),
                .high(highs), .counts(counts), .starting(off_starting),
                .head(word_sel[OTS-1:0]), .head_valid(flags_sel[0]),
                .pop(off_pop), .busy(off_busy), .queue(off_queue),
                .busy_next(off_busy_next), .queue_next(off_queue_next),
                .wptr_reg(off_wptr), .overflow_reg(off_overflow),
                .m_axi_awaddr(m_axi_awaddr), .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize),
                .m_axi_awburst(m_axi_awburst), .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready),
                .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast),
                .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready), .m_axi_bresp(m_axi_bresp),
                .m_axi_bvalid(m_axi_bvalid), .m_axi_bready(m_axi_bready)
            );
        end else begin : no_offload
            assign off_pop = 1'b0;
            assign off_busy = 1'b0;
            assign off_queue = {SEL_WIDTH{1'b0}};
            assign off_busy_next = 1'b0;
            assign off_starting = 1'b0;
            assign off_queue_next = {SEL_WIDTH{1'b0}};
            assign off_wptr = 32'd0;
            assign off_overflow = 1'b0;
            assign m_axi_awaddr = 64'd0;
            assign m_axi_awlen = 8'd0;
            assign m_axi_awsize = 3'd3;
            assign m_axi_awburst = 2'b01;
            assign m_axi_awvalid = 1'b0;
            assign m_axi_wdata = 64'd0;
            assign m_axi_wstrb = 8'd0;
            assign m_axi_wlast = 1'b0;
            assign m_axi_wvalid = 1'b0;
            assign m_axi_bready = 1'b0;
            wire unused_m_axi = &{1'b0, m_axi_awready, m_axi_wready, m_axi_bresp, m_axi_bvalid, highs, counts, off_base_reg,
                                  off_size_reg};
        end
    endgenerate

    // Unused address bits above the map and write-strobe bytes 1..3.
    wire unused_ok = &{1'b0, s_axi_awaddr, s_axi_araddr, s_axi_wstrb[3:1], s_axi_wdata[31:SEL_WIDTH]};

endmodule

`resetall
