// hlsinstr_trace_buffer: the in-FPGA trace buffer (hls-lib/include/hlsinstr/hw/trace.h) written
// by hand in RTL, to measure its cost (scripts/trace-resources.sh) and to check the flush logic
// against an AXI memory with back-pressure (hlsinstr_trace_buffer_tb.v). Not what Vitis
// generates from trace.h (no Vitis here); it does the same work:
//
// * reads the trace FIFO (first-word-fall-through: in_valid is "not empty", in_ready the read)
//   whenever the BRAM ring of DEPTH records has room, and stores the record packed, with the
//   cycles since the previous record (DELTA_BITS, saturating; 0: no timestamps);
// * when half the ring holds records, or at the end what is left, writes them as one AXI4 burst
//   to the DRAM ring of REGION records after the header, split where the ring ends (wrap) and at
//   4 KiB boundaries; the BRAM is read for the burst while the FIFO keeps filling the other half;
// * linear mode (WRAP = 0) drops what does not fit once the ring is full, counting it as lost;
// * at the end (done seen, FIFO empty, ring drained, every response in) writes the 10-word
//   header in one burst: magic, version, key, region, next index, flags, seen, lost, cycles,
//   layout — the words of TraceBuffer::finish.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_trace_buffer #(
    // BRAM records: even, >= 4, a power of two (the ring indices wrap by overflow).
    parameter integer DEPTH = 512,
    // Record fields: site id + value (trip count) as the FIFO carries them; cycle delta.
    parameter integer REC_BITS = 40,
    parameter integer DELTA_BITS = 0,
    // DRAM ring records (1 .. 2^31).
    parameter integer REGION = 65536,
    // 1: keep the newest records (wrap); 0: keep the first ones (linear).
    parameter integer WRAP = 1,
    // The build's trace key (header word 2) and layout word (header word 9).
    parameter [63:0] KEY = 64'h0,
    parameter [63:0] LAYOUT = 64'h0
) (
    input  wire                 clk,
    input  wire                 rst,
    // The trace FIFO.
    input  wire                 in_valid,
    input  wire [REC_BITS-1:0]  in_data,
    input  wire [63:0]          in_time,
    output wire                 in_ready,
    input  wire                 done,       // the run-done token has been read
    output reg                  finished_reg,
    // AXI4 write master (64-bit data) onto the trace buffer at base_addr.
    input  wire [63:0]          base_addr,
    output reg                  awvalid_reg,
    input  wire                 awready,
    output reg  [63:0]          awaddr_reg,
    output reg  [7:0]           awlen_reg,
    output wire                 wvalid,
    input  wire                 wready,
    output wire [63:0]          wdata,
    output wire                 wlast,
    input  wire                 bvalid,
    output wire                 bready
);

    localparam integer W = REC_BITS + (DELTA_BITS > 0 ? DELTA_BITS : 0);
    localparam integer IDX = $clog2(DEPTH);
    localparam integer HALF = DEPTH / 2;
    localparam integer HDR = 10;
    localparam [3:0] HDR_LAST = 4'd9;
    localparam [63:0] MAGIC = 64'h3143525449534c48;

    initial begin
        if (DEPTH < 4 || (DEPTH & (DEPTH - 1)) != 0) $error("DEPTH must be a power of two, at least 4");
        if (HALF > 256) $error("DEPTH/2 must be at most 256 (one AXI4 burst)");
        if (REGION < 1) $error("REGION must be at least 1");
        if (W > 64) $error("a record must fit a 64-bit word");
        if (WRAP != 0 && WRAP != 1) $error("WRAP must be 0 or 1");
    end

    // --- The BRAM ring: written from the FIFO, read for the bursts (simple dual port).
    (* ram_style = "block" *) reg [W-1:0] mem [0:DEPTH-1];
    reg [IDX-1:0] fill_reg, rd_reg;
    reg [IDX:0]   stored_reg;   // records in the ring (not yet read for a burst or dropped)
    reg [W-1:0]   rdata_reg;
    reg [63:0]    last_time_reg, seen_reg, lost_reg, cycles_reg;
    reg           done_reg;

    wire take = in_valid && in_ready;
    assign in_ready = stored_reg != DEPTH[IDX:0] && !finished_reg;
    wire [W-1:0] packed_rec;
    generate
        if (DELTA_BITS > 0) begin : g_delta
            wire [63:0] delta_full = in_time - last_time_reg;
            wire [DELTA_BITS-1:0] top = {DELTA_BITS{1'b1}};
            wire [DELTA_BITS-1:0] delta = delta_full > {{(64 - DELTA_BITS){1'b0}}, top} ? top : delta_full[DELTA_BITS-1:0];
            assign packed_rec = {delta, in_data};
        end else begin : g_plain
            wire unused_time = ^{in_time, last_time_reg};
            assign packed_rec = in_data;
        end
    endgenerate

    // --- The flush engine: an address issuer and a beat streamer, decoupled by a queue of two
    // burst lengths, so the next burst's address goes out while this one's beats stream and the
    // W channel can carry a beat every cycle; responses are counted, not waited for.
    localparam [1:0] H_IDLE = 2'd0, H_AW = 2'd1, H_W = 2'd2, H_B = 2'd3;
    reg [IDX:0]  avail_reg;     // stored records not yet in an issued burst
    reg [31:0]   next_reg;      // DRAM ring index of the next burst
    reg          wrapped_reg;
    reg [IDX+1:0] to_read_reg;  // records of issued bursts still to read from the BRAM
    reg [8:0]    lenq_reg [0:1];
    reg [1:0]    lenq_n_reg;
    reg [8:0]    beats_reg;     // beats left in the burst being sent (0: none started)
    reg [3:0]    bursts_out_reg; // bursts whose response has not come back
    reg          pending_reg;   // a BRAM read was issued last cycle
    reg [63:0]   ob_reg [0:1];  // the beats read ahead (2-entry skid)
    reg [1:0]    ob_count_reg;
    reg [1:0]    hstate_reg;    // the header burst
    reg [3:0]    hdr_reg;

    wire [IDX:0] burst_want = avail_reg >= HALF[IDX:0] ? HALF[IDX:0] : avail_reg;
    wire linear_full = WRAP == 0 && next_reg == REGION[31:0];
    wire [31:0] at = (next_reg == REGION[31:0] && WRAP == 1) ? 32'd0 : next_reg;
    wire [31:0] to_end = REGION[31:0] - at;
    wire [31:0] word_at = at + HDR;  // the burst's first word (the base is 4 KiB aligned)
    wire [31:0] to_4k = 32'd512 - {23'd0, word_at[8:0]};
    wire [31:0] want32 = {{(31 - IDX){1'b0}}, burst_want};
    wire [31:0] len_a = want32 < to_end ? want32 : to_end;
    wire [31:0] len_b = len_a < to_4k ? len_a : to_4k;
    wire ending = done_reg && !in_valid;
    wire aw_start = hstate_reg == H_IDLE && !linear_full && burst_want != 0 && lenq_n_reg != 2'd2
                    && (avail_reg >= HALF[IDX:0] || ending) && (!awvalid_reg || awready);
    wire drop = linear_full && avail_reg != 0 && to_read_reg == 0 && !pending_reg;

    // Beats: read ahead from the BRAM into the skid, sent against the queued burst lengths.
    wire in_w = hstate_reg == H_IDLE && (beats_reg != 0 || lenq_n_reg != 0);
    wire pop = in_w && ob_count_reg != 0 && wready;
    wire issue = to_read_reg != 0
                 && ({1'b0, ob_count_reg} + {2'b0, pending_reg} < 3'd2
                     || (pop && {1'b0, ob_count_reg} + {2'b0, pending_reg} < 3'd3));
    wire consume = issue || drop;
    wire [8:0] beats_now = beats_reg != 0 ? beats_reg : lenq_reg[0];
    wire last_beat = pop && beats_now == 9'd1;
    wire hdr_start = hstate_reg == H_IDLE && ending && stored_reg == 0 && to_read_reg == 0 && !pending_reg
                     && ob_count_reg == 0 && beats_reg == 0 && lenq_n_reg == 0 && bursts_out_reg == 0
                     && !awvalid_reg && !finished_reg;

    reg [63:0] hdr_word;
    always @* begin
        case (hdr_reg)
            4'd0: hdr_word = MAGIC;
            4'd1: hdr_word = 64'd1;
            4'd2: hdr_word = KEY;
            4'd3: hdr_word = {32'd0, REGION[31:0]};
            4'd4: hdr_word = {32'd0, next_reg};
            4'd5: hdr_word = {61'd0, lost_reg != 0, wrapped_reg, 1'b1};
            4'd6: hdr_word = seen_reg;
            4'd7: hdr_word = lost_reg;
            4'd8: hdr_word = cycles_reg;
            default: hdr_word = LAYOUT;
        endcase
    end

    assign wvalid = (in_w && ob_count_reg != 0) || hstate_reg == H_W;
    assign wdata = hstate_reg == H_W ? hdr_word : ob_reg[0];
    assign wlast = hstate_reg == H_W ? hdr_reg == HDR_LAST : beats_now == 9'd1;
    assign bready = 1'b1;

    always @(posedge clk) begin
        if (take) mem[fill_reg] <= packed_rec;
        if (issue) rdata_reg <= mem[rd_reg];
    end

    always @(posedge clk) begin
        if (rst) begin
            fill_reg <= 0;
            rd_reg <= 0;
            stored_reg <= 0;
            avail_reg <= 0;
            last_time_reg <= 64'd0;
            seen_reg <= 64'd0;
            lost_reg <= 64'd0;
            cycles_reg <= 64'd0;
            done_reg <= 1'b0;
            finished_reg <= 1'b0;
            next_reg <= 32'd0;
            wrapped_reg <= 1'b0;
            to_read_reg <= 0;
            lenq_n_reg <= 2'd0;
            beats_reg <= 9'd0;
            bursts_out_reg <= 4'd0;
            pending_reg <= 1'b0;
            ob_count_reg <= 2'd0;
            hstate_reg <= H_IDLE;
            hdr_reg <= 4'd0;
            awvalid_reg <= 1'b0;
            awaddr_reg <= 64'd0;
            awlen_reg <= 8'd0;
        end else begin
            if (!finished_reg) cycles_reg <= cycles_reg + 64'd1;
            if (done) done_reg <= 1'b1;
            if (take) begin
                fill_reg <= fill_reg + 1'b1;
                seen_reg <= seen_reg + 64'd1;
                last_time_reg <= in_time;
            end
            if (consume) rd_reg <= rd_reg + 1'b1;
            stored_reg <= stored_reg + {{IDX{1'b0}}, take} - {{IDX{1'b0}}, consume};
            avail_reg <= avail_reg + {{IDX{1'b0}}, take} - (aw_start ? len_b[IDX:0] : {(IDX + 1){1'b0}})
                         - {{IDX{1'b0}}, drop};
            if (drop) lost_reg <= lost_reg + 64'd1;
            to_read_reg <= to_read_reg + (aw_start ? {1'b0, len_b[IDX:0]} : {(IDX + 2){1'b0}})
                           - {{(IDX + 1){1'b0}}, issue};
            // Addresses.
            if (awvalid_reg && awready) awvalid_reg <= 1'b0;
            if (aw_start) begin
                if (next_reg == REGION[31:0]) wrapped_reg <= 1'b1;
                next_reg <= at + len_b;
                awaddr_reg <= base_addr + {29'd0, word_at, 3'd0};
                awlen_reg <= len_b[7:0] - 8'd1;
                awvalid_reg <= 1'b1;
            end
            // The queue of burst lengths: pushed with the address, popped at a burst's first beat.
            if (aw_start && pop && beats_reg == 0) begin
                lenq_reg[0] <= lenq_n_reg == 2'd2 ? lenq_reg[1] : len_b[8:0];
            end else if (aw_start) begin
                lenq_reg[lenq_n_reg[0]] <= len_b[8:0];
                lenq_n_reg <= lenq_n_reg + 2'd1;
            end else if (pop && beats_reg == 0) begin
                lenq_reg[0] <= lenq_reg[1];
                lenq_n_reg <= lenq_n_reg - 2'd1;
            end
            if (pop) beats_reg <= beats_now - 9'd1;
            if (last_beat && !(bvalid && hstate_reg == H_IDLE)) bursts_out_reg <= bursts_out_reg + 4'd1;
            else if (!last_beat && bvalid && hstate_reg == H_IDLE) bursts_out_reg <= bursts_out_reg - 4'd1;
            // The skid: land last cycle's read, send the oldest beat.
            pending_reg <= issue;
            if (pending_reg && pop) begin
                if (ob_count_reg == 2'd2) begin
                    ob_reg[0] <= ob_reg[1];
                    ob_reg[1] <= {{(64 - W){1'b0}}, rdata_reg};
                end else begin
                    ob_reg[0] <= {{(64 - W){1'b0}}, rdata_reg};
                end
            end else if (pending_reg) begin
                ob_reg[ob_count_reg[0]] <= {{(64 - W){1'b0}}, rdata_reg};
                ob_count_reg <= ob_count_reg + 2'd1;
            end else if (pop) begin
                ob_reg[0] <= ob_reg[1];
                ob_count_reg <= ob_count_reg - 2'd1;
            end
            // The header, after everything else is in.
            case (hstate_reg)
                H_IDLE: if (hdr_start) begin
                    awaddr_reg <= base_addr;
                    awlen_reg <= {4'd0, HDR_LAST};
                    awvalid_reg <= 1'b1;
                    hdr_reg <= 4'd0;
                    hstate_reg <= H_AW;
                end
                H_AW: if (awready) hstate_reg <= H_W;
                H_W: if (wready) begin
                    hdr_reg <= hdr_reg + 4'd1;
                    if (hdr_reg == HDR_LAST) hstate_reg <= H_B;
                end
                default: if (bvalid) begin  // H_B
                    finished_reg <= 1'b1;
                    hstate_reg <= H_IDLE;
                end
            endcase
        end
    end

endmodule

`resetall
