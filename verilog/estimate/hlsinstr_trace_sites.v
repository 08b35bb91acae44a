// hlsinstr_trace_sites: the record path of SITES control-flow record sites into the one trace
// FIFO, written by hand in RTL only to measure what a record site costs
// (scripts/trace-resources.sh). Not what Vitis generates from hls-lib's vitis.h (no Vitis here):
// it does the same work. A site fires in the cycle its basic block runs (at most one site per
// cycle posts: the sites of one FIFO write port are scheduled in different cycles); its record
// is its constant id, and for a loop's exit the trip count of that loop, which LOOPS of the
// sites keep in a register incremented once per iteration (HLSINSTR_BR_ITER).
`resetall
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_trace_sites #(
    // Record sites (>= 1); ids 1..SITES.
    parameter integer SITES = 8,
    // Of them, loop exits with a trip counter (0..SITES): sites 1..LOOPS.
    parameter integer LOOPS = 0,
    // Site id width: enough for SITES.
    parameter integer ID_BITS = 4,
    // Trip count width (the trace record's value field).
    parameter integer VALUE_BITS = 32
) (
    input  wire                          clk,
    input  wire                          rst,
    input  wire [SITES-1:0]              fire,     // site i posts its record this cycle (one-hot or 0)
    input  wire [(LOOPS > 0 ? LOOPS : 1)-1:0] iter,  // loop i runs an iteration this cycle
    input  wire [(LOOPS > 0 ? LOOPS : 1)-1:0] enter, // loop i is entered: its counter restarts
    output reg                           rec_valid_reg,  // the trace FIFO's write
    output reg  [ID_BITS+VALUE_BITS-1:0] rec_data_reg
);

    initial begin
        if (SITES < 1) $error("SITES must be at least 1");
        if (LOOPS < 0 || LOOPS > SITES) $error("LOOPS must be from 0 to SITES");
        if ((1 << ID_BITS) <= SITES) $error("ID_BITS must hold ids up to SITES");
    end

    // Trip counters of the loop sites.
    reg [VALUE_BITS-1:0] trips_reg [0:(LOOPS > 0 ? LOOPS : 1)-1];
    integer l;
    always @(posedge clk) begin
        for (l = 0; l < LOOPS; l = l + 1) begin
            if (rst || enter[l]) trips_reg[l] <= {VALUE_BITS{1'b0}};
            else if (iter[l]) trips_reg[l] <= trips_reg[l] + 1'b1;
        end
    end

    // The FIFO's data: the firing site's id (an OR of constants: the one-hot fire selects it)
    // and, for a loop exit, its counter.
    reg [ID_BITS-1:0]    id;
    reg [VALUE_BITS-1:0] value;
    integer s;
    always @* begin
        id = {ID_BITS{1'b0}};
        value = {VALUE_BITS{1'b0}};
        for (s = 0; s < SITES; s = s + 1) begin
            if (fire[s]) id = id | s[ID_BITS-1:0] + 1'b1;
            if (s < LOOPS && fire[s]) value = value | trips_reg[s];
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            rec_valid_reg <= 1'b0;
            rec_data_reg  <= {(ID_BITS + VALUE_BITS){1'b0}};
        end else begin
            rec_valid_reg <= |fire;
            rec_data_reg  <= {value, id};
        end
    end

endmodule

`resetall
