// hlsinstr_watch_sites: the record path of SITES in-FPGA watch sites into the one trace FIFO,
// written by hand in RTL only to measure what a watch site costs (scripts/trace-resources.sh).
// Not what Vitis generates from hls-lib's hw/watch.h (no Vitis here): it does the same work.
// Every site is a value site (the costlier kind): in the cycle of its access it adds its
// pointer's constant offset to the subscript (k), checks k against the bounds [0, N) and posts
// an out-of-bounds record, else keeps k and whether it is in the watched range [A, B); when its
// statement ends (POST) it compares the element's value with [VMIN, VMAX] and posts an
// invariant or hit record, then the value record in the next cycle. Site s has offset s and id
// s + 1; the value records' id is SITES + 1. At most one site posts per cycle.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_watch_sites #(
    // Watch sites (>= 1).
    parameter integer SITES = 1,
    // Record id width: enough for SITES + 1.
    parameter integer ID_BITS = 2,
    // Width of a site's subscript and of the element (both signed).
    parameter integer INDEX_BITS = 32,
    parameter integer VALUE_BITS = 32,
    // The watch, constants of the build: bounds [0, N), watched [A, B), allowed [VMIN, VMAX].
    parameter integer N = 1024,
    parameter integer A = 16,
    parameter integer B = 32,
    parameter integer VMIN = 0,
    parameter integer VMAX = 1000,
    // Plain hits are recorded.
    parameter integer HITS = 1
) (
    input  wire                          clk,
    input  wire                          rst,
    input  wire [SITES-1:0]              access,   // site s accesses its element this cycle
    input  wire [SITES-1:0]              post,     // site s's statement ended: its value is on val
    input  wire [SITES*INDEX_BITS-1:0]   idx,
    input  wire [SITES*VALUE_BITS-1:0]   val,
    output reg                           rec_valid_reg,  // the trace FIFO's write
    output reg  [ID_BITS+VALUE_BITS-1:0] rec_data_reg
);

    initial begin
        if (SITES < 1) $error("SITES must be at least 1");
        if ((1 << ID_BITS) <= SITES + 1) $error("ID_BITS must hold ids up to SITES + 1");
        if (VALUE_BITS < 3) $error("VALUE_BITS must hold the kind and an element");
    end

    localparam [1:0] HIT = 2'd1, OOB = 2'd2, INVARIANT = 2'd3;

    reg [SITES-1:0]            fire;
    reg [SITES*2-1:0]          kind;
    reg [SITES*VALUE_BITS-1:0] elem;
    reg [SITES-1:0]            with_value;
    reg [VALUE_BITS-1:0]       kept_reg [0:SITES-1];
    reg [SITES-1:0]            watched_reg;

    integer s;
    always @* begin
        for (s = 0; s < SITES; s = s + 1) begin : check
            reg signed [VALUE_BITS-1:0] k;
            reg signed [VALUE_BITS-1:0] v;
            reg                         bad;
            k = $signed(idx[s*INDEX_BITS +: INDEX_BITS]) + s;
            v = $signed(val[s*VALUE_BITS +: VALUE_BITS]);
            bad = v < VMIN || v > VMAX;
            fire[s] = 1'b0;
            kind[s*2 +: 2] = 2'd0;
            elem[s*VALUE_BITS +: VALUE_BITS] = k;
            with_value[s] = 1'b0;
            if (access[s] && (k < 0 || k >= N)) begin
                fire[s] = 1'b1;
                kind[s*2 +: 2] = OOB;
            end else if (post[s] && watched_reg[s] && (bad || HITS != 0)) begin
                fire[s] = 1'b1;
                kind[s*2 +: 2] = bad ? INVARIANT : HIT;
                elem[s*VALUE_BITS +: VALUE_BITS] = kept_reg[s];
                with_value[s] = 1'b1;
            end
        end
    end

    always @(posedge clk) begin
        for (s = 0; s < SITES; s = s + 1) begin
            if (rst) begin
                watched_reg[s] <= 1'b0;
                kept_reg[s] <= {VALUE_BITS{1'b0}};
            end else if (access[s]) begin
                kept_reg[s] <= elem[s*VALUE_BITS +: VALUE_BITS];
                watched_reg[s] <= $signed(elem[s*VALUE_BITS +: VALUE_BITS]) >= A
                               && $signed(elem[s*VALUE_BITS +: VALUE_BITS]) < B
                               && !fire[s];
            end else if (post[s]) begin
                watched_reg[s] <= 1'b0;
            end
        end
    end

    // The FIFO's data: the firing site's record (an OR: one site fires at a time), then the
    // value record of an event that has one.
    reg [ID_BITS-1:0]    id;
    reg [VALUE_BITS-1:0] word;
    reg [VALUE_BITS-1:0] value;
    reg                  has_value;
    always @* begin
        id = {ID_BITS{1'b0}};
        word = {VALUE_BITS{1'b0}};
        value = {VALUE_BITS{1'b0}};
        has_value = 1'b0;
        for (s = 0; s < SITES; s = s + 1) begin
            if (fire[s]) begin
                id = id | s[ID_BITS-1:0] + 1'b1;
                word = word | {elem[s*VALUE_BITS +: VALUE_BITS - 2], kind[s*2 +: 2]};
                value = value | val[s*VALUE_BITS +: VALUE_BITS];
                has_value = has_value | with_value[s];
            end
        end
    end

    reg                  pending_reg;
    reg [VALUE_BITS-1:0] pending_value_reg;
    localparam integer VALUE_ID_INT = SITES + 1;
    localparam [ID_BITS-1:0] VALUE_ID = VALUE_ID_INT[ID_BITS-1:0];
    always @(posedge clk) begin
        if (rst) begin
            rec_valid_reg <= 1'b0;
            rec_data_reg <= {(ID_BITS + VALUE_BITS){1'b0}};
            pending_reg <= 1'b0;
            pending_value_reg <= {VALUE_BITS{1'b0}};
        end else begin
            rec_valid_reg <= |fire || pending_reg;
            rec_data_reg <= |fire ? {word, id} : {pending_value_reg, VALUE_ID};
            pending_reg <= has_value;
            pending_value_reg <= value;
        end
    end

endmodule

`resetall
