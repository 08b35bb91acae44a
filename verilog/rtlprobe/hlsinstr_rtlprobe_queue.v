// hlsinstr_rtlprobe_queue: one probed instance of `hlsinstr rtl-probe`. It watches the
// instance's block-level handshake and keeps the cycle (the global counter `now`) of each start
// and each end in a queue of DEPTH registers, oldest out first.
//
// A call starts in the cycle ap_start is high while no call is open, and ends in the first cycle
// ap_done is high while one is (ap_ctrl_chain holds ap_done until ap_continue, which the host may
// give much later: the end is when the work is done). So the queue alternates start, end,
// start, ... and `calls_reg` counts starts even after the queue is full. While a done is held
// (ap_continue was low in the end's cycle and has not been high since) the instance cannot
// start (Vitis: `ap_done_reg` blocks state 1), so ap_start then is no start: a dataflow process
// sees its next ap_start while it waits for ap_continue. Tie ap_continue high without one.
//
// Cost: the queue is a shift register (every entry loads its neighbour: no multiplexer per bit,
// a clock enable per entry), read at its far end; the host empties it by popping DEPTH times. When full it keeps the
// first DEPTH events and sets `lost_reg`; `high` (half full) is what
// starts the DRAM offload (hlsinstr_rtlprobe_offload), which drains it before that happens.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_rtlprobe_queue #(
    // Entries (timestamps) kept; at least 2 (one start and its end). The generator's default
    // is twice the expected events of one top call, as the RealProbe paper does.
    parameter integer DEPTH = 4,
    // Width of the timestamps: that of the global counter.
    parameter integer TS_WIDTH = 64,
    // Width of the call counter, which wraps; 0: no counter (calls_reg stays 0; a full queue then
    // only says that calls were lost). The counter is about 20 of the queue's LUTs.
    parameter integer CALLS_WIDTH = 16,
    // Derived (do not set): the port width of calls_reg, at least 1.
    parameter integer CW = (CALLS_WIDTH > 0) ? CALLS_WIDTH : 1
) (
    input  wire                   clk,
    input  wire                   rst,          // synchronous, active high (also the host's clear)
    input  wire [TS_WIDTH-1:0]    now,
    input  wire                   ap_start,
    input  wire                   ap_done,
    input  wire                   ap_continue,
    input  wire                   pop,          // drop the oldest entry (host readout)
    output wire [TS_WIDTH-1:0]    head,         // the oldest entry when head_valid
    output wire                   head_valid,
    output wire                   full,
    output wire                   high,         // high-water mark: at least DEPTH/2 events
    output reg  [7:0]             count,        // events held (for the offload's burst length)
    output reg                    lost_reg,     // an event came while full
    output reg  [CW-1:0]          calls_reg,
    output reg                    open_reg      // a call is running
);

    initial begin
        if (DEPTH < 2) $error("DEPTH must be at least 2");
        if (TS_WIDTH < 1) $error("TS_WIDTH must be at least 1");
        if (CALLS_WIDTH < 0) $error("CALLS_WIDTH must be 0 or more");
    end

    // Registers, not SRLs: an SRL is a LUT, and the budget is LUTs (Vivado and yosys honour this).
    (* shreg_extract = "no" *) reg [TS_WIDTH*DEPTH-1:0] ts_reg; // entry k in [TS_WIDTH*k +: TS_WIDTH]
    reg [DEPTH-1:0]    valid_reg;

    reg held_reg; // a done is held: no start until ap_continue has been high
    wire start_ev = ap_start && !open_reg && !held_reg;
    wire end_ev   = open_reg && ap_done;
    wire event_ev = start_ev || end_ev;
    // Events fall towards the head: entry k takes entry k-1 (entry 0 takes `now`) whenever it is
    // empty or its own event moves on, so empty entries never stay between events and the queue
    // holds DEPTH events whatever order pushes and pops came in. A pop frees the head in the
    // same cycle, so a drain under load (the DRAM offload) takes a push in every cycle it pops.
    // Entry k moves when the head pops or some entry from k to the head is empty.
    wire [DEPTH-1:0] move;
    genvar k;
    generate
        for (k = 0; k < DEPTH; k = k + 1) begin : chain
            assign move[k] = pop || !(&valid_reg[DEPTH-1:k]);
        end
    endgenerate
    wire push = event_ev && move[0];

    assign head       = ts_reg[TS_WIDTH*(DEPTH-1) +: TS_WIDTH];
    assign head_valid = valid_reg[DEPTH-1];
    assign full       = &valid_reg;
    // Half full: the other half absorbs the events that come while the offload gets the bus.
    integer c;
    always @(*) begin
        count = 8'd0;
        for (c = 0; c < DEPTH; c = c + 1) count = count + {7'd0, valid_reg[c]};
    end
    localparam integer HALF = DEPTH / 2;
    assign high = {24'd0, count} >= HALF;

    generate
        for (k = 0; k < DEPTH; k = k + 1) begin : entry
            always @(posedge clk) begin
                if (move[k]) ts_reg[TS_WIDTH*k +: TS_WIDTH] <= (k == 0) ? now : ts_reg[TS_WIDTH*(k-1) +: TS_WIDTH];
            end
            always @(posedge clk) begin
                if (rst)          valid_reg[k] <= 1'b0;
                else if (move[k]) valid_reg[k] <= (k == 0) ? push : valid_reg[k-1];
            end
        end
    endgenerate

    always @(posedge clk) begin
        if (rst) begin
            lost_reg  <= 1'b0;
            calls_reg <= {CW{1'b0}};
            open_reg  <= 1'b0;
            held_reg  <= 1'b0;
        end else begin
            if (end_ev && !ap_continue) held_reg <= 1'b1;
            else if (ap_continue)       held_reg <= 1'b0;
            if (event_ev && !push) lost_reg <= 1'b1;
            if (start_ev && CALLS_WIDTH > 0) calls_reg <= calls_reg + {{(CW-1){1'b0}}, 1'b1};
            if (start_ev) open_reg <= 1'b1;
            else if (end_ev) open_reg <= 1'b0;
        end
    end

endmodule

`resetall
