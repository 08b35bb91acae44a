// hlsinstr_rtlprobe_offload: the DRAM offload of `hlsinstr rtl-probe`'s profiling IP. When a
// queue reaches its high-water mark (its last two entries, head included, hold an event), this
// engine empties it into DRAM through an AXI4 write master (64-bit beats, INCR bursts), so a
// queue that would have filled loses nothing while the memory keeps up.
//
// A drain writes the events the queue held when it began (`counts`), one per accepted W beat,
// each popped as it is written; the W channel pauses while an event is still falling to the
// queue's head. Events pushed meanwhile stay behind them. Each beat is one 64-bit record:
//   [63] 1 (a record; the host ignores words with it clear)
//   [62:48] the queue's index   [47:0] the timestamp (so TS_WIDTH must be at most 48)
// written at base + 8 * wptr, wptr counting records from 0. Bursts never cross a 4 KiB boundary
// (a drain is split) and stop at `size` records: a drain that does not fit is not started, the
// queue then fills and loses events as without offload, and `overflow_reg` says so. Queues
// compete lowest index first.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_rtlprobe_offload #(
    // Queues; 1 to 32767.
    parameter integer N = 1,
    // Depth of queue i in bits [8*i +: 8]; each 2 to 255.
    parameter [8*N-1:0] DEPTHS = {N{8'd4}},
    // Bits of a timestamp; 1 to 48.
    parameter integer TS_WIDTH = 48,
    // Derived (do not set): bits of a queue index.
    parameter integer QW = (N > 1) ? $clog2(N) : 1
) (
    input  wire                   clk,
    input  wire                   rst,        // synchronous, active high (also the host's clear)
    input  wire [63:0]            base,       // byte address of record 0 (8-byte aligned)
    input  wire [31:0]            size,       // records the region holds; 0: offload off
    input  wire [N-1:0]           high,       // queue i is at its high-water mark
    input  wire [TS_WIDTH*N-1:0]  heads,
    input  wire [N-1:0]           valids,
    input  wire [8*N-1:0]         counts,     // events queue i holds
    output wire [N-1:0]           pop,        // one-hot: pop queue i this cycle
    output wire                   busy,       // a drain is running (block host pops of it)
    output wire [QW-1:0]          queue,      // the queue being drained
    output reg  [31:0]            wptr_reg,   // records written
    output reg                    overflow_reg,
    // AXI4 write master (no reads).
    output reg  [63:0]            m_axi_awaddr,
    output reg  [7:0]             m_axi_awlen,
    output wire [2:0]             m_axi_awsize,
    output wire [1:0]             m_axi_awburst,
    output reg                    m_axi_awvalid,
    input  wire                   m_axi_awready,
    output wire [63:0]            m_axi_wdata,
    output wire [7:0]             m_axi_wstrb,
    output wire                   m_axi_wlast,
    output wire                   m_axi_wvalid,
    input  wire                   m_axi_wready,
    input  wire [1:0]             m_axi_bresp,
    input  wire                   m_axi_bvalid,
    output wire                   m_axi_bready
);

    initial begin
        if (N < 1 || N > 32767) $error("N must be 1 to 32767");
        if (TS_WIDTH < 1 || TS_WIDTH > 48) $error("TS_WIDTH must be 1 to 48 with the offload");
        if (QW != ((N > 1) ? $clog2(N) : 1)) $error("QW is derived: do not set it");
    end

    localparam [1:0] S_IDLE = 2'd0, S_ADDR = 2'd1, S_DATA = 2'd2, S_RESP = 2'd3;
    reg  [1:0]    state_reg;
    reg  [QW-1:0] queue_reg;
    reg  [8:0]    left_reg;   // pops still to do in this drain
    reg  [8:0]    beats_reg;  // beats still to send in this burst

    // The lowest queue at its high-water mark, and its depth.
    reg  [QW-1:0] pick;
    reg           any;
    integer i;
    always @(*) begin
        pick = {QW{1'b0}};
        any  = 1'b0;
        for (i = N - 1; i >= 0; i = i - 1) begin
            if (high[i]) begin
                pick = i[QW-1:0];
                any  = 1'b1;
            end
        end
    end
    // Per-queue selections are trees of 4-to-1 stages (hlsinstr_rtlprobe_mux): an indexed
    // part-select here synthesized as a shifter, about 70 LUT per queue more at N = 32.
    genvar g;
    wire [7:0] count_pick;
    hlsinstr_rtlprobe_mux #(.N(N), .W(8), .SEL_WIDTH(QW)) u_count (.in(counts), .sel(pick), .out(count_pick));
    wire [8:0]  depth_pick = {1'b0, count_pick};
    wire [31:0] room = size - wptr_reg;
    // Records to the next 4 KiB boundary from record wptr: 512 at most.
    wire [63:0] next_addr = base + {29'd0, wptr_reg, 3'b000};
    wire [9:0]  to_boundary = 10'd512 - {1'b0, next_addr[11:3]};
    wire [8:0]  left_now = (state_reg == S_IDLE) ? depth_pick : left_reg;
    wire [8:0]  burst = ({1'b0, left_now} <= to_boundary) ? left_now : to_boundary[8:0];

    assign busy          = state_reg != S_IDLE;
    assign queue         = queue_reg;
    assign m_axi_awsize  = 3'd3; // 8 bytes a beat
    assign m_axi_awburst = 2'b01; // INCR
    assign m_axi_wstrb   = 8'hFF;
    assign m_axi_bready  = state_reg == S_RESP;
    assign m_axi_wlast   = beats_reg == 9'd1;
    // Word i: queue i's head and its valid bit.
    wire [(TS_WIDTH+1)*N-1:0] head_words;
    generate
        for (g = 0; g < N; g = g + 1) begin : hw
            assign head_words[(TS_WIDTH+1)*g +: TS_WIDTH+1] = {valids[g], heads[TS_WIDTH*g +: TS_WIDTH]};
        end
    endgenerate
    wire [TS_WIDTH:0] head_word;
    hlsinstr_rtlprobe_mux #(.N(N), .W(TS_WIDTH + 1), .SEL_WIDTH(QW)) u_head (
        .in(head_words), .sel(queue_reg), .out(head_word)
    );
    wire [TS_WIDTH-1:0] head = head_word[TS_WIDTH-1:0];
    wire [47:0] head48;
    generate
        if (TS_WIDTH < 48) begin : pad
            assign head48 = {{(48-TS_WIDTH){1'b0}}, head};
        end else begin : full
            assign head48 = head;
        end
    endgenerate
    wire [14:0] queue15 = {{(15-QW){1'b0}}, queue_reg};
    assign m_axi_wdata = {1'b1, queue15, head48};
    wire head_valid = head_word[TS_WIDTH];
    wire beat = m_axi_wvalid && head_valid && m_axi_wready;
    generate
        for (g = 0; g < N; g = g + 1) begin : p
            assign pop[g] = beat && queue_reg == g;
        end
    endgenerate

    always @(posedge clk) begin
        if (rst) begin
            state_reg     <= S_IDLE;
            queue_reg     <= {QW{1'b0}};
            left_reg      <= 9'd0;
            beats_reg     <= 9'd0;
            wptr_reg      <= 32'd0;
            overflow_reg  <= 1'b0;
            m_axi_awvalid <= 1'b0;
            wvalid_reg    <= 1'b0;
            m_axi_awaddr  <= 64'd0;
            m_axi_awlen   <= 8'd0;
        end else begin
            case (state_reg)
                S_IDLE: if (any && size != 32'd0) begin
                    if ({23'd0, depth_pick} <= room) begin
                        queue_reg     <= pick;
                        left_reg      <= depth_pick;
                        beats_reg     <= burst;
                        m_axi_awaddr  <= next_addr;
                        m_axi_awlen   <= burst[7:0] - 8'd1;
                        m_axi_awvalid <= 1'b1;
                        state_reg     <= S_ADDR;
                    end else begin
                        overflow_reg <= 1'b1;
                    end
                end
                S_ADDR: if (m_axi_awready) begin
                    m_axi_awvalid <= 1'b0;
                    wvalid_reg    <= 1'b1;
                    state_reg     <= S_DATA;
                end
                S_DATA: if (beat) begin
                    wptr_reg  <= wptr_reg + 32'd1;
                    left_reg  <= left_reg - 9'd1;
                    beats_reg <= beats_reg - 9'd1;
                    if (beats_reg == 9'd1) begin
                        wvalid_reg <= 1'b0;
                        state_reg    <= S_RESP;
                    end
                end
                default: if (m_axi_bvalid) begin // S_RESP
                    if (left_reg == 9'd0) begin
                        state_reg <= S_IDLE;
                    end else begin
                        // The rest of the drain, from the 4 KiB boundary on.
                        beats_reg     <= burst;
                        m_axi_awaddr  <= next_addr;
                        m_axi_awlen   <= burst[7:0] - 8'd1;
                        m_axi_awvalid <= 1'b1;
                        state_reg     <= S_ADDR;
                    end
                end
            endcase
        end
    end

    reg wvalid_reg; // in a burst; a beat is offered while the queue's head holds an event
    assign m_axi_wvalid = wvalid_reg && head_valid;
    wire unused_ok = &{1'b0, m_axi_bresp, next_addr[63:12], next_addr[2:0], DEPTHS};

endmodule

`resetall
