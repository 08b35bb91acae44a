// hlsinstr_rtlprobe_offload: the DRAM offload of `hlsinstr rtl-probe`'s profiling IP. When a
// queue reaches its high-water mark (half its depth holds events), this engine empties it into
// DRAM through an AXI4 write master (64-bit beats, INCR bursts), so a queue that would have
// filled loses nothing while the memory keeps up.
//
// A drain writes the events the queue held when it began (`counts`; only this engine pops them
// meanwhile), one per accepted W beat, each popped as it is written; the W channel pauses while
// an event is still falling to the queue's head. Events pushed meanwhile stay behind them. (A
// drain of a fixed half of the queue, which would save the count selection, lost events in
// tests/hw/rtlprobe-mini at depth 4: it drains too slowly.)
//
// The drained queue's head comes in through the IP's readout multiplexer: while `busy` the IP
// selects `queue` there and holds the host's reads of the queues off (the host reads them after
// the drains), so one N-way selection serves both. `starting`, `busy_next` and `queue_next` let
// the IP register that selection. Each beat is one 64-bit record:
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
    input  wire [8*N-1:0]         counts,     // events queue i holds
    input  wire [TS_WIDTH-1:0]    head,       // the head of queue `queue` while busy
    input  wire                   head_valid,
    output wire                   pop,        // pop the head of queue `queue`
    output wire                   busy,       // a drain is running: `queue` owns the readout mux
    output wire [QW-1:0]          queue,      // the queue being drained
    output wire                   starting,   // a drain begins this cycle (busy from the next)
    output wire                   busy_next,  // `busy` and `queue` in the next cycle
    output wire [QW-1:0]          queue_next,
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
    // The events the picked queue holds: a tree of 4-to-1 stages (hlsinstr_rtlprobe_mux; an
    // indexed part-select synthesized as a shifter) over the bits its deepest queue needs.
    function integer deepest(input [8*N-1:0] d);
        integer k;
        begin
            deepest = 0;
            for (k = 0; k < N; k = k + 1) if ({24'd0, d[8*k +: 8]} > deepest) deepest = {24'd0, d[8*k +: 8]};
        end
    endfunction
    localparam integer CW = $clog2(deepest(DEPTHS) + 1);
    wire [CW*N-1:0] counts_cw;
    genvar g;
    generate
        for (g = 0; g < N; g = g + 1) begin : c
            assign counts_cw[CW*g +: CW] = counts[8*g +: CW];
            if (CW < 8) begin : hi
                wire unused_hi = &{1'b0, counts[8*g+CW +: 8-CW]};
            end
        end
    endgenerate
    wire [CW-1:0] count_pick;
    hlsinstr_rtlprobe_mux #(.N(N), .W(CW), .SEL_WIDTH(QW)) u_count (.in(counts_cw), .sel(pick), .out(count_pick));
    wire [8:0] count_pick9 = {{(9-CW){1'b0}}, count_pick};
    wire [31:0] room = size - wptr_reg;
    // Records to the next 4 KiB boundary from record wptr: 512 at most.
    wire [63:0] next_addr = base + {29'd0, wptr_reg, 3'b000};
    wire [9:0]  to_boundary = 10'd512 - {1'b0, next_addr[11:3]};
    wire [8:0]  left_now = (state_reg == S_IDLE) ? count_pick9 : left_reg;
    wire [8:0]  burst = ({1'b0, left_now} <= to_boundary) ? left_now : to_boundary[8:0];

    assign busy          = state_reg != S_IDLE;
    wire fits  = {23'd0, count_pick9} <= room;
    wire begin_drain = state_reg == S_IDLE && any && size != 32'd0 && fits;
    wire end_drain   = state_reg == S_RESP && m_axi_bvalid && left_reg == 9'd0;
    assign busy_next  = !rst && (begin_drain || (busy && !end_drain));
    assign queue_next = begin_drain ? pick : queue_reg;
    assign starting   = begin_drain;
    assign queue         = queue_reg;
    assign m_axi_awsize  = 3'd3; // 8 bytes a beat
    assign m_axi_awburst = 2'b01; // INCR
    assign m_axi_wstrb   = 8'hFF;
    assign m_axi_bready  = state_reg == S_RESP;
    assign m_axi_wlast   = beats_reg == 9'd1;
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
    wire beat = m_axi_wvalid && m_axi_wready;
    assign pop = beat;

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
                    if (fits) begin
                        queue_reg     <= pick;
                        left_reg      <= count_pick9;
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
    wire unused_ok = &{1'b0, m_axi_bresp, next_addr[63:12], next_addr[2:0]};

endmodule

`resetall
